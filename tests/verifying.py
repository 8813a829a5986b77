"""What every road's verified answer must show: the check's summary on the final message, as the trace records it.

A question asked with ``"verify": true`` ends with a final message carrying ``verification`` (verdict, sufficient,
sufficiency, model, items with their necessity, the Verification's URI); the stored trace holds that Verification,
and each item is one of the selections the answer was given (an EdgeSelection, a ChunkSelection, an Observation).
"""

from __future__ import annotations

from typing import Any

from tgneo.explain.verification import VERDICTS
from tgneo.vocab import RDF, TGNEO


def assert_summary_is_the_stored_check(summary: dict[str, Any], trace: dict[str, Any]) -> None:
    """``summary`` (a final message's ``verification``) is well formed and is the latest check ``trace`` holds."""
    assert summary["verdict"] in VERDICTS, summary
    assert isinstance(summary["sufficient"], bool) and 0.0 <= summary["sufficiency"] <= 1.0, summary
    assert summary["sufficient"] == (summary["sufficiency"] >= 0.5), summary
    assert isinstance(summary["model"], str) and summary["model"], summary
    items = summary["items"]
    assert items and all(set(i) == {"iri", "necessity"} and 0.0 <= i["necessity"] <= 1.0 for i in items), items
    given = {
        *(e["selection"] for s in trace["steps"] for e in s.get("edges", [])),
        *(c["selection"] for s in trace["steps"] for c in s.get("chunks", [])),
        *(s["uri"] for s in trace["steps"] if s["type"] in ("Observation", "StepResult", "Finding")),
    }
    assert {i["iri"] for i in items} <= given, ({i["iri"] for i in items} - given, given)
    stored = trace["verification"]
    assert stored is not None and stored["uri"] == summary["uri"], (stored, summary["uri"])
    assert (stored["verdict"], stored["sufficiency"], stored["model"]) == (
        summary["verdict"], summary["sufficiency"], summary["model"]
    )  # fmt: skip
    assert stored["necessity"] == {i["iri"]: i["necessity"] for i in items}
    assert stored["stands_without"] == summary["stands_without"]


def is_verification_message(message: dict[str, Any]) -> bool:
    """Whether ``message`` is the explain message of a Verification (its own ``rdf:type`` says so)."""
    if message.get("message_type") != "explain":
        return False
    return any(t["s"].get("i") == message["explain_id"] and t["p"].get("i") == str(RDF.type)
               and t["o"].get("i") == str(TGNEO.Verification) for t in message["explain_triples"])  # fmt: skip


def verdict_of(message: dict[str, Any]) -> str:
    """The verdict a Verification's explain message carries (its ``tgneo:verdict`` literal)."""
    (verdict,) = [t["o"]["v"] for t in message["explain_triples"]
                  if t["s"].get("i") == message["explain_id"] and t["p"].get("i") == str(TGNEO.verdict)]  # fmt: skip
    return str(verdict)
