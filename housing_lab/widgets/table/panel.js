// North Berkeley game table: the decision panel ("top") and the teams ("teams").
// It draws the `view` dict Python builds from the engine and decides no rule: every button
// sends {action: ...} to Python. The negotiation timer runs here, in the browser.

function h(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(key, value === true ? "" : String(value));
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function button(parent, label, focusKey, onClick, extra = {}) {
  const node = h("button", { type: "button", class: "hl-gt-button", "data-focus": focusKey, ...extra },
    parent, label);
  node.addEventListener("click", onClick);
  return node;
}

function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `\u2212${-value}` : "0";
}

function stateChip(parent, label, state) {
  if (!state) return;
  const kind = state.score > 0 ? "plus" : state.score < 0 ? "minus" : "zero";
  const both = state.plus && state.minus ? " (+1 and \u22121)" : "";
  h("span", { class: `hl-gt-chip hl-gt-chip-${kind}`, "data-state": label }, parent,
    `${label}: ${signed(state.score)}${both}`);
}

// One constituent card: name, the +1 and -1 conditions, and (when known) its state. A hand's
// card in play says its conditions with the board's figures ("+1 now: 2 parks", the engine's
// words), in place of the printed wording, which stays in its tooltip.
function card(parent, data, extraClass = "") {
  // the title keeps the wording at hand where a compact layout shows only the card's name
  const printed = `+1 ${data.plus_text}\n\u22121 ${data.minus_text}`;
  const standing = data.standing;
  const box = h("div", { class: `hl-gt-card ${extraClass}`, "data-card": data.id,
    title: standing ? `${printed}\n\n${standing.plus.text}\n${standing.minus.text}` : printed },
  parent);
  const title = h("div", { class: "hl-gt-card-name" }, box, data.name);
  if (data.secret) h("span", { class: "hl-gt-tag" }, title, "starting card");
  if (!standing) {
    const plus = h("div", { class: "hl-gt-card-plus" }, box);
    h("b", {}, plus, "+1 ");
    plus.append(data.plus_text);
    const minus = h("div", { class: "hl-gt-card-minus" }, box);
    h("b", {}, minus, "\u22121 ");
    minus.append(data.minus_text);
  }
  if (data.now || data.projected) {
    const states = h("div", { class: "hl-gt-card-states" }, box);
    stateChip(states, "now", data.now);
    stateChip(states, "if move-in now", data.projected);
  }
  if (standing) {
    const lines = h("div", { class: "hl-gt-card-standing" }, box);
    for (const side of ["plus", "minus"]) {
      const s = standing[side];
      h("div", { class: `hl-gt-standing-${side}${s.met ? " hl-gt-met" : ""}`,
        "data-met": s.met ? "yes" : "no" }, lines, s.text);
    }
  }
  return box;
}

function formatTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// --- the timer -----------------------------------------------------------------------------
function elapsedSeconds(model) {
  const started = model.get("timer_started");
  return model.get("timer_elapsed") + (started ? Math.max(0, Date.now() - started) / 1000 : 0);
}

function renderTimer(parent, model, minutes, send, done) {
  const box = h("div", { class: "hl-gt-timer", role: "timer", "aria-live": "off" }, parent);
  const display = h("div", { class: "hl-gt-clock", "data-timer": "" }, box);
  const status = h("div", { class: "hl-gt-clock-status" }, box);
  const controls = h("div", { class: "hl-gt-row" }, box);
  const running = () => model.get("timer_started") > 0;
  const total = minutes * 60;
  const toggle = button(controls, running() ? "Pause timer" : "Start timer", "timer-toggle", () => {
    if (running()) {
      model.set("timer_elapsed", Math.min(total, elapsedSeconds(model)));
      model.set("timer_started", 0);
    } else {
      model.set("timer_started", Date.now());
    }
    model.save_changes();
  }, { "data-action": "timer-toggle" });
  button(controls, "Reset timer", "timer-reset", () => {
    model.set("timer_elapsed", 0);
    model.set("timer_started", 0);
    model.save_changes();
  }, { "data-action": "timer-reset" });
  const call = button(controls, "Call the state", "call-state", () => {
    // Once the time is up send the timer's own minutes: seconds / 60 can round below them.
    const seconds = elapsedSeconds(model);
    send({ action: "call_state", minutes_elapsed: seconds >= total ? minutes : seconds / 60 });
  }, { "data-action": "call-state", class: "hl-gt-button hl-gt-primary" });
  button(controls, "Call it now (skip the timer)", "call-now", () => {
    send({ action: "call_state", override: true });
  }, { "data-action": "call-now", class: "hl-gt-button hl-gt-quiet" });

  const tick = () => {
    const left = total - elapsedSeconds(model);
    display.textContent = formatTime(left);
    const up = left <= 0;
    box.classList.toggle("hl-gt-timeup", up);
    // once the state is called (every square filled) Call is done: no longer the bright button
    call.disabled = !up || done;
    call.classList.toggle("hl-gt-primary", !done);
    if (up && running()) {  // stop at zero so that a saved elapsed time is exact
      model.set("timer_elapsed", total);
      model.set("timer_started", 0);
      model.save_changes();
    }
    toggle.disabled = up;
    toggle.textContent = running() ? "Pause timer" : "Start timer";
    status.textContent = done && !running()
      ? "Negotiation over: every square of this phase has a tile."
      : up ? "Time is up: anyone may call the state."
      : running() ? "Negotiating\u2026" : "Timer paused. Start it when the negotiation begins.";
  };
  tick();
  return tick;
}

