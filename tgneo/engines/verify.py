"""The counterfactual check of an answer: does it depend on the evidence it cites?

A trace says what the answering stage was *given* and which evidence each answer sentence cites. This module
re-runs that stage on altered evidence and compares what it says (ContextCite's and SelfCite's ablations, XGRAG's
removal of graph edges, made deterministic):

* **without the cited evidence** — every item an answer sentence cites removed (GraphRAG: a selected edge's fact and
  its evidence sentence; Document RAG: a selected chunk; the agent: an observation). A sentence that the re-run
  *still says* stands without its evidence: it was not drawn from it (a model's memory, a sentence made up);
* **with only the cited evidence** — its *sufficiency*: the share of the answer the cited items alone still give;
* **leaving out one item at a time**, the most cited first, within the budget: the item's *necessity*, the share of
  the answer's sentences the re-run no longer says (a selected item no sentence uses scores about 0).

**How "says the same thing" is judged**, deterministically for the offline provider and with the configured
embedder otherwise: an answer sentence is still said by a re-run when one of the re-run's sentences scores at least
:data:`SAME` with it, the score being ``0.6 ×`` the share of key terms the two sentences share (the lesser of the two
directions of :func:`tgneo.nlp.align.support`, so a longer sentence holding a shorter one is not "the same") ``+
0.4 ×`` the cosine of their embeddings — and 0 when the re-run's sentence lacks a number the answer's gives (*awarded
the Nobel Prize in Physics in 1903* and *… in Chemistry in 1911* share most words and meaning, and are two facts).
The threshold was chosen on the sample and is measured on the quality sets (docs/answer-quality.md, "Does the answer
depend on its evidence?").

**The verdict**: ``supported`` when no answer sentence stands without its evidence, ``partly`` when some do (the
check names them), ``unsupported`` when all do, or when the answer cites nothing at all. The answering stage is
whatever the caller passes (:data:`Answerer`): tgneo's engines re-run their own synthesis task on the configured
provider, neo4j-graphrag's ``ExplainedGraphRAG`` re-calls the user's own LLM with the retriever's prompt.
"""

from __future__ import annotations

import logging
import math
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tgneo.errors import BadRequest
from tgneo.explain.citations import answer_sentence_uri
from tgneo.explain.events import Necessity, VerificationSummary
from tgneo.explain.verification import (
    Ablation,
    Counterfactual,
    Verdict,
    Verification,
    counterfactual_uri,
    verification_uri,
)
from tgneo.llm.base import LLM, Completion, LLMError, Task
from tgneo.nlp.align import support
from tgneo.nlp.segment import units

__all__ = [
    "DEFAULT_BUDGET",
    "Answering",
    "SAME",
    "Answerer",
    "Budget",
    "Check",
    "Item",
    "ReRun",
    "budget_of",
    "check",
    "recorded",
    "summary",
    "task_answerer",
]

log = logging.getLogger("tgneo.verify")

