// The trace viewer's shared part: API access with an optional token, and a cytoscape graph that
// draws a trace as a layered DAG (steps in order, edge selections fanning out to statements and on
// to their source documents) with node details on click. trace.js and live.js feed it.
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("tgneo-config").textContent);
  const TOKEN_KEY = "tgneo-token";
  const page = new URLSearchParams(location.search);

  function scope() {
    const params = new URLSearchParams();
    for (const key of ["workspace", "collection"]) if (page.get(key)) params.set(key, page.get(key));
    return params;
  }

  function token() { return sessionStorage.getItem(TOKEN_KEY); }

  // Show the token dialog and resolve once the user has entered one (kept for this browser tab).
  function askToken() {
    const dialog = document.getElementById("token-dialog");
    const form = document.getElementById("token-form");
    return new Promise((resolve) => {
      form.addEventListener("submit", () => {
        sessionStorage.setItem(TOKEN_KEY, document.getElementById("token-input").value.trim());
        resolve();
      }, { once: true });
      if (!dialog.open) dialog.showModal();
    });
  }

  // fetch() with the token when there is one; a 401 asks for a token and tries again.
  async function api(path, options = {}) {
    for (;;) {
      const headers = Object.assign({}, options.headers || {});
      if (token()) headers.Authorization = "Bearer " + token();
      const response = await fetch(path, Object.assign({}, options, { headers }));
      if (response.status !== 401) return response;
      sessionStorage.removeItem(TOKEN_KEY);
      await askToken();
    }
  }

  // Resolves once the API accepts this page (asking for a token first when the server wants one).
  async function authorised() {
    const params = scope();
    params.set("limit", "1");
    await api("/api/v1/traces?" + params);
  }

  function typeOf(labels) {
    for (const label of config.specificity) if (labels.includes(label)) return label;
    return "Resource";
  }

  function short(iri) {
    if (!iri) return "";
    const cut = Math.max(iri.lastIndexOf("/"), iri.lastIndexOf("#"), iri.lastIndexOf(":"));
    return cut >= 0 && cut < iri.length - 1 ? iri.slice(cut + 1) : iri;
  }

  function clip(text, n) { text = String(text == null ? "" : text); return text.length > n ? text.slice(0, n - 1) + "…" : text; }

  function stepCaption(type, props) {
    const p = props || {};
    const pick = { GraphRagQuestion: p.query, DocRagQuestion: p.query, AgentQuestion: p.query, Question: p.query,
      Grounding: p.concept && [].concat(p.concept).join(", "), Exploration: p.edgeCount != null && p.edgeCount + " edges explored",
      Analysis: p.action, PatternDecision: p.pattern, Plan: p.planStep && [].concat(p.planStep).join("; "),
      Decomposition: p.subagentGoal && [].concat(p.subagentGoal).join("; "), Observation: p.toolError };
    const text = pick[type];
    return type + (text ? "\n" + clip(text, 60) : "");
  }

  const STYLE = [
    { selector: "node", style: { "background-color": "data(color)", label: "data(label)", "font-size": 10,
      "text-wrap": "wrap", "text-max-width": 160, "text-valign": "bottom", "text-margin-y": 4, width: 28, height: 28 } },
    { selector: "node.step", style: { shape: "round-rectangle", width: 44, height: 30, "font-size": 11, "font-weight": 600 } },
    { selector: "node.selection", style: { width: 16, height: 16, "font-size": 9 } },
    { selector: "node.statement", style: { shape: "diamond" } },
    { selector: "node.document", style: { shape: "rectangle", width: 30, height: 36 } },
    { selector: "node.error", style: { "border-width": 3, "border-color": "#b42318" } },
    { selector: "node:selected", style: { "border-width": 4, "border-color": "#1f6feb" } },
    { selector: "edge", style: { width: 1.5, "line-color": "#b6bcc6", "target-arrow-color": "#b6bcc6",
      "target-arrow-shape": "triangle", "curve-style": "bezier" } },
    { selector: "edge.derived", style: { width: 3, "line-color": "#6b7280", "target-arrow-color": "#6b7280" } },
  ];

  class Viewer {
    constructor(container, detailsPanel, stepList) {
      this.details = detailsPanel;
      this.steps = stepList;
      this.info = new Map(); // node id -> what the details panel shows
      this.triples = null; // lazily fetched N-Triples lines of the stored trace
      this.traceUri = null;
      this.cy = cytoscape({ container, style: STYLE, wheelSensitivity: 0.3, minZoom: 0.1, maxZoom: 3 });
      this.cy.on("tap", "node", (event) => this.select(event.target.id()));
    }

    color(type) { return config.colors[type] || "#9aa1ac"; }

    node(id, label, type, classes, info) {
      const existing = this.cy.getElementById(id);
      if (existing.nonempty()) { // the stored trace completes what a live message said
        existing.data("label", label);
        this.info.set(id, Object.assign({ id, type }, info));
        return;
      }
      this.cy.add({ group: "nodes", data: { id, label, type, color: this.color(type) }, classes });
      this.info.set(id, Object.assign({ id, type }, info));
    }

    edge(source, target, classes) {
      const id = source + "->" + target;
      if (source === target || this.cy.getElementById(id).nonempty()) return;
      if (this.cy.getElementById(source).empty() || this.cy.getElementById(target).empty()) return;
      this.cy.add({ group: "edges", data: { id, source, target }, classes });
    }

    // One step of a trace (from the trace API, or built from an explain message), with what it selected.
    addStep(step) {
      const type = step.type || typeOf(step.labels || []);
      const isError = (step.labels || []).includes("Error") || (step.properties || {}).toolError != null;
      this.node(step.uri, stepCaption(type, step.properties), type, "step" + (isError ? " error" : ""), { step });
      if (!this.steps.querySelector(`li[data-uri="${CSS.escape(step.uri)}"]`)) {
        const li = document.createElement("li");
        li.dataset.uri = step.uri;
        li.dataset.type = type;
        li.style.setProperty("--c", this.color(type));
        li.innerHTML = `<span class="type"></span> <span class="caption"></span>`;
        li.querySelector(".type").textContent = type;
        li.querySelector(".caption").textContent = clip(stepCaption(type, step.properties).split("\n")[1] || "", 80);
        li.addEventListener("click", () => this.select(step.uri));
        this.steps.appendChild(li);
      }
      for (const parent of step.parents || []) this.edge(parent, step.uri, "derived");
      for (const selection of step.edges || []) this.addEdgeSelection(step.uri, selection);
      for (const chunk of step.chunks || []) this.addChunkSelection(step.uri, chunk);
      for (const uri of step.selected_chunks || []) this.node(uri, short(uri), "Chunk", "document", { uri });
      for (const uri of step.selected_chunks || []) this.edge(step.uri, uri);
      if ((step.edges || []).length || (step.chunks || []).length || (step.selected_chunks || []).length) this.fans(step.uri);
    }

    addEdgeSelection(stepUri, selection) {
      const st = selection.statement;
      const sel = selection.selection;
      this.node(sel, selection.score != null ? String(selection.score) : "", "EdgeSelection", "selection", { selection });
      this.edge(stepUri, sel);
      const stId = "statement:" + st.id;
      const label = [st.s_label || short(st.s), st.p_label || short(st.p), st.o_label || (st.o_kind === "iri" ? short(st.o) : st.o)];
      this.node(stId, clip(label.join(" · "), 70), "Statement", "statement", { statement: st });
      this.edge(sel, stId);
      for (const source of st.sources || []) {
        const doc = (source.chain || []).find((n) => (n.labels || []).includes("Document"));
        if (!doc) continue;
        this.node(doc.uri, clip(doc.props.title || doc.props.label || short(doc.uri), 40), "Document", "document", { document: doc });
        this.edge(stId, doc.uri);
      }
    }

    addChunkSelection(stepUri, chunkSelection) {
      const sel = chunkSelection.selection;
      this.node(sel, chunkSelection.score != null ? String(chunkSelection.score) : "", "ChunkSelection", "selection", { chunkSelection });
      this.edge(stepUri, sel);
      const chunk = chunkSelection.chunk;
      if (!chunk) return;
      this.node(chunk.uri, short(chunk.uri), "Chunk", "statement", { chunk });
      this.edge(sel, chunk.uri);
      for (const doc of chunk.chain || []) {
        this.node(doc, short(doc), "Document", "document", { uri: doc });
        this.edge(chunk.uri, doc);
      }
    }

    addTrace(trace) {
      this.traceUri = trace.uri;
      for (const step of trace.steps) this.addStep(step);
      this.layout();
    }

    // A step that selected edges or chunks fans out three ranks (selection, statement or chunk,
    // document); the step derived from it is drawn below that evidence, not beside its selections.
    fans(stepUri) { this.cy.getElementById(stepUri).data("fans", true); }

    layout() {
      const below = (edge) => edge.hasClass("derived") && edge.source().data("fans");
      const minLen = (edge) => (below(edge) ? 4 : 1);
      this.cy.layout({ name: "dagre", rankDir: "TB", nodeSep: 18, rankSep: 55, minLen, animate: false, fit: false, padding: 20 }).run();
      // dagre routes that long edge round the side; keep the chain of steps in one column instead
      this.cy.edges(".derived").filter(below).forEach((edge) => { edge.target().position("x", edge.source().position("x")); });
      this.cy.fit(undefined, 20);
    }

    async tripleLines() {
      if (this.triples || !this.traceUri) return this.triples || [];
      const params = scope();
      params.set("format", "nt");
      params.set("profile", "trustgraph");
      const response = await api("/api/v1/traces/" + encodeURIComponent(this.traceUri) + "?" + params);
      this.triples = response.ok ? (await response.text()).split("\n").filter((l) => l.trim()) : [];
      return this.triples;
    }

    async select(id) {
      this.cy.nodes().unselect();
      this.cy.getElementById(id).select();
      for (const li of this.steps.querySelectorAll("li")) li.classList.toggle("selected", li.dataset.uri === id);
      const info = this.info.get(id);
      if (!info) return;
      const panel = this.details;
      panel.replaceChildren();
      const h = document.createElement("h2");
      h.textContent = info.type;
      panel.appendChild(h);
      const uri = document.createElement("code");
      uri.textContent = id.startsWith("statement:") ? id.slice("statement:".length) : id;
      panel.appendChild(uri);
      const rows = [];
      const step = info.step;
      if (step) {
        const p = step.properties || {};
        if (p.toolError) rows.push(["error", p.toolError, "error"]);
        for (const [key, value] of Object.entries(p)) if (key !== "toolError") rows.push([key, Array.isArray(value) ? value.join(", ") : value]);
        for (const entity of step.entities || []) rows.push(["entity", entity.label || entity.uri]);
        for (const parent of step.parents || []) rows.push(["derived from", parent]);
      }
      if (info.selection) rows.push(["score", info.selection.score], ["concept", (info.selection.concept || []).join(", ")], ["reasoning", info.selection.reasoning]);
      if (info.statement) {
        const st = info.statement;
        rows.push(["subject", st.s_label ? `${st.s_label} (${st.s})` : st.s], ["predicate", st.p_label ? `${st.p_label} (${st.p})` : st.p],
          ["object", st.o_label ? `${st.o_label} (${st.o})` : st.o]);
        for (const source of st.sources || []) rows.push(["source", (source.chain || []).map((n) => n.props.title || n.props.label || n.uri).join(" → ")]);
      }
      if (info.document) for (const [key, value] of Object.entries(info.document.props || {})) rows.push([key, value]);
      if (info.chunk) rows.push(["text", info.chunk.text]);
      panel.appendChild(table(rows));
      for (const doc of (step && step.documents) || []) {
        const pre = document.createElement("pre");
        pre.className = "text content";
        pre.textContent = doc.text || "";
        panel.appendChild(pre);
      }
      if (step || info.selection) {
        const lines = (await this.tripleLines()).filter((l) => l.startsWith("<" + id + "> "));
        if (lines.length) {
          const title = document.createElement("h2");
          title.textContent = `Triples (${lines.length})`;
          const pre = document.createElement("pre");
          pre.className = "text triples";
          pre.textContent = lines.map((l) => l.slice(id.length + 3)).join("\n");
          panel.append(title, pre);
        }
      }
    }
  }

  // The answer's sentences, numbered, each with the evidence that supports it and where that was read.
  // ``sentences`` come from the stream's final message (``citations``: {index, sentence, evidence}) or
  // from the stored trace's answer step (``sentences``: {index, text, evidence}).
  function renderCitations(container, sentences) {
    container.replaceChildren();
    if (!sentences || !sentences.length) return;
    const title = document.createElement("h2");
    title.textContent = "Answer sentences and their evidence";
    const list = document.createElement("ol");
    list.className = "citations";
    for (const s of sentences) {
      const item = document.createElement("li");
      item.dataset.index = s.index;
      const said = document.createElement("span");
      said.className = "sentence";
      said.textContent = s.sentence || s.text || "";
      item.appendChild(said);
      const evidence = s.evidence || [];
      if (!evidence.length) {
        const none = document.createElement("span");
        none.className = "unsupported";
        none.textContent = " (no evidence supports this sentence)";
        item.appendChild(none);
      }
      for (const e of evidence) {
        const cite = document.createElement("blockquote");
        cite.className = "evidence";
        cite.textContent = e.text || "";
        const where = document.createElement("cite");
        where.textContent = [e.title, e.section].filter(Boolean).join(" › ") + (e.chunk ? ` (${e.chunk})` : "");
        cite.appendChild(where);
        item.appendChild(cite);
      }
      list.appendChild(item);
    }
    container.append(title, list);
  }

  function table(rows) {
    const t = document.createElement("table");
    t.className = "props";
    for (const [key, value, cls] of rows) {
      if (value == null || value === "") continue;
      const tr = t.insertRow();
      tr.insertCell().textContent = key;
      const cell = tr.insertCell();
      cell.textContent = String(value);
      if (cls) cell.className = cls;
    }
    return t;
  }

  window.tgneo = { config, api, authorised, renderCitations, scope, token, typeOf, Viewer };
})();
