// The Junction playground: plain JavaScript, no dependencies, talks only to the server that served it.

const $ = (selector) => document.querySelector(selector);

/** Builds an element: el("li", { class: "x", onclick }, "text", child). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const svgNS = "http://www.w3.org/2000/svg";
function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children)
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

async function api(path, init) {
  const response = await fetch(path, init);
  const text = await response.text();
  let body;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = { error: { type: "BadResponse", message: text.slice(0, 500) } };
  }
  if (!response.ok) {
    const error = body?.error ?? { type: `HTTP ${response.status}`, message: text.slice(0, 500) };
    const issues = Array.isArray(error.issues)
      ? `\n${error.issues.map((issue) => `${(issue.path ?? []).join(".")}: ${issue.message}`).join("\n")}`
      : "";
    throw new Error(`${error.type}: ${error.message}${issues}`);
  }
  return body;
}

function pretty(value) {
  return JSON.stringify(value, null, 2);
}

function short(value, limit = 120) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return "";
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

const state = {
  pipelines: [],
  current: null, // { name, info, graph }
  run: null, // the live run
  controller: null,
};

// ---------------------------------------------------------------- sidebar

async function loadPipelines() {
  try {
    const { pipelines } = await api("/pipelines");
    state.pipelines = pipelines;
    $("#server-status").textContent =
      `${pipelines.length} pipeline${pipelines.length === 1 ? "" : "s"} served`;
    const list = $("#pipelines");
    list.replaceChildren(
      ...pipelines.map((pipeline) =>
        el(
          "li",
          {},
          el(
            "button",
            {
              type: "button",
              "data-pipeline": pipeline.name,
              title: pipeline.description,
              onclick: () => openPipeline(pipeline.name),
            },
            pipeline.name,
          ),
        ),
      ),
    );
  } catch (error) {
    $("#server-status").textContent = `Cannot reach the server: ${error.message}`;
  }
}

async function loadRuns() {
  try {
    const { runs } = await api("/playground/api/runs");
    $("#runs").replaceChildren(
      ...runs
        .slice(0, 15)
        .map((run) =>
          el(
            "li",
            {},
            el(
              "button",
              { type: "button", onclick: () => showRecordedRun(run.id) },
              `${run.id} · ${run.pipeline} · ${run.status}`,
            ),
          ),
        ),
    );
  } catch {
    // The list is a convenience; the live view shows errors.
  }
}

async function loadInbox() {
  let runs = [];
  let kept = true;
  try {
    const body = await api("/runs?status=interrupted");
    runs = body?.runs ?? [];
  } catch {
    // 404: the server keeps no runs (started without a store).
    kept = false;
  }
  const count = $("#inbox-count");
  count.hidden = runs.length === 0;
  count.textContent = String(runs.length);
  $("#inbox-empty").hidden = runs.length > 0;
  $("#inbox-empty").textContent = kept
    ? "Nothing waits for approval."
    : "This server keeps no runs, so runs that need approval cannot wait here (serve with --store).";
  $("#inbox").replaceChildren(
    ...runs.map((run) => {
      const id = run.run_id;
      const calls = (run.interrupts ?? []).map((item) =>
        el(
          "span",
          { class: "call" },
          item.tool ? `${item.tool}(${short(item.arguments ?? {}, 80)})` : `${item.kind} ${item.id}`,
        ),
      );
      return el(
        "li",
        {},
        el(
          "button",
          {
            type: "button",
            "data-run": id,
            title: `run ${id}, paused ${run.updated_at ?? ""}`,
            onclick: () => openApproval(id),
          },
          el("span", {}, `${run.pipeline ?? "run"} · ${id.slice(-8)}`),
          ...calls,
        ),
      );
    }),
  );
}

function markCurrent(name) {
  for (const button of document.querySelectorAll("#pipelines button")) {
    button.setAttribute("aria-current", button.dataset.pipeline === name ? "true" : "false");
  }
}

// ---------------------------------------------------------------- pipeline view

async function openPipeline(name) {
  const [info, graph] = await Promise.all([
    api(`/pipelines/${encodeURIComponent(name)}`),
    api(`/playground/api/pipelines/${encodeURIComponent(name)}/graph`),
  ]);
  state.current = { name, info, graph };
  markCurrent(name);
  history.replaceState(null, "", `#${encodeURIComponent(name)}`);
  $("#welcome").hidden = true;
  $("#approval-view").hidden = true;
  $("#pipeline-view").hidden = false;
  $("#pipeline-title").textContent = name;
  $("#pipeline-description").textContent = info.description ?? "";
  drawGraph(graph);
  buildForm(info.input_schema);
  $("#node-details").replaceChildren();
  $("#live").hidden = true;
  $("#main").focus();
}

const box = { width: 180, height: 48, columnGap: 70, rowGap: 34, margin: 24 };

function nodePosition(node) {
  return {
    x: box.margin + node.layer * (box.width + box.columnGap),
    y: box.margin + node.row * (box.height + box.rowGap),
  };
}

function socketTable(node) {
  const rows = [
    ...node.inputs.map((socket) => [
      "in",
      socket.name,
      socket.type,
      [
        socket.mandatory ? "mandatory" : "optional",
        socket.variadic !== "none" ? `${socket.variadic} variadic` : "",
        socket.open ? "run input" : "",
      ]
        .filter(Boolean)
        .join(", "),
    ]),
    ...node.outputs.map((socket) => ["out", socket.name, socket.type, ""]),
  ];
  return rows;
}

function showNodeDetails(node) {
  const table = el(
    "table",
    {},
    el(
      "thead",
      {},
      el("tr", {}, el("th", {}, ""), el("th", {}, "socket"), el("th", {}, "type"), el("th", {}, "")),
    ),
    el(
      "tbody",
      {},
      ...socketTable(node).map((row) => el("tr", {}, ...row.map((cell) => el("td", {}, cell)))),
    ),
  );
  $("#node-details").replaceChildren(el("strong", {}, node.name), ` (${node.type})`, table);
}

function drawGraph(graph) {
  const canvas = $("#graph");
  canvas.replaceChildren();
  const byName = new Map(graph.nodes.map((node) => [node.name, node]));
  const columns = Math.max(1, ...graph.nodes.map((node) => node.layer + 1));
  const rows = Math.max(1, ...graph.nodes.map((node) => node.row + 1));
  const loops = graph.edges.filter((edge) => edge.loop).length;
  const width = box.margin * 2 + columns * box.width + (columns - 1) * box.columnGap;
  const height = box.margin * 2 + rows * box.height + (rows - 1) * box.rowGap + loops * 22;
  canvas.setAttribute("viewBox", `0 0 ${width} ${height}`);
  canvas.setAttribute("width", String(width));
  canvas.setAttribute("height", String(height));
  canvas.append(
    svg(
      "defs",
      {},
      svg(
        "marker",
        {
          id: "arrow",
          viewBox: "0 0 10 10",
          refX: "9",
          refY: "5",
          markerWidth: "7",
          markerHeight: "7",
          orient: "auto",
        },
        svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#8a9099" }),
      ),
    ),
  );
  let loopIndex = 0;
  graph.edges.forEach((edge, index) => {
    const from = byName.get(edge.sender.split(".")[0]);
    const to = byName.get(edge.receiver.split(".")[0]);
    if (!from || !to) return;
    const a = nodePosition(from);
    const b = nodePosition(to);
    const x1 = a.x + box.width;
    const y1 = a.y + box.height / 2;
    const x2 = b.x;
    const y2 = b.y + box.height / 2;
    let d;
    if (edge.loop) {
      loopIndex += 1;
      const bottom = box.margin + rows * (box.height + box.rowGap) - box.rowGap + loopIndex * 22;
      d = `M${x1},${y1} C${x1 + 40},${y1} ${x1 + 40},${bottom} ${x1},${bottom} L${x2},${bottom} C${x2 - 40},${bottom} ${x2 - 40},${y2} ${x2},${y2}`;
    } else {
      const mid = (x1 + x2) / 2;
      d = `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`;
    }
    canvas.append(
      svg(
        "path",
        {
          d,
          class: `edge${edge.loop ? " loop" : ""}`,
          "data-sender": edge.sender,
          "data-receiver": edge.receiver,
          "data-edge": String(index),
          "marker-end": "url(#arrow)",
        },
        svg("title", {}, `${edge.sender} → ${edge.receiver}${edge.loop ? " (loop)" : ""}`),
      ),
    );
  });
  for (const node of graph.nodes) {
    const { x, y } = nodePosition(node);
    const title = `${node.name} (${node.type})\n${socketTable(node)
      .map((row) => `${row[0]} ${row[1]}: ${row[2]}${row[3] ? ` — ${row[3]}` : ""}`)
      .join("\n")}`;
    const group = svg(
      "g",
      {
        class: `node kind-${node.kind}`,
        tabindex: "0",
        role: "button",
        "data-node": node.name,
        "aria-label": `${node.kind} ${node.name}, type ${node.type}. Press Enter for its sockets.`,
        transform: `translate(${x},${y})`,
      },
      svg("title", {}, title),
      svg("rect", { width: box.width, height: box.height, rx: 6 }),
      svg("rect", { class: "stripe", width: 6, height: box.height, rx: 2 }),
      svg("text", { x: 14, y: 20 }, short(node.name, 20)),
      svg("text", { x: 14, y: 37, class: "type" }, short(node.type.split(".").pop(), 24)),
      svg("text", { x: box.width - 8, y: 16, class: "visits", "text-anchor": "end" }, ""),
    );
    group.addEventListener("focus", () => showNodeDetails(node));
    group.addEventListener("mouseenter", () => showNodeDetails(node));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        showNodeDetails(node);
      }
    });
    canvas.append(group);
  }
}

function nodeElement(name) {
  return document.querySelector(`#graph .node[data-node="${CSS.escape(name)}"]`);
}

function setNodeState(name, status, visit) {
  const node = nodeElement(name);
  if (!node) return;
  node.classList.remove("running", "done", "failed");
  node.classList.add(status);
  if (visit !== undefined && visit > 1) node.querySelector(".visits").textContent = `×${visit}`;
}

function clearGraphState() {
  for (const node of document.querySelectorAll("#graph .node")) {
    node.classList.remove("running", "done", "failed");
    node.querySelector(".visits").textContent = "";
  }
  for (const edge of document.querySelectorAll("#graph .edge")) edge.classList.remove("taken");
}

// ---------------------------------------------------------------- the run form

function isChatMessageList(schema) {
  const item = schema?.items;
  return schema?.type === "array" && item && typeof item === "object" && item.properties?.role !== undefined;
}

function exampleFor(schema) {
  if (!schema || typeof schema !== "object") return null;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

/** True for a schema that accepts any value (`{}`: no type, enum or combinator). */
function acceptsAnything(schema) {
  return Object.keys(schema ?? {}).every(
    (key) => key === "description" || key === "default" || key === "title",
  );
}

