// North Berkeley board: an SVG drawing of the site, the tile palette, the message line and the
// move-in replay controls. It decides no rule: clicks become messages to Python
// ({action: "place" | "clear", square, tile}); Python answers by changing the synced traits.

const SQUARE = 124;
const GRID_X = 118;
const GRID_Y = 128;
const INCOME_LETTER = { high: "H", middle: "M", low: "L" };
const INCOME_NAME = { high: "high income", middle: "middle income", low: "low income" };
const HOME_LETTER = { market: "", middle: "M", low: "L" };
const KIND_NAME = {
  tower: "Tower", midrise: "Midrise", townhouse: "Townhouse", garage: "Garage", park: "Park",
};

function money(cost) {
  return Number.isInteger(cost) ? `$${cost}` : `$${cost.toFixed(1)}`;
}

// Who lives where after the first `count` events (count < 0: all of them): a frame Python
// computed with the engine (`frames[count]`), never a replay of the log here.
function occupancyAt(model, count) {
  const frames = model.get("frames");
  if (count < 0 || count >= frames.length) return model.get("occupants");
  return frames[count];
}

function squareOrigin(square) {
  const col = square.charCodeAt(0) - 65;
  const row = parseInt(square.slice(1), 10) - 1;
  return [GRID_X + col * SQUARE, GRID_Y + row * SQUARE];
}

function residentDot(parent, x, y, income, r = 9) {
  const g = el("g", { class: `hl-resident hl-${income}`, "data-income": income }, parent);
  el("circle", { cx: x, cy: y, r }, g);
  el("text", { x, y: y + 4, "text-anchor": "middle", class: "hl-resident-letter" }, g,
    INCOME_LETTER[income]);
  el("title", {}, g, INCOME_NAME[income]);
  return g;
}

// Quadrant boxes of a tile, inside (x, y, w, h); residents drawn in them when known.
function drawHomes(parent, tile, x, y, w, h, occupancy, square, changed = null) {
  const n = tile.homes.length;
  const cols = n >= 2 ? 2 : 1;
  const rows = Math.ceil(n / cols);
  const cw = w / cols;
  const ch = h / rows;
  tile.homes.forEach((type, i) => {
    const cx = x + (i % cols) * cw;
    const cy = y + Math.floor(i / cols) * ch;
    const home = square ? `${square}-${i + 1}` : null;
    const g = el("g", { class: `hl-home hl-home-${type}`, "data-home-type": type }, parent);
    if (home) g.setAttribute("data-home", home);
    if (home && changed && changed.has(home)) g.classList.add("hl-changed");
    el("rect", { x: cx + 1, y: cy + 1, width: cw - 2, height: ch - 2, rx: 3 }, g);
    if (HOME_LETTER[type]) {
      el("text", { x: cx + 5, y: cy + 12, class: "hl-home-letter" }, g, HOME_LETTER[type]);
    }
    const income = home && occupancy ? occupancy[home] : null;
    if (income) {
      g.setAttribute("data-income", income);
      residentDot(g, cx + cw / 2, cy + ch / 2 + 3, income, Math.min(10, ch / 3));
    }
  });
}

function drawTile(parent, tile, x, y, size, occupancy, square, changed = null) {
  const g = el("g", { class: `hl-tile hl-kind-${tile.kind}`, "data-tile": tile.id }, parent);
  el("text", { x: x + size / 2, y: y + 35, "text-anchor": "middle", class: "hl-tile-name" }, g,
    KIND_NAME[tile.kind] || tile.kind);
  el("text", { x: x + size - 8, y: y + 17, "text-anchor": "end", class: "hl-tile-cost" }, g,
    money(tile.cost));
  if (tile.homes.length) {
    const w = tile.homes.length === 1 ? size * 0.45 : size - 24;
    const left = x + (size - w) / 2;
    drawHomes(g, tile, left, y + 41, w, size - 58, occupancy, square, changed);
  } else if (tile.kind === "park") {
    el("circle", { cx: x + size / 2, cy: y + 72, r: 22, class: "hl-park-tree" }, g);
    el("rect", { x: x + size / 2 - 3, y: y + 90, width: 6, height: 14, class: "hl-park-trunk" }, g);
  } else {
    el("rect", { x: x + size / 2 - 24, y: y + 48, width: 48, height: 48, rx: 6,
      class: "hl-garage-sign" }, g);
    el("text", { x: x + size / 2, y: y + 83, "text-anchor": "middle", class: "hl-garage-p" },
      g, "P");
  }
  el("title", {}, g, `${tile.name} (${money(tile.cost)})`);
}

