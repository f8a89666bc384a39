// Streetcar board: an SVG hex board with houses, buildings (stacks of cubes) and streetcar lines,
// plus the turn's prompt and buttons. It decides no rule: the legal edges, their legal partners
// and the removable houses arrive as traits (so hover is instant), and every click becomes a
// message to Python ({action: "edge" | "house" | "pass_lines" | "cancel_lines" | "undo"}).
// A bot's move arrives at once but is shown after `bot_move.delay` seconds; then the view tells
// Python ({action: "bot_shown", n}) so the score panel can follow.

const S = 42; // hex radius: centre to corner
const SQ3 = Math.sqrt(3);
const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const LETTER = { blue: "B", black: "K", white: "W", yellow: "Y" };
const FACES = { // cube faces: top, left, right
  blue: ["#5b8fe0", "#1f5fbf", "#14428a"],
  black: ["#5a5a5a", "#2b2b2b", "#111111"],
  white: ["#ffffff", "#e9e9e9", "#c4c4c4"],
  yellow: ["#ffe36b", "#f4c400", "#c29a00"],
};
const PLAYER_COLOUR = { purple: "#7b2cbf", red: "#d62828" };

const parseHex = (key) => key.split(",").map(Number);
const hexKey = ([q, r]) => `${q},${r}`;
// Place names ("E3": row E, third hex from the west) come from Python (streetcar_places.py);
// a hex off the board is "the board's edge". Students never see coordinates.
let NAMES = {};
const place = (key) => NAMES[key] || "the board's edge";
const LAST = "#00a6a6"; // the last move's halo (not a house or player colour)
const COMPASS = ["east", "north-east", "north-west", "west", "south-west", "south-east"]; // DIRS
const PLAYER_NAME = { purple: "Purple", red: "Red" };
let TURNS = {}; // drawn edge -> the turn it was drawn on (Python's line_turns)

// Where a grid line is, in words, unique on the board: "between E4 and E5", or for a line on
// the board's rim "on the north-east side of A3, at the board's edge".
function edgeWhere(key) {
  const [a, b] = key.split("|");
  if (NAMES[a] && NAMES[b]) return `between ${NAMES[a]} and ${NAMES[b]}`;
  const [inside, outside] = NAMES[a] ? [a, b] : [b, a];
  const [iq, ir] = parseHex(inside);
  const [oq, or] = parseHex(outside);
  const d = DIRS.findIndex(([dq, dr]) => iq + dq === oq && ir + dr === or);
  return `on the ${COMPASS[d] || "outer"} side of ${place(inside)}, at the board's edge`;
}

// A drawn line's unique name: "Purple line between E4 and E5, turn 1".
function lineName(key, owner) {
  const turn = TURNS[key];
  return `${PLAYER_NAME[owner] || owner} line ${edgeWhere(key)}${turn ? `, turn ${turn}` : ""}`;
}

// Pointy-top axial layout: rows of equal r run west to east, north row first.
function centre([q, r]) {
  return [S * SQ3 * (q + r / 2), S * 1.5 * r];
}

// An intersection sits at the centroid of its three hexes' centres, so an edge's two ends are
// the centroids with the two hexes that neighbour both of its hexes (no drawing convention).
function edgeEnds(key) {
  const [a, b] = key.split("|").map(parseHex);
  const near = (h) => DIRS.map(([dq, dr]) => hexKey([h[0] + dq, h[1] + dr]));
  const around = new Set(near(a));
  const common = near(b).filter((k) => around.has(k)).map(parseHex);
  return common.map((c) => {
    const points = [a, b, c].map(centre);
    return [0, 1].map((i) => points.reduce((sum, p) => sum + p[i], 0) / 3);
  });
}

function corners([cx, cy]) {
  return [0, 1, 2, 3, 4, 5].map((i) => {
    const angle = (Math.PI / 180) * (60 * i - 30);
    return [cx + S * Math.cos(angle), cy + S * Math.sin(angle)];
  });
}

const pointsAttr = (points) => points.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");

function padlock(parent, x, y) {
  const g = el("g", { class: "sc-lock", "aria-hidden": "true" }, parent);
  el("path", { d: `M${x - 4},${y - 1} v-3 a4,4 0 0 1 8,0 v3`, class: "sc-lock-shackle" }, g);
  el("rect", { x: x - 6, y: y - 1, width: 12, height: 9, rx: 1.5, class: "sc-lock-body" }, g);
}