function fieldFor(path, property, required) {
  const name = path.join(".");
  const id = `field-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const mark = required ? " (required)" : "";
  let control;
  let kind;
  if (isChatMessageList(property)) {
    kind = "chat";
    control = el("textarea", { id, name, rows: 3, placeholder: "Your message" });
  } else if (property.type === "string" && !property.enum) {
    kind = "string";
    control = el("textarea", { id, name, rows: 2 });
    if (typeof property.default === "string") control.value = property.default;
  } else if (property.type === "number" || property.type === "integer") {
    kind = "number";
    control = el("input", { id, name, type: "number", step: property.type === "integer" ? "1" : "any" });
    if (typeof property.default === "number") control.value = String(property.default);
  } else if (property.type === "boolean") {
    kind = "boolean";
    control = el("input", { id, name, type: "checkbox" });
    control.checked = property.default === true;
  } else if (acceptsAnything(property)) {
    // Typed `any` (a prompt builder's variables, a router without variableTypes): plain text is sent as
    // a string; text that is JSON (a list, an object, a number) is sent as that value.
    kind = "any";
    control = el("textarea", { id, name, rows: 2, placeholder: "Text, or JSON" });
    if (typeof property.default === "string") control.value = property.default;
  } else {
    kind = "json";
    control = el("textarea", { id, name, rows: 3, placeholder: JSON.stringify(exampleFor(property)) });
    // Optional JSON inputs start empty (and are left out); mandatory ones start from an example.
    if (required) control.value = JSON.stringify(exampleFor(property));
  }
  control.dataset.kind = kind;
  control.dataset.path = JSON.stringify(path);
  control.dataset.required = required ? "true" : "false";
  const hint =
    kind === "chat"
      ? "Sent as one user message."
      : kind === "json"
        ? `JSON${property.description ? ` — ${property.description}` : ""}`
        : kind === "any"
          ? `Text or JSON${property.description ? ` — ${property.description}` : ""}`
          : (property.description ?? "");
  return el(
    "div",
    { class: "field" },
    el("label", { for: id }, `${path.at(-1)}${mark}`),
    control,
    hint ? el("span", { class: "hint" }, hint) : null,
  );
}

/** One field per input; the nested form (`{ component: { socket } }`) gets a fieldset per component. */
function buildForm(schema) {
  const fields = $("#form-fields");
  fields.replaceChildren();
  $("#form-error").hidden = true;
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  for (const [name, property] of Object.entries(properties)) {
    if (property?.type === "object" && property.properties && Object.keys(property.properties).length > 0) {
      const inner = new Set(property.required ?? []);
      fields.append(
        el(
          "fieldset",
          { class: "component-inputs" },
          el("legend", {}, name),
          ...Object.entries(property.properties).map(([socket, schemaOf]) =>
            fieldFor([name, socket], schemaOf, inner.has(socket)),
          ),
        ),
      );
    } else fields.append(fieldFor([name], property, required.has(name)));
  }
  if (Object.keys(properties).length === 0)
    fields.append(el("p", { class: "muted" }, "This pipeline takes no input."));
}

function setPath(target, path, value) {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key];
  }
  node[path.at(-1)] = value;
}

function readForm() {
  const request = {};
  const problems = [];
  for (const control of document.querySelectorAll("#form-fields [data-kind]")) {
    const { kind, required } = control.dataset;
    const path = JSON.parse(control.dataset.path);
    const name = path.join(".");
    if (kind === "boolean") {
      setPath(request, path, control.checked);
      continue;
    }
    const raw = control.value;
    if (raw.trim() === "" && kind !== "string") {
      if (required === "true") problems.push(`${name}: required.`);
      continue;
    }
    if (kind === "chat") setPath(request, path, [{ role: "user", content: [{ text: raw }] }]);
    else if (kind === "string") {
      if (raw === "" && required !== "true") continue;
      setPath(request, path, raw);
    } else if (kind === "number") setPath(request, path, Number(raw));
    else if (kind === "any") {
      let value = raw;
      try {
        value = JSON.parse(raw);
      } catch {
        // Not JSON: plain text, sent as a string.
      }
      setPath(request, path, value);
    } else {
      try {
        setPath(request, path, JSON.parse(raw));
      } catch (error) {
        problems.push(`${name}: not valid JSON (${error.message}).`);
      }
    }
  }
  return { request, problems };
}

// ---------------------------------------------------------------- SSE over fetch

async function* readSSE(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue;
      try {
        yield { event, data: JSON.parse(data.join("\n")) };
      } catch {
        yield { event, data: data.join("\n") };
      }
    }
  }
}

// ---------------------------------------------------------------- the live run

function newRunView() {
  clearGraphState();
  $("#live").hidden = false;
  $("#run-id").textContent = "";
  $("#component-log").replaceChildren();
  $("#tokens").replaceChildren();
  $("#agent-steps").replaceChildren(el("p", { class: "muted" }, "No agent step yet."));
  $("#result-summary").replaceChildren();
  $("#documents").replaceChildren();
  $("#documents-panel").hidden = true;
  $("#output").textContent = "";
  $("#timeline").replaceChildren(el("p", { class: "muted" }, "Shown when the run has finished."));
  return { spans: new Map(), steps: new Map(), tokenComponent: null, routes: [], exitReasons: [] };
}

function logLine(text, className) {
  const item = el("li", { class: className }, text);
  $("#component-log").append(item);
  item.scrollIntoView({ block: "nearest" });
}

function addSummary(term, value) {
  $("#result-summary").append(el("dt", {}, term), el("dd", {}, value));
}

function chunkText(chunk) {
  if (chunk && typeof chunk === "object" && typeof chunk.content === "string") return chunk.content;
  return "";
}

function agentOf(run, span) {
  // The nearest step span above a span (or the span itself).
  let current = span;
  while (current && current.name !== "junction.agent.step") current = run.spans.get(current.parent);
  return current;
}

function stepCard(run, step) {
  let card = run.steps.get(step.id);
  if (card) return card;
  if (run.steps.size === 0) $("#agent-steps").replaceChildren();
  const list = el("ul", {});
  const plan = el("div", { class: "plan" });
  const component = componentOfSpan(run, step);
  const title = el(
    "strong",
    {},
    `${component ? `${component} · ` : ""}step ${Number(step.tags["junction.agent.step"] ?? 0) + 1}`,
  );
  card = {
    root: el("div", { class: "step", "data-step": String(step.id) }, title, list, plan),
    list,
    plan,
    calls: new Map(),
  };
  run.steps.set(step.id, card);
  $("#agent-steps").append(card.root);
  return card;
}

function componentOfSpan(run, span) {
  let current = span;
  while (current) {
    if (current.name === "junction.component.run") return current.tags["junction.component.name"];
    current = run.spans.get(current.parent);
  }
  return undefined;
}

function onSpan(run, kind, span) {
  const known = run.spans.get(span.id);
  run.spans.set(span.id, known ? Object.assign(known, span) : span);
  const record = run.spans.get(span.id);
  if (record.name === "junction.agent.step") {
    const card = stepCard(run, record);
    if (kind === "span_end") {
      const plan = record.tags["junction.agent.tool_plan"];
      if (Array.isArray(plan) && plan.length > 0) {
        card.plan.textContent = `Plan: ${plan
          .map((batch, index) => `batch ${index + 1}: ${batch.map((call) => call.tool).join(", ")}`)
          .join(" → ")}`;
      }
    }
    return;
  }
  const step = agentOf(run, record);
  if (!step) return;
  const card = stepCard(run, step);
  if (record.name === "junction.agent.llm") {
    let line = card.calls.get(record.id);
    if (!line) {
      line = el("li", {}, "model call ", el("span", { class: "state-running" }, "running"));
      card.calls.set(record.id, line);
      card.list.append(line);
    }
    if (kind === "span_end")
      line.lastChild.replaceWith(
        el(
          "span",
          { class: record.tags.error ? "state-failed" : "state-done" },
          record.tags.error ? "failed" : "done",
        ),
      );
  } else if (record.name === "junction.agent.tool") {
    let line = card.calls.get(record.id);
    const name = record.tags["junction.tool.name"];
    if (!line) {
      line = el(
        "li",
        { "data-tool": name },
        `tool ${name} `,
        el("code", {}, String(record.tags["junction.tool.call_id"] ?? "")),
        " ",
        el("span", { class: "state-running" }, "running"),
      );
      card.calls.set(record.id, line);
      card.list.append(line);
    }
    if (kind === "span_end") {
      const failed = record.tags.error === true;
      line.lastChild.replaceWith(
        el("span", { class: failed ? "state-failed" : "state-done" }, failed ? "failed" : "done"),
      );
    }
  }
}

/** The fields of a Document's JSON form; every other key of the flattened form is meta. */
const documentFields = new Set(["id", "content", "blob", "score", "embedding", "sparse_embedding", "meta"]);

/** A Document as served (Haystack's flattened to_dict shape): an object with a string id and a content key. */
function isDocumentJSON(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    typeof value.id === "string" &&
    "content" in value &&
    "embedding" in value
  );
}

function documentMeta(doc) {
  const meta = { ...(doc.meta && typeof doc.meta === "object" ? doc.meta : {}) };
  for (const [key, value] of Object.entries(doc)) if (!documentFields.has(key)) meta[key] = value;
  return meta;
}

/** Shows each output socket that holds Documents: score, content and meta of every document. */
function showDocuments(component, outputs) {
  for (const [socket, value] of Object.entries(outputs)) {
    if (!Array.isArray(value) || value.length === 0 || !value.every(isDocumentJSON)) continue;
    const cards = value.map((doc) => {
      const meta = Object.entries(documentMeta(doc));
      return el(
        "div",
        { class: "document-card" },
        el(
          "div",
          {},
          el(
            "span",
            { class: "score" },
            typeof doc.score === "number" ? `score ${doc.score.toFixed(4)}` : "no score",
          ),
          el("span", { class: "doc-id" }, doc.id.slice(0, 12)),
        ),
        el("p", {}, doc.content === null ? "(no text content)" : short(doc.content, 600)),
        meta.length === 0
          ? ""
          : el("div", { class: "meta" }, meta.map(([key, item]) => `${key}: ${short(item, 80)}`).join(" · ")),
      );
    });
    $("#documents").append(el("h5", {}, `${component}.${socket} (${value.length})`), ...cards);
    $("#documents-panel").hidden = false;
  }
}

function onComponentEnd(run, data) {
  setNodeState(data.component, "done", data.visit);
  logLine(`${data.component} finished (visit ${data.visit})`, "end");
  const node = state.current?.graph.nodes.find((item) => item.name === data.component);
  const outputs = data.outputs ?? {};
  showDocuments(data.component, outputs);
  if (node?.kind === "router") {
    for (const socket of Object.keys(outputs)) {
      run.routes.push(`${data.component} → ${socket}`);
      for (const edge of document.querySelectorAll(
        `#graph .edge[data-sender="${CSS.escape(`${data.component}.${socket}`)}"]`,
      )) {
        edge.classList.add("taken");
      }
    }
  }
  if (typeof outputs.exit_reason === "string")
    run.exitReasons.push(`${data.component}: ${outputs.exit_reason}`);
}