function streetOf(layout, home) {
  return (home.street || "").toLowerCase();
}

// "house 2 on Acton Street": an existing home said by place, never by its id.
function homeWords(home) {
  const number = String(home.id).split("-").pop();
  return `${home.kind} ${number}${home.street ? ` on ${home.street} Street` : ""}`;
}

// Positions of the existing homes: houses along Acton (west) and Delaware (south), apartments
// along Virginia (north) and Sacramento (east), as the layout file says.
function existingPositions(layout) {
  const byStreet = {};
  for (const home of layout.existing) {
    const street = streetOf(layout, home);
    (byStreet[street] = byStreet[street] || []).push(home);
  }
  const positions = {};
  const grid = 3 * SQUARE;
  const place = (homes, fn) => homes.forEach((home, i) => (positions[home.id] = fn(i, homes.length)));
  place(byStreet.acton || [], (i, n) => [28, GRID_Y + (i + 0.5) * (grid / n)]);
  place(byStreet.delaware || [], (i, n) => [GRID_X + (i + 0.5) * (grid / n), GRID_Y + grid + 66]);
  place(byStreet.virginia || [], (i, n) => [GRID_X + 20 + (i + 0.5) * ((2 * SQUARE - 40) / n), 38]);
  place(byStreet.sacramento || [], (i, n) => [GRID_X + grid + 62, GRID_Y + (i + 0.5) * (grid / n)]);
  const others = layout.existing.filter((h) => !(h.id in positions));
  place(others, (i, n) => [GRID_X + (i + 0.5) * (grid / Math.max(n, 1)), GRID_Y + grid + 100]);
  return positions;
}

function drawExisting(svg, model, occupancy) {
  const layout = model.get("site");
  const policies = model.get("policies");
  const positions = existingPositions(layout);
  const changed = new Set(model.get("changed") || []);
  const buildings = {};
  for (const home of layout.existing.filter((h) => h.kind === "apartment")) {
    const street = streetOf(layout, home);
    (buildings[street] = buildings[street] || []).push(positions[home.id]);
  }
  for (const [street, points] of Object.entries(buildings)) {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const x = Math.min(...xs) - 24;
    const y = Math.min(...ys) - 24;
    const g = el("g", { class: "hl-apartment-building" }, svg);
    el("rect", { x, y, width: Math.max(...xs) - x + 24, height: Math.max(...ys) - y + 24, rx: 4 }, g);
    el("title", {}, g, `Existing apartment building on ${street}`);
  }
  let houseIndex = 0;
  for (const home of layout.existing) {
    const [x, y] = positions[home.id];
    const income = occupancy[home.id];
    const g = el("g", { class: `hl-existing hl-${home.kind}`, "data-home": home.id }, svg);
    if (income) g.setAttribute("data-income", income);
    if (home.kind === "house") {
      houseIndex += 1;
      el("path", { d: `M${x - 17},${y - 2} L${x},${y - 19} L${x + 17},${y - 2} L${x + 17},${y + 17}` +
        ` L${x - 17},${y + 17} Z`, class: "hl-house-shape" }, g);
      if (policies.includes("adu")) {
        const slot = `adu-${houseIndex}`;
        const dx = streetOf(layout, home) === "acton" ? 0 : 24;
        const dy = streetOf(layout, home) === "acton" ? 30 : 0;
        const ax = x + dx + (dx ? 6 : 0);
        const ay = y + dy + (dy ? 4 : 0);
        const ag = el("g", { class: "hl-adu", "data-home": slot }, svg);
        const adu = occupancy[slot];
        if (adu) ag.setAttribute("data-income", adu);
        el("rect", { x: ax - 9, y: ay - 9, width: 18, height: 18, rx: 3,
          class: adu ? "hl-adu-box" : "hl-adu-box hl-empty" }, ag);
        if (adu) residentDot(ag, ax, ay, adu, 7);
        el("title", {}, ag, `ADU at ${homeWords(home)}${adu ? ": " + INCOME_NAME[adu] : " (empty)"}`);
        if (changed.has(slot)) ag.classList.add("hl-changed");
      }
    } else {
      el("rect", { x: x - 16, y: y - 16, width: 32, height: 32, rx: 2, class: "hl-apartment-shape" }, g);
    }
    if (income) residentDot(g, x, y + 3, income, 10);
    el("title", {}, g, `${homeWords(home)}${income ? ": " + INCOME_NAME[income] : ": empty"}`);
    if (changed.has(home.id)) g.classList.add("hl-changed");
  }
}

