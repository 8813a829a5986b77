// /ui/: ask over the WebSocket /api/v1/stream and draw each step as its explain message arrives
// (the step is already durable in Neo4j then); at the end, the stored trace fills in the edges and sources.
// With "verify" ticked the request asks for the counterfactual check ("verify": true): its Verification
// arrives after the answer, its verdict shown at once, and the final message says which selections it needed.
"use strict";
(function () {
  const { api, authorised, config, markStandsWithout, renderCitations, renderVerdict, scope, token, typeOf, Viewer } = window.tgneo;
  const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
  const DERIVED = "http://www.w3.org/ns/prov#wasDerivedFrom";
  const status = document.getElementById("status");
  const answer = document.getElementById("answer");
  let viewer = null;

  // The local name of a class or predicate IRI: after its last "/" or "#", or ":" (tgneo's own, urn:tgneo:ns:…).
  function local(iri) { return iri.slice(Math.max(iri.lastIndexOf("/"), iri.lastIndexOf("#"), iri.lastIndexOf(":")) + 1); }

  // A step as the trace API would give it, from the triples of its explain message.
  function stepFrom(message) {
    const id = message.explain_id;
    const labels = [], parents = [], properties = {};
    for (const t of message.explain_triples || []) {
      if (!t.s || t.s.i !== id) continue;
      if (t.p.i === RDF_TYPE && t.o.i) labels.push(local(t.o.i));
      else if (t.p.i === DERIVED && t.o.i) parents.push(t.o.i);
      else if (t.o.t === "l") {
        const key = local(t.p.i);
        properties[key] = properties[key] == null ? t.o.v : [].concat(properties[key], t.o.v);
      }
    }
    return { uri: id, type: typeOf(labels), labels, parents, properties };
  }

  function socketUrl() {
    const params = scope();
    if (token()) params.set("token", token());
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/v1/stream?" + params;
  }

  async function ask(service, question, collection, verify) {
    await authorised();
    document.getElementById("steps").replaceChildren();
    document.getElementById("stored").replaceChildren();
    answer.textContent = "";
    renderCitations(document.getElementById("citations"), []);
    renderVerdict(document.getElementById("verdict"), null);
    if (viewer) viewer.cy.destroy();
    viewer = new Viewer(document.getElementById("graph"), document.getElementById("details"), document.getElementById("steps"));
    window.tgneoViewer = viewer;
    const request = { [config.services[service]]: question, collection };
    if (verify) request.verify = true;
    const socket = new WebSocket(socketUrl());
    let root = null;
    status.textContent = "asking…";
    status.dataset.state = "asking";
    socket.onopen = () => socket.send(JSON.stringify({ service, request }));
    socket.onmessage = async (event) => {
      const message = JSON.parse(event.data);
      if (message.error) {
        status.textContent = "error: " + (message.error.message || message.error);
        status.className = "error";
        status.dataset.state = "error";
        socket.close();
        return;
      }
      if (message.message_type === "explain") {
        const step = stepFrom(message);
        root = root || step.uri;
        viewer.addStep(step);
        viewer.layout();
        if (step.type === "Verification") renderVerdict(document.getElementById("verdict"), step.properties);
        status.textContent = `${viewer.steps.children.length} steps…`;
      } else if (typeof message.response === "string" && message.message_type === "chunk") {
        answer.textContent += message.response;
      } else if (message.message_type === "answer" && message.content) {
        answer.textContent += message.content;
      }
      if (message.end_of_session || message.end_of_dialog) {
        renderCitations(document.getElementById("citations"), message.citations);
        const check = message.verification;
        if (check) {
          renderVerdict(document.getElementById("verdict"), check);
          markStandsWithout(document.getElementById("citations"), check.stands_without);
          viewer.setNecessity(Object.fromEntries((check.items || []).map((i) => [i.iri, i.necessity])), check.uri);
        }
        socket.close();
        await finish(root, collection);
      }
    };
    socket.onerror = () => { status.textContent = "the connection failed"; status.className = "error"; };
  }

  // The stream is over: read the stored trace for what messages do not carry (edges, sources, texts).
  async function finish(root, collection) {
    if (!root) return;
    const params = scope();
    params.set("collection", collection);
    const response = await api("/api/v1/traces/" + encodeURIComponent(root) + "?" + params);
    if (response.ok) viewer.addTrace(await response.json());
    const link = document.createElement("a");
    link.href = "/ui/trace/" + encodeURIComponent(root) + "?" + params;
    link.textContent = "open the stored trace";
    document.getElementById("stored").appendChild(link);
    status.textContent = `done: ${viewer.steps.children.length} steps`;
    status.dataset.state = "done";
  }

  document.getElementById("ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    ask(form.get("service"), form.get("question"), form.get("collection") || "default", form.get("verify") === "on");
  });
  const page = new URLSearchParams(location.search);
  if (page.get("collection")) document.getElementById("collection").value = page.get("collection");
  authorised();
})();
