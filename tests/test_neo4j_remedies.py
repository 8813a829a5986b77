"""No Neo4j, a Neo4j that does not answer, a Neo4j that refuses: each is one line that names the remedy (issue 50).

Each case runs twice, as a user meets it: through the CLI (a subprocess, :data:`tests.clirun.TGNEO`) and through
``tgneo.connect()`` given the same environment. Both must raise the same typed error with the same message. The
servers are real: a free port nothing listens on (:func:`tgneo.provision.server.free_port`), and the session's
Neo4j. Each test has a home of its own (``TGNEO_HOME``), empty or holding a stopped instance, so what the user's
home holds plays no part.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

import tgneo
from tests.clirun import tgneo as run_tgneo
from tests.conftest import Neo4jServer
from tgneo.config import Settings
from tgneo.errors import Neo4jNotConfigured, StoreUnavailable, TgneoError
from tgneo.provision import LocalNeo4j
from tgneo.provision.server import free_port

NEO4J_VARIABLES = ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE")
NO_INSTANCE = (
    "no Neo4j to connect to: NEO4J_URI is not set and there is no local instance in {home}. Run tgneo db start for "
    "a local Neo4j, or set NEO4J_URI, NEO4J_USERNAME and NEO4J_PASSWORD to use your own"
)


def _shell(home: Path, **neo4j: str) -> dict[str, str]:
    """A shell with ``home`` as ``TGNEO_HOME`` and no ``NEO4J_*`` variable but ``neo4j``'s."""
    env = {k: v for k, v in os.environ.items() if k not in NEO4J_VARIABLES}
    return {**env, "TGNEO_HOME": str(home), "TGNEO_NEO4J_CONNECT_TIMEOUT": "3", **neo4j}


def _cli_error(env: Mapping[str, str], *args: str) -> str:
    """The one line a failing command prints, without its ``error: ``."""
    result = run_tgneo(None, *args, env=env, ok=False, timeout=120)
    assert result.returncode == 1, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: "), line
    return line.removeprefix("error: ")


def _api_error(env: Mapping[str, str]) -> TgneoError:
    """What ``tgneo.connect()`` with this environment raises, at once or at its first call."""
    with pytest.raises(TgneoError) as raised:  # connect() or its first call, whichever raises
        with tgneo.connect(settings=Settings.from_env(env)) as tg:
            tg.traces()
    return raised.value


def _stopped_instance(home: Path, name: str, bolt_port: int) -> None:
    """An instance of ``home`` that was started once and is stopped, as ``tgneo db stop`` leaves one on disk: its
    layout and ``instance.json`` (ports, auth, plugins), written by the code ``tgneo db start`` writes them with;
    no server runs on ``bolt_port``."""
    LocalNeo4j(home, name, bolt_port=bolt_port, http_port=free_port(), auth=True)._write_layout()


# ------------------------------------------------------------------------- no instance and no NEO4J_URI: say so
@pytest.mark.parametrize("args", [("traces", "list"), ("ask", "Who?"), ("export",), ("db", "migrate")], ids=" ".join)
def test_no_instance_and_no_neo4j_uri_is_one_line_naming_what_to_run(args: tuple[str, ...], tmp_path: Path) -> None:
    assert _cli_error(_shell(tmp_path), *args) == NO_INSTANCE.format(home=tmp_path.resolve())


def test_tgneo_connect_raises_the_same_typed_error_before_trying_any_server(tmp_path: Path) -> None:
    env = _shell(tmp_path)
    with pytest.raises(Neo4jNotConfigured) as raised:
        tgneo.connect(settings=Settings.from_env(env))  # no store, no driver: nothing was tried
    assert str(raised.value) == NO_INSTANCE.format(home=tmp_path.resolve()) == _cli_error(env, "traces", "list")
    assert isinstance(raised.value, StoreUnavailable)  # what code that already catches "Neo4j is down" catches


def test_a_home_with_other_instances_but_no_default_names_them_and_how_to_use_one(tmp_path: Path) -> None:
    _stopped_instance(tmp_path, "scratch", free_port())
    said = _cli_error(_shell(tmp_path), "traces", "list")
    home = tmp_path.resolve()
    assert said.startswith(f"no Neo4j to connect to: NEO4J_URI is not set and there is no default instance in {home}")
    assert "(only scratch)" in said and 'eval "$(tgneo db env --instance NAME)"' in said
    assert said == str(_api_error(_shell(tmp_path)))