function drawStreets(svg, layout) {
  const grid = 3 * SQUARE;
  const streets = el("g", { class: "hl-streets" }, svg);
  el("rect", { x: GRID_X - 8, y: GRID_Y - 34, width: grid + 16, height: 24, class: "hl-street" }, streets);
  el("text", { x: GRID_X + grid / 2 - 40, y: GRID_Y - 17, "text-anchor": "middle",
    class: "hl-street-name" }, streets, "Virginia Street");
  el("rect", { x: GRID_X - 8, y: GRID_Y + grid + 10, width: grid + 16, height: 24,
    class: "hl-street" }, streets);
  el("text", { x: GRID_X + grid / 2, y: GRID_Y + grid + 27, "text-anchor": "middle",
    class: "hl-street-name" }, streets, "Delaware Street");
  el("rect", { x: GRID_X - 34, y: GRID_Y - 8, width: 24, height: grid + 16, class: "hl-street" }, streets);
  el("text", { x: GRID_X - 17, y: GRID_Y + grid / 2, "text-anchor": "middle", class: "hl-street-name",
    transform: `rotate(-90 ${GRID_X - 17} ${GRID_Y + grid / 2})` }, streets, "Acton Street");
  el("rect", { x: GRID_X + grid + 10, y: GRID_Y - 8, width: 24, height: grid + 16,
    class: "hl-street" }, streets);
  el("text", { x: GRID_X + grid + 27, y: GRID_Y + grid / 2, "text-anchor": "middle",
    class: "hl-street-name", transform: `rotate(90 ${GRID_X + grid + 27} ${GRID_Y + grid / 2})` },
    streets, "Sacramento Street");
  // The station entrance, at the north-east corner by C1.
  const sx = GRID_X + grid - 30;
  const sy = GRID_Y - 64;
  const station = el("g", { class: "hl-station" }, svg);
  el("rect", { x: sx - 34, y: sy - 16, width: 96, height: 28, rx: 14 }, station);
  el("text", { x: sx + 14, y: sy + 3, "text-anchor": "middle" }, station, "BART station");
}

function drawGreenway(svg, layout) {
  const greenway = (layout.tags || {}).greenway || [];
  if (!greenway.length) return;
  const corners = greenway.map((sq) => squareOrigin(sq));
  const east = corners.reduce((a, b) => (b[0] > a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
  const west = corners.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] > a[1]) ? b : a));
  const g = el("g", { class: "hl-greenway", "pointer-events": "none" }, svg);
  el("line", { x1: east[0] + SQUARE, y1: east[1], x2: west[0], y2: west[1] + SQUARE }, g);
  el("title", {}, g, "Ohlone Greenway");
}

function phaseOf(layout, square) {
  for (const [phase, squares] of Object.entries(layout.phases)) {
    if (squares.includes(square)) return phase;
  }
  return "?";
}

