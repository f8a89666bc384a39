// A student's device in a class poll: anonymous (a random key made here, kept in the link's
// #fragment or this browser's localStorage, sent in a header, stored by the server only as a
// hash). Every question of the lesson, the device's own answer (changeable until the reveal),
// the answer and its explanation once revealed, and the class's answers only when shown.
// element, say and apiCaller come from page.js, loaded before this script.
"use strict";

const body = document.body;
const POLL_MS = 1000;
const app = document.getElementById("app");
const params = new URLSearchParams(window.location.search);
const code = (params.get("class") || "").trim().toUpperCase();
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;
// each lesson's app on this server ({"3": "/voila/render/03_policies.ipynb"}); `light=1` in the
// address (the lesson pages are full, or the teacher wants this page) keeps the device here
const LESSON_APPS = JSON.parse(body.dataset.lessonApps || "{}");
const STAY = params.get("light") === "1";
let device = "";
const call = apiCaller("X-Housing-Lab-Device", () => device);
let last = "";
let view = null;

function newKey() {
  const bytes = new Uint8Array(24);
  window.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function readDevice() {
  const slot = `housing-lab-class-device:${code}`;
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  let found = fragment.get("device") || "";
  try {
    if (!KEY_PATTERN.test(found)) found = window.localStorage.getItem(slot) || "";
    if (!KEY_PATTERN.test(found)) found = newKey();
    window.localStorage.setItem(slot, found);
  } catch (error) {
    if (!KEY_PATTERN.test(found)) found = newKey(); // no storage: this tab's key only
  }
  if (window.location.hash) {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  return found;
}

async function answer(question, choice) {
  try {
    await call("POST", "device", { class: code, action: "answer", question, choice });
    say("");
    await refresh(true);
  } catch (error) {
    say(error.message);
    await refresh(true);
  }
}

function distribution(question) {
  const held = question.rounds[question.rounds.length - 1];
  const rows = question.rounds.flatMap((round) =>
    question.choices.map((choice) => {
      const count = round.counts[choice.id];
      const share = round.answered ? Math.round((100 * count) / round.answered) : 0;
      return element(
        "div",
        { class: `hl-class-bar-row round-${round.round}` },
        element("span", { class: "hl-class-label", text: `${choice.text} (vote ${round.round})` }),
        element(
          "span",
          { class: "hl-class-track" },
          element("span", { class: "hl-class-bar", style: `width:${share}%` }),
        ),
        element("span", { class: "hl-class-count", text: `${share}%` }),
      );
    }),
  );
  return element(
    "div",
    { class: "hl-class-chart", "aria-label": `The class's answers: ${held.answered} answered` },
    ...rows,
  );
}

function card(question, number) {
  const closed = view.closed || question.revealed;
  const legend = element("legend", { class: "hl-class-prompt", text: `${number}. ${question.prompt}` });
  const choices = question.choices.map((choice) => {
    const id = `${question.id}--${choice.id}`;
    const input = element("input", {
      type: "radio",
      name: question.id,
      id,
      value: choice.id,
      checked: question.mine === choice.id,
      disabled: closed,
      // a click (or an arrow key, which clicks) sends even the choice already shown checked:
      // after "vote again" the page may not have redrawn yet
      onclick: () => answer(question.id, choice.id),
    });
    const right = question.revealed && choice.id === question.answer;
    return element(
      "label",
      { class: right ? "hl-class-option right" : "hl-class-option", for: id },
      input,
      element("span", { text: (right ? "\u2714 " : "") + choice.text }),
    );
  });
  let status;
  if (question.revealed) {
    const right = question.choices.find((choice) => choice.id === question.answer);
    const mine = question.choices.find((choice) => choice.id === question.mine);
    const verdict = !mine ? "You did not answer." : mine.id === right.id ? "You were right." : `You chose ${mine.text}.`;
    status = element(
      "div",
      { class: "hl-class-revealed" },
      element("p", { class: "hl-class-answer", text: `Answer: ${right.text}. ${verdict}` }),
      element("p", { class: "hl-class-explanation", text: question.explanation }),
    );
  } else if (view.closed) {
    status = element("p", { class: "hl-class-status", text: "The class is closed." });
  } else if (question.mine) {
    status = element("p", {
      class: "hl-class-status sent",
      text: "Answer sent. You may change it until your teacher reveals the answer.",
    });
  } else {
    status = element("p", {
      class: "hl-class-status",
      text: question.round > 1 ? "Vote again: choose after talking it over." : "Choose what you expect.",
    });
  }
  return element(
    "fieldset",
    { class: "hl-class-question", "data-question": question.id, "data-round": question.round },
    legend,
    question.round > 1 && !question.revealed ? element("p", { class: "hl-class-round-note", text: "Second vote" }) : null,
    ...choices,
    status,
    question.rounds ? distribution(question) : null,
  );
}

function lessonApp() {
  // the lesson as an app, in class mode: the class and this device's key after "#"
  const path = LESSON_APPS[String(view.lesson)];
  if (!path) return "";
  return `${path}#${new URLSearchParams({ class: code, device })}`;
}

function render() {
  const focused = document.activeElement && document.activeElement.id;
  const lesson = lessonApp();
  show(
    app,
    element("h1", { text: `Lesson ${view.lesson}: class ${view.class}` }),
    lesson && !view.closed
      ? element(
          "p",
          { class: "hl-class-app-note" },
          STAY ? "The lesson's app is full for now: answer here, or " : "Answer here, or ",
          element("a", { href: lesson, class: "hl-class-app-link", text: "open the lesson" }),
          STAY ? " again later." : " to run the model yourself.",
        )
      : null,
    element("p", { class: "hl-class-error", role: "alert" }),
    ...view.questions.map((question, index) => card(question, index + 1)),
  );
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
}

async function refresh(force = false) {
  try {
    const fresh = await call("GET", `device?class=${encodeURIComponent(code)}`);
    const text = JSON.stringify(fresh);
    if (force || text !== last) {
      last = text;
      view = fresh;
      render();
    }
  } catch (error) {
    if (!view) show(app, element("p", { class: "hl-class-error", role: "alert", text: error.message }));
    else say(error.message);
  }
}

async function start() {
  device = readDevice();
  if (!code) {
    show(app, element("p", { class: "hl-class-error", role: "alert", text: "This link has no class code: scan the code on the projector again." }));
    return;
  }
  try {
    view = await call("POST", "device", { class: code, action: "join" });
    if (!STAY && !view.closed && lessonApp()) {
      window.location.replace(lessonApp()); // the lesson app in class mode (its own kernel)
      return;
    }
    last = JSON.stringify(view);
    render();
  } catch (error) {
    show(app, element("p", { class: "hl-class-error", role: "alert", text: error.message }));
    return;
  }
  window.setInterval(refresh, POLL_MS);
}

start();
