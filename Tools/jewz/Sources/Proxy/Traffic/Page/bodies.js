// jewz proxy's traffic view: a body shown by its type — JSON as a tree, form fields, XML
// indented, images inline, multipart parts each by its own type, text as text, the rest in hex.
// Uses traffic.js's el(), size() and fieldTable(); every text is put in the page as text.
"use strict";

function bytesOf(shown) {
  if (shown.encoding === "base64") return Uint8Array.from(atob(shown.text), (c) => c.charCodeAt(0));
  return new TextEncoder().encode(shown.text);
}

function body(shown, id, side) {
  if (!shown) return el("p", { class: "note" }, "no body");
  const notes = [];
  if (shown.note) notes.push(el("p", { class: "note" }, shown.note));
  if (shown.truncated) {
    notes.push(el("p", { class: "note" }, `${size(shown.size)}: the first ${size(shown.text.length)} shown. `,
      el("a", { href: `/api/exchanges/${id}/body/${side}`, target: "_blank", rel: "noopener" }, "The whole body")));
  }
  if (shown.text === null || shown.text === undefined) return el("div", {}, notes.length ? notes : el("p", { class: "note" }, "no body kept"));
  if (!shown.text.length) return el("p", { class: "note" }, "empty body");
  return el("div", { class: "body" }, notes, rendered(shown));
}

function rendered(shown) {
  const type = (shown.mimeType || "").split(";")[0].trim().toLowerCase();
  const text = shown.encoding === "base64" ? null : shown.text;
  try {
    if (type.startsWith("image/")) {
      const data = shown.encoding === "base64" ? shown.text : btoa(String.fromCharCode(...new TextEncoder().encode(shown.text)));
      return el("div", { class: "image" }, el("img", { src: `data:${type};base64,${data}`, alt: type }));
    }
    if (text !== null && (type === "application/json" || type.endsWith("+json")) && !shown.truncated) {
      return el("div", { class: "json-tree" }, jsonNode(null, JSON.parse(text), true));
    }
    if (text !== null && type === "application/x-www-form-urlencoded") {
      return el("table", { class: "fields form-fields" }, [...new URLSearchParams(text)].map(([name, value]) =>
        el("tr", {}, el("td", {}, name), el("td", {}, value))));
    }
    if (text !== null && (type.endsWith("/xml") || type.endsWith("+xml"))) return el("pre", { class: "xml" }, prettyXML(text));
    if (type.startsWith("multipart/")) return multipart(bytesOf(shown), shown.mimeType);
  } catch (error) {
    return el("div", {}, el("p", { class: "note" }, `not shown as ${type}: ${error.message}`), plain(shown));
  }
  return plain(shown);
}

// Text as text; bytes, and text with control characters in it, as a hex dump.
function plain(shown) {
  const binary = shown.encoding === "base64" || /[\u0000-\u0008\u000e-\u001f]/.test(shown.text);
  if (binary) return hex(bytesOf(shown));
  return el("pre", { class: "text" }, shown.text);
}

function jsonNode(key, value, expanded) {
  const label = key === null ? [] : [el("span", { class: "json-key" }, JSON.stringify(key)), ": "];
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const node = el("details", {}, el("summary", {}, ...label, summary), entries.map(([name, item]) => jsonNode(Array.isArray(value) ? null : name, item, false)));
    node.open = expanded || entries.length <= 8;
    return node;
  }
  const kind = value === null ? "null" : typeof value;
  return el("div", { class: "leaf" }, ...label, el("span", { class: `json-${kind}` }, JSON.stringify(value)));
}

function prettyXML(text) {
  const documentNode = new DOMParser().parseFromString(text, "application/xml");
  if (documentNode.querySelector("parsererror")) throw new Error("not well-formed XML");
  const lines = [];
  const walk = (node, depth) => {
    const pad = "  ".repeat(depth);
    if (node.nodeType === Node.TEXT_NODE) { if (node.nodeValue.trim()) lines.push(pad + node.nodeValue.trim()); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const attributes = [...node.attributes].map((a) => ` ${a.name}="${a.value}"`).join("");
    if (!node.childNodes.length) { lines.push(`${pad}<${node.nodeName}${attributes}/>`); return; }
    lines.push(`${pad}<${node.nodeName}${attributes}>`);
    node.childNodes.forEach((child) => walk(child, depth + 1));
    lines.push(`${pad}</${node.nodeName}>`);
  };
  walk(documentNode.documentElement, 0);
  return lines.join("\n");
}

function multipart(bytes, mimeType) {
  const boundary = /boundary="?([^";]+)"?/i.exec(mimeType)?.[1];
  if (!boundary) throw new Error("no boundary");
  const text = new TextDecoder("latin1").decode(bytes);
  const parts = text.split(`--${boundary}`).slice(1).filter((part) => !part.startsWith("--"));
  return el("div", { class: "multipart" }, parts.map((part) => {
    const [head, ...rest] = part.replace(/^\r\n/, "").split("\r\n\r\n");
    const content = rest.join("\r\n\r\n").replace(/\r\n$/, "");
    const fields = head.split("\r\n").filter(Boolean).map((line) => {
      const at = line.indexOf(":");
      return { name: line.slice(0, at), value: line.slice(at + 1).trim() };
    });
    const type = fields.find((field) => field.name.toLowerCase() === "content-type")?.value ?? "text/plain";
    const partBytes = Uint8Array.from(content, (c) => c.charCodeAt(0));
    const decoded = new TextDecoder("utf-8", { fatal: false }).decode(partBytes);
    const binary = /[\u0000-\u0008\u000e-\u001f]/.test(decoded) || decoded.includes("\ufffd");
    const shown = binary ? { text: btoa(content), encoding: "base64", mimeType: type } : { text: decoded, encoding: null, mimeType: type };
    return el("div", { class: "part" }, fieldTable(fields), rendered(shown));
  }));
}

function hex(bytes) {
  const limit = Math.min(bytes.length, 16 * 1024);
  const lines = [];
  for (let offset = 0; offset < limit; offset += 16) {
    const slice = [...bytes.slice(offset, offset + 16)];
    const hexes = slice.map((b) => b.toString(16).padStart(2, "0")).join(" ").padEnd(47);
    const ascii = slice.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${offset.toString(16).padStart(8, "0")}  ${hexes}  ${ascii}`);
  }
  if (bytes.length > limit) lines.push(`… ${bytes.length - limit} more bytes`);
  return el("pre", { class: "hex" }, lines.join("\n"));
}