// What a screen reader says for a square: place, phase, building and who lives there.
function squareWords(square, phase, tile, occupancy) {
  if (!tile) return `Square ${square}, phase ${phase}: empty`;
  const people = tile.homes.map((_, i) => occupancy[`${square}-${i + 1}`]).filter(Boolean);
  const who = tile.homes.length
    ? `; ${tile.homes.length} home${tile.homes.length > 1 ? "s" : ""}` +
      (people.length ? `, residents: ${people.map((p) => INCOME_NAME[p]).join(", ")}` : ", empty")
    : "";
  return `Square ${square}, phase ${phase}: ${tile.name}${who}`;
}

function drawSquares(svg, model, occupancy, onSelect, onClear, onMove, current) {
  const layout = model.get("site");
  const tiles = model.get("tiles");
  const catalogue = Object.fromEntries(model.get("catalogue").map((t) => [t.id, t]));
  const selected = model.get("selected");
  const interactive = model.get("interactive");
  const changed = new Set(model.get("changed") || []);
  const locked = new Set(model.get("locked") || []);
  for (const square of layout.squares) {
    const [x, y] = squareOrigin(square);
    const phase = phaseOf(layout, square);
    const tile = tiles[square] ? catalogue[tiles[square]] : null;
    const classes = `hl-square hl-phase-${phase}${square === selected ? " hl-selected" : ""}` +
      (changed.has(square) ? " hl-changed" : "");
    const g = el("g", {
      class: classes, "data-square": square, "data-phase": phase,
      "aria-label": squareWords(square, phase, tile, occupancy),
    }, svg);
    if (interactive) {
      // one tab stop for the whole board (roving tabindex): arrows move between squares
      g.setAttribute("tabindex", square === current ? 0 : -1);
      g.setAttribute("role", "button");
      g.setAttribute("aria-pressed", square === selected ? "true" : "false");
      if (locked.has(square)) {  // not in play now: said, marked without colour, refused
        g.setAttribute("aria-disabled", "true");
        g.classList.add("hl-locked");
        g.setAttribute("aria-label", `${squareWords(square, phase, tile, occupancy)}` +
          ` (not in play: phase ${phase})`);
      }
    } else {
      g.setAttribute("role", "img");
    }
    if (tile) g.setAttribute("data-tile", tile.id);
    el("rect", { x: x + 3, y: y + 3, width: SQUARE - 6, height: SQUARE - 6, rx: 6,
      class: "hl-square-bg" }, g);
    el("text", { x: x + 10, y: y + 20, class: "hl-square-name" }, g, square);
    el("text", { x: x + 36, y: y + 19, class: "hl-phase-badge" }, g, `phase ${phase}`);
    if ((layout.tags.greenway || []).includes(square)) {
      el("text", { x: x + SQUARE - 10, y: y + SQUARE - 9, "text-anchor": "end",
        class: "hl-greenway-tag" }, g, "Greenway");
    }
    if (tile) drawTile(g, tile, x + 3, y + 3, SQUARE - 6, occupancy, square, changed);
    if (locked.has(square)) {
      el("text", { x: x + 10, y: y + SQUARE - 9, class: "hl-locked-tag" }, g, "not now");
    }
    if (!interactive) continue;
    g.addEventListener("click", () => onSelect(square));
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onSelect(square);
      } else if (event.key === "Delete" || event.key === "Backspace") {
        event.preventDefault();
        onSelect(square);
        onClear(square);
      } else if (event.key.startsWith("Arrow")) {
        event.preventDefault();
        onMove(square, event.key);
      }
    });
  }
}

// A phone or tablet (a coarse pointer and no hover): the prompt says "Tap", not "Click ... Tab".
function touchScreen() {
  return typeof window.matchMedia === "function" &&
    window.matchMedia("(pointer: coarse) and (hover: none)").matches;
}

