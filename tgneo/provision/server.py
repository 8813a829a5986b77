"""Provision, start, stop and inspect a local Neo4j Community server built from Maven Central jars.

Why this shape: the Neo4j 5.x server tarball is not published to Maven Central, but every jar of its
``lib/`` is. ``pom.xml`` (beside this module) resolves them once into a shared, versioned cache
directory; each *instance* (``default`` for users, ``test`` for the test suite, …) has its own
``conf/``, ``data/``, ``logs/`` and ``run/`` and points ``server.directories.lib`` at the shared jars.
Neo4j's own bootloader (``org.neo4j.server.startup.Neo4jCommand start``) validates ``neo4j.conf``,
forks the server JVM with the configured flags and writes the pid file, exactly as ``bin/neo4j`` does.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from tgneo.config import default_home
from tgneo.errors import ConfigError, ProvisioningError
from tgneo.provision.maven import (
    _POM,
    NEO4J_BROWSER_VERSION,
    NEO4J_VERSION,
    copy_maven_dependencies,
    find_java,
    plugin_jars,
)
from tgneo.provision.plugins import conf_settings, describe, parse_plugins

JVM_FLAGS: tuple[str, ...] = (
    # The flags Neo4j 5.26's shipped neo4j.conf passes to the server JVM, for OpenJDK 17, and one of tgneo's (last).
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-XX:FlightRecorderOptions=stackdepth=256",
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:+DebugNonSafepoints",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j.layout.jsonTemplate.maxStringLength=32768",
    # tgneo's own: a local server mostly lives minutes (a demo, a session of questions, a test run), and a new JVM
    # spent 40% of its CPU in the C2 compiler on 95 tests' work (61 of 151 CPU-seconds). Methods must be ten times
    # hotter before they are compiled: 121 CPU-seconds for the same work in the same time (scale 4: 129; 25: 133
    # and 19% slower); what stays hot is compiled as before.
    "-XX:CompileThresholdScaling=10",
)

BROWSER_CONTENT_HOSTS = "guides.neo4j.com,localhost,127.0.0.1"
"""Hosts Neo4j Browser may load guides and style sheets from (``browser.remote_content_hostname_whitelist``)."""

USERNAME = "neo4j"
DEFAULT_INSTANCE = "default"
"""The local server every command uses unless ``--instance``/``TGNEO_INSTANCE`` names another."""


@dataclass(frozen=True)
class Instance:
    """Where one local server lives and how it listens."""

    name: str
    directory: Path
    bolt_port: int = 7687
    http_port: int = 7474
    auth: bool = True
    heap: str = "2g"
    pagecache: str = "2g"
    plugins: tuple[str, ...] = ()
    """The server plugins it keeps (``tgneo.provision.plugins``): in its ``plugins/`` from each start on, until a
    start removes one (``--no-plugin``)."""

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def browser_url(self) -> str:
        return f"{self.http_url}/browser/"

    @property
    def pid_file(self) -> Path:
        return self.directory / "run" / "neo4j.pid"

    @property
    def password_file(self) -> Path:
        return self.directory / "password"

    @property
    def settings_file(self) -> Path:
        return self.directory / "instance.json"

    def password(self) -> str | None:
        """The generated password, or ``None`` when authentication is off."""
        if not self.auth or not self.password_file.exists():
            return None
        return self.password_file.read_text(encoding="utf-8").strip()


@dataclass(frozen=True)
class InstanceStatus:
    """What ``tgneo db status`` reports."""

    instance: Instance
    running: bool
    pid: int | None
    provisioned: bool

    def env(self) -> dict[str, str]:
        """The ``NEO4J_*`` variables that reach this instance."""
        return env_for(self.instance)


def env_for(instance: Instance) -> dict[str, str]:
    """``NEO4J_*`` variables for ``instance`` (an empty password when auth is off)."""
    return {
        "NEO4J_URI": instance.bolt_uri,
        "NEO4J_USERNAME": USERNAME,
        "NEO4J_PASSWORD": instance.password() or "",
    }


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.exists():  # guard against pid reuse by an unrelated process
        try:
            text = cmdline.read_bytes()
        except OSError:
            return False
        if not text:  # a zombie: exited, not yet reaped
            return False
        return b"neo4j" in text.lower()
    return True


def _port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def free_port() -> int:
    """A currently free loopback TCP port (for tests and side-by-side instances)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


