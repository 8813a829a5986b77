#!/usr/bin/env python3
"""Does the counterfactual check tell an answer drawn from its evidence from the same answer given from memory?

For every question of a set, every engine answers twice with ``verify``: once with the offline provider (which
quotes its evidence), once with :class:`tests.context_models.Remembering`, which gives the offline provider's own
answer and then keeps giving it whatever evidence it is handed — the same text, the same citations, no dependence.
The check should say ``supported`` for the first and ``unsupported`` for the second. On the sample, each engine also
answers with :class:`tests.context_models.Embellishing` (an answer drawn from the evidence plus a sentence of its
own): the check should say ``partly`` and name that sentence.

Sets: ``sample`` (the bundled corpus and its three questions), and the quality bench's ``pip`` and ``sqlite``
(``scripts/bench/quality.py``; ``postgres`` is held out and not run here). An answer that cites nothing (the
offline provider said what it could not find) has no evidence to depend on: it is counted apart
(``uncited_…``), not as a miss. Prints the confusion table per engine and, as its LAST line, JSON
``{"bench": "verification", "ratios": {...}, "absolute": {...}}``:

* ``supported_offline_{engine}`` — the share of cited offline answers judged ``supported``. Goal ≥ 0.95.
* ``unsupported_memory_{engine}`` — the share of the remembering model's cited answers judged ``unsupported``.
  Goal ≥ 0.95.
* ``partly_named_{engine}`` (sample) — the share of embellished answers judged ``partly`` with the made-up sentence,
  and only it, named.

    python scripts/bench/verification.py                 # sample, pip, sqlite
    python scripts/bench/verification.py --set sample
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cleanup import drop_collections  # noqa: E402  (scripts/bench/cleanup.py)
from quality import SETS  # noqa: E402  (scripts/bench/quality.py)

from tests.context_models import INVENTED, Embellishing, Remembering  # noqa: E402
from tgneo.config import Settings  # noqa: E402
from tgneo.connection import Connection  # noqa: E402
from tgneo.ingest.loader import load_documents  # noqa: E402
from tgneo.ingest.sample import QUESTIONS, sources  # noqa: E402
from tgneo.ingest.sources import discover  # noqa: E402
from tgneo.llm.offline import OfflineLLM  # noqa: E402
from tgneo.store import Store, install_schema  # noqa: E402

WORKSPACE = "bench-verification"
ENGINES = ("graph-rag", "document-rag", "agent")
GOAL = 0.95


def questions_of(name: str) -> list[str]:
    if name == "sample":
        return [q.text for q in QUESTIONS]
    return [str(q["question"]) for q in SETS[name].load()]


def documents_of(name: str) -> list[Any]:
    return list(sources()) if name == "sample" else list(discover([SETS[name].corpus]).sources)


def verdict(tg: Connection, question: str, engine: str) -> tuple[str | None, bool, tuple[int, ...], list[str]]:
    """The check's verdict of one answer (``None``: the answer failed), whether it cites anything, which sentences
    stand without their evidence, and the answer's sentences."""
    try:
        answer = tg.ask(question, engine=engine, verify=True)
    except Exception as e:  # a failed answer is reported, not hidden
        print(f"  {engine}: {question!r} failed: {e}", file=sys.stderr)
        return None, False, (), []
    cites = any(c.evidence for c in answer.citations)
    checked = answer.verification
    sentences = [c.sentence for c in answer.citations]
    return (checked.verdict if checked else None), cites, (checked.stands_without if checked else ()), sentences


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def run_set(store: Store, settings: Settings, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    collection = f"bench-verify-{name}-{uuid.uuid4().hex[:8]}"
    table: dict[str, dict[str, Counter[str]]] = {e: {"offline": Counter(), "memory": Counter()} for e in ENGINES}
    embellished: dict[str, Counter[str]] = {e: Counter() for e in ENGINES}
    started = time.perf_counter()
    try:
        report = load_documents(store, OfflineLLM(), WORKSPACE, collection, documents_of(name))
        print(f"{name}: {report.summary()} in {time.perf_counter() - started:.0f}s", file=sys.stderr)
        asked = questions_of(name)
        offline = Connection(store, settings, workspace=WORKSPACE, collection=collection, llm=OfflineLLM())
        for engine in ENGINES:
            for question in asked:
                got, cites, _, _ = verdict(offline, question, engine)
                table[engine]["offline"][got if cites else "uncited"] += 1
                memory = Connection(store, settings, workspace=WORKSPACE, collection=collection, llm=Remembering())
                got, cites, _, _ = verdict(memory, question, engine)
                table[engine]["memory"][got if cites else "uncited"] += 1
                if name == "sample":
                    mixed = Connection(store, settings, workspace=WORKSPACE, collection=collection,
                                       llm=Embellishing())  # fmt: skip
                    got, _, stands, said = verdict(mixed, question, engine)
                    named = [i for i, s in enumerate(said, start=1) if s == INVENTED]
                    embellished[engine]["named" if got == "partly" and list(stands) == named else str(got)] += 1
    finally:
        with store.driver.session(database=store.database) as session:
            drop_collections(session, WORKSPACE, [collection])
    ratios: dict[str, Any] = {}
    absolute: dict[str, Any] = {f"questions_{name}": len(questions_of(name))}
    for engine, sides in table.items():
        key = f"{name}_{engine}"
        cited_offline = sum(v for k, v in sides["offline"].items() if k != "uncited")
        cited_memory = sum(v for k, v in sides["memory"].items() if k != "uncited")
        ratios[f"supported_offline_{key}"] = share(sides["offline"]["supported"], cited_offline)
        ratios[f"unsupported_memory_{key}"] = share(sides["memory"]["unsupported"], cited_memory)
        absolute[f"offline_{key}"] = dict(sides["offline"])
        absolute[f"memory_{key}"] = dict(sides["memory"])
        if name == "sample":
            total = sum(embellished[engine].values())
            ratios[f"partly_named_{key}"] = share(embellished[engine]["named"], total)
            absolute[f"embellished_{key}"] = dict(embellished[engine])
    return ratios, absolute


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", dest="sets", action="append", choices=["sample", "pip", "sqlite"],
                        help="a set to run (repeatable; default: all three)")  # fmt: skip
    args = parser.parse_args(list(argv) if argv is not None else None)
    settings = Settings.from_env()
    ratios: dict[str, Any] = {}
    absolute: dict[str, Any] = {}
    with Store.from_settings(settings) as store:
        install_schema(store)
        for name in args.sets or ["sample", "pip", "sqlite"]:
            r, a = run_set(store, settings, name)
            ratios.update(r)
            absolute.update(a)
    print("\nverdicts (offline: supported / partly / unsupported / uncited; memory: the same)", file=sys.stderr)
    for key in sorted(k for k in absolute if k.startswith(("offline_", "memory_", "embellished_"))):
        print(f"  {key:40} {absolute[key]}", file=sys.stderr)
    missed = [k for k, v in ratios.items() if v is not None and not k.startswith("partly") and v < GOAL]
    print(json.dumps({"bench": "verification", "ratios": ratios, "absolute": absolute, "below_goal": missed}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
