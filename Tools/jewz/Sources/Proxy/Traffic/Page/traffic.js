// jewz proxy's traffic view: the list of exchanges as the proxy pushes them (Server-Sent Events
// from /api/events: batches of the rows that changed), a filter, one exchange opened
// (/api/exchanges/ID), a waterfall, HAR export, send again, copy as curl or jewz. Every text from the traffic is put in the page as text, never
// as markup.
"use strict";

const rows = new Map(); // id → the exchange's summary
const rowElements = new Map(); // id → its <tr>
let selected = null; // the id opened
let revealed = false;
let opened = null; // the opened exchange's detail

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name === "style") node.style.cssText = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// MARK: The list

function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function duration(ms) {
  if (ms === null || ms === undefined) return "…";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function statusClass(row) {
  if (row.state === "failed") return "failed";
  if (row.status === null || row.status === undefined) return "pending";
  return `status-${Math.floor(row.status / 100)}`;
}

function statusText(row) {
  if (row.state === "failed" && !row.status) return "failed";
  return row.status ?? "…";
}

function shortType(mime) {
  const essence = (mime || "").split(";")[0].trim().toLowerCase();
  const names = { "application/x-www-form-urlencoded": "form", "application/octet-stream": "bytes" };
  return names[essence] ?? essence.replace(/^(application|text|multipart)\//, "");
}

function pathOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

// "method:POST status:4xx host:api text" — every term must hold.
function matches(row, filter) {
  for (const term of filter.toLowerCase().split(/\s+/).filter(Boolean)) {
    const [key, ...rest] = term.split(":");
    const value = rest.join(":");
    if (rest.length && key === "method") { if (row.method.toLowerCase() !== value) return false; }
    else if (rest.length && key === "status") {
      const status = String(row.status ?? (row.state === "failed" ? "failed" : "pending"));
      if (/^[1-5]xx$/.test(value) ? status[0] !== value[0] : status !== value) return false;
    }
    else if (rest.length && key === "host") { if (!row.host.toLowerCase().includes(value)) return false; }
    else if (rest.length && key === "source") { if (!row.source.toLowerCase().includes(value)) return false; }
    else if (!`${row.method} ${row.url} ${row.status ?? ""} ${row.mimeType} ${row.source}`.toLowerCase().includes(term)) return false;
  }
  return true;
}

function renderRow(row) {
  const tr = el("tr", { "data-id": row.id, "data-method": row.method, class: row.id === selected ? "selected" : "", onclick: () => openExchange(row.id) },
    el("td", {}, row.id),
    el("td", {}, row.method),
    el("td", { class: "url", title: row.url }, el("span", { class: "host" }, row.host), pathOf(row.url)),
    el("td", { class: `status ${statusClass(row)}`, title: row.failure ?? "" }, statusText(row)),
    el("td", {}, shortType(row.mimeType)),
    el("td", {}, size(row.size)),
    el("td", {}, duration(row.time)),
    el("td", {}, row.source),
    el("td", { class: "waterfall" }, el("span", { class: `bar ${row.state === "failed" ? "failed" : row.state === "complete" ? "" : "pending"}` })));
  return tr;
}

function upsert(row) {
  rows.set(row.id, row);
  const tr = renderRow(row);
  const old = rowElements.get(row.id);
  if (old) old.replaceWith(tr);
  else document.getElementById("rows").append(tr);
  rowElements.set(row.id, tr);
  if (row.id === selected && (row.state === "complete" || row.state === "failed") && opened && opened.summary.state !== row.state) openExchange(row.id);
}

function applyFilter() {
  const filter = document.getElementById("filter").value;
  let shown = 0;
  for (const [id, tr] of rowElements) {
    const visible = matches(rows.get(id), filter);
    tr.hidden = !visible;
    if (visible) shown += 1;
  }
  document.getElementById("count").textContent = `${shown} of ${rows.size}`;
  document.getElementById("empty").hidden = rows.size > 0;
  drawWaterfall();
}

// Each bar from its start to its end, on one scale for the rows shown.
function drawWaterfall() {
  const shown = [...rows.values()].filter((row) => !rowElements.get(row.id).hidden);
  if (!shown.length) return;
  const now = Date.now();
  const first = Math.min(...shown.map((row) => row.started));
  const last = Math.max(...shown.map((row) => row.started + (row.time ?? now - row.started)));
  const span = Math.max(last - first, 1);
  for (const row of shown) {
    const bar = rowElements.get(row.id).querySelector(".bar");
    const width = Math.max(((row.time ?? now - row.started) / span) * 100, 0.5);
    bar.style.left = `${Math.min(((row.started - first) / span) * 100, 100 - width)}%`;
    bar.style.width = `${width}%`;
    bar.title = `${duration(row.time)} from ${new Date(row.started).toISOString()}`;
  }
}

function visibleIDs() {
  return [...rowElements].filter(([, tr]) => !tr.hidden).map(([id]) => id);
}

// MARK: One exchange opened

async function openExchange(id) {
  selected = id;
  for (const [other, tr] of rowElements) tr.classList.toggle("selected", other === id);
  const response = await fetch(`/api/exchanges/${id}${revealed ? "?reveal=1" : ""}`);
  const detail = document.getElementById("detail");
  detail.hidden = false;
  if (!response.ok) {
    detail.replaceChildren(el("p", { class: "note" }, await response.text()));
    return;
  }
  opened = await response.json();
  detail.replaceChildren(...renderDetail(opened));
  history.replaceState(null, "", `${location.pathname}${location.search}#open=${id}`);
}

function renderDetail(detail) {
  const { summary, entry, phases } = detail;
  return [
    el("h2", {}, `${summary.method} ${summary.url}`),
    el("div", {}, el("span", { class: statusClass(summary) }, `${statusText(summary)} ${entry.response.statusText}`),
      ` · ${entry.response.httpVersion} · from ${summary.source} · ${size(summary.size)} · ${duration(summary.time)}`,
      summary.failure ? el("span", { class: "failed" }, ` · ${summary.failure}`) : null),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "reveal", onclick: () => { revealed = !revealed; openExchange(summary.id); } }, revealed ? "Hide credentials" : "Reveal credentials"),
      el("button", { type: "button", id: "send-again", onclick: () => showEditor(detail) }, "Send again…"),
      el("button", { type: "button", onclick: () => copy(curlCommand(detail)) }, "Copy as curl"),
      el("button", { type: "button", onclick: () => copy(jewzCommand(detail)) }, "Copy as jewz")),
    el("div", { id: "editor" }),
    el("h3", {}, "Timings"), timingBar(phases),
    el("h2", {}, "Request"), fieldTable(entry.request.headers), body(detail.requestBody, summary.id, "request"),
    el("h2", {}, "Response"), fieldTable(entry.response.headers), body(detail.responseBody, summary.id, "response"),
  ];
}