function renderPalette(palette, model, onChoose, onClear, currentTile) {
  palette.replaceChildren();
  const selected = model.get("selected");
  const heading = html("div", { class: "hl-palette-heading", id: paletteId(model, "heading") },
    palette);
  heading.textContent = selected
    ? `Square ${selected}: choose a building.`
    : touchScreen()
      ? "Tap a square, then a building."
      : "Click a square (or Tab to it, Enter), then a building.";
  heading.setAttribute("role", "heading");
  heading.setAttribute("aria-level", "3");
  // Python sends the tiles the engine accepts on each square and, for the others, the engine's
  // reason in words. Refused tiles are greyed; a click still goes to Python, which refuses it.
  // `refused[square]` is one reason for every greyed tile, or tile -> reason with "" -> the
  // line shown above the tiles (the lab: the rules or the city budget, tile by tile)
  const allowed = (model.get("allowed") || {})[selected];
  const reasons = (model.get("refused") || {})[selected] || "";
  const reasonFor = (tile) => (typeof reasons === "string" ? reasons : reasons[tile] || "");
  const said = typeof reasons === "string" ? [reasons].filter(Boolean) : [reasons[""] || ""];
  const costs = model.get("costs") || {};
  const why = html("div", { class: "hl-palette-reason", id: paletteId(model, "reason") }, palette);
  why.textContent = said[0] ? `Greyed out: ${said[0]}.` : "";
  const note = model.get("cost_note");
  if (note) html("div", { class: "hl-cost-note" }, palette, note);
  const grid = html("div", { class: "hl-palette-grid", role: "group",
    "aria-labelledby": paletteId(model, "heading") }, palette);
  for (const tile of model.get("catalogue")) {
    const refused = Array.isArray(allowed) && !allowed.includes(tile.id);
    const cost = tile.id in costs ? costs[tile.id] : tile.cost;
    const price = cost === tile.cost ? money(cost) : `${money(cost)} (was ${money(tile.cost)})`;
    const homes = tile.homes.length ? `${tile.homes.length} home${tile.homes.length > 1 ? "s" : ""}`
      : "no homes";
    const title = `${tile.name}: ${homes}, ${price}` +
      (refused ? `. Not allowed on ${selected} now: ${reasonFor(tile.id)}` : "");
    const button = html("button", { class: `hl-tile-choice${refused ? " hl-not-allowed" : ""}`,
      "data-tile-choice": tile.id, title, "aria-label": title, type: "button" }, grid);
    // greyed but still focusable and clickable: the engine's refusal then says why
    if (!selected || refused) button.setAttribute("aria-disabled", "true");
    if (refused) {
      button.setAttribute("data-not-allowed", "");
      button.setAttribute("aria-describedby", paletteId(model, "reason"));
    }
    const icon = el("svg", { width: 30, height: 22, viewBox: "0 0 46 34", "aria-hidden": "true" },
      button);
    if (tile.homes.length) {
      const w = tile.homes.length === 1 ? 20 : 44;
      drawHomes(icon, tile, (46 - w) / 2, 1, w, 32, null, null);
    } else {
      el("text", { x: 23, y: 23, "text-anchor": "middle", class: `hl-icon-${tile.kind}` }, icon,
        tile.kind === "park" ? "♣" : "P");
    }
    html("span", { class: "hl-choice-name" }, button, tile.name);
    const costNode = html("span", { class: "hl-choice-cost" }, button, money(cost));
    if (cost !== tile.cost) {
      costNode.classList.add("hl-discounted");
      html("s", { class: "hl-full-cost" }, costNode, money(tile.cost));
    }
    button.addEventListener("click", () => onChoose(tile.id));
  }
  // one tab stop for the buildings (roving tabindex): arrows move, Home/End jump
  const choices = [...grid.querySelectorAll("[data-tile-choice]")];
  rove(choices, choices.find((b) => b.getAttribute("data-tile-choice") === currentTile));
  grid.addEventListener("keydown", (event) => {
    const from = event.target.closest("[data-tile-choice]");
    if (!from) return;
    let to = null;
    if (event.key === "Home") to = choices[0];
    else if (event.key === "End") to = choices[choices.length - 1];
    else to = nearestInDirection(from, choices, event.key);
    if (event.key.startsWith("Arrow") || event.key === "Home" || event.key === "End") {
      event.preventDefault();
    }
    if (to) { rove(choices, to); to.focus(); }
  });
  const clear = html("button", { class: "hl-clear", "data-action": "clear", type: "button" }, palette,
    "Clear square (Delete)");
  if (!selected) clear.setAttribute("aria-disabled", "true");
  clear.addEventListener("click", () => selected && onClear(selected));
}