// --- the stages ----------------------------------------------------------------------------
function tieOrder(parent, order, send) {
  if (!order) return;
  const box = h("div", { class: "hl-gt-tie" }, parent);
  h("div", { class: "hl-gt-subhead" }, box,
    "Draft ties: teams tied on score pick in this order (whoever last took part in a political activity goes first).");
  const list = h("ol", { class: "hl-gt-tie-list" }, box);
  order.forEach((team, index) => {
    const item = h("li", { "data-tie": team }, list);
    h("span", {}, item, team);
    if (index > 0) {
      button(item, "\u25b2 earlier", `tie-${team}`, () => send({ action: "tie_up", team }),
        { "aria-label": `Move ${team} earlier`, class: "hl-gt-button hl-gt-small" });
    }
  });
}

// Next: on to the stage `d.next_label` names. One button for every stage: a redraw puts focus
// back on `.hl-gt-next` (see `render`), so its class and focus key must not drift apart.
function nextButton(row, d, send) {
  return button(row, d.next_label, "next", () => send({ action: "next" }),
    { class: "hl-gt-button hl-gt-primary hl-gt-next", "data-action": "next" });
}

// The foot of a stage whose only way on is Next: the draft's tie order, then the button.
function stageFoot(root, d, send) {
  tieOrder(root, d.tie_order, send);
  nextButton(h("div", { class: "hl-gt-row" }, root), d, send);
}

function renderBuild(root, d, model, send, timers) {
  if (d.affordable_only) {
    const banner = h("div", { class: "hl-gt-banner" }, root);
    h("b", {}, banner, "100% Affordable Housing is in force: ");
    banner.append(`phase-2 tiles may contain only low or middle income homes. Allowed: ${d.affordable_only.join(", ")}.`);
  }
  timers.tick = renderTimer(root, model, d.minutes, send, d.empty.length === 0);
  h("div", { class: "hl-gt-status", "data-empty": d.empty.join(" ") }, root,
    d.empty.length ? `Empty squares: ${d.empty.join(", ")}` : "Every square of this phase has a tile.");
  stageFoot(root, d, send);
}

function renderExtra(root, d, send) {
  const rows = h("div", { class: "hl-gt-extra" }, root);
  for (const row of d.rows) {
    const line = h("div", { class: "hl-gt-extra-row", "data-team": row.team }, rows);
    h("div", { class: "hl-gt-team-name" }, line, row.team);
    card(line, row.card);
    const side = h("div", { class: "hl-gt-extra-side" }, line);
    h("div", { class: "hl-gt-why" }, side, `This card ${row.why}.`);
    button(side, `Redraw for ${row.team}`, `redraw-${row.team}`,
      () => send({ action: "redraw", team: row.team }),
      { "data-action": "redraw", "data-redraw": row.team, disabled: !row.can_redraw });
  }
  h("div", { class: "hl-gt-status" }, root, `${d.deck_left} cards left in the deck (${d.kept_for_draft} are kept for the draft).`);
  stageFoot(root, d, send);
}