/** Sets styles through the CSSOM: the page's Content-Security-Policy forbids inline style attributes. */
function styled(node, styles) {
  Object.assign(node.style, styles);
  return node;
}

function renderTimeline(spans) {
  const list = [...spans];
  if (list.length === 0) {
    $("#timeline").replaceChildren(el("p", { class: "muted" }, "The run recorded no spans."));
    return;
  }
  // Times from the first span's start, so the timeline is the run itself.
  const origin = Math.min(...list.map((span) => span.start));
  const total = Math.max(1, ...list.map((span) => (span.end ?? span.start) - origin));
  const depth = new Map();
  for (const span of list) depth.set(span.id, span.parent === null ? 0 : (depth.get(span.parent) ?? 0) + 1);
  const label = (span) => {
    const tags = span.tags ?? {};
    const detail =
      tags["junction.component.name"] ??
      tags["junction.tool.name"] ??
      (tags["junction.agent.step"] !== undefined ? `step ${Number(tags["junction.agent.step"]) + 1}` : "");
    return `${span.name.replace(/^junction\./, "")}${detail !== "" ? ` ${detail}` : ""}`;
  };
  $("#timeline").replaceChildren(
    ...list.map((span) => {
      const start = span.start - origin;
      const duration = (span.end ?? total + origin) - span.start;
      return el(
        "div",
        { class: "span-row", "data-span": span.name },
        styled(el("span", { class: "name", title: label(span) }, label(span)), {
          paddingLeft: `${(depth.get(span.id) ?? 0) * 12}px`,
        }),
        el(
          "span",
          {
            class: "track",
            title: `${label(span)}: starts at ${start.toFixed(1)} ms, takes ${duration.toFixed(1)} ms`,
          },
          styled(el("span", { class: `bar${span.tags?.error ? " err" : ""}` }), {
            left: `${(start / total) * 100}%`,
            width: `${(duration / total) * 100}%`,
          }),
        ),
      );
    }),
  );
}