// Ids unique per board view on the page (several boards may share a notebook).
let boardViews = 0;
const viewIds = new WeakMap();
function paletteId(model, part) {
  if (!viewIds.has(model)) viewIds.set(model, ++boardViews);
  return `hl-nb-board-${viewIds.get(model)}-${part}`;
}

function describeEvent(event) {
  if (!event) return "";
  // Python normally sends each event in words (`event_texts`); this is the fallback.
  const who = `a ${INCOME_NAME[event.income]} resident`;
  if (event.kind === "placed") return `${who} moves in`;
  if (event.kind === "displaced") return `${who} is displaced`;
  return `${who} cannot find a home and leaves`;
}

// While stepping through move-in, the home of the step just shown is marked: a resident who
// moved in glows green, one who was pushed out leaves a red dashed outline and a "left" tag.
function markReplayEvent(svg, model) {
  const index = model.get("replay_index");
  const event = index > 0 ? (model.get("events") || [])[index - 1] : null;
  if (!event || !event.home) return;  // "left": nobody found a home, the sentence says so
  const kind = event.kind === "displaced" ? "hl-replay-left" : "hl-replay-arrived";
  for (const node of svg.querySelectorAll(`[data-home="${CSS.escape(event.home)}"]`)) {
    node.classList.add(kind);
    node.setAttribute("data-replay", event.kind);
    if (kind === "hl-replay-left") {
      const box = node.getBBox();
      el("text", { x: box.x + box.width / 2, y: box.y - 3, "text-anchor": "middle",
        class: "hl-replay-tag" }, node, "left");
    }
  }
}

function renderReplay(bar, model, timers) {
  bar.replaceChildren();
  const events = model.get("events");
  const index = model.get("replay_index");
  const shown = index < 0 ? events.length : index;
  const setIndex = (value) => {
    model.set("replay_index", value);
    model.save_changes();
  };
  const stop = () => {
    if (timers.play) clearInterval(timers.play);
    timers.play = null;
  };
  const reset = html("button", { type: "button", "data-action": "replay-reset" }, bar, "« Before move-in");
  reset.addEventListener("click", () => { stop(); setIndex(0); });
  const step = html("button", { type: "button", "data-action": "replay-step" }, bar, "Step ▸");
  step.addEventListener("click", () => {
    stop();
    const now = model.get("replay_index");
    const next = now < 0 ? 0 : now + 1;
    setIndex(next >= events.length ? -1 : next);
  });
  const play = html("button", { type: "button", "data-action": "replay-play" }, bar,
    timers.play ? "⏸ Pause" : "▶ Play move-in");
  const redraw = () => {  // the bar alone: keep the keyboard on the same button
    const key = focusKey(bar, ["data-action"]);
    renderReplay(bar, model, timers);
    restoreFocus(bar, key, ['[data-action="replay-play"]']);
  };
  play.addEventListener("click", () => {
    if (timers.play) { stop(); redraw(); return; }
    if (model.get("replay_index") < 0) setIndex(0);
    timers.play = setInterval(() => {
      const now = model.get("replay_index");
      if (now < 0 || now + 1 > events.length) { stop(); setIndex(-1); return; }
      setIndex(now + 1 >= events.length ? -1 : now + 1);
    }, 350);
    redraw();
  });
  const final = html("button", { type: "button", "data-action": "replay-final" }, bar, "After move-in »");
  final.addEventListener("click", () => { stop(); setIndex(-1); });
  const text = html("span", { class: "hl-replay-text" }, bar);
  if (index < 0) text.textContent = `After move-in (${events.length} events).`;
  else if (index === 0) text.textContent = "Before move-in: only the existing residents.";
  else {
    const words = (model.get("event_texts") || [])[shown - 1] || describeEvent(events[shown - 1]);
    text.textContent = `Step ${shown} of ${events.length}: ${words}`;
  }
  return text.textContent;
}

