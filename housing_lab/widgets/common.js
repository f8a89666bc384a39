// Helpers every housing_lab anywidget shares. Python (widgets/common.py, `widget_esm`) puts this
// file in front of each widget's own module when the widget class loads: no build step, no CDN,
// nothing fetched. The widget modules use these names as if they had written them themselves.

const SVG = "http://www.w3.org/2000/svg";

// An SVG element with its attributes, appended to `parent` when given.
function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// An HTML element with its attributes, appended to `parent` when given.
function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// One redraw for a batch of trait changes (Python sends several in one message).
function batched(draw) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; draw(); });
  };
}

// The message line: Python's `say(text, kind)` arrives as `message` / `message_kind`.
function showMessage(node, prefix, text, kind) {
  node.textContent = text;
  node.className = `${prefix}-message hl-${kind || "info"}${text ? "" : ` ${prefix}-empty`}`;
}

// Save `download.content` as a file named `download.name` (Python's `offer_download`). The link
// is put in the page before the click: some browsers ignore a click on a detached link.
function saveDownload(model, fallbackName) {
  const request = model.get("download");
  if (!request || !request.content) return;
  const type = (request.name || "").endsWith(".html") ? "text/html" : "application/json";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([request.content], { type }));
  link.download = request.name || fallbackName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// Listen to `change:<name>` for each name; returns the function that stops listening.
function listen(model, names, handler) {
  for (const name of names) model.on(`change:${name}`, handler);
  return () => { for (const name of names) model.off(`change:${name}`, handler); };
}