SAME = 0.8
"""The least score at which two sentences say the same thing (module docstring)."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
LEXICAL_WEIGHT = 0.6
"""How much of the sameness score is shared key terms; the rest is embedding similarity."""
SUFFICIENT = 0.5
"""The least sufficiency at which the cited evidence alone counts as enough (``sufficient`` in the API)."""


@dataclass(frozen=True)
class Budget:
    """How much a check may cost: at most ``calls`` re-runs of the answering stage in all (the two whole-answer
    re-runs first, then one leave-one-out per item, the most cited first)."""

    calls: int = 6

    def __post_init__(self) -> None:
        if not isinstance(self.calls, int) or isinstance(self.calls, bool) or self.calls < 2:
            raise ValueError(f"a verification budget needs at least 2 calls, not {self.calls!r}")


DEFAULT_BUDGET = Budget()
"""Two whole-answer re-runs and four leave-one-outs: measured as ``verify_overhead`` in the engines bench."""


def budget_of(value: object, key: str = "verify") -> Budget | None:
    """A request's ``verify`` as a check's budget: ``False``/``None`` no check, ``True`` the default, a whole number
    the most re-runs.

    Raises:
        BadRequest: anything else, or a number below 2 (the two whole-answer re-runs are the check itself).
    """
    if value is None or value is False:
        return None
    if value is True:
        return DEFAULT_BUDGET
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= MAX_BUDGET:
        raise BadRequest(
            f"{key}: true, false or the most re-runs of the answering stage (2 to {MAX_BUDGET}), not {value!r}"
        )
    return Budget(value)


MAX_BUDGET = 64
"""The most re-runs one check may ask for (a request must not buy unbounded model calls)."""


@dataclass(frozen=True)
class Item:
    """One piece of evidence the answering stage was given.

    Attributes:
        uri: The selection it came through (an EdgeSelection, ChunkSelection, Observation …): what the check names.
        payload: What the stage is given for it (the engine's own shape: a fact and its sentence, a passage …).
        text: Its text, as people read it.
    """

    uri: str
    payload: Mapping[str, Any]
    text: str


Answerer = Callable[[Sequence[Item]], Completion]
"""Runs the answering stage on these items (in the order given) and returns what it said and cost."""


@dataclass(frozen=True)
class ReRun:
    """One counterfactual: how the evidence was altered, the items concerned, what the stage said, how much of the
    original answer it still said, and (leave-one-out) the item's necessity."""

    ablation: Ablation
    items: tuple[str, ...]
    answer: str
    preserved: float
    completion: Completion
    necessity: float | None = None


@dataclass(frozen=True)
class Check:
    """The outcome of a check (:func:`check`).

    Attributes:
        verdict: ``supported``, ``partly`` or ``unsupported``.
        sufficiency: The share of the answer still given with only the cited evidence.
        stands_without: The indexes (1-based) of the answer sentences still said without their evidence.
        necessity: Each item's necessity, for the items a leave-one-out was run for (by URI, in that order).
        cited: The items the answer cites, most cited first.
        reruns: Every counterfactual, in the order run.
        model: The model that answered the re-runs.
    """

    verdict: Verdict
    sufficiency: float
    stands_without: tuple[int, ...]
    necessity: Mapping[str, float]
    cited: tuple[str, ...]
    reruns: tuple[ReRun, ...] = ()
    model: str | None = None
    sentences: tuple[str, ...] = field(default=(), repr=False)

    @property
    def sufficient(self) -> bool:
        """Whether the cited evidence alone still gives most of the answer (:data:`SUFFICIENT`)."""
        return self.sufficiency >= SUFFICIENT

    @property
    def calls(self) -> int:
        return len(self.reruns)

    @property
    def in_tokens(self) -> int:
        return sum(r.completion.in_tokens for r in self.reruns)

    @property
    def out_tokens(self) -> int:
        return sum(r.completion.out_tokens for r in self.reruns)

    @property
    def duration_ms(self) -> int:
        return sum(r.completion.duration_ms for r in self.reruns)


def sentences_of(text: str) -> list[str]:
    """An answer's sentences, as attribution numbers them (headings left out)."""
    return [u.text for u in units(text) if u.kind != "heading"]


class _Judge:
    """Says whether a sentence is still said by an answer; embeddings are computed once per text."""

    def __init__(self, llm: LLM | None) -> None:
        self.llm = llm
        self.vectors: dict[str, Sequence[float]] = {}

    def _embed(self, texts: Sequence[str]) -> None:
        fresh = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if not fresh or self.llm is None:
            return
        try:
            self.vectors.update(zip(fresh, self.llm.embed(fresh).vectors, strict=True))
        except LLMError as e:  # the lexical half alone decides, as attribution does
            log.warning("verification without embeddings (%s); key terms alone decide", e)
            self.llm = None

    def same(self, a: str, b: str) -> float:
        if not _NUMBER.findall(a) or set(_NUMBER.findall(a)) <= set(_NUMBER.findall(b)):
            lexical = min(support(a, b), support(b, a))
        else:  # a year, a count, a version another sentence does not give: another fact, however alike the words
            return 0.0
        va, vb = self.vectors.get(a), self.vectors.get(b)
        if va is None or vb is None:
            return lexical
        return LEXICAL_WEIGHT * lexical + (1 - LEXICAL_WEIGHT) * max(0.0, _cosine(va, vb))

    def still_said(self, originals: Sequence[str], answer: str) -> list[bool]:
        said = sentences_of(answer)
        self._embed([*originals, *said])
        return [any(self.same(o, s) >= SAME for s in said) for o in originals]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def check(
    answer: str,
    items: Sequence[Item],
    cites: Sequence[Sequence[str]],
    answerer: Answerer,
    judge: LLM | None,
    budget: Budget = DEFAULT_BUDGET,
) -> Check:
    """Check ``answer`` against the ``items`` it was given (module docstring).

    Args:
        answer: The answer as it was given.
        items: Every item the answering stage was given, in the order it was given them.
        cites: For each answer sentence (in order), the URIs of the items it cites.
        answerer: Re-runs the answering stage on a list of items.
        judge: Whose embedder gives the semantic half of the sameness score (``None``: key terms alone).
        budget: How many re-runs the check may make.

    Raises:
        LLMError: the answering stage failed (the check records nothing then).
    """
    originals = sentences_of(answer)
    counts: dict[str, int] = {}
    for index, cited in enumerate(cites):
        sentence = originals[index] if index < len(originals) else ""
        for uri in dict.fromkeys([*cited, *_holding(items, cited, sentence)]):
            counts[uri] = counts.get(uri, 0) + 1
    known = {item.uri for item in items}
    cited_uris = tuple(sorted((u for u in counts if u in known), key=lambda u: (-counts[u], _order(items, u))))
    if not originals or not cited_uris:
        every = tuple(range(1, len(originals) + 1))  # nothing cited: nothing to depend on, and nothing to re-run
        model = judge.model if judge is not None else None
        return Check("unsupported", 0.0, every, {}, cited_uris, model=model, sentences=tuple(originals))
    judged = _Judge(judge)
    reruns: list[ReRun] = []

    def rerun(ablation: Ablation, concerned: Sequence[str], given: Sequence[Item]) -> list[bool]:
        completion = answerer(given)
        said = judged.still_said(originals, completion.text)
        preserved = sum(said) / len(originals)
        necessity = round(1.0 - preserved, 4) if ablation == "leave-one-out" else None
        reruns.append(ReRun(ablation, tuple(concerned), completion.text, round(preserved, 4), completion, necessity))
        return said

    cited_set = set(cited_uris)
    without = rerun("without-cited", cited_uris, [i for i in items if i.uri not in cited_set])
    only = rerun("only-cited", cited_uris, [i for i in items if i.uri in cited_set])
    necessity: dict[str, float] = {}
    uncited = [i.uri for i in items if i.uri not in cited_set]
    text_of = {i.uri: i.text for i in items}
    for uri in [*cited_uris, *uncited][: max(0, budget.calls - 2)]:
        # the item and whatever brought the same text (a second edge read from one sentence): what it contributed
        rerun("leave-one-out", (uri,), [i for i in items if i.uri != uri and i.text != text_of[uri]])
        necessity[uri] = reruns[-1].necessity or 0.0
    stands = tuple(i for i, said in enumerate(without, start=1) if said)
    verdict: Verdict = "supported" if not stands else "unsupported" if len(stands) == len(originals) else "partly"
    model = next((r.completion.model for r in reversed(reruns) if r.completion.model), None)
    return Check(verdict, round(sum(only) / len(originals), 4), stands, necessity, cited_uris, tuple(reruns), model,
                 tuple(originals))  # fmt: skip


HOLDS = 0.8
"""The least share of an answer sentence's key terms an item must hold to count as holding it (:func:`_holding`)."""


def _holding(items: Sequence[Item], cited: Sequence[str], sentence: str) -> list[str]:
    """The items besides the cited ones that hold ``sentence`` too: the same text as a cited item (two edges read from
    one sentence), or most of its key terms (a second tool that found the same passage). Without them a re-run
    "without the cited evidence" would still be handed it, and a sentence drawn from evidence would seem to stand
    without it."""
    texts = {i.text for i in items if i.uri in set(cited)}
    return [
        i.uri for i in items
        if i.uri not in cited and (i.text in texts or (sentence and support(i.text, sentence) >= HOLDS))
    ]  # fmt: skip


def _order(items: Sequence[Item], uri: str) -> int:
    return next((i for i, item in enumerate(items) if item.uri == uri), len(items))


def task_answerer(llm: LLM, task: Callable[[Sequence[Item]], Task]) -> Answerer:
    """The answering stage as tgneo's engines run it: ``task(items)`` completed by ``llm``, timed."""

    def answer(items: Sequence[Item]) -> Completion:
        started = time.perf_counter()
        done = llm.complete(task(items))
        elapsed = int((time.perf_counter() - started) * 1000)
        return done if done.duration_ms else Completion(done.text, done.in_tokens, done.out_tokens, done.model, elapsed)

    return answer


@dataclass(frozen=True)
class Answering:
    """What a check needs from an answered question: the answer step, the items its answering stage was given, and
    how to run that stage again (an engine's :class:`~tgneo.engines.base.Outcome` carries one)."""

    step: str
    answer: str
    items: tuple[Item, ...]
    cites: tuple[tuple[str, ...], ...]
    task: Callable[[Sequence[Item]], Task]


def recorded(checked: Check, step: str) -> tuple[Verification, list[Counterfactual], dict[str, str]]:
    """The check as the trace records it: a new Verification of ``step``, its Counterfactuals (each re-run's answer
    kept in the librarian: the returned contents, by document id), ready for :meth:`Session.record`."""
    uri = verification_uri(step, uuid.uuid4().hex[:12])
    counterfactuals: list[Counterfactual] = []
    contents: dict[str, str] = {}
    for index, run in enumerate(checked.reruns, start=1):
        cf = counterfactual_uri(uri, index)
        document = f"{cf}/answer"
        contents[document] = run.answer
        counterfactuals.append(
            Counterfactual(
                uri=cf,
                verification=uri,
                ablation=run.ablation,
                items=run.items,
                preserved=run.preserved,
                necessity=run.necessity,
                document=document,
                in_token=run.completion.in_tokens,
                out_token=run.completion.out_tokens,
                model=run.completion.model or None,
                duration_ms=run.completion.duration_ms,
            )  # fmt: skip
        )
    sentences = tuple(answer_sentence_uri(step, i) for i in checked.stands_without)
    verification = Verification(
        uri=uri, answer=step, verdict=checked.verdict, sufficiency=checked.sufficiency, stands_without=sentences,
        calls=checked.calls, model=checked.model,
    )  # fmt: skip
    return verification, counterfactuals, contents


def summary(checked: Check, verification: str) -> VerificationSummary:
    """The check as the final message carries it (``verification``: verdict, sufficient, model, items), recorded as
    the Verification ``verification``."""
    items = tuple(Necessity(uri, value) for uri, value in checked.necessity.items())
    return VerificationSummary(checked.verdict, checked.sufficient, checked.sufficiency, checked.model, items,
                               checked.stands_without, verification)  # fmt: skip
