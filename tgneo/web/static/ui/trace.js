// /ui/trace/{uri}: the stored trace, read from the trace API and drawn whole.
"use strict";
(async function () {
  const { api, scope, Viewer } = window.tgneo;
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
  const t = body.totals || {};
  document.getElementById("totals").textContent =
    `${t.inToken || 0} tokens in, ${t.outToken || 0} out · ${(t.models || []).join(", ")} · ${t.errors || 0} errors`;
  status.textContent = `${body.steps.length} steps` + (body.truncated ? ` of ${body.total_steps} (truncated)` : "");
  status.dataset.state = "done";
})();
