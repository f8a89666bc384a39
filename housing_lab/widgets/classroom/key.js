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
  watchConnection(model);
}

// Honest liveness: the kernel sends a beat every few seconds; when none has come for
// `lost_after` seconds (a stopped server, a dead kernel, a laptop gone to sleep), a banner over
// the page says so and what to do, instead of a page that silently stops changing.
function watchConnection(model) {
  let last = Date.now();
  model.on("msg:custom", (message) => {
    if (message && message.beat) {
      last = Date.now();
      const banner = document.querySelector(".hl-connection-lost");
      if (banner) banner.remove();
    }
  });
  const limit = (model.get("lost_after") || 20) * 1000;
  window.setInterval(() => {
    if (Date.now() - last < limit || document.querySelector(".hl-connection-lost")) return;
    const banner = document.createElement("div");
    banner.className = "hl-connection-lost";
    banner.setAttribute("role", "alert");
    banner.textContent = model.get("lost_text");
    banner.style.cssText =
      "position:fixed;top:0;left:0;right:0;z-index:10000;padding:14px 18px;" +
      "background:#a40000;color:#fff;font:bold 18px/1.4 sans-serif;text-align:center;";
    document.body.appendChild(banner);
  }, 1000);
}

export default { render };