// The lab's tabs sit under the board: at 1366x768 a tab opened there showed below the fold and
// a click seemed to do nothing. After a tab of a lab (`.hl-nb-lab`) is chosen, by mouse or by
// arrow keys, its panel is scrolled into view (focus stays on the tab). One listener per page.
function scrollOpenedTab(event) {
  const tab = event.target.closest && event.target.closest(".lm-TabBar, .p-TabBar");
  const lab = tab && tab.closest(".hl-nb-lab");
  if (!lab) return;
  const tabs = tab.closest(".jupyter-widget-tab, .widget-tab") || tab.parentElement;
  const show = () => {
    const box = tabs.getBoundingClientRect();
    if (box.bottom <= window.innerHeight && box.top >= 0) return;
    tabs.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "end" });
  };
  // again once Python has filled the panel (the New homes chart is added when first shown)
  for (const wait of [60, 400, 1000]) setTimeout(show, wait);
}
if (!window.hlLabTabsScroll) {
  window.hlLabTabsScroll = true;
  // pointerdown: by "click" the tab bar has redrawn its tabs and the target is detached
  document.addEventListener("pointerdown", scrollOpenedTab, true);
  document.addEventListener("keyup", (event) => {
    if (event.key.startsWith("Arrow") || event.key === "Enter" || event.key === " ") {
      scrollOpenedTab(event);
    }
  }, true);
}