function renderDraft(root, d, send) {
  const explain = h("div", { class: "hl-gt-explain" }, root);
  for (const line of d.explanation) h("p", {}, explain, line);
  const order = h("ol", { class: "hl-gt-order" }, root);
  for (const entry of d.order) {
    const item = h("li", { class: entry.turn ? "hl-gt-turn" : "", "data-order": entry.team }, order);
    h("b", {}, item, entry.team);
    item.append(entry.picked ? ` took ${entry.picked}` : entry.turn ? " picks now" : " waits");
  }
  const pool = h("div", { class: "hl-gt-pool" }, root);
  for (const c of d.pool) {
    const box = card(pool, c, "hl-gt-pool-card");
    button(box, `${d.turn} takes this card`, `pick-${c.id}`,
      () => send({ action: "pick", team: d.turn, card: c.id }),
      { "data-action": "pick", "data-pick": c.id, class: "hl-gt-button hl-gt-primary" });
  }
}

function renderPolicies(root, d, send) {
  const drawn = h("div", { class: "hl-gt-policies" }, root);
  for (const p of d.drawn) {
    const box = h("div", { class: "hl-gt-policy", "data-policy": p.id }, drawn);
    h("div", { class: "hl-gt-card-name" }, box, p.name);
    h("div", {}, box, p.text);
  }
  const row = h("div", { class: "hl-gt-row" }, root);
  for (const choice of d.choices) {
    button(row, choice.label, `enact-${choice.policies.join("+")}`,
      () => send({ action: "enact", policies: choice.policies }),
      { "data-action": "enact", "data-enact": choice.policies.join("+"), class: "hl-gt-button hl-gt-primary" });
  }
}

function renderMovein(root, d, send) {
  for (const note of d.notes) h("div", { class: "hl-gt-banner" }, root, note);
  const groups = h("ol", { class: "hl-gt-waves" }, root);
  for (const g of d.groups) {
    const item = h("li", { class: g.done ? "hl-gt-done" : "", "data-wave": g.income }, groups);
    h("div", { class: "hl-gt-subhead" }, item, g.header);
    if (g.done) {
      const list = h("ul", {}, item);
      for (const line of g.lines) h("li", {}, list, line);
    }
  }
  const row = h("div", { class: "hl-gt-row" }, root);
  button(row, "\u25c2 Back", "movein-back", () => send({ action: "movein_back" }),
    { "data-action": "movein-back", disabled: d.step === 0 });
  nextButton(row, d, send);
  if (d.step < 3) {
    button(row, "Skip to the scores", "scores", () => send({ action: "scores" }),
      { class: "hl-gt-button hl-gt-quiet", "data-action": "scores" });
  }
}

// The coach's answer (asked with a team's or a card's "Coach" button) and, when the engine
// can play it now, an Apply button. Python decides both; this only draws them.
function renderCoach(parent, advice, send) {
  if (!advice) return;
  const box = h("div", { class: "hl-gt-coach", role: "status", "data-coach-team": advice.team,
    "data-coach-card": advice.card || "" }, parent);
  const whose = advice.card_name ? `${advice.team}, ${advice.card_name}` : `${advice.team}'s hand`;
  h("b", { class: "hl-gt-coach-who" }, box, `Coach · ${whose}: `);
  h("span", { class: "hl-gt-coach-sentence" }, box, advice.sentence);
  if (advice.note) h("span", { class: "hl-gt-coach-note" }, box, ` ${advice.note}`);
  if (advice.can_apply) {
    button(box, "Apply", "coach-apply", () => send({ action: "apply_coach" }),
      { "data-action": "apply-coach", class: "hl-gt-button hl-gt-small hl-gt-primary" });
  }
}

function coachButton(parent, send, team, cardId, label, title) {
  // named by what it does ("How could Labor Unions win?", "Coach Red's hand"), not "?"
  return button(parent, label, `coach-${team}-${cardId || "hand"}`,
    () => send({ action: "coach", team, card: cardId, goal: "win" }),
    { "data-coach": `${team}|${cardId || ""}`, class: "hl-gt-button hl-gt-small hl-gt-coach-ask",
      title, "aria-label": cardId ? title : `Coach ${team}'s hand` });
}