def test_no_attempt_is_logged_when_there_is_no_neo4j_to_try(tmp_path: Path) -> None:
    _cli_error(_shell(tmp_path), "traces", "list")
    log = (tmp_path / "logs" / "tgneo.log").read_text(encoding="utf-8")
    assert "no Neo4j to connect to" in log and "unreachable" not in log and "7687" not in log


# ----------------------------------------------------------------------- unreachable: name the remedy, by who named it
def test_a_stopped_default_instance_is_still_the_one_used_and_says_start_it(tmp_path: Path) -> None:
    port = free_port()
    _stopped_instance(tmp_path, "default", port)
    said = _cli_error(_shell(tmp_path), "traces", "list")
    assert said.startswith(f"Neo4j is unreachable at bolt://127.0.0.1:{port}: "), said
    assert said.endswith(". Start it: tgneo db start"), said
    error = _api_error(_shell(tmp_path))
    assert type(error) is StoreUnavailable and str(error) == said


def test_neo4j_uri_naming_a_stopped_local_instance_says_start_it_by_name(tmp_path: Path) -> None:
    port = free_port()
    _stopped_instance(tmp_path, "scratch", port)
    env = _shell(tmp_path, NEO4J_URI=f"bolt://127.0.0.1:{port}", NEO4J_PASSWORD="x")
    said = _cli_error(env, "ask", "Who?")
    assert said.startswith(f"Neo4j is unreachable at bolt://127.0.0.1:{port}: ")
    assert said.endswith(". Start it: tgneo db start --instance scratch"), said
    error = _api_error(env)
    assert type(error) is StoreUnavailable and str(error) == said


def test_neo4j_uri_naming_no_local_instance_says_check_neo4j_uri(tmp_path: Path) -> None:
    port = free_port()
    env = _shell(tmp_path, NEO4J_URI=f"bolt://127.0.0.1:{port}", NEO4J_PASSWORD="x")
    said = _cli_error(env, "traces", "list")
    assert said.startswith(f"Neo4j is unreachable at bolt://127.0.0.1:{port}: ")
    assert said.endswith(". Check NEO4J_URI: no Neo4j answers at that address"), said
    error = _api_error(env)
    assert type(error) is StoreUnavailable and str(error) == said


def test_a_uri_given_to_tgneo_connect_is_what_its_error_says_to_check(tmp_path: Path) -> None:
    port = free_port()
    settings = Settings.from_env(_shell(tmp_path))
    with pytest.raises(StoreUnavailable) as raised:  # at the first call
        with tgneo.connect(f"bolt://127.0.0.1:{port}", auth=("neo4j", "x"), settings=settings) as tg:
            tg.traces()
    assert str(raised.value).endswith(". Check tgneo.connect(uri=…): no Neo4j answers at that address")


# ------------------------------------------------------------------------------- refused: name the remedy too
def test_a_wrong_password_says_check_the_credentials(neo4j_server: Neo4jServer, tmp_path: Path) -> None:
    # Not the account every other test uses: Neo4j locks an account for 5 s after 3 refusals in a row
    # (dbms.security.auth_max_failed_attempts), and the next module's first login would then be refused too.
    env = _shell(tmp_path, NEO4J_URI=neo4j_server.uri, NEO4J_USERNAME="stranger", NEO4J_PASSWORD="not-the-password")
    said = _cli_error(env, "traces", "list")
    assert said.startswith(f"Neo4j at {neo4j_server.uri} refused the credentials: "), said
    assert said.endswith(". Check NEO4J_USERNAME and NEO4J_PASSWORD: that server has no such user with that password")
    error = _api_error(env)
    assert type(error) is StoreUnavailable and str(error) == said


def test_no_password_at_all_says_so_instead_of_missing_key_scheme_alone(
    neo4j_server: Neo4jServer, tmp_path: Path
) -> None:
    env = _shell(tmp_path, NEO4J_URI=neo4j_server.uri)  # the server runs with authentication on
    said = _cli_error(env, "traces", "list")
    assert said.startswith(f"Neo4j at {neo4j_server.uri} refused the credentials: "), said
    assert said.endswith(". No password was sent: set NEO4J_USERNAME and NEO4J_PASSWORD to an account of that server")
    error = _api_error(env)
    assert type(error) is StoreUnavailable and str(error) == said