Reporter = Callable[[str], None]


_PASSWORD_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _new_password(length: int = 24) -> str:
    """A random password of letters and digits (143 bits for 24 characters).

    Never ``secrets.token_urlsafe``: one of its passwords in 64 starts with ``-``, which
    ``neo4j-admin dbms set-initial-password`` reads as an option, and the server never starts.
    """
    return "".join(secrets.choice(_PASSWORD_ALPHABET) for _ in range(length))


def _silent(_: str) -> None:
    return None


class LocalNeo4j:
    """One named local Neo4j instance under ``home`` (``TGNEO_HOME``).

    Layout::

        home/neo4j-<version>/lib/        jars from Maven Central (shared by every instance)
        home/plugins/<name>-<v>/lib/     a server plugin's jars (``--plugin``), shared likewise
        home/instances/<name>/conf/      neo4j.conf, written at each start
        home/instances/<name>/data/      databases; auth.ini holds the generated password's hash
        home/instances/<name>/password   the generated password (mode 600)
        home/instances/<name>/run/       neo4j.pid
        home/instances/<name>/logs/      neo4j.log, debug.log, bootloader.log
        home/instances/<name>/plugins/   copies of the jars of the plugins it keeps, and nothing else
        home/instances/<name>/instance.json  ports, memory, auth of the last start; the plugins it keeps

    ``plugins`` and ``without_plugins`` change the plugins the instance keeps, from the next start on; what it keeps
    is remembered in ``instance.json`` (see :meth:`start`).
    """

    def __init__(
        self,
        home: Path,
        name: str = DEFAULT_INSTANCE,
        *,
        bolt_port: int | None = None,
        http_port: int | None = None,
        auth: bool | None = None,
        heap: str | None = None,
        pagecache: str | None = None,
        plugins: Iterable[str] | None = None,
        without_plugins: Iterable[str] = (),
        report: Reporter = _silent,
    ) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise ProvisioningError(f"instance name {name!r} may only use letters, digits, '.', '_', '-'")
        self.home = home
        self.report = report
        directory = home / "instances" / name
        saved = self._saved(directory / "instance.json")
        self.added_plugins = parse_plugins(plugins or ())
        """Plugins a start adds to those the instance keeps (``--plugin``)."""
        self.removed_plugins = parse_plugins(without_plugins)
        """Plugins a start removes from those the instance keeps (``--no-plugin``)."""
        both = sorted(set(self.added_plugins) & set(self.removed_plugins))
        if both:
            raise ConfigError(f"{', '.join(both)} is both added (--plugin) and removed (--no-plugin): which is it?")
        saved_plugins = saved.get("plugins", [])
        kept = tuple(str(p) for p in saved_plugins) if isinstance(saved_plugins, list) else ()
        self.instance = Instance(
            name=name,
            directory=directory,
            bolt_port=bolt_port or int(str(saved.get("bolt_port", 7687))),
            http_port=http_port or int(str(saved.get("http_port", 7474))),
            auth=auth if auth is not None else bool(saved.get("auth", True)),
            heap=heap or str(saved.get("heap", "2g")),
            pagecache=pagecache or str(saved.get("pagecache", "2g")),
            plugins=self._keeping(kept),
        )

    def _keeping(self, kept: Iterable[str]) -> tuple[str, ...]:
        """The plugins the instance keeps from this start on: those it kept, plus the added, minus the removed."""
        return tuple(sorted((set(kept) | set(self.added_plugins)) - set(self.removed_plugins)))

    # ----------------------------------------------------------------------------- inspection
    @staticmethod
    def _saved(path: Path) -> dict[str, object]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def exists(self) -> bool:
        """Whether this instance was ever started (each start writes its ``instance.json``)."""
        return self.instance.settings_file.is_file()

    @property
    def lib_dir(self) -> Path:
        return self.home / f"neo4j-{NEO4J_VERSION}" / "lib"

    def provisioned(self) -> bool:
        """Whether the jars are complete (the marker is written only after a verified copy)."""
        return (self.lib_dir.parent / "COMPLETE").exists()

    def running_pid(self) -> int | None:
        """The server's pid if it runs; a stale pid file is removed on the way."""
        pid_file = self.instance.pid_file
        try:
            pid = int(pid_file.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return None
        if _pid_alive(pid):
            return pid
        pid_file.unlink(missing_ok=True)
        self.report(f"removed stale pid file {pid_file} (pid {pid} is not running)")
        return None

    def status(self) -> InstanceStatus:
        pid = self.running_pid()
        return InstanceStatus(self.instance, pid is not None, pid, self.provisioned())

    # ----------------------------------------------------------------------------- provisioning
    @contextlib.contextmanager
    def _lock(self, what: str) -> Iterator[None]:
        self.home.mkdir(parents=True, exist_ok=True)
        with open(self.home / f".{what}.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def provision(self) -> Path:
        """Resolve the server's jars from Maven Central into the cache (once) and verify them."""
        with self._lock("provision"):
            if self.provisioned():
                return self.lib_dir
            self.report(
                f"resolving Neo4j {NEO4J_VERSION} + Browser {NEO4J_BROWSER_VERSION} from Maven Central "
                f"(log: {self.lib_dir.parent / 'maven.log'})"
            )
            copy_maven_dependencies(
                _POM.read_text(encoding="utf-8"), self.lib_dir.parent, exclude_group_ids=("org.ow2.asm",),
                verify=self._verify_jars, marker=NEO4J_VERSION,
            )  # fmt: skip
            self.report(f"provisioned {len(list(self.lib_dir.glob('*.jar')))} jars into {self.lib_dir}")
            return self.lib_dir

    @staticmethod
    def _verify_jars(lib: Path) -> None:
        import zipfile

        def has(jar_glob: str, entry: str) -> bool:
            for jar in lib.glob(jar_glob):
                with zipfile.ZipFile(jar) as zf, contextlib.suppress(KeyError):
                    zf.getinfo(entry)
                    return True
            return False

        if not has(f"neo4j-{NEO4J_VERSION}.jar", "org/neo4j/server/startup/Neo4jCommand.class"):
            raise ProvisioningError(f"neo4j-{NEO4J_VERSION}.jar lacks the bootloader (Neo4jCommand)")
        if not has("neo4j-browser-*.jar", "browser/index.html"):
            raise ProvisioningError("the neo4j-browser jar lacks browser/index.html")

    # ----------------------------------------------------------------------------- configuration
    def neo4j_conf(self) -> str:
        """The ``neo4j.conf`` for this instance: loopback only, sized for a 2-core, 24 GiB machine."""
        i = self.instance
        lines = [
            "# Written by `tgneo db start`; regenerated at each start (edit the tgneo options instead).",
            "server.default_listen_address=127.0.0.1",
            "server.default_advertised_address=127.0.0.1",
            "server.bolt.enabled=true",
            f"server.bolt.listen_address=127.0.0.1:{i.bolt_port}",
            f"server.bolt.advertised_address=127.0.0.1:{i.bolt_port}",
            "server.http.enabled=true",
            f"server.http.listen_address=127.0.0.1:{i.http_port}",
            f"server.http.advertised_address=127.0.0.1:{i.http_port}",
            "server.https.enabled=false",
            f"dbms.security.auth_enabled={'true' if i.auth else 'false'}",
            f"server.memory.heap.initial_size={i.heap}",
            f"server.memory.heap.max_size={i.heap}",
            f"server.memory.pagecache.size={i.pagecache}",
            "db.memory.transaction.total.max=1g",
            "db.tx_log.rotation.retention_policy=1 days 1G",
            "client.allow_telemetry=false",
            "dbms.usage_report.enabled=false",
            f"server.directories.lib={self.lib_dir}",
            "server.directories.import=import",
            # Neo4j Browser's `:style <url>` and `:play <url>` fetch only from these hosts: tgneo's
            # server on loopback (`tgneo browser` prints the URLs) besides Browser's own defaults.
            f"browser.remote_content_hostname_whitelist={BROWSER_CONTENT_HOSTS}",
        ]
        lines += [f"server.jvm.additional={flag}" for flag in JVM_FLAGS]
        if i.plugins:  # only what its plugins need: without them, Neo4j's defaults (no procedure unsandboxed)
            lines.append(f"# for the plugins this instance keeps: {describe(i.plugins)}")
            lines += [f"{key}={value}" for key, value in conf_settings(i.plugins).items()]
        return "\n".join(lines) + "\n"

    def plugin_dirs(self) -> dict[str, Path]:
        """The resolved jars (from Maven Central the first time) of each plugin the instance keeps, by name."""
        return {
            name: plugin_jars(self.home, name, server_version=NEO4J_VERSION, report=self.report)
            for name in self.instance.plugins
        }

    def _install_plugins(self, jars: dict[str, Path]) -> None:
        """Make ``plugins/`` hold exactly the jars of the plugins the instance keeps: whatever else is there goes
        (after ``--no-plugin apoc``, or APOC copied there by hand into an instance that does not keep it, no APOC
        is left behind, sandboxed and half-working). One line says what went."""
        plugins = self.instance.directory / "plugins"
        wanted = {jar.name: jar for lib in jars.values() for jar in sorted(lib.glob("*.jar"))}
        removed = []
        for entry in sorted(plugins.iterdir()):
            if entry.name in wanted and entry.is_file() and entry.stat().st_size == wanted[entry.name].stat().st_size:
                continue
            removed.append(entry.name)
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        if removed:
            self.report(f"removed {len(removed)} file(s) from {plugins}, of no plugin this instance keeps "
                        f"({describe(self.instance.plugins)}): {', '.join(removed)}")  # fmt: skip
        for name, jar in wanted.items():
            if not (plugins / name).exists():
                shutil.copy2(jar, plugins / name)

    def _write_layout(self) -> None:
        d = self.instance.directory
        for sub in ("conf", "data", "logs", "plugins", "import", "run"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        (d / "conf" / "neo4j.conf").write_text(self.neo4j_conf(), encoding="utf-8")
        saved = {k: v for k, v in asdict(self.instance).items() if k not in ("name", "directory")}
        self.instance.settings_file.write_text(json.dumps(saved, indent=2), encoding="utf-8")

    def _bootloader(self, java: Path, *args: str, log_name: str) -> subprocess.CompletedProcess[str]:
        d = self.instance.directory
        env = {k: v for k, v in os.environ.items() if k not in ("JAVA_OPTS", "NEO4J_CONF", "NEO4J_HOME")}
        env.update(JAVA_HOME=str(java.parent.parent), NEO4J_HOME=str(d), NEO4J_CONF=str(d / "conf"))
        # a tool JVM that lives a second or two (it writes a password, or starts the server's JVM and exits): C1
        # alone and the serial collector cost about half the CPU of the server-class defaults (2.1 → 1.2 s measured)
        cmd = [str(java), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", f"{self.lib_dir}/*",
               f"-Dbasedir={d}", *args]  # fmt: skip
        with open(d / "logs" / log_name, "a") as log:
            log.write(f"$ {' '.join(cmd)}\n")
            log.flush()
            return subprocess.run(
                cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, text=True, check=False,
                start_new_session=True,
            )  # fmt: skip

    def _set_initial_password(self, java: Path) -> None:
        if (self.instance.directory / "data" / "dbms" / "auth.ini").exists():
            return
        password = _new_password()
        pw = self.instance.password_file
        pw.write_text(password + "\n", encoding="utf-8")
        pw.chmod(0o600)
        result = self._bootloader(
            java,
            "org.neo4j.server.startup.Neo4jAdminCommand",
            "dbms",
            "set-initial-password",
            password,
            log_name="admin.log",
        )
        if result.returncode != 0:
            raise ProvisioningError(
                f"could not set the initial password (see {self.instance.directory / 'logs' / 'admin.log'})"
            )

    # ----------------------------------------------------------------------------- lifecycle
    def start(self, timeout: float = 180.0) -> InstanceStatus:
        """Start the server (or reuse a running one) and wait until Bolt answers.

        The plugin rule (``plugins``/``without_plugins``, ``tgneo db start --plugin``/``--no-plugin``): an instance
        keeps the plugins it was given until a start removes one. What it keeps is in its ``instance.json``.

        * A stopped instance starts with the plugins it keeps, plus the added ones, minus the removed ones; its
          ``plugins/`` then holds their jars and nothing else (a jar copied there by hand goes). A plain start
          after ``tgneo db stop`` keeps APOC: a user's LangChain script must not lose it to a restart nobody
          meant as a change.
        * A running instance whose plugins this start changes is restarted with the new set (a notice says
          so): plugins load only when the JVM starts. Its ports, memory, auth and data stay.
        * A running instance this start does not change (a plain start, or one adding what it has) is reused as
          it runs, and the notice names its plugins.

        Raises:
            MissingTool: Java 17 or Maven is missing.
            ProvisioningError: a port is taken, or the server did not come up in ``timeout`` seconds.
        """
        with self._lock(f"instance-{self.instance.name}"):
            pid = self.running_pid()
            if pid is not None:
                running = LocalNeo4j(self.home, self.instance.name, report=self.report).instance
                if (running.bolt_port, running.http_port) != (self.instance.bolt_port, self.instance.http_port):
                    self.report(
                        f"instance {self.instance.name!r} already runs on Bolt {running.bolt_port}"
                        f" / HTTP {running.http_port}; keeping them (stop it to change ports)"
                    )
                keeping = self._keeping(running.plugins)
                if keeping == running.plugins:
                    self.instance = running
                    self.report(f"reusing running Neo4j (pid {pid}) at {running.bolt_uri} with plugins: "
                                f"{describe(running.plugins)}")  # fmt: skip
                    self._wait_for_bolt(pid, timeout)
                    return self.status()
                # Plugins load only when the JVM starts: the server is restarted with the new set (its ports,
                # memory, auth and data stay; see the rule in this method's docstring).
                added = [p for p in keeping if p not in running.plugins]
                removed = [p for p in running.plugins if p not in keeping]
                change = " and ".join(
                    f"{verb} {', '.join(names)}" for verb, names in (("add", added), ("remove", removed)) if names
                )
                self.report(f"restarting instance {self.instance.name} to {change} "
                            f"(plugins load only at start; its data stays)")  # fmt: skip
                self.instance = replace(running, plugins=keeping)
                find_java()
                self.plugin_dirs()  # resolved (and version-checked) before the running server is stopped
                self._stop_locked(pid, timeout=60.0)
            else:  # what it keeps as of now, under the lock (another start may have changed it since __init__)
                kept = LocalNeo4j(self.home, self.instance.name).instance.plugins
                self.instance = replace(self.instance, plugins=self._keeping(kept))
            java = find_java()
            self.provision()
            jars = self.plugin_dirs()
            for port in (self.instance.bolt_port, self.instance.http_port):
                if _port_in_use(port):
                    raise ProvisioningError(
                        f"port {port} is already in use by another process; choose another with "
                        "--bolt-port/--http-port (or TGNEO_BOLT_PORT/TGNEO_HTTP_PORT)"
                    )
            self._write_layout()
            self._install_plugins(jars)
            if self.instance.auth:
                self._set_initial_password(java)
            self.report(f"starting Neo4j {NEO4J_VERSION} ({self.instance.name}) with {java}")
            result = self._bootloader(java, "org.neo4j.server.startup.Neo4jCommand", "start",
                                      log_name="bootloader.log")  # fmt: skip
            if result.returncode != 0:
                raise ProvisioningError(
                    f"Neo4j's bootloader failed (exit {result.returncode}):\n{self._log_tail('bootloader.log')}"
                )
            pid = self.running_pid()
            if pid is None:
                raise ProvisioningError(f"Neo4j exited right after start:\n{self._log_tail('neo4j.log')}")
            self._wait_for_bolt(pid, timeout)
            return self.status()

    def _wait_for_bolt(self, pid: int, timeout: float) -> None:
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

        password = self.instance.password()
        auth = (USERNAME, password) if self.instance.auth and password else None
        deadline = time.monotonic() + timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            if not _pid_alive(pid):
                raise ProvisioningError(f"Neo4j (pid {pid}) died while starting:\n{self._log_tail('neo4j.log')}")
            try:
                with GraphDatabase.driver(self.instance.bolt_uri, auth=auth, connection_timeout=2) as drv:
                    drv.verify_connectivity()
                return
            except AuthError as e:
                raise ProvisioningError(
                    f"Neo4j answers but refuses the stored password ({e}); "
                    f"remove {self.instance.directory} to start afresh"
                ) from e
            except (ServiceUnavailable, Neo4jError, OSError) as e:
                last = e
                time.sleep(0.5)
        raise ProvisioningError(
            f"Bolt did not answer at {self.instance.bolt_uri} within {timeout:.0f}s ({last}):\n"
            f"{self._log_tail('neo4j.log')}"
        )

    def _log_tail(self, name: str, lines: int = 20) -> str:
        path = self.instance.directory / "logs" / name
        try:
            return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return f"(no {path})"

    def stop(self, timeout: float = 60.0) -> bool:
        """Stop the server cleanly (SIGTERM, as ``neo4j stop`` does). Returns whether one was running."""
        with self._lock(f"instance-{self.instance.name}"):
            pid = self.running_pid()
            if pid is None:
                return False
            self._stop_locked(pid, timeout)
            return True

    def _stop_locked(self, pid: int, timeout: float) -> None:
        """SIGTERM ``pid`` and wait (SIGKILL after ``timeout``); the caller holds the instance's lock."""
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and _pid_alive(pid):
            time.sleep(0.2)
        if _pid_alive(pid):
            self.report(f"Neo4j (pid {pid}) ignored SIGTERM for {timeout:.0f}s; killing it")
            os.kill(pid, signal.SIGKILL)
            while _pid_alive(pid):
                time.sleep(0.1)
        self.instance.pid_file.unlink(missing_ok=True)


_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def instance_names(home: Path | None = None) -> list[str]:
    """The instances under ``home`` that were ever started (they have an ``instance.json``), by name."""
    found = sorted((home or default_home()).glob("instances/*/instance.json"))
    return [p.parent.name for p in found if re.fullmatch(r"[A-Za-z0-9_.-]+", p.parent.name)]


def instance_at(uri: str, home: Path | None = None) -> Instance | None:
    """The local instance a loopback ``uri`` reaches by its Bolt port, running or not: the running one, else
    ``default``, else the first by name when several were started on that port. An error about that URI names it
    as the server to start, or whose password to use."""
    parts = urlsplit(uri)
    if parts.hostname not in _LOOPBACK:
        return None
    home = home or default_home()
    port = parts.port or 7687
    names = sorted(instance_names(home), key=lambda name: (name != DEFAULT_INSTANCE, name))
    matches = [local for local in (LocalNeo4j(home, name) for name in names) if local.instance.bolt_port == port]
    running = [local for local in matches if local.running_pid() is not None]
    chosen = running or matches
    return chosen[0].instance if chosen else None


def running_for(uri: str, home: Path | None = None) -> InstanceStatus | None:
    """The running local instance that a loopback ``NEO4J_URI`` reaches (matched by its Bolt port), if any.

    ``tgneo browser`` and the test fixture use it to find that server's Browser port and password
    file when ``NEO4J_URI`` names an instance other than the one ``--instance`` would pick.
    """
    parts = urlsplit(uri)
    if parts.hostname not in _LOOPBACK:
        return None
    home = home or default_home()
    for saved in sorted((home / "instances").glob("*/instance.json")):
        status = LocalNeo4j(home, saved.parent.name).status()
        if status.running and status.instance.bolt_port == (parts.port or 7687):
            return status
    return None
