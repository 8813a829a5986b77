"""``tgneo browser``: how to explore traces in Neo4j Browser — its URL and exactly what to type there."""

from __future__ import annotations

import os
import urllib.error
import urllib.request
import webbrowser
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlsplit

import click

from tgneo.cli.common import collection_option, fails_cleanly, out, say, workspace_option
from tgneo.config import Settings, default_home
from tgneo.provision.server import DEFAULT_INSTANCE
from tgneo.scope import DEFAULT_SCOPE


@dataclass(frozen=True)
class BrowserLines:
    """What ``tgneo browser`` prints: where Neo4j Browser is, and the two commands to type there."""

    browser_url: str
    style: str
    play: str
    open_url: str


def lines(browser_url: str, tgneo_url: str, workspace: str, collection: str, trace: str | None,
          document: str | None) -> BrowserLines:  # fmt: skip
    """The Browser URL and the ``:style``/``:play`` commands for this scope.

    ``open_url`` also starts the guide by itself (Browser's ``?cmd=play&arg=…``). Browser decodes that
    URL whole and cuts ``arg`` at the first ``&``, so it carries the guide's query only when it has at
    most one parameter; otherwise it opens Browser and the guide is one ``:play`` away.
    """
    base = tgneo_url.rstrip("/")
    params = {k: v for k, v in (("workspace", workspace), ("collection", collection)) if v != DEFAULT_SCOPE}
    params.update({k: v for k, v in (("trace", trace), ("document", document)) if v})
    guide = f"{base}/browser/guide.html" + (f"?{urlencode(params)}" if params else "")
    if len(params) > 1:
        params.pop("document", None)
    short_guide = f"{base}/browser/guide.html" + (f"?{urlencode(params)}" if params else "")
    open_url = browser_url if len(params) > 1 else f"{browser_url}?cmd=play&arg={quote(short_guide, safe=':/?=')}"
    return BrowserLines(browser_url, f":style {base}/browser/style.grass", f":play {guide}", open_url)


@dataclass(frozen=True)
class LocalServer:
    """The running local instance: its Browser, its password file and the ``NEO4J_*`` that reach it."""

    browser_url: str
    password_file: str | None
    env: dict[str, str]


def _local_server(instance: str, neo4j_uri: str | None) -> LocalServer | None:
    """The running local instance ``tgneo browser`` talks about.

    With ``NEO4J_URI`` set, the instance that URI reaches (by its loopback Bolt port), whatever its
    name, so that its own Browser port is printed; without it, the ``--instance`` one.
    """
    from tgneo.provision import LocalNeo4j, running_for

    if neo4j_uri:
        status = running_for(neo4j_uri)
        if status is None:
            return None
    else:
        status = LocalNeo4j(default_home(), instance).status()
        if not status.running:
            return None
    i = status.instance
    return LocalServer(i.browser_url, str(i.password_file) if i.auth else None, status.env())


def _browser_from_uri(uri: str) -> str:
    """Neo4j Browser on the default HTTP port of the host ``NEO4J_URI`` names."""
    host = urlsplit(uri).hostname or "127.0.0.1"
    return f"http://{host}:7474/browser/"


def _latest(settings: Settings, workspace: str, collection: str) -> tuple[str | None, str | None]:
    """The newest trace of the scope and one document its answer used (``None``, ``None``: no trace yet).

    Raises:
        TgneoError: Neo4j could not be read (the caller says so; the lines still help).
    """
    from tgneo.store import Store
    from tgneo.store.named import run_named
    from tgneo.store.traces import list_traces

    with Store.from_settings(settings) as store:
        page = list_traces(store, workspace, collection, limit=1)
        if not page.traces:
            return None, None
        trace = str(page.traces[0]["uri"])
        rows = run_named(store, "answer_documents", workspace, collection, {"uri": trace}).rows
        return trace, (str(rows[0]["document"]) if rows else None)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@click.command("browser")
@workspace_option
@collection_option
@click.option(
    "--url",
    "tgneo_url",
    default="http://127.0.0.1:8888",
    show_default=True,
    envvar="TGNEO_URL",
    help="Where `tgneo serve` answers (it serves the style sheet and the guide).",
)
@click.option(
    "--neo4j-browser",
    "browser_url",
    help="Neo4j Browser's URL [default: that of the local server NEO4J_URI reaches (--instance's when "
    "NEO4J_URI is unset), else port 7474 on NEO4J_URI's host].",
)
@click.option(
    "--instance",
    default=DEFAULT_INSTANCE,
    show_default=True,
    envvar="TGNEO_INSTANCE",
    help="The local server (tgneo db start) to read and whose Browser to print when NEO4J_URI is unset.",
)
@click.option("--trace", help="The question URI the guide shows [default: the newest in the collection].")
@click.option("--open", "open_it", is_flag=True, help="Open Neo4j Browser (with the guide) in a web browser.")
@fails_cleanly
def browser(workspace: str, collection: str, tgneo_url: str, browser_url: str | None, instance: str,
            trace: str | None, open_it: bool) -> None:  # fmt: skip
    """Explore traces in Neo4j Browser: print its URL and the `:style` and `:play` lines to type.

    \b
    The style sheet colours and captions every step type (the question's text, the selected edges,
    the documents' titles); the guide's slides run tgneo's named queries with their parameters:
    the latest traces, one trace as a graph with its source chains, the documents behind an answer,
    the answers that used a document, failed tool calls, token totals. Both come from `tgneo serve`.
    """
    from tgneo.errors import TgneoError

    neo4j_uri = os.environ.get("NEO4J_URI")
    local = _local_server(instance, neo4j_uri)
    password_file = local.password_file if local else None
    # NEO4J_* when set, else the running local instance: the same Neo4j `tgneo ask` would use
    settings = Settings.from_env({**os.environ, **local.env} if local and not neo4j_uri else None)
    if browser_url is None:
        browser_url = local.browser_url if local else _browser_from_uri(settings.neo4j_uri or "bolt://127.0.0.1:7687")
    document, unread = None, None
    if trace is None:
        try:
            trace, document = _latest(settings, workspace, collection)
        except TgneoError as e:
            unread = str(e)
    shown = lines(browser_url, tgneo_url, workspace, collection, trace, document)
    out.print(shown.browser_url, soft_wrap=True)
    out.print(shown.style, soft_wrap=True)
    out.print(shown.play, soft_wrap=True)
    say(f"Open Neo4j Browser, log in{f' (user neo4j, password in {password_file})' if password_file else ''}, "
        "then type the two lines above.")  # fmt: skip
    if unread is not None:
        say(f"note: could not read the newest trace ({unread}); the guide will ask for a question URI "
            "(or pass --trace URI)")  # fmt: skip
    elif trace is None:
        say(f'note: no trace in workspace {workspace!r}, collection {collection!r} yet: tgneo ask -x "…"')
    if not _answers(tgneo_url):
        say(f"note: nothing answers at {tgneo_url}: start it with `tgneo serve`")
    if open_it:
        webbrowser.open(shown.open_url)


COMMANDS = [browser]
