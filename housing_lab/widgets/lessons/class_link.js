// A lesson's question in class mode: when the lesson's page was opened with
// #class=CODE (a class poll's code) in its address, hand the kernel that code and this device's
// anonymous key (from #device=KEY, else this browser's localStorage, else a new random one,
// the same slot as the class's join page), then ask it every few seconds to look for the
// teacher's reveal or second vote. Without #class=... it tells the kernel so once and stays idle.
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;

function newKey() {
  const bytes = new Uint8Array(24);
  window.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function deviceKey(code, fragment) {
  const slot = `housing-lab-class-device:${code}`;
  let key = fragment.get("device") || "";
  try {
    if (!KEY_PATTERN.test(key)) key = window.localStorage.getItem(slot) || "";
    if (!KEY_PATTERN.test(key)) key = newKey();
    window.localStorage.setItem(slot, key);
  } catch (error) {
    if (!KEY_PATTERN.test(key)) key = newKey(); // no storage: this page's key only
  }
  return key;
}

function render({ model, el }) {
  el.classList.add("hl-class-link");
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const code = (fragment.get("class") || "").trim().toUpperCase();
  if (!code) {
    model.send({ class: "" });
    return undefined;
  }
  model.send({ class: code, device: deviceKey(code, fragment) });
  const timer = window.setInterval(() => model.send({ tick: true }), (model.get("tick_seconds") || 2) * 1000);
  return () => window.clearInterval(timer);
}

export default { render };