function drawHouse(parent, key, colour, flipped, removable, hinted) {
  const [cx, cy] = centre(parseHex(key));
  const classes = ["sc-house", `sc-colour-${colour}`];
  if (flipped) classes.push("sc-flipped");
  if (removable) classes.push("sc-removable");
  if (hinted) classes.push("sc-hinted");
  const g = el("g", {
    class: classes.join(" "), "data-hex": key, "data-house-colour": colour,
    "data-flipped": flipped ? "true" : "false",
  }, parent);
  if (removable) {
    g.setAttribute("tabindex", "-1"); // the board is one tab stop: `roveBoard` picks it
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", `remove the ${colour} house at ${place(key)}`);
  }
  const body = el("g", { class: "sc-house-body" }, g);
  // Flipped houses are drawn upside down (the rulebook's "flip") with a dashed outline.
  const f = flipped ? -1 : 1;
  el("path", {
    d: `M${cx - 17},${cy - f} L${cx},${cy - 19 * f} L${cx + 17},${cy - f} L${cx + 17},${cy + 17 * f}` +
      ` L${cx - 17},${cy + 17 * f} Z`,
    class: "sc-house-shape", fill: FACES[colour][1],
  }, body);
  el("text", { x: cx, y: flipped ? cy - 2 : cy + 12, "text-anchor": "middle",
    class: `sc-house-letter sc-ink-${colour}` }, body, LETTER[colour]);
  if (flipped) padlock(g, cx + 20, cy - 20);
  const state = flipped ? "flipped: next to a building, cannot be removed"
    : removable ? "click to remove it" : "can be removed on a later turn";
  if (hinted) {
    el("circle", { cx, cy, r: 30, class: "sc-hint-ring" }, g);
    el("text", { x: cx, y: cy - 25, "text-anchor": "middle", class: "sc-hint-tag" }, g, "hint");
  }
  el("title", {}, g, `${colour} house (${LETTER[colour]}) at ${place(key)}: ${state}`);
}

// A stack of isometric cubes; the colour letter beside it is the second cue.
function drawBuilding(parent, key, colour, cubes, fresh) {
  const [cx, cy] = centre(parseHex(key));
  const g = el("g", {
    class: `sc-building${fresh ? " sc-new" : ""}`, "data-hex": key,
    "data-building-colour": colour, "data-building-cubes": cubes,
  }, parent);
  const w = 14;
  const d = 7;
  const h = 15;
  const base = cy + 24;
  if (cubes === 0) {
    el("polygon", { points: pointsAttr([[cx - w, base - d], [cx, base], [cx + w, base - d],
      [cx, base - 2 * d]]), class: "sc-slab" }, g);
    el("text", { x: cx, y: base - 12, "text-anchor": "middle", class: "sc-zero" }, g, "0");
  }
  const [top, left, right] = FACES[colour];
  for (let k = 0; k < cubes; k += 1) {
    const y = base - k * h;
    const cube = el("g", { class: `sc-cube sc-cube-${colour}` }, g);
    el("polygon", { points: pointsAttr([[cx - w, y - d], [cx, y], [cx, y - h], [cx - w, y - d - h]]),
      fill: left }, cube);
    el("polygon", { points: pointsAttr([[cx, y], [cx + w, y - d], [cx + w, y - d - h], [cx, y - h]]),
      fill: right }, cube);
    el("polygon", { points: pointsAttr([[cx - w, y - d - h], [cx, y - h], [cx + w, y - d - h],
      [cx, y - 2 * d - h]]), fill: top }, cube);
  }
  el("text", { x: cx + w + 4, y: base - 2, class: "sc-building-letter" }, g,
    `${LETTER[colour]}${cubes}`);
  el("title", {}, g, `${LETTER[colour]}${cubes} building at ${place(key)}: ${cubes} ${colour} ` +
    `cube${cubes === 1 ? "" : "s"}`);
}

