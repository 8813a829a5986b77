// The trace viewer's shared part: API access with an optional token, and a cytoscape graph that
// draws a trace as a column of steps in derivation order (each sub-trace boxed, under the iteration
// that called it) with, beside each step that selected evidence, one row per selection, best score
// first: selection → statement or chunk → document. Every position is computed here (a "preset"
// layout), so no two labels overlap at any size and no edge runs through a node; details on click.
// A verified answer (the counterfactual check: tgneo ask --verify, "verify": true) shows its verdict as
// a badge, its Verification as the step after the answer with one row per re-run, and each selection
// the check left out in turn marked necessary (a thick border, its row in the check's colour) or not
// (dashed, greyed), its necessity in the details panel. trace.js and live.js feed it.
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

  // The session a step belongs to: the UUID in its URI (TrustGraph's URIs carry the session's).
  function session(uri) {
    const m = String(uri).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    return m ? m[0] : String(uri);
  }

  function score(value) { const n = Number(value); return value == null || Number.isNaN(n) ? -1 : n; }

  function rowLabel(value, text) {
    const prefix = value == null ? "" : Number(value).toFixed(2) + "  ";
    return clip(prefix + String(text).split(/\s+/).join(" "), ROW_CHARS); // one line: a row is one line high
  }

  function clip(text, n) { text = String(text == null ? "" : text); return text.length > n ? text.slice(0, n - 1) + "…" : text; }

  function stepCaption(type, props) {
    const p = props || {};
    const pick = { GraphRagQuestion: p.query, DocRagQuestion: p.query, AgentQuestion: p.query, Question: p.query,
      Grounding: p.concept && [].concat(p.concept).join(", "), Exploration: p.edgeCount != null && p.edgeCount + " edges explored",
      Analysis: p.action, PatternDecision: p.pattern, Plan: p.planStep && [].concat(p.planStep).join("; "),
      Decomposition: p.subagentGoal && [].concat(p.subagentGoal).join("; "), Observation: p.toolError,
      Verification: p.verdict && `${p.verdict}` + (p.sufficiency != null ? ` · sufficiency ${Number(p.sufficiency).toFixed(2)}` : "") };
    const text = pick[type];
    return type + (text ? "\n" + clip(text, STEP_CHARS) : "");
  }

  // The grid of the preset layout (model pixels). Labels are clipped to what their column can hold
  // (STEP_CHARS, ROW_CHARS, DOC_CHARS at these font sizes); the whole text is in the details panel.
  const GRID = { row: 24, stepGap: 70, groupGap: 34, indent: 48, selection: 190, evidence: 222, document: 640 };
  const STEP_CHARS = 56, ROW_CHARS = 58, DOC_CHARS = 36;
  const VERIFIED_COLOR = config.colors.Verification || "#ad1457";
  const LABEL_BACKGROUND = { "text-background-color": "#fbfbfc", "text-background-opacity": 0.9, "text-background-padding": 1 };

  const STYLE = [
    { selector: "node", style: Object.assign({ "background-color": "data(color)", label: "data(label)", "font-size": 10,
      "text-wrap": "ellipsis", "text-max-width": 330, "text-valign": "center", "text-halign": "right", "text-margin-x": 6,
      width: 14, height: 14 }, LABEL_BACKGROUND) },
    { selector: "node.step", style: { shape: "round-rectangle", width: 40, height: 26, "font-size": 11, "font-weight": 600,
      "text-wrap": "wrap", "text-max-width": 170, "text-halign": "left", "text-margin-x": -8 } },
    { selector: "node.selection", style: { width: 10, height: 10 } },
    { selector: "node.statement", style: { shape: "diamond" } },
    { selector: "node.document", style: { shape: "rectangle", width: 12, height: 15, "text-max-width": 220 } },
    { selector: "node.group", style: { shape: "round-rectangle", "background-color": "#eef1f6", "background-opacity": 0.6,
      "border-width": 1, "border-color": "#c4cad4", label: "data(label)", "font-size": 10, "font-weight": 600, color: "#57606a",
      "text-valign": "top", "text-halign": "center", "text-margin-x": 0, "text-margin-y": -4, padding: 10 } },
    { selector: "node.rerun", style: { width: 10, height: 10, shape: "round-rectangle" } },
    // what the check found about each selection it left out in turn (necessity: the share of the answer lost)
    { selector: "node.necessary", style: { "border-width": 3, "border-color": VERIFIED_COLOR } },
    { selector: "node.unnecessary", style: { "border-width": 1.5, "border-style": "dashed", "border-color": "#8c959f" } },
    { selector: "node.statement.necessary", style: { color: VERIFIED_COLOR, "font-weight": 700 } },
    { selector: "node.statement.unnecessary", style: { color: "#8c959f" } },
    { selector: "node.ablated", style: { "border-width": 3, "border-style": "double", "border-color": VERIFIED_COLOR,
      "background-color": "#fce4ec" } },
    { selector: "node.error", style: { "border-width": 3, "border-color": "#b42318" } },
    { selector: "node:selected", style: { "border-width": 3, "border-color": "#1f6feb" } },
    { selector: "edge", style: { width: 1, "line-color": "#c4cad4", "target-arrow-color": "#c4cad4",
      "target-arrow-shape": "triangle", "arrow-scale": 0.6, "curve-style": "straight" } },
    { selector: "edge.derived", style: { width: 2.5, "line-color": "#6b7280", "target-arrow-color": "#6b7280", "arrow-scale": 1 } },
    // a derivation that skips steps (a synthesis over every finding) bows out left of the column
    { selector: "edge.skip", style: { "curve-style": "segments", "segment-weights": [0.02, 0.98], "segment-distances": "data(bow)",
      "edge-distances": "node-position" } },
  ];

  class Viewer {
    constructor(container, detailsPanel, stepList) {
      this.details = detailsPanel;
      this.steps = stepList;
      this.info = new Map(); // node id -> what the details panel shows
      this.triples = {}; // profile -> lazily fetched N-Triples lines of the stored trace
      this.traceUri = null;
      this.necessity = new Map(); // selection uri -> necessity, from the latest check
      this.checkUri = null;
      this.cy = cytoscape({ container, style: STYLE, wheelSensitivity: 0.3, minZoom: 0.1, maxZoom: 3 });
      this.cy.on("tap", "node", (event) => this.select(event.target.id()));
    }

    color(type) { return config.colors[config.labels[type] || type] || "#9aa1ac"; }

    node(id, label, type, classes, info, extra) {
      const existing = this.cy.getElementById(id);
      if (existing.nonempty()) { // the stored trace completes what a live message said
        existing.data(Object.assign({ label }, extra || {}));
        this.info.set(id, Object.assign({ id, type }, info));
        return;
      }
      this.cy.add({ group: "nodes", data: Object.assign({ id, label, type, color: this.color(type) }, extra || {}), classes });
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
      if (type === "Counterfactual") { this.addRerun(step); return; }
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
      for (const uri of step.selected_chunks || []) {
        this.node(step.uri + " chunk " + uri, clip(short(uri), ROW_CHARS), "Chunk", "statement", { uri }, { score: -1 });
        this.edge(step.uri, step.uri + " chunk " + uri);
      }
    }

    // Each selection gets its own row: its statement (or chunk) node and its documents are drawn per
    // step (ids scoped by the step), so a statement two steps selected never pulls one row across the other.
    addEdgeSelection(stepUri, selection) {
      const st = selection.statement;
      const sel = selection.selection;
      this.node(sel, "", "EdgeSelection", "selection", { selection, uri: sel }, { score: score(selection.score) });
      this.edge(stepUri, sel);
      const stId = sel + " statement";
      const label = [st.s_label || short(st.s), st.p_label || short(st.p), st.o_label || (st.o_kind === "iri" ? short(st.o) : st.o)];
      this.node(stId, rowLabel(selection.score, label.join(" · ")), "Statement", "statement", { statement: st, uri: st.id, via: sel });
      this.edge(sel, stId);
      for (const source of st.sources || []) {
        const doc = (source.chain || []).find((n) => (n.labels || []).includes(config.labels.Document));
        if (doc) this.documentNode(stepUri, stId, doc.uri, doc.props.title || doc.props.label || short(doc.uri), { document: doc });
      }
    }

    // A re-run of the check: a row beside its Verification (the whole-answer re-runs first, then each
    // item left out, the most necessary first), not a step of the column: it is a part of the check.
    addRerun(step) {
      const p = step.properties || {};
      const check = (step.parents || [])[0];
      const ablated = step.ablated || [];
      const number = (v) => (v == null ? "?" : Number(v).toFixed(2));
      const text = p.ablation === "leave-one-out"
        ? `necessity ${number(p.necessity)} · without ${ablated.map((u) => this.itemText(u)).join(", ")}`
        : `${p.ablation === "only-cited" ? "only" : "without"} the ${ablated.length} cited item(s): ` +
          `${Math.round(100 * Number(p.preserved || 0))}% of the answer kept`;
      const order = p.ablation === "without-cited" ? 3 : p.ablation === "only-cited" ? 2 : score(p.necessity);
      this.node(step.uri, rowLabel(null, text), "Counterfactual", "rerun", { step }, { score: order });
      if (check) this.edge(check, step.uri);
    }

    // What a selection brought, in a few words: the fact, the chunk's text, the observation.
    itemText(uri) {
      const info = this.info.get(uri) || {};
      if (info.selection) {
        const st = info.selection.statement || {};
        return [st.s_label || short(st.s), st.p_label || short(st.p), st.o_label || (st.o_kind === "iri" ? short(st.o) : st.o)].join(" · ");
      }
      if (info.chunkSelection) return (info.chunkSelection.chunk || {}).text || short(uri);
      if (info.step) return ((info.step.documents || [])[0] || {}).text || info.type + " " + short(uri); // an observation
      return short(uri);
    }

    // The latest check's necessity of each selection it left out in turn ({uri: necessity}); its verification.
    setNecessity(necessity, checkUri) {
      this.necessity = new Map(Object.entries(necessity || {}));
      this.checkUri = checkUri || this.checkUri;
      this.markNecessity();
    }

    // Each selection the check left out in turn, and the statement or chunk row it brought: necessary or not.
    markNecessity() {
      const threshold = config.necessary;
      this.cy.batch(() => {
        for (const [uri, value] of this.necessity) {
          const nodes = this.cy.getElementById(uri).union(this.cy.getElementById(uri + " statement"))
            .union(this.cy.getElementById(uri + " chunk"));
          nodes.data("necessity", value);
          nodes.toggleClass("necessary", value >= threshold);
          nodes.toggleClass("unnecessary", value < threshold);
        }
      });
    }

    addChunkSelection(stepUri, chunkSelection) {
      const sel = chunkSelection.selection;
      this.node(sel, "", "ChunkSelection", "selection", { chunkSelection, uri: sel }, { score: score(chunkSelection.score) });
      this.edge(stepUri, sel);
      const chunk = chunkSelection.chunk;
      if (!chunk) return;
      const chunkId = sel + " chunk";
      this.node(chunkId, rowLabel(chunkSelection.score, chunk.text ? chunk.text : short(chunk.uri)), "Chunk", "statement", { chunk, uri: chunk.uri, via: sel });
      this.edge(sel, chunkId);
      for (const doc of chunk.chain || []) this.documentNode(stepUri, chunkId, doc, short(doc), { uri: doc });
    }

    documentNode(stepUri, from, uri, title, info) {
      const id = stepUri + " document " + uri;
      this.node(id, clip(title, DOC_CHARS), "Document", "document", Object.assign({ uri }, info));
      this.edge(from, id);
    }

    addTrace(trace) {
      this.traceUri = trace.uri;
      for (const step of trace.steps) this.addStep(step);
      if (trace.verification) this.setNecessity(trace.verification.necessity, trace.verification.uri);
      else this.markNecessity();
      this.layout();
    }

    // Steps in the order of the step list (derivation order: the API's and the stream's), one column;
    // a sub-trace (a session other than the root's) indented and boxed; beside each step its rows of
    // evidence, best score first, starting one row below it; the next step below the last row.
    layout() {
      const cy = this.cy;
      const order = [...this.steps.querySelectorAll("li")].map((li) => li.dataset.uri).filter((u) => cy.getElementById(u).nonempty());
      if (!order.length) return;
      const rootSession = session(this.traceUri || order[0]);
      const index = new Map(order.map((u, i) => [u, i]));
      cy.batch(() => {
        cy.nodes(".group").forEach((g) => { g.children().move({ parent: null }); });
        cy.remove(cy.nodes(".group"));
        let y = 0, current = rootSession;
        for (const uri of order) {
          const step = cy.getElementById(uri);
          const own = session(uri);
          const sub = own !== rootSession;
          if (own !== current) y += GRID.groupGap; // room for the box's edge and its title
          current = own;
          const x = sub ? GRID.indent : 0;
          step.position({ x, y });
          const rows = step.outgoers("node").filter((n) => !n.hasClass("step")).sort((a, b) => b.data("score") - a.data("score")
            || (a.id() < b.id() ? -1 : 1));
          const documents = new Map();
          rows.forEach((first, k) => {
            const rowY = y + (k + 1) * GRID.row;
            const evidence = first.hasClass("selection") ? first.outgoers("node") : cy.collection();
            if (first.hasClass("selection")) first.position({ x: x + GRID.selection, y: rowY });
            (first.hasClass("selection") ? evidence : first).forEach((n) => {
              n.position({ x: x + GRID.evidence, y: rowY });
              n.outgoers("node.document").forEach((d) => {
                if (!documents.has(d.id())) documents.set(d.id(), y + (documents.size + 1) * GRID.row);
                d.position({ x: x + GRID.document, y: documents.get(d.id()) });
              });
            });
          });
          y += Math.max(rows.length, documents.size) * GRID.row + GRID.stepGap;
        }
        // sub-traces boxed: a compound node per session around its steps and their evidence
        for (const uri of order) {
          const own = session(uri);
          if (own === rootSession) continue;
          const id = "group " + own;
          if (cy.getElementById(id).empty()) {
            const first = this.info.get(uri);
            const kind = first ? first.type : "sub-trace";
            cy.add({ group: "nodes", data: { id, label: kind.replace(/Question$/, "") + " sub-trace", type: "group" }, classes: "group" });
          }
          const step = cy.getElementById(uri);
          const rows = step.outgoers("node").filter((n) => !n.hasClass("step"));
          const evidence = rows.union(rows.outgoers("node"));
          step.union(evidence).union(evidence.outgoers("node.document")).move({ parent: id });
        }
        // a derivation between steps that are not neighbours in the column bows out to its left
        cy.edges(".derived").forEach((e) => {
          const gap = Math.abs((index.get(e.target().id()) ?? 0) - (index.get(e.source().id()) ?? 0));
          const skip = gap > 1;
          e.toggleClass("skip", skip);
          if (skip) { const bow = 200 + 14 * Math.min(gap, 10); e.data("bow", [bow, bow]); }
        });
      });
      cy.fit(undefined, 20);
    }

    // The trace's triples as TrustGraph emits them (``trustgraph``), or, for tgneo's own steps (the check),
    // in the ``prov`` profile, the only one that holds them.
    async tripleLines(profile) {
      if (this.triples[profile] || !this.traceUri) return this.triples[profile] || [];
      const params = scope();
      params.set("format", "nt");
      params.set("profile", profile);
      const response = await api("/api/v1/traces/" + encodeURIComponent(this.traceUri) + "?" + params);
      this.triples[profile] = response.ok ? (await response.text()).split("\n").filter((l) => l.trim()) : [];
      return this.triples[profile];
    }

    async select(id) {
      const ticket = this.selecting = (this.selecting || 0) + 1; // a later click wins over this one's fetch
      this.cy.nodes().unselect();
      this.cy.nodes(".ablated").removeClass("ablated");
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
      uri.textContent = info.uri || id;
      panel.appendChild(uri);
      const rows = [];
      const step = info.step;
      if (step) {
        const p = step.properties || {};
        if (p.toolError) rows.push(["error", p.toolError, "error"]);
        for (const [key, value] of Object.entries(p)) if (key !== "toolError") rows.push([key, Array.isArray(value) ? value.join(", ") : value]);
        for (const entity of step.entities || []) rows.push(["entity", entity.label || entity.uri]);
        for (const parent of step.parents || []) rows.push(["derived from", parent]);
        if ((step.stands_without || []).length) rows.push(["stands without its evidence", "sentence(s) " + step.stands_without.join(", ")]);
        for (const item of step.ablated || []) { // a re-run of the check: what it left out (or kept alone), lit up
          rows.push([p.ablation === "only-cited" ? "kept alone" : "left out", `${this.itemText(item)} (${item})`]);
          this.cy.getElementById(item).addClass("ablated");
        }
      }
      const via = info.via || (info.selection || info.chunkSelection ? info.uri : null) || (step ? step.uri : null);
      if (via && this.necessity.has(via)) {
        const value = this.necessity.get(via);
        const found = value >= config.necessary ? "necessary" : "not necessary";
        rows.push(["necessity", `${value.toFixed(2)}: ${found} (leaving it out loses ${Math.round(100 * value)}% of the answer)`]);
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
        const own = info.type === "Verification" || info.type === "Counterfactual";
        const lines = (await this.tripleLines(own ? "prov" : "trustgraph")).filter((l) => l.startsWith("<" + id + "> "));
        if (lines.length && ticket === this.selecting) {
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

  const VERDICTS = {
    supported: ["supported", "every sentence of the answer falls without its cited evidence"],
    partly: ["partly supported", "some sentences stand without their cited evidence"],
    unsupported: ["not supported", "the answer does not depend on the evidence it cites"],
  };

  // The check's verdict at a glance, in ``container``: a badge (supported green, partly amber, unsupported red)
  // and what the check found. ``check``: the trace's ``verification``, the final message's, or a Verification
  // step's properties ({verdict, sufficiency, model|llmModel, stands_without}).
  function renderVerdict(container, check) {
    container.replaceChildren();
    container.hidden = !check || !check.verdict;
    if (container.hidden) { delete container.dataset.verdict; return; }
    const [word, meaning] = VERDICTS[check.verdict] || [String(check.verdict), ""];
    container.dataset.verdict = check.verdict;
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = word;
    const detail = document.createElement("span");
    detail.className = "detail";
    const parts = [meaning];
    if ((check.stands_without || []).length) parts.push(`sentence(s) ${check.stands_without.join(", ")} stand without it`);
    if (check.sufficiency != null) parts.push(`the cited evidence alone gives ${Math.round(100 * Number(check.sufficiency))}% of the answer`);
    const model = check.model || check.llmModel;
    if (model) parts.push(`judged by re-running ${model}`);
    detail.textContent = parts.filter(Boolean).join("; ");
    container.append("Verified: ", badge, detail);
  }

  // The answer sentences the check found standing without their evidence (1-based indexes), marked in the list.
  function markStandsWithout(container, indexes) {
    const standing = new Set((indexes || []).map(String));
    for (const item of container.querySelectorAll("ol.citations > li")) {
      const stands = standing.has(String(item.dataset.index));
      item.classList.toggle("stands-without", stands);
      const note = item.querySelector(".stands-without-note");
      if (stands && !note) {
        const span = document.createElement("span");
        span.className = "stands-without-note";
        span.textContent = " (stands without its evidence)";
        item.querySelector(".sentence").after(span);
      } else if (!stands && note) note.remove();
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

  window.tgneo = { config, api, authorised, markStandsWithout, renderCitations, renderVerdict, scope, token, typeOf, Viewer };
})();