function timingBar(phases) {
  const end = phases.end ?? phases.head ?? phases.sent ?? 0;
  const sent = phases.sent ?? end;
  const head = phases.head ?? end;
  const parts = [["queue", sent], ["wait", head - sent], ["body", end - head]];
  const total = Math.max(end, 1);
  return el("div", {},
    el("div", { class: "timings", title: "queue: in the proxy and its session (cache, retries); wait: to the answer's first byte; body: to its last" },
      parts.map(([name, ms]) => el("span", { class: `phase-${name}`, style: `width: ${(Math.max(ms, 0) / total) * 100}%` }))),
    el("div", { class: "legend" }, parts.map(([name, ms]) => el("span", { class: `legend-${name}` }, `${name} ${duration(Math.max(ms, 0))}`))));
}

function fieldTable(fields) {
  if (!fields.length) return el("p", { class: "note" }, "no header fields");
  return el("table", { class: "fields" }, fields.map((field) =>
    el("tr", {}, el("td", {}, field.name), el("td", { class: field.value === "[redacted]" ? "redacted" : "" }, field.value))));
}

// MARK: Send again, copy as a command

function requestText(detail) {
  const shown = detail.requestBody;
  return shown && shown.encoding !== "base64" && !shown.truncated ? shown.text ?? "" : null;
}