function drawEdge(parent, key, state) {
  const [[x1, y1], [x2, y2]] = edgeEnds(key);
  const g = el("g", { class: `sc-edge ${state.classes.join(" ")}`, "data-edge": key }, parent);
  if (state.owner) g.setAttribute("data-player-line", state.owner);
  if (state.staged) g.setAttribute("data-staged", state.staged);
  if (state.focusable) {
    g.setAttribute("tabindex", "-1"); // the board is one tab stop: `roveBoard` picks it
    g.setAttribute("role", "button");
    const what = state.classes.includes("sc-first") ? "your first line (Enter drops it)"
      : state.classes.includes("sc-second") ? "second line" : "grid line";
    g.setAttribute("aria-label", `${what} ${edgeWhere(key)}`);
  } else if (state.owner) {
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", lineName(key, state.owner));
  }
  const colour = state.owner || state.staged || state.current;
  if (state.last) {
    g.setAttribute("data-last-move", state.last);
    el("line", { x1, y1, x2, y2, class: "sc-edge-halo", stroke: LAST }, g);
  }
  el("line", { x1, y1, x2, y2, class: "sc-edge-line", stroke: PLAYER_COLOUR[colour] || "#333" }, g);
  if (state.hint) {
    g.setAttribute("data-hint", "true");
    el("line", { x1, y1, x2, y2, class: "sc-edge-hint", stroke: PLAYER_COLOUR[state.hint] || "#333" },
      g);
  }
  // The click target is a thin rectangle along the line, kept clear of the corners so a click
  // near an intersection is not ambiguous (and it has an area, unlike a vertical line).
  const len = Math.hypot(x2 - x1, y2 - y1);
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const [nx, ny] = [-uy * 12, ux * 12]; // 24 px across: a target a finger or a tremor can hit
  const [ax, ay, bx, by] = [x1 + ux * 7, y1 + uy * 7, x2 - ux * 7, y2 - uy * 7];
  el("polygon", { points: pointsAttr([[ax + nx, ay + ny], [bx + nx, by + ny], [bx - nx, by - ny],
    [ax - nx, ay - ny]]), class: "sc-edge-hit" }, g);
}

function view(model, hold) {
  const current = {
    houses: model.get("houses"), flipped: model.get("flipped"), buildings: model.get("buildings"),
    lines: model.get("lines"), new_buildings: model.get("new_buildings"),
    last_move: model.get("last_move") || {}, animation: `p${model.get("position_id")}`,
  };
  if (!hold) return current;
  return { ...current, ...hold.before, animation: `b${hold.n}` };
}

