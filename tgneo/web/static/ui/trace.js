// /ui/trace/{uri}: the stored trace, read from the trace API and drawn whole.
"use strict";
(async function () {
  const { api, markStandsWithout, renderCitations, renderVerdict, scope, Viewer } = window.tgneo;
  const uri = document.getElementById("trace-uri").dataset.uri;
  const status = document.getElementById("status");
  const viewer = new Viewer(document.getElementById("graph"), document.getElementById("details"), document.getElementById("steps"));
  window.tgneoViewer = viewer;
  const response = await api("/api/v1/traces/" + encodeURIComponent(uri) + "?" + scope());
  const body = await response.json();
  if (!response.ok) {
    status.textContent = (body.error && body.error.message) || response.statusText;
    status.className = "error";
    return;
  }
  document.getElementById("question-text").textContent = body.query || "";
  viewer.addTrace(body);
  // the session's own answer: its shallowest step that has answer sentences (sub-traces' lie deeper)
  const answering = body.steps.filter((s) => s.sentences && s.sentences.length).sort((a, b) => a.depth - b.depth)[0];
  if (answering) {
    document.getElementById("answer").textContent = answering.sentences.map((s) => s.text).join(" ");
    renderCitations(document.getElementById("citations"), answering.sentences);
  }
  // the latest counterfactual check of the answer, if it was checked: its verdict, and the sentences it found
  // standing without their evidence (the graph marks each selection necessary or not: Viewer.addTrace)
  renderVerdict(document.getElementById("verdict"), body.verification);
  if (body.verification) markStandsWithout(document.getElementById("citations"), body.verification.stands_without);
  const t = body.totals || {};
  document.getElementById("totals").textContent =
    `${t.inToken || 0} tokens in, ${t.outToken || 0} out · ${(t.models || []).join(", ")} · ${t.errors || 0} errors`;
  renderStale(body.stale || []);
  showHold(body.held);
  const compare = document.getElementById("compare");
  compare.hidden = false;
  compare.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = scope();
    params.set("a", uri);
    params.set("b", document.getElementById("compare-uri").value.trim());
    window.location.href = "/ui/diff?" + params;
  });
  status.textContent = `${body.steps.length} steps` + (body.truncated ? ` of ${body.total_steps} (truncated)` : "");
  status.dataset.state = "done";

  // A source document this answer used was replaced or removed since: say which, when, and what it touched.
  function renderStale(changes) {
    const box = document.getElementById("stale");
    box.replaceChildren();
    for (const change of changes) {
      const gone = change.edges.filter((e) => !e.asserted).length;
      const missing = change.chunks.filter((c) => !c.present).length;
      const parts = [];
      if (change.edges.length) parts.push(`${change.edges.length} selected edge(s)` + (gone ? `, ${gone} no longer in the graph` : ""));
      if (change.chunks.length) parts.push(`${change.chunks.length} selected chunk(s)` + (missing ? `, ${missing} gone` : ""));
      const line = document.createElement("p");
      line.className = "stale-change";
      line.dataset.change = change.change;
      line.textContent = `Stale since ${change.at}: ${change.label} (${change.document}); ${parts.join("; ")}.`;
      box.append(line);
    }
    box.hidden = changes.length === 0;
  }

  // The legal hold: shown, and toggled through the same API the CLI's `tgneo traces hold|release` mirrors.
  function showHold(held) {
    const state = document.getElementById("hold-state");
    const button = document.getElementById("hold-button");
    state.textContent = held ? "Held: retention never deletes this trace." : "Not held: retention may delete it.";
    state.className = held ? "held" : "";
    state.dataset.held = String(held);
    button.textContent = held ? "Release hold" : "Put on legal hold";
    button.onclick = async () => {
      button.disabled = true;
      const params = scope();
      const request = { uris: [uri], workspace: params.get("workspace") || undefined, collection: params.get("collection") || undefined };
      const response = await api("/api/v1/traces/" + (held ? "release" : "hold"), {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
      });
      const result = await response.json();
      button.disabled = false;
      if (!response.ok) {
        state.textContent = (result.error && result.error.message) || response.statusText;
        state.className = "error";
        return;
      }
      showHold(result.traces[0].held);
    };
    document.getElementById("hold").hidden = false;
  }
})();