function renderScoring(root, d, send, view) {
  const coachable = (view && view.coachable) || {};
  h("div", { class: "hl-gt-winner", "data-winners": d.winners.join("|") }, root, d.tie_break);
  const s = d.summary;
  h("div", { class: "hl-gt-status" }, root,
    `Housed: ${s.housed.high} high, ${s.housed.middle} middle, ${s.housed.low} low income (of ${s.residents_per_income} each). ` +
    `New homes: ${s.new_homes.total}. Spending: $${s.spending}.`);
  renderCoach(root, view && view.coach, send);
  const grid = h("div", { class: "hl-gt-final" }, root);
  for (const team of d.teams) {
    const box = h("div", { class: `hl-gt-final-team${team.winner ? " hl-gt-won" : ""}`,
      "data-team": team.team, "data-total": team.total, "data-minus": team.minus_cards }, grid);
    const head = h("div", { class: "hl-gt-final-head" }, box);
    h("span", { class: "hl-gt-team-name" }, head, team.winner ? `\u2605 ${team.team}` : team.team);
    h("span", { class: "hl-gt-final-total" }, head, signed(team.total));
    if (coachable[team.team]) {
      coachButton(head, send, team.team, null, "Coach", `The one change that raises ${team.team}'s total most`);
    }
    const table = h("table", { class: "hl-gt-final-cards" }, box);
    for (const c of team.cards) {
      const tr = h("tr", { "data-card": c.id, "data-score": c.score }, table);
      h("td", { class: "hl-gt-final-name" }, tr, c.name);
      h("td", { class: c.plus ? "hl-gt-yes" : "hl-gt-no", title: c.plus_text }, tr,
        c.plus ? "+1 \u2714" : "+1 \u2013");
      h("td", { class: c.minus ? "hl-gt-bad" : "hl-gt-no", title: c.minus_text }, tr,
        c.minus ? "\u22121 \u2718" : "\u22121 \u2013");
      h("td", { class: "hl-gt-final-score" }, tr, c.label);
      if ((coachable[team.team] || []).includes(c.id)) {
        coachButton(h("td", {}, tr), send, team.team, c.id, "?", `How could ${c.name} win?`);
      }
    }
    h("div", { class: "hl-gt-minus-count" }, box,
      `${team.minus_cards} card${team.minus_cards === 1 ? "" : "s"} scoring \u22121`);
  }
  const row = h("div", { class: "hl-gt-row" }, root);
  button(row, "\u25c2 Back to move-in", "movein-back", () => send({ action: "movein_back" }),
    { "data-action": "movein-back" });
}

function renderSetup(root, view, form, send, redraw) {
  const grid = h("div", { class: "hl-gt-setup" }, root);
  const field = (label) => {
    const row = h("div", { class: "hl-gt-field" }, grid);
    h("div", { class: "hl-gt-label" }, row, label);
    return h("div", { class: "hl-gt-inputs" }, row);
  };
  const count = field("Number of teams");
  const setup = view.setup || {};
  for (let n = setup.min_teams ?? 2; n <= (setup.max_teams ?? 6); n += 1) {
    button(count, String(n), `count-${n}`, () => {
      while (form.teams.length < n) form.teams.push(form.defaults[form.teams.length] || `Team ${form.teams.length + 1}`);
      form.teams.length = n;
      redraw();
    }, { "aria-pressed": String(form.teams.length === n), "data-count": n,
      class: `hl-gt-button hl-gt-toggle${form.teams.length === n ? " hl-gt-on" : ""}` });
  }
  const names = field("Team names");
  form.teams.forEach((name, index) => {
    const input = h("input", { type: "text", value: name, "aria-label": `Name of team ${index + 1}`,
      "data-focus": `name-${index}`, "data-team-input": index, class: "hl-gt-input" }, names);
    input.addEventListener("input", () => { form.teams[index] = input.value; });
  });
  const seed = h("input", { type: "number", min: 0, step: 1, value: form.seed, "aria-label": "Seed",
    "data-focus": "seed", "data-setup": "seed", class: "hl-gt-input hl-gt-number" },
  field("Seed (the same seed deals the same game)"));
  seed.addEventListener("input", () => { form.seed = seed.value; });
  const minutes = h("input", { type: "number", min: 0, step: 0.5, value: form.minutes,
    "aria-label": "Negotiation minutes", "data-focus": "minutes", "data-setup": "minutes",
    class: "hl-gt-input hl-gt-number" }, field("Negotiation timer (minutes)"));
  minutes.addEventListener("input", () => { form.minutes = minutes.value; });
  const modes = field("Current score (orders the draft, allows redraws)");
  for (const [mode, text] of Object.entries(view.setup.score_modes)) {
    button(modes, mode === "as_is" ? "As the board stands" : "Projected after move-in", `mode-${mode}`,
      () => { form.mode = mode; redraw(); },
      { "aria-pressed": String(form.mode === mode), title: text, "data-mode": mode,
        class: `hl-gt-button hl-gt-toggle${form.mode === mode ? " hl-gt-on" : ""}` });
  }
  const hands = field("Hands");
  for (const [hidden, label] of [[false, "Open (for teaching)"], [true, "Hidden (print handouts)"]]) {
    button(hands, label, `hands-${hidden}`, () => { form.hidden = hidden; redraw(); },
      { "aria-pressed": String(form.hidden === hidden), "data-hands": hidden ? "hidden" : "open",
        class: `hl-gt-button hl-gt-toggle${form.hidden === hidden ? " hl-gt-on" : ""}` });
  }
  const row = h("div", { class: "hl-gt-row" }, root);
  button(row, "Start the game \u25b8", "start", () => send({
    action: "start", teams: form.teams.map((t) => t.trim()), seed: parseInt(form.seed, 10),
    hidden_hands: form.hidden,
    options: { negotiation_minutes: parseFloat(form.minutes), current_score: form.mode },
  }), { class: "hl-gt-button hl-gt-primary", "data-action": "start" });
  if (view.has_game) {
    button(row, "Back to the current game", "back", () => send({ action: "back_to_game" }),
      { "data-action": "back-to-game" });
  }
}