function drawBoard(svg, model, hold, animated) {
  svg.replaceChildren();
  const hexes = model.get("hexes");
  if (!hexes.length) return;
  const v = view(model, hold);
  const phase = hold ? "bot" : model.get("phase");
  const player = hold ? hold.player : model.get("player");
  const xs = [];
  const ys = [];
  for (const key of hexes) {
    const [x, y] = centre(parseHex(key));
    xs.push(x);
    ys.push(y);
  }
  const pad = S + 10;
  const side = pad + 26; // room for the row letters
  const minX = Math.min(...xs) - side;
  const minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", `${minX.toFixed(1)} ${minY.toFixed(1)} ` +
    `${(Math.max(...xs) - minX + side).toFixed(1)} ${(Math.max(...ys) - minY + pad).toFixed(1)}`);
  svg.setAttribute("data-phase", phase);
  svg.style.setProperty("--sc-current", PLAYER_COLOUR[player] || "#333");

  const built = new Map(v.buildings.map(([key, colour, cubes]) => [key, [colour, cubes]]));
  const flipped = new Set(v.flipped);
  const removable = new Set(hold ? [] : model.get("removable"));
  const fresh = animated.has(v.animation) ? new Set() : new Set(v.new_buildings);
  animated.add(v.animation);

  const hint = hold ? {} : model.get("hint") || {};
  const last = v.last_move || {};
  const ground = el("g", { class: "sc-ground" }, svg);
  const rows = el("g", { class: "sc-row-letters", "aria-hidden": "true" }, svg);
  for (const [letter, [west, east]] of Object.entries(model.get("rows") || {})) {
    const [wx, wy] = centre(parseHex(west));
    const [ex] = centre(parseHex(east));
    el("text", { x: wx - S - 8, y: wy + 6, "text-anchor": "middle", class: "sc-row-letter" }, rows,
      letter);
    el("text", { x: ex + S + 8, y: wy + 6, "text-anchor": "middle", class: "sc-row-letter" }, rows,
      letter);
  }
  const pieces = el("g", { class: "sc-pieces" }, svg);
  for (const key of hexes) {
    const kind = key in v.houses ? "house" : built.has(key) ? "building" : "empty";
    const g = el("g", { class: `sc-hex sc-${kind}`, "data-hex-cell": key, role: "img" }, ground);
    el("polygon", { points: pointsAttr(corners(centre(parseHex(key)))) }, g);
    let label = `${place(key)}: empty space`;
    if (kind === "house") {
      const colour = v.houses[key];
      drawHouse(pieces, key, colour, flipped.has(key), removable.has(key), hint.remove === key);
      label = `${place(key)}: ${colour} house${flipped.has(key) ? ", next to a building" : ""}`;
    } else if (kind === "building") {
      const [colour, cubes] = built.get(key);
      drawBuilding(pieces, key, colour, cubes, fresh.has(key));
      label = `${place(key)}: building with ${cubes} ${colour} cube${cubes === 1 ? "" : "s"}`;
    }
    if (last.remove === key) {
      g.classList.add("sc-last-removed");
      g.setAttribute("data-last-removed", last.player);
      el("polygon", { points: pointsAttr(corners(centre(parseHex(key)))), class: "sc-last-outline",
        stroke: LAST }, g);
      label += `, where ${last.player} removed a house last move`;
    }
    g.setAttribute("aria-label", label);
    el("title", {}, g, label);
  }

  const owner = new Map();
  for (const [who, keys] of Object.entries(v.lines)) for (const key of keys) owner.set(key, who);
  const lastLines = new Set(last.lines || []);
  const hinted = new Set(hint.lines || []);
  const staged = new Set(hold ? [] : model.get("staged"));
  const first = hold ? "" : model.get("first_edge");
  const seconds = new Set(hold ? [] : model.get("second_edges"));
  const legal = new Set(hold ? [] : model.get("legal_edges"));
  const choosing = phase === "lines";
  const edges = el("g", { class: "sc-edges" }, svg);
  // Drawn lines last, so their round caps sit on top of the grid.
  const rank = (key) => (owner.has(key) ? 1 : 0) + (hinted.has(key) ? 2 : 0);
  const ordered = [...model.get("edges")].sort((a, b) => rank(a) - rank(b));
  for (const key of ordered) {
    const classes = [];
    let focusable = false;
    if (owner.has(key)) classes.push("sc-drawn", `sc-line-${owner.get(key)}`);
    if (staged.has(key)) classes.push("sc-staged");
    if (key === first) classes.push("sc-first");
    if (choosing && key === first) {
      focusable = true; // a click drops it
    } else if (choosing && !owner.has(key)) {
      const ok = first ? seconds.has(key) : legal.has(key);
      classes.push(ok ? "sc-legal" : "sc-illegal");
      if (first && seconds.has(key)) classes.push("sc-second");
      focusable = ok;
    } else if (choosing) {
      classes.push("sc-illegal");
    }
    drawEdge(edges, key, {
      classes, focusable, owner: owner.get(key), current: player,
      staged: staged.has(key) || key === first ? player : null,
      last: lastLines.has(key) ? last.player : null,
      hint: hinted.has(key) ? hint.player : null,
    });
  }
}

function renderSide(side, model, hold, send) {
  side.replaceChildren();
  const phase = hold ? "bot" : model.get("phase");
  const player = hold ? hold.player : model.get("player");
  const players = model.get("players");
  const turn = html("div", { class: `sc-turn sc-turn-${phase}` }, side);
  html("span", { class: "sc-swatch", style: `background:${PLAYER_COLOUR[player] || "#333"}` }, turn);
  const prompt = hold ? `${hold.label} is thinking…` : model.get("prompt");
  html("span", { class: "sc-prompt" }, turn, prompt);
  if (hold) html("span", { class: "sc-thinking", "aria-hidden": "true" }, turn, "● ● ●");

  const actions = html("div", { class: "sc-actions" }, side);
  const button = (action, label, enabled, title) => {
    const b = html("button", { type: "button", class: "sc-button", "data-action": action, title },
      actions, label);
    b.disabled = !enabled || Boolean(hold);
    b.addEventListener("click", () => send({ action }));
    return b;
  };
  if (model.get("can_pass") && !hold) {
    button("pass_lines", "No line possible", true, "No grid line is legal anywhere: skip drawing");
  }
  const choosing = model.get("first_edge") || model.get("phase") === "remove";
  button("cancel_lines", "Cancel my lines", choosing, "Choose this turn's lines again");
  button("undo", "↶ Undo last move", model.get("can_undo"),
    "Practice mode: take back your last turn (and the bot's reply)");
  const mine = (players[player] || {}).kind !== "bot";
  button("hint", "Hint", model.get("phase") !== "over" && (mine || model.get("phase") === "replay"),
    "Show (not play) the move a bot would make now, and why");

  const list = html("div", { class: "sc-players" }, side);
  for (const [name, info] of Object.entries(players)) {
    const moving = name === player && phase !== "over" && phase !== "replay";
    const row = html("div", { class: `sc-player${moving ? " sc-to-move" : ""}`,
      "data-player": name }, list);
    const sample = name === "red" // dashed, as red's lines are drawn
      ? `repeating-linear-gradient(90deg,${PLAYER_COLOUR[name]} 0 10px,transparent 10px 14px)`
      : PLAYER_COLOUR[name];
    html("span", { class: "sc-line-sample", style: `background:${sample}` }, row);
    html("span", {}, row, info.label);
    if (moving) {
      html("span", { class: "sc-to-move-tag" }, row, "to move");
    }
  }
}

