"""Verification: whether an answer depends on the evidence it cites, checked by counterfactuals (tgneo's own).

A trace shows what the answering stage was *given* and which sentence each answer sentence cites; that does not
show the answer *depends* on it (a model can answer from memory and cite what it was handed). The check re-runs
the answering stage on altered evidence (:mod:`tgneo.engines.verify`) and records what happened as PROV:

* one ``tgneo:Verification`` (a ``prov:Entity``, ``prov:wasDerivedFrom`` the Synthesis or Conclusion it checks)
  with its verdict (``tgneo:verdict``: ``supported``, ``partly`` or ``unsupported``), its sufficiency (the share
  of the answer still given with the cited evidence alone, ``tgneo:sufficiency``), the answer sentences that stand
  without their evidence (``tgneo:standsWithout``), the judge (``tg:llmModel``), when (``prov:generatedAtTime``)
  and how many re-runs it made (``tgneo:calls``);
* one ``tgneo:Counterfactual`` per re-run (``tgneo:counterfactual``), derived from the Verification: which items
  it left out or kept (``tgneo:ablated``, the same EdgeSelection, ChunkSelection or Observation nodes the trace
  selected), how (``tgneo:ablation``: ``without-cited``, ``only-cited`` or ``leave-one-out``), how much of the
  answer it still said (``tgneo:preserved``), for a leave-one-out the item's necessity (``tgneo:necessity``: the
  share of the answer lost without it), its answer in the librarian (``tg:document``) and what it cost (tokens, model
  milliseconds: a trace's totals count the check once, on its re-runs).

Like answer sentences they are recorded beside TrustGraph's steps and exported by the ``prov`` profile only: the
``trustgraph`` profile stays exactly TrustGraph's triples, so TrustGraph's own CLI reads a verified trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from tgneo.errors import InvalidEntity
from tgneo.explain.entity import About, LlmStep, Quads, now_timestamp, valid_count, valid_score, valid_timestamp
from tgneo.vocab import PROV, TG, TGNEO

__all__ = [
    "ABLATIONS",
    "VERDICTS",
    "Ablation",
    "Counterfactual",
    "Verdict",
    "Verification",
    "counterfactual_uri",
    "verification_uri",
]

Verdict = Literal["supported", "partly", "unsupported"]
VERDICTS: tuple[Verdict, ...] = ("supported", "partly", "unsupported")
"""What a verification concludes, at a glance: every sentence falls without its evidence (``supported``), some
stand without it (``partly``), or the answer does not depend on its evidence at all (``unsupported``)."""
Ablation = Literal["without-cited", "only-cited", "leave-one-out"]
ABLATIONS: tuple[Ablation, ...] = ("without-cited", "only-cited", "leave-one-out")
"""How a counterfactual altered the evidence: every cited item removed, only the cited items kept, one item removed."""


def verification_uri(answer: str, check: str) -> str:
    """``{answer}/verification/{check}``: one check of the answer step ``answer`` (``check``: an id of the check, so
    that checking an answer again — with another model, another budget — adds a Verification beside the first)."""
    return f"{answer}/verification/{check}"


def counterfactual_uri(verification: str, index: int) -> str:
    """``{verification}/counterfactual/{index}``: its ``index``-th (1-based) re-run."""
    return f"{verification}/counterfactual/{index}"


def _fraction(value: object, what: str) -> float:
    score = valid_score(value, what)
    if score is None or not 0.0 <= score <= 1.0:
        raise InvalidEntity(f"{what}: expected a number from 0 to 1, got {value!r}")
    return score


@dataclass(frozen=True, kw_only=True)
class Verification(LlmStep):
    """The check of one answer.

    Attributes:
        answer: The Synthesis or Conclusion it checks.
        verdict: ``supported``, ``partly`` or ``unsupported``.
        sufficiency: The share of the answer's sentences still given with the cited evidence alone (0..1).
        stands_without: The answer sentences that still stand with their evidence removed.
        calls: How many times the answering stage was run again (each a Counterfactual, with its own tokens and
            milliseconds: the check's cost is theirs, so a trace's totals count it once).
        timestamp: When the check was made (``prov:generatedAtTime``): the latest check of an answer is the one shown.
        model: The model that answered the re-runs (the judge).
    """

    kind = "verification"
    rdf_types = (PROV.Entity, TGNEO.Verification)
    rdfs_label = "Verification"
    derives_from = ("answer",)

    answer: str
    verdict: Verdict
    sufficiency: float
    stands_without: tuple[str, ...] = ()
    calls: int = 0
    timestamp: str = field(default_factory=now_timestamp)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("answer")
        if self.verdict not in VERDICTS:
            raise InvalidEntity(f"{self._what('verdict')}: {self.verdict!r} is not one of {', '.join(VERDICTS)}")
        self._set("sufficiency", _fraction(self.sufficiency, self._what("sufficiency")))
        self._iris("stands_without")
        valid_count(self.calls, self._what("calls"))
        self._set("timestamp", valid_timestamp(self.timestamp, self._what("timestamp")))

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        about.text(PROV.generatedAtTime, self.timestamp)
        about.text(TGNEO.verdict, self.verdict)
        about.text(TGNEO.sufficiency, self.sufficiency)
        about.text(TGNEO.calls, self.calls)
        for sentence in self.stands_without:
            about.link(TGNEO.standsWithout, sentence)


@dataclass(frozen=True, kw_only=True)
class Counterfactual(LlmStep):
    """One re-run of the answering stage on altered evidence.

    Attributes:
        verification: The check it belongs to.
        ablation: ``without-cited``, ``only-cited`` or ``leave-one-out``.
        items: The selections left out (or, for ``only-cited``, the only ones kept).
        preserved: The share of the original answer's sentences the re-run still said (0..1).
        necessity: For a leave-one-out, the share of the answer lost without its item (``1 - preserved``).
        document: The librarian id of the re-run's answer.
        duration_ms: What the re-run took, in the model's milliseconds (its tokens and model: ``in_token``,
            ``out_token``, ``model``).
    """

    kind = "counterfactual"
    rdf_types = (PROV.Entity, TGNEO.Counterfactual)
    rdfs_label = "Counterfactual"
    derives_from = ("verification",)
    ablations: ClassVar[tuple[Ablation, ...]] = ABLATIONS

    verification: str
    ablation: Ablation
    items: tuple[str, ...]
    preserved: float
    necessity: float | None = None
    document: str | None = None
    duration_ms: int = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("verification")
        valid_count(self.duration_ms, self._what("duration_ms"))
        if self.ablation not in ABLATIONS:
            raise InvalidEntity(f"{self._what('ablation')}: {self.ablation!r} is not one of {', '.join(ABLATIONS)}")
        self._iris("items")
        self._set("preserved", _fraction(self.preserved, self._what("preserved")))
        if self.necessity is not None:
            self._set("necessity", _fraction(self.necessity, self._what("necessity")))
        elif self.ablation == "leave-one-out":
            raise InvalidEntity(f"{self._what('necessity')}: a leave-one-out says how necessary its item is")
        self._optional_iri("document")

    def _body(self, out: Quads, about: About) -> None:
        out.about(self.verification).link(TGNEO.counterfactual, self.uri)
        self._derived_from(about)
        about.text(TGNEO.ablation, self.ablation)
        for item in self.items:
            about.link(TGNEO.ablated, item)
        about.text(TGNEO.preserved, self.preserved)
        if self.necessity is not None:
            about.text(TGNEO.necessity, self.necessity)
        if self.document is not None:
            about.link(TG.document, self.document)
        about.text(TG.llmDurationMs, self.duration_ms)