async function startRun(event) {
  event.preventDefault();
  if (!state.current) return;
  const { request, problems } = readForm();
  const formError = $("#form-error");
  if (problems.length > 0) {
    formError.textContent = problems.join("\n");
    formError.hidden = false;
    return;
  }
  formError.hidden = true;
  const run = newRunView();
  state.run = run;
  const controller = new AbortController();
  state.controller = controller;
  $("#run-button").disabled = true;
  $("#cancel-button").disabled = false;
  $("#run-status").textContent = "Starting…";
  try {
    const response = await fetch(
      `/playground/api/pipelines/${encodeURIComponent(state.current.name)}/stream`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
        signal: controller.signal,
      },
    );
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      const error = body.error ?? {};
      const issues = Array.isArray(error.issues)
        ? `\n${error.issues.map((issue) => `${(issue.path ?? []).join(".")}: ${issue.message}`).join("\n")}`
        : "";
      throw new Error(
        `${error.type ?? response.status}: ${error.message ?? "the run could not start."}${issues}`,
      );
    }
    for await (const { event: name, data } of readSSE(response)) handleEvent(run, name, data);
  } catch (error) {
    if (error.name === "AbortError") $("#run-status").textContent = "Cancelled.";
    else {
      $("#run-status").textContent = "Failed.";
      formError.textContent = error.message;
      formError.hidden = false;
    }
  } finally {
    $("#run-button").disabled = false;
    $("#cancel-button").disabled = true;
    state.controller = null;
    loadRuns();
    loadInbox();
  }
}

