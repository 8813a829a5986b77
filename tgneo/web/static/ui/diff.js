// /ui/diff?a=URI&b=URI[&collection=…&b_collection=…]: two answers side by side, read from the diff API
// (GET /api/v1/traces/diff, the same comparison `tgneo trace diff` prints): A's side shows what only A had
// (and A's value of what changed), B's side what only B has (and B's value).
"use strict";
(async function () {
  const { api, scope } = window.tgneo;
  const page = new URLSearchParams(window.location.search);
  const status = document.getElementById("status");
  const params = scope();
  for (const key of ["a", "b", "b_collection"]) if (page.get(key)) params.set(key, page.get(key));
  const response = await api("/api/v1/traces/diff?" + params);
  const body = await response.json();
  if (!response.ok) {
    status.textContent = (body.error && body.error.message) || response.statusText;
    status.className = "error";
    return;
  }
  for (const side of ["a", "b"]) {
    const s = body[side];
    const head = document.querySelector(`#side-${side} .head`);
    const link = document.createElement("a");
    link.href = `/ui/trace/${encodeURIComponent(s.uri)}?` + new URLSearchParams({ workspace: s.workspace, collection: s.collection });
    link.textContent = s.uri;
    head.append(line(`${s.type} · ${s.workspace}/${s.collection} · ${s.startedAtTime}`), line(s.query || ""), link);
  }

  const sections = document.getElementById("diff-sections");
  const edge = (e) => `${e.edge}` + (e.score != null ? ` (score ${Number(e.score).toFixed(2)})` : "") + (e.reasoning ? ` — ${e.reasoning}` : "");
  const chunk = (c) => `${c.chunk}` + (c.score != null ? ` (score ${Number(c.score).toFixed(2)})` : "") + ` “${c.text}”`;
  const tool = (t) => `${t.tool}(${t.arguments}) → ${t.result || ""}`;
  const sentence = (s) => `${s.text}` + (s.citations.length ? ` [${s.citations.join(" | ")}]` : "");
  section("Concepts", body.concepts.removed.map((c) => [c, "removed"]), body.concepts.added.map((c) => [c, "added"]), null);
  compared("Seed entities", body.entities, (e) => e.label || e.uri);
  compared("Selected edges", body.edges, edge);
  compared("Selected chunks", body.chunks, chunk);
  compared("Tool calls", body.tool_calls, tool);
  compared("Answer sentences", body.sentences, sentence);
  const usage = body.usage;
  const spent = (u) => `${u.inToken} tokens in, ${u.outToken} out · llm ${u.llmDurationMs} ms, tools ${u.toolDurationMs} ms · ${u.models.join(", ")}`;
  section("Tokens, latency, models", [[spent(usage.a), "kept"]], [[spent(usage.b), "kept"]], null);
  status.textContent = body.same_question ? "same question" : "different questions";
  status.dataset.state = "done";

  function line(text) {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }

  // A category of the comparison: removed and A's side of each change left, added and B's side right.
  function compared(title, part, text) {
    const changedA = part.changed.map((c) => [text(Object.assign({}, c, pick(c.changes, "a"))), "changed"]);
    const changedB = part.changed.map((c) => [text(Object.assign({}, c, pick(c.changes, "b"))), "changed"]);
    section(title, part.removed.map((x) => [text(x), "removed"]).concat(changedA),
            part.added.map((x) => [text(x), "added"]).concat(changedB), part.kept);
  }

  function pick(changes, side) {
    const values = {};
    for (const [field, value] of Object.entries(changes)) values[field] = value[side];
    return values;
  }

  function section(title, left, right, kept) {
    const box = document.createElement("section");
    box.className = "diff-section";
    box.dataset.section = title;
    const heading = document.createElement("h3");
    heading.textContent = title;
    box.append(heading);
    if (kept != null) {
      const note = document.createElement("p");
      note.className = "kept";
      note.textContent = `${kept} in both, unchanged or changed as shown`;
      box.append(note);
    }
    const row = document.createElement("div");
    row.className = "diff-row";
    for (const [items, side] of [[left, "a"], [right, "b"]]) {
      const list = document.createElement("ul");
      list.dataset.side = side;
      for (const [text, kind] of items) {
        const li = document.createElement("li");
        li.className = kind;
        li.textContent = (kind === "removed" ? "− " : kind === "added" ? "+ " : kind === "changed" ? "~ " : "") + text;
        list.append(li);
      }
      row.append(list);
    }
    box.append(row);
    sections.append(box);
  }
})();