// Every drawn line as a sentence, in the order drawn (a screen reader's view of the board).
function renderLines(box, model, hold) {
  const lines = hold ? hold.before.lines : model.get("lines");
  const all = [];
  for (const [who, keys] of Object.entries(lines || {})) {
    for (const key of keys) all.push([TURNS[key] || 0, lineName(key, who)]);
  }
  all.sort((x, y) => x[0] - y[0]);
  const open = box.open;
  box.replaceChildren();
  box.open = open;
  html("summary", {}, box, `Lines on the board (${all.length})`);
  const list = html("ul", { class: "sc-lines-list" }, box);
  for (const [, name] of all) html("li", {}, list, name);
  if (!all.length) html("li", {}, list, "No line drawn yet.");
}

// The board's one tab stop (roving tabindex) among what can be chosen now: legal lines, or the
// first line and its partners, or the removable houses. Arrow keys move to the nearest one in
// that direction; `near` (a screen point) picks the one nearest where the keyboard was.
function roveBoard(svg, keep, near) {
  const items = [...svg.querySelectorAll('.sc-edge[role="button"], .sc-house[role="button"]')];
  const key = (n) => n.getAttribute("data-edge") || n.getAttribute("data-hex");
  let current = keep ? items.find((n) => key(n) === keep) : null;
  if (!current && near && items.length) {
    const seconds = items.filter((n) => n.classList.contains("sc-second"));
    const pool = seconds.length ? seconds : items;
    const distance = (n) => {
      const box = n.getBoundingClientRect();
      return Math.hypot(box.left + box.width / 2 - near[0], box.top + box.height / 2 - near[1]);
    };
    current = pool.reduce((best, n) => (distance(n) < distance(best) ? n : best));
  }
  if (!current) current = items.find((n) => n.classList.contains("sc-second")) || items[0];
  rove(items, current);
  svg.setAttribute("tabindex", items.length ? "-1" : "0"); // nothing to choose: the board itself
  return current || null;
}