function handleEvent(run, name, data) {
  switch (name) {
    case "run_start":
      $("#run-id").textContent = data.run;
      $("#run-status").textContent = "Running…";
      break;
    case "component_start":
      setNodeState(data.component, "running");
      logLine(`${data.component} started (visit ${data.visit})`);
      break;
    case "component_end":
      onComponentEnd(run, data);
      break;
    case "chunk": {
      const text = chunkText(data.chunk);
      if (text === "") break;
      const tokens = $("#tokens");
      if (run.tokenComponent !== data.component) {
        run.tokenComponent = data.component;
        tokens.append(el("span", { class: "who" }, `${data.component}:`));
      }
      tokens.append(text);
      tokens.scrollTop = tokens.scrollHeight;
      break;
    }
    case "span_start":
    case "span_end":
      onSpan(run, name, data);
      break;
    case "run_end":
      $("#output").textContent = pretty(data.outputs);
      for (const reason of run.exitReasons) addSummary("exit_reason", reason);
      for (const route of run.routes) addSummary("route", route);
      if ((data.never_ran ?? []).length > 0) {
        addSummary(
          "never ran",
          data.never_ran.map((item) => `${item.component} (${item.reason})`).join("; "),
        );
      }
      break;
    case "interrupt":
      for (const node of document.querySelectorAll("#graph .node.running")) node.classList.remove("running");
      addSummary("interrupted", `run ${data.run_id} waits for ${data.interrupts.length} decision(s)`);
      $("#output").textContent = pretty(data);
      break;
    case "error":
      for (const node of document.querySelectorAll("#graph .node.running")) {
        node.classList.remove("running");
        node.classList.add("failed");
      }
      addSummary("error", `${data.type}: ${data.message}`);
      break;
    case "run_summary":
      $("#run-status").textContent = `Run ${data.status} in ${Number(data.duration_ms ?? 0).toFixed(1)} ms.`;
      renderTimeline([...run.spans.values()]);
      break;
    default:
      break;
  }
}