function render({ model, el: root }) {
  root.classList.add("hl-nb-board");
  landmark(root, ".hl-nb-lab", "North Berkeley lab"); // the whole lab, tabs included
  const caption = html("div", { class: "hl-caption" }, root);
  // the message line is shown; what a screen reader hears comes from the one announcer
  const message = html("div", { class: "hl-message" }, root);
  const say = announcer(root);
  const main = html("div", { class: "hl-board-main" }, root);
  const svg = el("svg", { class: "hl-board-svg", viewBox: "0 0 590 590", role: "group",
    "aria-label": "North Berkeley site by the station" }, main);
  const palette = html("div", { class: "hl-palette" }, main);
  const replay = html("div", { class: "hl-replay" }, root);
  const legend = html("div", { class: "hl-legend" }, root);
  for (const income of ["high", "middle", "low"]) {
    const item = html("span", { class: "hl-legend-item" }, legend);
    const dot = el("svg", { width: 22, height: 22, viewBox: "0 0 22 22", "aria-hidden": "true" },
      item);
    residentDot(dot, 11, 11, income, 9);
    html("span", {}, item, INCOME_NAME[income]);
  }
  html("span", { class: "hl-legend-item hl-legend-homes" }, legend,
    "Homes: M = middle income only, L = low income only, blank = market rate (anyone).");
  const timers = { play: null };
  const tools = html("div", { class: "hl-a11y-tools" }, root);
  const describe = html("button", { type: "button", class: "hl-describe",
    "data-action": "describe" }, tools, "Describe the screen");
  describe.addEventListener("click", () => say(model.get("screen_summary") ||
    "No summary of this board yet."));
  keyboardHelp(tools, "hl", [
    ["Tab, Shift+Tab", "move between the board, the buildings and the buttons"],
    ["Arrow keys on the board", "move between squares"],
    ["Enter or Space on a square", "choose it (the buildings list says which square)"],
    ["Delete on a square", "clear it"],
    ["Arrow keys, Home, End in the buildings", "move between buildings; Enter builds one"],
    ["Enter on Step", "the next move-in step (focus stays on Step)"],
    ["Describe the screen", "hear the board, the policies and who is housed in words"],
  ]);

  const select = (square) => {
    if ((model.get("locked") || []).includes(square)) {
      // refused: the reason on the message line (seen) and through the announcer (heard)
      const node = svg.querySelector(`[data-square="${CSS.escape(square)}"]`);
      const phase = node ? node.getAttribute("data-phase") : "";
      const text = `Square ${square} is not in play in this phase` +
        (phase ? `: it is built in phase ${phase}.` : ".");
      model.set("message", text);
      model.set("message_kind", "error");
      model.save_changes();
      say(text);
      return;
    }
    model.set("selected", square);
    model.save_changes();
    say(`Square ${square} chosen. Tab to the buildings, then Enter to build one.`);
  };
  const choose = (tile) => {
    const square = model.get("selected");
    if (!square) {
      model.set("message", "First click a square on the board, then choose a tile.");
      model.set("message_kind", "info");
      model.save_changes();
      return;
    }
    model.send({ action: "place", square, tile });
  };
  const clear = (square) => model.send({ action: "clear", square });
  const move = (square, key) => {
    const squares = model.get("site").squares;
    const [x, y] = squareOrigin(square);
    const dx = key === "ArrowLeft" ? -SQUARE : key === "ArrowRight" ? SQUARE : 0;
    const dy = key === "ArrowUp" ? -SQUARE : key === "ArrowDown" ? SQUARE : 0;
    const target = squares.find((s) => {
      const [sx, sy] = squareOrigin(s);
      return sx === x + dx && sy === y + dy;
    });
    if (target) {
      const node = svg.querySelector(`[data-square="${target}"]`);
      if (node) {
        rove(svg.querySelectorAll("[data-square]"), node);
        node.focus();
      }
    }
  };

  const draw = () => {
    if (!(model.get("site").squares || []).length) {
      message.textContent = "No board to show yet.";
      return;
    }
    const interactive = model.get("interactive");
    root.classList.toggle("hl-compact", Boolean(model.get("compact")));
    root.classList.toggle("hl-readonly", !interactive);
    caption.textContent = interactive ? "" :
      "An example board, to look at: it does not take clicks. Use the replay buttons to watch move-in.";
    palette.hidden = !interactive;
    const key = focusKey(root, ["data-square", "data-tile-choice", "data-action"]);
    const roving = svg.querySelector('[data-square][tabindex="0"]');
    const squares = model.get("site").squares;
    let current = key && key[0] === "data-square" ? key[1]
      : roving ? roving.getAttribute("data-square") : model.get("selected") || squares[0];
    if (!squares.includes(current)) current = squares[0];
    const roveTile = palette.querySelector('[data-tile-choice][tabindex="0"]');
    const currentTile = key && key[0] === "data-tile-choice" ? key[1]
      : roveTile ? roveTile.getAttribute("data-tile-choice") : null;
    svg.replaceChildren();
    const occupancy = occupancyAt(model, model.get("replay_index"));
    drawStreets(svg, model.get("site"));
    drawSquares(svg, model, occupancy, select, clear, move, current);
    drawGreenway(svg, model.get("site"));
    drawExisting(svg, model, occupancy);
    markReplayEvent(svg, model);
    if (interactive) renderPalette(palette, model, choose, clear, currentTile);
    const step = renderReplay(replay, model, timers);
    if (model.get("replay_index") !== shownIndex) {  // the student stepped: read the step out
      shownIndex = model.get("replay_index");
      if (!timers.play) say(step);
    }
    showMessage(message, "hl", model.get("message"), model.get("message_kind"));
    // the same control as before the redraw, or the board's square (never <body>)
    restoreFocus(root, key, ['[data-square][tabindex="0"]', '[data-action="replay-step"]']);
  };
  let shownIndex = model.get("replay_index");

  const schedule = batched(draw);

  draw();
  const stops = [
    listen(model, ["site", "catalogue", "tiles", "policies", "occupants", "frames", "events",
      "replay_index", "selected", "allowed", "message", "message_kind", "refused", "costs",
      "cost_note", "changed", "interactive", "compact", "event_texts", "locked"], schedule),
    listen(model, ["download"], () => saveDownload(model, "board.json")),
    listen(model, ["announcement"], () => say((model.get("announcement") || {}).text)),
  ];
  return () => {
    if (timers.play) clearInterval(timers.play);
    for (const stop of stops) stop();
  };
}

export default { render };