function renderLegend(legend) {
  legend.replaceChildren();
  html("div", { class: "sc-legend-title" }, legend, "Key");
  const row = (draw, text) => {
    const item = html("div", { class: "sc-legend-item" }, legend);
    const icon = el("svg", { width: 46, height: 40, viewBox: "-23 -22 46 44", "aria-hidden": "true" },
      item);
    draw(icon);
    html("span", {}, item, text);
  };
  const houses = html("div", { class: "sc-legend-houses" }, legend);
  for (const colour of Object.keys(LETTER)) {
    const item = html("span", { class: "sc-legend-house" }, houses);
    const icon = el("svg", { width: 40, height: 40, viewBox: "-21 -22 42 44", "aria-hidden": "true" },
      item);
    const g = el("g", { transform: "translate(-0.0,0)" }, icon);
    el("path", { d: "M-17,-1 L0,-19 L17,-1 L17,17 L-17,17 Z", class: "sc-house-shape",
      fill: FACES[colour][1] }, g);
    el("text", { x: 0, y: 12, "text-anchor": "middle", class: `sc-house-letter sc-ink-${colour}` }, g,
      LETTER[colour]);
    html("span", {}, item, colour);
  }
  row((svg) => {
    const g = el("g", { class: "sc-house sc-flipped" }, svg);
    el("path", { d: "M-15,1 L0,17 L15,1 L15,-15 L-15,-15 Z", class: "sc-house-shape",
      fill: FACES.white[1] }, g);
    padlock(g, 14, -14);
  }, "flipped house: next to a building, cannot be removed");
  row((svg) => {
    for (let k = 0; k < 2; k += 1) {
      const y = 14 - k * 13;
      el("polygon", { points: pointsAttr([[-12, y - 6], [0, y], [0, y - 13], [-12, y - 19]]),
        fill: FACES.yellow[1] }, svg);
      el("polygon", { points: pointsAttr([[0, y], [12, y - 6], [12, y - 19], [0, y - 13]]),
        fill: FACES.yellow[2] }, svg);
      el("polygon", { points: pointsAttr([[-12, y - 19], [0, y - 13], [12, y - 19], [0, y - 25]]),
        fill: FACES.yellow[0] }, svg);
    }
  }, "building: a stack of cubes (Y2 = 2 yellow cubes)");
  for (const [player, colour] of Object.entries(PLAYER_COLOUR)) {
    row((svg) => el("line", { x1: -18, y1: 8, x2: 18, y2: -8, stroke: colour, "stroke-width": 8,
      "stroke-linecap": player === "red" ? "butt" : "round",
      "stroke-dasharray": player === "red" ? "9 4" : "none" }, svg),
    `${player} streetcar line${player === "red" ? " (dashed)" : " (solid)"}`);
  }
  row((svg) => {
    el("line", { x1: -18, y1: 8, x2: 18, y2: -8, stroke: LAST, "stroke-width": 15,
      "stroke-linecap": "round", opacity: 0.55 }, svg);
    el("line", { x1: -18, y1: 8, x2: 18, y2: -8, stroke: "#7b2cbf", "stroke-width": 8,
      "stroke-linecap": "round" }, svg);
  }, "last move: glowing lines, outlined hex");
  row((svg) => el("line", { x1: -18, y1: 8, x2: 18, y2: -8, stroke: "#1f2933", "stroke-width": 6,
    "stroke-dasharray": "5 4" }, svg), "hint: dashed lines, ringed house");
}