async function showRecordedRun(id) {
  const record = await api(`/playground/api/runs/${encodeURIComponent(id)}`);
  if (state.current?.name !== record.pipeline) await openPipeline(record.pipeline);
  const run = newRunView();
  for (const { event, data } of record.events) handleEvent(run, event, data);
}

// ---------------------------------------------------------------- approvals

async function openApproval(id) {
  const run = await api(`/runs/${encodeURIComponent(id)}`);
  $("#welcome").hidden = true;
  $("#pipeline-view").hidden = true;
  $("#approval-view").hidden = false;
  $("#approval-run").textContent = id;
  $("#approval-error").hidden = true;
  $("#approval-result").hidden = true;
  $("#approval-status").textContent =
    `${run.pipeline ?? "run"} · paused ${run.updated_at ?? ""} · ${run.status}`;
  for (const button of document.querySelectorAll("#approval-form button")) button.disabled = false;
  const interrupts = run.interrupts ?? [];
  $("#approval-items").replaceChildren(
    ...interrupts.map((item, index) => {
      const group = `decision-${index}`;
      const editor = el("textarea", { rows: 4, "aria-label": `Arguments for ${item.tool ?? item.id}` });
      editor.value = pretty(item.arguments ?? item.payload ?? {});
      const message = el("input", {
        type: "text",
        "aria-label": "Message for the model when rejecting",
        placeholder: "Why (sent to the model)",
      });
      const choice = (value, text, checked) =>
        el("label", {}, el("input", { type: "radio", name: group, value, checked }), text);
      const fieldset = el(
        "fieldset",
        { class: "interrupt", "data-interrupt": item.id },
        el("legend", {}, item.tool ? `Tool call ${item.tool}` : `Interrupt ${item.id}`),
        el(
          "p",
          { class: "muted" },
          `id ${item.id}${item.path?.length ? ` · in ${item.path.join(" / ")}` : ""}`,
        ),
        item.payload !== undefined ? el("pre", { class: "output" }, pretty(item.payload)) : null,
        el(
          "div",
          { class: "decision" },
          choice("approve", "Approve", true),
          choice("edit", "Edit arguments", false),
          choice("reject", "Reject", false),
        ),
        el(
          "div",
          { class: "field" },
          el(
            "span",
            { class: "hint" },
            item.tool ? "Arguments (used when editing)" : "Answer (JSON, used when responding)",
          ),
          editor,
        ),
        el("div", { class: "field" }, message),
      );
      fieldset.dataset.kind = item.kind ?? "tool_approval";
      return fieldset;
    }),
  );
  $("#main").focus();
}

