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

// --- accessibility helpers (issue 27) -------------------------------------------------------

// Visually hidden but read by screen readers (the usual clip pattern), as an inline style so
// every widget has it without sharing a stylesheet.
const SR_ONLY = "position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;" +
  "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0";

// The widget's one announcer: a polite live region made once and never rebuilt (a region
// replaced on each render is often not read at all). `say(text)` reads `text` out; the same
// text twice is read twice (the node is emptied first, then filled on the next frame).
function announcer(root) {
  const node = html("div", { class: "hl-announcer", role: "status", "aria-live": "polite",
    "aria-atomic": "true", style: SR_ONLY });
  root.prepend(node);
  let last = 0;
  const say = (text) => {
    if (!text) return;
    const n = ++last;
    node.textContent = "";
    setTimeout(() => { if (n === last) node.textContent = text; }, 60);
  };
  say.node = node;
  return say;
}

// Where the keyboard is, as a key that survives a re-render: the first of `attrs` the focused
// element (inside `root`) carries, e.g. ["data-square", "data-action"]. null: focus is elsewhere.
function focusKey(root, attrs) {
  const focused = root.contains(document.activeElement) ? document.activeElement : null;
  if (!focused) return null;
  for (const attr of attrs) {
    const holder = focused.closest(`[${attr}]`);
    if (holder && root.contains(holder)) return [attr, holder.getAttribute(attr)];
  }
  return ["", ""];  // inside the widget, on something without a key: use the fallbacks
}

// Put focus back after a re-render: the element with the same key if it is still there and
// usable, else the first of `fallbacks` (selectors) that is. Never leaves it on <body>.
function restoreFocus(root, key, fallbacks = []) {
  if (!key) return;
  const usable = (node) => node && !node.disabled && node.getAttribute("aria-hidden") !== "true" &&
    node.getClientRects().length > 0;
  const [attr, value] = key;
  if (attr) {
    const same = root.querySelector(`[${attr}="${CSS.escape(value)}"]`);
    if (usable(same)) { same.focus(); if (root.contains(document.activeElement)) return; }
  }
  for (const selector of fallbacks) {
    const node = root.querySelector(selector);
    if (usable(node)) {
      node.focus();
      if (document.activeElement === node) return;
    }
  }
}

// One tab stop for a group (roving tabindex): `items` get tabindex -1 except `current` (or the
// first), which gets 0.
function rove(items, current) {
  const list = [...items];
  const chosen = list.includes(current) ? current : list[0];
  for (const item of list) item.setAttribute("tabindex", item === chosen ? "0" : "-1");
  return chosen;
}

// The item of `items` nearest to `from` in the direction of an arrow key (screen geometry):
// within 45 degrees of the arrow (the four arrows share the plane), nearest first, with the
// sideways distance added once more (so a near item a little aside beats a far one in line).
function nearestInDirection(from, items, key) {
  const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  if (!dir) return null;
  const centre = (node) => {
    const box = node.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  };
  const [fx, fy] = centre(from);
  let best = null;
  let bestCost = Infinity;
  for (const item of items) {
    if (item === from) continue;
    const [x, y] = centre(item);
    const along = (x - fx) * dir[0] + (y - fy) * dir[1];
    const side = Math.abs((x - fx) * dir[1] - (y - fy) * dir[0]);
    if (along <= 0.5 || side > along) continue;
    const cost = Math.hypot(along, side) + side;
    if (cost < bestCost) { bestCost = cost; best = item; }
  }
  return best;
}

// A "Keyboard help" disclosure listing the keys (a native <details>: no script, reachable).
function keyboardHelp(parent, prefix, rows) {
  const box = html("details", { class: `${prefix}-keyboard-help hl-keyboard-help` }, parent);
  html("summary", {}, box, "Keyboard help");
  const list = html("dl", {}, box);
  for (const [keys, what] of rows) {
    html("dt", {}, list, keys);
    html("dd", {}, list, what);
  }
  return box;
}

// The app around a widget as a labelled landmark (issue 27): the nearest `selector` ancestor
// (the app's box, drawn by Python) becomes a region named `label`. The widget may not be in
// the page yet when it renders, so this waits a few frames for it.
function landmark(root, selector, label, tries = 60) {
  const app = root.closest(selector);
  if (app) {
    if (!app.hasAttribute("role")) app.setAttribute("role", "region");
    app.setAttribute("aria-label", label);
  } else if (tries > 0) {
    requestAnimationFrame(() => landmark(root, selector, label, tries - 1));
  }
}
