// The room page's key: read from the link's #fragment (which no server ever receives) and
// handed to this page's kernel. The fragment is then taken out of the address bar (the
// projector shows no key) and kept in this tab's sessionStorage, so a reload still works.
function render({ model, el }) {
  const room = model.get("room") || "";
  const slot = `housing-lab-room-key:${room}`;
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  let key = params.get("key") || "";
  try {
    if (key) {
      window.sessionStorage.setItem(slot, key);
      const clean = window.location.pathname + window.location.search;
      window.history.replaceState(window.history.state, "", clean);
    } else {
      key = window.sessionStorage.getItem(slot) || "";
    }
  } catch (error) {
    // storage refused (a private window): the key from the fragment still works once
  }
  el.classList.add("hl-room-key");
  model.send({ key, missing: !key });
}

export default { render };