/** The decisions the form holds; `all` ("approve" | "reject") overrides every tool call's choice. */
function readDecisions(all) {
  const decisions = {};
  const problems = [];
  for (const fieldset of document.querySelectorAll("#approval-items fieldset")) {
    const interrupt = fieldset.dataset.interrupt;
    const action = all ?? fieldset.querySelector("input[type=radio]:checked")?.value ?? "approve";
    const text = fieldset.querySelector("textarea").value;
    const message = fieldset.querySelector("input[type=text]").value;
    if (fieldset.dataset.kind !== "tool_approval" && action !== "reject") {
      try {
        decisions[interrupt] = { action: "respond", value: JSON.parse(text) };
      } catch (error) {
        problems.push(`${interrupt}: the answer is not valid JSON (${error.message}).`);
      }
    } else if (action === "edit") {
      try {
        decisions[interrupt] = { action: "edit", arguments: JSON.parse(text) };
      } catch (error) {
        problems.push(`${interrupt}: the arguments are not valid JSON (${error.message}).`);
      }
    } else if (action === "reject") {
      decisions[interrupt] = message ? { action: "reject", message } : { action: "reject" };
    } else decisions[interrupt] = { action: "approve" };
  }
  return { decisions, problems };
}

async function resumeApproval(event) {
  event.preventDefault();
  const all = event.submitter?.dataset.all;
  const id = $("#approval-run").textContent;
  const { decisions, problems } = readDecisions(all);
  const errorBox = $("#approval-error");
  if (problems.length > 0) {
    errorBox.textContent = problems.join("\n");
    errorBox.hidden = false;
    return;
  }
  errorBox.hidden = true;
  const buttons = document.querySelectorAll("#approval-form button");
  for (const button of buttons) button.disabled = true;
  $("#approval-status").textContent = "Resuming…";
  try {
    const answer = await api(`/runs/${encodeURIComponent(id)}/resume`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ decisions }),
    });
    const result = $("#approval-result");
    result.hidden = false;
    result.textContent = pretty(answer.status === "completed" ? answer.outputs : answer.interrupts);
    result.setAttribute("data-status", answer.status);
    $("#approval-status").textContent =
      answer.status === "completed"
        ? "Run completed."
        : `The run stopped again: ${answer.interrupts.length} decision(s) wait in the inbox.`;
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
    $("#approval-status").textContent = "Not resumed.";
    for (const button of buttons) button.disabled = false;
  } finally {
    loadInbox();
    loadRuns();
  }
}

// ---------------------------------------------------------------- start

$("#run-form").addEventListener("submit", startRun);
$("#cancel-button").addEventListener("click", () => state.controller?.abort());
$("#approval-form").addEventListener("submit", resumeApproval);
await loadPipelines();
await Promise.all([loadRuns(), loadInbox()]);
const wanted = decodeURIComponent(location.hash.slice(1));
if (wanted && state.pipelines.some((pipeline) => pipeline.name === wanted)) await openPipeline(wanted);