function render({ model, el: root }) {
  root.classList.add("sc-board");
  landmark(root, ".sc-lab", "Streetcar game");
  const main = html("div", { class: "sc-main" }, root);
  const svg = el("svg", { class: "sc-board-svg", role: "group", // drawn from the top left:
    preserveAspectRatio: "xMinYMin meet", // spare room in a tall window goes below the board
    "aria-label": "Streetcar board: hexes with houses and buildings; grid lines are streetcar lines" },
  main);
  // The message sits beside the board, above the turn panel: however long the sentence, the
  // board does not move down (one screen at 1366x768).
  const column = html("div", { class: "sc-side-column" }, main);
  const message = html("div", { class: "sc-message", role: "status", "aria-live": "polite" },
    column);
  const side = html("div", { class: "sc-side" }, column);
  const linesBox = html("details", { class: "sc-lines" }, column);
  keyboardHelp(column, "sc", [
    ["Tab", "to the board (one stop), then to the buttons"],
    ["Arrow keys on the board", "move to the nearest line (or house) you may choose, that way"],
    ["Home, End", "the first or last choice on the board"],
    ["Enter or Space", "draw the line, or remove the house"],
    ["After the first line", "the arrows offer only the lines that meet it"],
    ["Lines on the board", "every line drawn, in words"],
  ]);
  const legend = html("div", { class: "sc-legend" }, column);
  renderLegend(legend);
  const say = announcer(root);
  let spoken = "";

  const animated = new Set([`p${model.get("position_id")}`]); // no animation for what is there
  let hold = null; // a bot move waiting to be shown: {n, before, player, label, delay, timer, shows}
  let seenBot = (model.get("bot_move") || {}).n || 0;

  const send = (content) => {
    if (hold) return; // the bot's move is about to appear
    model.send(content);
  };

  const release = () => {
    if (!hold) return;
    clearTimeout(hold.timer);
    const n = hold.n;
    hold = null;
    model.send({ action: "bot_shown", n });
  };

  const draw = () => {
    NAMES = model.get("names") || {};
    TURNS = (hold ? hold.before.line_turns : model.get("line_turns")) || {};
    if (hold && model.get("position_id") !== hold.shows) release(); // something else changed
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    const onBoard = focused && svg.contains(focused);
    const boardKey = onBoard && (focused.getAttribute("data-edge") || focused.getAttribute("data-hex"));
    const box = onBoard ? focused.getBoundingClientRect() : null;
    const near = box ? [box.left + box.width / 2, box.top + box.height / 2] : null;
    const key = focusKey(root, ["data-action"]);
    const stage = `${model.get("phase")}|${model.get("first_edge")}|${hold ? hold.n : ""}`;
    const sameStage = stage === lastStage;
    lastStage = stage;
    drawBoard(svg, model, hold, animated);
    renderSide(side, model, hold, send);
    renderLines(linesBox, model, hold);
    const text = hold ? hold.message : model.get("message");
    showMessage(message, "sc", text, hold ? "info" : model.get("message_kind"));
    // keep the same line or house while the turn's stage is unchanged; else the choice nearest
    // to where the keyboard was (after a first line: one of the lines that meet it)
    const current = roveBoard(svg, sameStage ? boardKey : null, near);
    if (onBoard) (current || svg).focus();
    else if (key) restoreFocus(root, key, ['.sc-board-svg [tabindex="0"]', ".sc-board-svg"]);
    // what happened and what to do now, once per change, through the one announcer
    const prompt = hold ? `${hold.label} is thinking.` : model.get("prompt");
    const words = [text, prompt].filter(Boolean).join(" ");
    if (words !== spoken) { spoken = words; say(words); }
    // The bot's pause runs from when it is drawn and announced, not from when its move arrived:
    // a board redraw can take a few hundred ms on a loaded school laptop, and a timer started
    // on arrival then ended the pause before "… is thinking." was shown or read out.
    if (hold && hold.timer === null) {
      hold.timer = setTimeout(() => { release(); schedule(); }, hold.delay);
    }
  };
  let lastStage = "";

  const schedule = batched(draw);

  const onBotMove = () => {
    const move = model.get("bot_move") || {};
    if (!move.n || move.n <= seenBot) return;
    seenBot = move.n;
    if (hold) release();
    const delay = 1000 * (move.delay || 0);
    if (delay <= 0) {
      model.send({ action: "bot_shown", n: move.n });
      return;
    }
    hold = { n: move.n, before: move.before, player: move.player, label: move.label,
      message: move.before_message || "", shows: move.shows, delay, timer: null };
    schedule(); // draws the pause, then starts its timer
  };

  const onClick = (event) => {
    const edge = event.target.closest("[data-edge]");
    if (edge) { send({ action: "edge", edge: edge.getAttribute("data-edge") }); return; }
    const house = event.target.closest(".sc-house[data-hex]");
    if (house) send({ action: "house", hex: house.getAttribute("data-hex") });
  };
  const onKey = (event) => {
    const from = event.target.closest('[role="button"][tabindex]');
    const moves = event.key.startsWith("Arrow") || event.key === "Home" || event.key === "End";
    if (moves) {
      event.preventDefault();
      const items = [...svg.querySelectorAll('.sc-edge[role="button"], .sc-house[role="button"]')];
      let to = null;
      if (event.key === "Home") to = items[0];
      else if (event.key === "End") to = items[items.length - 1];
      else if (from) to = nearestInDirection(from, items, event.key);
      else to = items[0];
      if (to) { rove(items, to); to.focus(); }
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest("[data-edge], .sc-house[data-hex]");
    if (!target) return;
    event.preventDefault();
    onClick({ target });
  };
  svg.addEventListener("click", onClick);
  svg.addEventListener("keydown", onKey);

  draw();
  const stops = [
    listen(model, ["hexes", "edges", "houses", "flipped", "buildings", "lines", "new_buildings",
      "position_id", "phase", "player", "players", "prompt", "legal_edges", "first_edge",
      "second_edges", "staged", "removable", "can_undo", "can_pass", "message", "message_kind",
      "last_move", "hint", "names", "rows"],
    schedule),
    listen(model, ["bot_move"], onBotMove),
    listen(model, ["download"], () => saveDownload(model, "streetcar-game.json")),
  ];
  return () => {
    if (hold) clearTimeout(hold.timer);
    for (const stop of stops) stop();
    svg.removeEventListener("click", onClick);
    svg.removeEventListener("keydown", onKey);
  };
}

export default { render };