function formFrom(view) {
  const s = view.setup || {};
  const teams = [...(s.teams || ["Red", "Blue", "Green"])];
  return { teams, defaults: ["Red", "Blue", "Green", "Orange", "Purple", "Teal"],
    seed: s.seed ?? 0, minutes: s.negotiation_minutes ?? 10, mode: s.current_score || "as_is",
    hidden: !!s.hidden_hands };
}

// --- the two parts ---------------------------------------------------------------------------
function renderTools(parent, view, send, model) {
  const tools = h("div", { class: "hl-gt-tools" }, parent);
  button(tools, "\u21b6 Undo", "undo", () => send({ action: "undo" }), { "data-action": "undo" });
  button(tools, "Save game", "save", () => send({ action: "save" }), { "data-action": "save" });
  const file = h("input", { type: "file", accept: ".json,application/json", class: "hl-gt-file",
    "data-action": "load-file", tabindex: -1, "aria-hidden": "true" }, tools);
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (chosen) send({ action: "load", text: await chosen.text() });
    file.value = "";
  });
  button(tools, "Load game", "load", () => file.click(), { "data-action": "load" });
  button(tools, "New game", "new", () => send({ action: "new_game" }), { "data-action": "new-game" });
  return tools;
}

function renderTop(root, model, send, state) {
  const view = model.get("view");
  // a div, not <header>: inside the table's region a header is not a page banner (axe)
  const header = h("div", { class: "hl-gt-header" }, root);
  const title = h("div", { class: "hl-gt-title" }, header);
  h("h2", {}, title, "North Berkeley: game table");
  const game = view.game;
  let helpRow = root;
  if (game) {
    const meta = h("div", { class: "hl-gt-meta" }, title,
      `${game.teams.length} teams \u00b7 seed ${game.seed} \u00b7 ${game.hidden_hands ? "hidden" : "open"} hands \u00b7 `);
    helpRow = meta;  // the keyboard help ends this line: it adds no height to the panel
    renderTools(header, view, send, model);
  }
  const steps = h("ol", { class: "hl-gt-steps", "aria-label": "Steps of the game" }, root);
  for (const step of view.steps || []) {
    h("li", { class: `hl-gt-step hl-gt-${step.status}`, "data-step": step.stage,
      "aria-current": step.status === "current" ? "step" : false }, steps, step.label);
  }
  // shown here; read out by the panel's one announcer (a region rebuilt each time is not read)
  showMessage(h("div", {}, root), "hl-gt", model.get("message"), model.get("message_kind"));
  const d = view.decision || { kind: "setup" };
  const section = h("section", { class: "hl-gt-decision", "data-kind": d.kind,
    "data-stage": view.stage, "aria-label": d.heading || "Set up the game" }, root);
  if (d.heading) h("h3", { tabindex: -1 }, section, d.heading);
  if (d.text) h("p", { class: "hl-gt-text" }, section, d.text);
  if (game && game.policies.length && ["phase2", "movein", "scoring"].includes(view.stage)) {
    h("div", { class: "hl-gt-enacted" }, section,
      `Enacted: ${game.policies.map((p) => p.name).join(", ")}`);
  }
  state.timers.tick = null;
  if (d.kind === "setup") {
    if (!state.form || state.formStage !== "setup") state.form = formFrom(view);
    renderSetup(section, view, state.form, send, state.redraw);
  } else if (d.kind === "build") renderBuild(section, d, model, send, state.timers);
  else if (d.kind === "extra") renderExtra(section, d, send);
  else if (d.kind === "draft") renderDraft(section, d, send);
  else if (d.kind === "policies") renderPolicies(section, d, send);
  else if (d.kind === "movein") renderMovein(section, d, send);
  else if (d.kind === "scoring") renderScoring(section, d, send, view);
  state.formStage = d.kind;
  if (d.kind === "build") {  // the left column has room: the hands' coach and its answer
    const hands = (view.teams || []).filter((t) => !t.secret_count && (view.coachable || {})[t.name]);
    if (hands.length) {
      const box = h("div", { class: "hl-gt-handouts hl-gt-coach-hands" }, root);
      h("span", { class: "hl-gt-label" }, box, "Coach a hand (the change that helps it most):");
      for (const t of hands) {
        coachButton(box, send, t.name, null, t.name, `The one change that raises ${t.name}'s total most`);
      }
    }
    renderCoach(root, view.coach, send);
  }
  // at the end of the header's line "6 teams · seed 7 · open hands" (beside the tools it
  // squeezed the title onto two lines on a projector; on a line of its own it added height)
  if (game && view.handouts.length) {
    const box = h("div", { class: "hl-gt-handouts" }, root);
    h("span", { class: "hl-gt-label" }, box, "Printable team handouts:");
    for (const team of view.handouts) {
      button(box, team, `handout-${team}`, () => send({ action: "handout", team }),
        { "data-handout": team, class: "hl-gt-button hl-gt-small",
          "aria-label": `Print ${team}'s handout` });
    }
    button(box, "All teams", "handout-all", () => send({ action: "handout", team: null }),
      { "data-handout": "*", class: "hl-gt-button hl-gt-small",
        "aria-label": "Print every team's handout" });
  }
  const help = keyboardHelp(helpRow, "hl-gt", TABLE_KEYS);
  help.open = Boolean(state.helpOpen);
  help.addEventListener("toggle", () => { state.helpOpen = help.open; });
}

