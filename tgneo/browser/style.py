"""The GraSS style sheet for tgneo's graph in Neo4j Browser: one rule per label, built from a table.

Neo4j Browser applies every rule whose labels a node has, in the order of the sheet, later rules
winning (``graphStyle.applyRules``), so the rows run from the mixins every node carries (``Resource``,
``Explain``) to the step types, and a compound rule last (``Observation.Error``) paints failed tool
calls red whatever else they are. Captions name stored properties — ``{query}`` on a question,
``{concept}`` on grounding, ``{title}`` on a document — which Browser fills in per node (a list is
joined with commas). Browser splits each declaration on ``:`` and ``;``, so a caption never holds them.
Browser's GraSS parser knows no comments: whatever stands outside braces, whitespace removed, becomes
part of the next selector, so a ``/* … */`` header would turn the base ``node`` rule into a selector
no node matches. The sheet holds rules only.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo.vocab import Label, Rel


@dataclass(frozen=True)
class NodeStyle:
    """How Neo4j Browser draws nodes with all of ``labels``: fill colour, diameter in px, caption template."""

    labels: tuple[Label, ...]
    color: str
    diameter: int
    caption: str

    @property
    def selector(self) -> str:
        return "node." + ".".join(self.labels)


def _n(label: Label, color: str, diameter: int, caption: str) -> NodeStyle:
    return NodeStyle((label,), color, diameter, caption)


NODE_STYLES: tuple[NodeStyle, ...] = (
    # mixins first: they only set what nothing more specific overrides
    _n(Label.RESOURCE, "#C7CED8", 35, "{name}"),  # knowledge-graph entities carry their indexed name
    _n(Label.CONTENT, "#E9E4D4", 40, "{text}"),  # answer, thought and observation texts
    _n(Label.EXPLAIN, "#9AA1AC", 55, "{label}"),
    _n(Label.ANSWER, "#2E8B57", 65, "{label}"),
    _n(Label.ERROR, "#D64541", 60, "{toolError}"),
    # the knowledge graph and its extraction provenance
    _n(Label.STATEMENT, "#F2C14E", 45, "{p}"),
    _n(Label.SUBGRAPH, "#B39DDB", 35, "subgraph"),
    _n(Label.CHUNK, "#9FA8DA", 45, "{label}"),
    _n(Label.SECTION, "#7E8CCF", 50, "{label}"),
    _n(Label.PAGE, "#7E8CCF", 50, "{label}"),
    _n(Label.DOCUMENT, "#3F51B5", 75, "{title}"),
    # GraphRAG and Document RAG steps
    _n(Label.QUESTION, "#E8710A", 80, "{query}"),
    _n(Label.GROUNDING, "#4FB3BF", 60, "{concept}"),
    _n(Label.EXPLORATION, "#3A9CA8", 60, "{edgeCount} edges explored"),
    _n(Label.FOCUS, "#2C7F89", 60, "{label}"),
    _n(Label.EDGE_SELECTION, "#F6A04D", 40, "{concept} {score}"),
    _n(Label.CHUNK_SELECTION, "#F6A04D", 40, "chunk {score}"),
    _n(Label.SYNTHESIS, "#2E8B57", 70, "{label}"),
    _n(Label.ANSWER_SENTENCE, "#7BC89C", 40, "{sentenceIndex} {value}"),
    _n(Label.DOCUMENT_CHANGE, "#D9534F", 45, "{change}"),
    _n(Label.RETRIEVAL_HIT, "#9FD3D9", 30, "#{rank}"),
    _n(Label.QUESTION_PART, "#F3B27A", 45, "{partIndex} {value}"),
    # the counterfactual check of an answer: its verdict; each re-run, leaving out one selection, that selection's
    # necessity first (what a small node has room for), then how it altered the evidence (all the others show)
    _n(Label.VERIFICATION, "#AD1457", 60, "{verdict}"),
    _n(Label.COUNTERFACTUAL, "#F48FB1", 50, "{necessity} {ablation}"),
    # agents
    _n(Label.PATTERN_DECISION, "#8E7CC3", 55, "{pattern}"),
    _n(Label.ANALYSIS, "#6A5ACD", 60, "{action}"),
    _n(Label.THOUGHT, "#B4A7D6", 45, "{label}"),
    _n(Label.OBSERVATION, "#5B8DEF", 55, "{label}"),
    _n(Label.CONCLUSION, "#2E8B57", 70, "{label}"),
    _n(Label.PLAN, "#8E7CC3", 60, "{planStep}"),
    _n(Label.STEP_RESULT, "#4C9A6A", 55, "{planStep}"),
    _n(Label.DECOMPOSITION, "#8E7CC3", 60, "{subagentGoal}"),
    _n(Label.FINDING, "#4C9A6A", 55, "{subagentGoal}"),
    # a failed tool call is red whatever else it is
    NodeStyle((Label.OBSERVATION, Label.ERROR), "#D64541", 60, "{toolError}"),
)

REL_COLORS: dict[Rel, str] = {
    Rel.WAS_DERIVED_FROM: "#6B7280",
    Rel.SELECTED_EDGE: "#F6A04D",
    Rel.EDGE: "#F2C14E",
    Rel.CONTAINS: "#B39DDB",
    Rel.SELECTED_CHUNK: "#F6A04D",
    Rel.DOCUMENT: "#2E8B57",
    Rel.THOUGHT: "#B4A7D6",
    Rel.SENTENCE: "#7BC89C",
    Rel.HIT: "#9FD3D9",
    Rel.RETRIEVED: "#9FD3D9",
    Rel.QUESTION_PART: "#F3B27A",
    Rel.FOR_PART: "#F3B27A",
    Rel.STANDS_WITHOUT: "#D64541",
    Rel.COUNTERFACTUAL: "#AD1457",
    Rel.ABLATED: "#F48FB1",
    Rel.SUBJECT: "#C7CED8",
    Rel.OBJECT: "#C7CED8",
}


def _darker(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(c * 0.8) for c in (r, g, b)))


def _text_color(color: str) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#1F2328" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def _rule(selector: str, props: dict[str, str]) -> str:
    body = "".join(f"  {key}: {value};\n" for key, value in props.items())
    return f"{selector} {{\n{body}}}\n"


def grass() -> str:
    """The style sheet, as Neo4j Browser's ``:style <url>`` reads it."""
    rules = [
        _rule("node", {"diameter": "50px", "color": "#A5ABB6", "border-color": "#9AA1AC", "border-width": "2px",
                       "text-color-internal": "#FFFFFF", "font-size": "10px"}),
        _rule("relationship", {"color": "#A5ABB6", "shaft-width": "1px", "font-size": "8px", "padding": "3px",
                               "text-color-external": "#000000", "text-color-internal": "#FFFFFF",
                               "caption": "'<type>'"}),
    ]  # fmt: skip
    for style in NODE_STYLES:
        rules.append(
            _rule(style.selector, {
                "color": style.color, "border-color": _darker(style.color),
                "text-color-internal": _text_color(style.color), "diameter": f"{style.diameter}px",
                "caption": f"'{style.caption}'",
            })
        )  # fmt: skip
    for rel, color in REL_COLORS.items():
        rules.append(_rule(f"relationship.{rel}", {"color": color, "shaft-width": "2px", "caption": "'<type>'"}))
    return "\n".join(rules)
