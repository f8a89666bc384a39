// The projector's page of a class poll: one question at a time, how many have answered of how
// many joined, the distribution only when the teacher shows it, Reveal and Vote again (the
// rounds side by side). The teacher's token comes from the link's #fragment (no server sees
// it), is kept in this tab's sessionStorage and travels in a header, never in a URL.
// element, say and apiCaller come from page.js, loaded before this script.
"use strict";

const body = document.body;
const POLL_MS = 500;
const app = document.getElementById("app");
const params = new URLSearchParams(window.location.search);
const code = (params.get("class") || "").trim().toUpperCase();
let key = "";
const call = apiCaller("X-Housing-Lab-Key", () => key);
let current = 0;
let last = "";
let tally = null;
let busy = false;

function readKey() {
  const slot = `housing-lab-class-key:${code}`;
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  let found = fragment.get("key") || "";
  try {
    if (found) {
      window.sessionStorage.setItem(slot, found);
    } else {
      found = window.sessionStorage.getItem(slot) || "";
    }
    current = Number(window.sessionStorage.getItem(`${slot}:question`) || 0);
  } catch (error) {
    // storage refused (a private window): the fragment's key still works until a reload
  }
  if (window.location.hash) {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  return found;
}

async function act(action, question) {
  if (busy) return;
  busy = true;
  try {
    await call("POST", "teacher", { class: code, action, question });
    say("");
    await refresh(true);
  } catch (error) {
    say(error.message);
  } finally {
    busy = false;
  }
}

function chart(question) {
  const rounds = question.rounds;
  const most = Math.max(1, ...rounds.flatMap((held) => Object.values(held.counts)));
  const rows = question.choices.map((choice) => {
    const right = question.revealed && choice.id === question.answer;
    const bars = rounds.map((held) => {
      const count = held.counts[choice.id];
      const share = held.answered ? Math.round((100 * count) / held.answered) : 0;
      return element(
        "div",
        { class: `hl-class-bar-row round-${held.round}` },
        element("span", { class: "hl-class-round", text: `Vote ${held.round}` }),
        element(
          "span",
          { class: "hl-class-track" },
          element("span", { class: "hl-class-bar", style: `width:${(100 * count) / most}%` }),
        ),
        element("span", { class: "hl-class-count", text: `${count} (${share}%)` }),
      );
    });
    return element(
      "div",
      { class: right ? "hl-class-choice right" : "hl-class-choice", "data-choice": choice.id },
      element("div", { class: "hl-class-label", text: (right ? "\u2714 " : "") + choice.text }),
      ...bars,
    );
  });
  return element("div", { class: "hl-class-chart", role: "img", "aria-label": "The class's answers" }, ...rows);
}

function questionCard(question, number) {
  const held = question.rounds[question.rounds.length - 1];
  const counted = element(
    "p",
    { class: "hl-class-answered" },
    element("strong", { class: "hl-class-count-now", text: String(held.answered) }),
    ` of ${tally.joined} joined have answered` +
      (question.round > 1 ? ` (vote ${question.round})` : ""),
  );
  const closed = tally.closed;
  const buttons = element(
    "div",
    { class: "hl-class-buttons" },
    element("button", {
      class: "hl-class-show",
      id: `show-${question.id}`,
      disabled: closed,
      text: question.shown ? "Hide the answers" : "Show the answers",
      onclick: () => act(question.shown ? "hide" : "show", question.id),
    }),
    element("button", {
      class: "hl-class-again",
      id: `again-${question.id}`,
      disabled: closed || question.revealed || question.round >= 2,
      text: "Vote again",
      onclick: () => act("vote-again", question.id),
    }),
    element("button", {
      class: "hl-class-reveal",
      id: `reveal-${question.id}`,
      disabled: closed || question.revealed,
      text: question.revealed ? "Revealed" : "Reveal the answer",
      onclick: () => act("reveal", question.id),
    }),
  );
  const right = question.choices.find((choice) => choice.id === question.answer);
  return element(
    "section",
    { class: "hl-class-question", "data-question": question.id, "aria-label": `Question ${number}` },
    element("p", { class: "hl-class-kind", text: `Question ${number} of ${tally.questions.length}` }),
    element("h2", { class: "hl-class-prompt", text: question.prompt }),
    counted,
    buttons,
    question.revealed && right
      ? element("p", { class: "hl-class-answer", text: `Answer: ${right.text}` })
      : null,
    question.shown
      ? chart(question)
      : element("p", { class: "hl-class-hidden", text: "The answers are hidden until you show them." }),
  );
}

function render() {
  const questions = tally.questions;
  current = Math.min(Math.max(current, 0), questions.length - 1);
  const focused = document.activeElement && document.activeElement.id;
  const nav = element(
    "nav",
    { class: "hl-class-nav", "aria-label": "Questions" },
    ...questions.map((question, index) =>
      element("button", {
        class: "hl-class-tab",
        id: `tab-${index}`,
        "aria-pressed": index === current ? "true" : "false",
        text: `Q${index + 1}` + (question.revealed ? " \u2714" : ""),
        onclick: () => {
          current = index;
          try {
            window.sessionStorage.setItem(`housing-lab-class-key:${code}:question`, String(index));
          } catch (error) {
            // the choice of question is only a convenience
          }
          render();
        },
      }),
    ),
  );
  const header = element(
    "header",
    { class: "hl-class-header" },
    element(
      "div",
      { class: "hl-class-title" },
      element("h1", { text: `Lesson ${tally.lesson}: class poll` }),
      element("p", { class: "hl-class-code" }, "Class code ", element("strong", { text: tally.class })),
      element("p", { class: "hl-class-joined", text: `${tally.joined} joined` }),
      element("p", { class: "hl-class-link", text: tally.join }),
      tally.closed ? element("p", { class: "hl-class-closed", text: "This class is closed." }) : null,
    ),
    element("div", { class: "hl-class-qr", id: "qr" }),
  );
  const close = element("button", {
    class: "hl-class-close",
    id: "close-class",
    disabled: tally.closed,
    text: "Close the class",
    onclick: () => {
      if (window.confirm("Close the class? No more answers will be taken.")) act("close");
    },
  });
  const oldQr = document.getElementById("qr");
  show(
    app,
    header,
    nav,
    questionCard(questions[current], current + 1),
    element("p", { class: "hl-class-error", role: "alert" }),
    close,
  );
  if (oldQr && oldQr.firstChild) {
    document.getElementById("qr").replaceChildren(...oldQr.childNodes);
  } else {
    loadQr();
  }
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
}

async function loadQr() {
  try {
    const svg = await call("GET", `qr?class=${encodeURIComponent(code)}`);
    const box = document.getElementById("qr");
    if (box) box.innerHTML = svg; // segno's SVG, drawn by our server from the join link
  } catch (error) {
    say(error.message);
  }
}

async function refresh(force = false) {
  try {
    const text = JSON.stringify(await call("GET", `teacher?class=${encodeURIComponent(code)}`));
    if (force || text !== last) {
      last = text;
      tally = JSON.parse(text);
      render();
    }
  } catch (error) {
    if (!tally) show(app, element("p", { class: "hl-class-error", role: "alert", text: error.message }));
    else say(error.message);
  }
}

function startForm() {
  const pick = element(
    "select",
    { id: "lesson", "aria-label": "Lesson" },
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
      element("option", { value: n, text: `Lesson ${n}`, selected: String(n) === params.get("lesson") }),
    ),
  );
  const start = element("button", {
    class: "hl-class-start",
    text: "Start a class poll",
    onclick: async () => {
      try {
        // the links name the laptop's address on the Wi-Fi when the server knows it
        const page = (body.dataset.linkOrigin || window.location.origin) + body.dataset.joinPath;
        const made = await call("POST", "create", { lesson: Number(pick.value), page });
        window.location.replace(made.teacher.url); // a new query: the page loads afresh
      } catch (error) {
        say(error.message);
      }
    },
  });
  const origin = new URL(body.dataset.linkOrigin || window.location.origin);
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(origin.hostname);
  show(
    app,
    element("h1", { text: "Class poll" }),
    element("p", { text: "Pool the class's predictions for one lesson on the projector." }),
    pick,
    start,
    local
      ? element("p", {
          class: "hl-class-local",
          text: `The join link will name ${origin.hostname}, this computer only: phones cannot open it. To let the class join, serve on the Wi-Fi: housing-lab app N --host 0.0.0.0 (or housing-lab class --lesson N --host 0.0.0.0).`,
        })
      : null,
    element("p", { class: "hl-class-error", role: "alert" }),
  );
}

key = readKey();
if (code && key) {
  refresh();
  window.setInterval(() => {
    if (!busy) refresh();
  }, POLL_MS);
} else if (body.dataset.canCreate === "yes") {
  startForm();
} else {
  show(
    app,
    element("p", {
      class: "hl-class-error",
      role: "alert",
      text: "This link has no class code or no teacher's key: open the teacher's link that housing-lab class printed.",
    }),
  );
}