const TABLE_KEYS = [
  ["Tab, Shift+Tab", "move between the buttons, the board and the teams"],
  ["Enter or Space", "press the button"],
  ["Arrow keys on the board", "move between squares; Enter chooses one"],
  ["Arrow keys in the buildings", "move between buildings; Enter builds one"],
  ["Describe the screen", "hear the board and who is housed in words"],
];

function renderTeams(root, model, send, state) {
  const view = model.get("view");
  if (!view.teams || !view.teams.length) return;
  h("h3", {}, root, "Teams and their constituents");
  // Where the board stands on each open card, in words: always on a narrow screen; on the
  // projector's compact layout (card names only, to fit 1080 px) one click away
  root.classList.toggle("hl-gt-words-open", Boolean(state.words));
  if (view.teams.some((team) => team.cards.some((c) => c.standing))) {
    const label = state.words ? "Hide what the cards want" : "Show what the cards want";
    button(root, label, "card-words", () => { state.words = !state.words; state.redraw(); },
      { class: "hl-gt-button hl-gt-small hl-gt-words-toggle", "aria-pressed": String(Boolean(state.words)) });
  }
  const coachable = view.coachable || {};
  const grid = h("div", { class: "hl-gt-teams" }, root);
  for (const team of view.teams) {
    const box = h("div", { class: `hl-gt-team${team.turn ? " hl-gt-turn" : ""}`, "data-team": team.name }, grid);
    const head = h("div", { class: "hl-gt-team-head" }, box);
    h("span", { class: "hl-gt-team-name" }, head, team.name);
    if (team.score) {
      h("span", { class: "hl-gt-team-score", "data-score-now": team.score.now }, head,
        `now ${signed(team.score.now)} \u00b7 if move-in now ${signed(team.score.projected)}`);
    }
    if (team.secret_count) {
      h("div", { class: "hl-gt-secret" }, box,
        `${team.secret_count} secret starting card${team.secret_count === 1 ? "" : "s"}`);
    }
    if (team.can_reveal) {
      const label = team.revealed ? `Hide ${team.name}'s cards` : `Show ${team.name}'s cards`;
      button(box, label, `reveal-${team.name}`,
        () => send({ action: "reveal", team: team.revealed ? null : team.name }),
        { "data-reveal": team.name, class: "hl-gt-button hl-gt-small" });
    }
    for (const c of team.cards) {
      const node = card(box, c, "hl-gt-hand-card");
      if ((coachable[team.name] || []).includes(c.id)) {
        coachButton(node.querySelector(".hl-gt-card-name"), send, team.name, c.id, "?", `How could ${c.name} win?`);
      }
    }
  }
}

