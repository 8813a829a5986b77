// /ui/trace/{uri}: the stored trace, read from the trace API and drawn whole.
"use strict";
(async function () {
  const { api, renderCitations, scope, Viewer } = window.tgneo;
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
  const t = body.totals || {};
  document.getElementById("totals").textContent =
    `${t.inToken || 0} tokens in, ${t.outToken || 0} out · ${(t.models || []).join(", ")} · ${t.errors || 0} errors`;
  status.textContent = `${body.steps.length} steps` + (body.truncated ? ` of ${body.total_steps} (truncated)` : "");
  status.dataset.state = "done";
})();