function showEditor(detail) {
  const { entry } = detail;
  const method = el("input", { name: "method", value: entry.request.method });
  const url = el("input", { name: "url", value: entry.request.url });
  const headers = el("textarea", { name: "headers" });
  headers.value = entry.request.headers.filter((f) => !["via", "content-length"].includes(f.name.toLowerCase())).map((f) => `${f.name}: ${f.value}`).join("\n");
  const bodyText = el("textarea", { name: "body" });
  const original = requestText(detail);
  bodyText.value = original ?? "";
  const outcome = el("p", { class: "note", id: "send-outcome" });
  const form = el("form", { class: "edit", onsubmit: async (event) => {
    event.preventDefault();
    const edits = {
      method: method.value,
      url: url.value,
      headers: headers.value.split("\n").filter((line) => line.includes(":")).map((line) => {
        const at = line.indexOf(":");
        return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
      }),
    };
    if (original !== null || bodyText.value) edits.body = bodyText.value;
    const reply = await fetch(`/api/exchanges/${detail.summary.id}/send-again`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(edits),
    });
    outcome.textContent = reply.ok ? `sent again: ${(await reply.json()).status}` : `not sent: ${await reply.text()}`;
  } },
  el("label", {}, "Method"), method, el("label", {}, "URL"), url, el("label", {}, "Headers"), headers,
  el("label", {}, "Body"), bodyText, el("span"), el("div", {}, el("button", { type: "submit" }, "Send"), " ", outcome));
  document.getElementById("editor").replaceChildren(
    el("p", { class: "note" }, "Sent through the proxy as a new exchange. A value left [redacted] is sent as it went."), form);
}

function quoted(text) {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function curlCommand(detail) {
  const { entry } = detail;
  const parts = ["curl", "-X", entry.request.method, quoted(entry.request.url)];
  for (const field of entry.request.headers) {
    if (!["via", "content-length", "host"].includes(field.name.toLowerCase())) parts.push("-H", quoted(`${field.name}: ${field.value}`));
  }
  const text = requestText(detail);
  if (text) parts.push("--data-binary", quoted(text));
  return parts.join(" ");
}

function jewzCommand(detail) {
  const { entry } = detail;
  const parts = ["jewz", entry.request.method, quoted(entry.request.url)];
  for (const field of entry.request.headers) {
    if (!["via", "content-length", "host"].includes(field.name.toLowerCase())) parts.push(quoted(`${field.name}:${field.value}`));
  }
  const text = requestText(detail);
  if (text) parts.push("--raw", quoted(text));
  return parts.join(" ");
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el("textarea", { id: "copied", readonly: "" });
    area.value = text;
    document.getElementById("editor").replaceChildren(el("p", { class: "note" }, "Copy this:"), area);
    area.select();
  }
}

// MARK: Start

function connect() {
  const status = document.getElementById("connection");
  const events = new EventSource("/api/events");
  events.onopen = () => { status.textContent = "live"; status.classList.add("live"); };
  events.onerror = () => { status.textContent = "reconnecting…"; status.classList.remove("live"); };
  events.addEventListener("exchanges", (event) => {
    JSON.parse(event.data).forEach(upsert);
    applyFilter();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const filter = document.getElementById("filter");
  filter.value = new URLSearchParams(location.search).get("filter") ?? "";
  filter.addEventListener("input", applyFilter);
  document.getElementById("export").addEventListener("click", () => {
    location.href = `/api/har?ids=${visibleIDs().join(",")}`;
  });
  applyFilter();
  connect();
  const wanted = /#open=(\d+)/.exec(location.hash);
  if (wanted) openExchange(Number(wanted[1]));
});