function showBoard(root) {
  const table = root.closest(".hl-game-table");
  const board = table && table.querySelector(".hl-board-svg");
  if (!board) return;
  requestAnimationFrame(() => {
    const box = board.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) board.scrollIntoView({ block: "center" });
  });
}

function render({ model, el: root }) {
  const part = model.get("part");
  root.classList.add("hl-gt", `hl-gt-part-${part}`);
  if (part === "top") landmark(root, ".hl-game-table, .widget-box", "North Berkeley game table");
  const state = { timers: { tick: null, interval: null }, form: null, formStage: null, redraw: null };
  const send = (message) => model.send(message);

  // the top panel's one announcer, made once: it stays when the rest is redrawn
  const say = part === "top" ? announcer(root) : null;
  let heard = { n: (model.get("announcement") || {}).n || 0, stage: null };
  const draw = () => {
    const key = focusKey(root, ["data-focus"]);
    for (const child of [...root.children]) if (!say || child !== say.node) child.remove();
    if (part === "teams") renderTeams(root, model, send, state);
    else renderTop(root, model, send, state);
    // the same button, or the stage's next step, or its heading: never <body>
    restoreFocus(root, key, [".hl-gt-decision .hl-gt-next:not(:disabled)",
      ".hl-gt-decision button:not(:disabled)", ".hl-gt-decision h3", ".hl-gt-team button"]);
    if (say) {  // what happened (the message) and, on a new stage, where the table is now
      const view = model.get("view") || {};
      const d = view.decision || {};
      const news = model.get("announcement") || {};
      const words = [];
      if ((news.n || 0) !== heard.n) words.push(news.text);
      if (heard.stage !== null && view.stage !== heard.stage) {
        words.push(d.heading, d.text);
        // a building phase opens with the board in view (after the draft the page was
        // scrolled down to the pool of cards); after the focus moved, so nothing scrolls back
        if (["phase1", "phase2"].includes(view.stage)) showBoard(root);
      }
      heard = { n: news.n || 0, stage: view.stage };
      say(words.filter(Boolean).join(" "));
    }
  };
  state.redraw = draw;
  const schedule = batched(draw);
  const download = () => { if (part === "top") saveDownload(model, "north-berkeley.json"); };
  const timerChanged = () => { if (state.timers.tick) state.timers.tick(); };

  draw();
  state.timers.interval = setInterval(timerChanged, 250);
  // A dimmed square of the other phase: the click (or Enter) asks Python why, so the table
  // says it on its message line (issue 26). Caught before the board's own handler.
  const lockedSquare = (event) => {
    if (part !== "top") return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    const square = event.target.closest && event.target.closest(".hl-square.hl-locked");
    const table = square && square.closest(".hl-game-table");
    if (!table || !table.contains(root)) return;
    event.preventDefault();
    event.stopPropagation();
    send({ action: "locked_square", square: square.getAttribute("data-square") });
  };
  document.addEventListener("click", lockedSquare, true);
  document.addEventListener("keydown", lockedSquare, true);
  const stops = [
    listen(model, ["view", "message", "message_kind", "announcement"], schedule),
    listen(model, ["timer_elapsed", "timer_started"], timerChanged),
    listen(model, ["download"], download),
  ];
  return () => {
    clearInterval(state.timers.interval);
    document.removeEventListener("click", lockedSquare, true);
    document.removeEventListener("keydown", lockedSquare, true);
    for (const stop of stops) stop();
  };
}

export default { render };
