// What the class poll's two pages share, loaded before each page's own script (class.js, the
// projector; join.js, a device) as a plain script: its functions are globals of both. Only the
// header that carries the page's key differs, so the API's fetch is made per page.
"use strict";

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") made.textContent = value;
    else if (name.startsWith("on")) made.addEventListener(name.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) {
      made.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children) if (child) made.append(child);
  return made;
}

// `parent` shows `children` in place of what it showed; a child left out (false, null, "") is
// skipped: replaceChildren itself would write "null" on the page.
function show(parent, ...children) {
  parent.replaceChildren(...children.filter(Boolean));
}

function say(words) {
  const line = document.querySelector(".hl-class-error");
  if (line) line.textContent = words || "";
}

// `call(method, path, data)` on the page's API (body's data-api, with its XSRF token) with the
// key `currentKey()` returns at each call (a page learns its key after loading) in the header
// `header`. A JSON answer comes back parsed, any other (the QR code's SVG) as text; a refusal
// throws the server's one line.
function apiCaller(header, currentKey) {
  const api = document.body.dataset.api;
  const xsrf = document.body.dataset.xsrf;
  return async function call(method, path, data) {
    const headers = { [header]: currentKey(), "X-XSRFToken": xsrf };
    const options = { method, headers, credentials: "same-origin", cache: "no-store" };
    if (data !== undefined) {
      headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(data);
    }
    const response = await fetch(api + path, options);
    const text = await response.text();
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      parsed = null;
    }
    if (!response.ok) {
      const words = parsed && parsed.error ? parsed.error : `the server answered ${response.status}`;
      throw new Error(words);
    }
    return parsed === null ? text : parsed;
  };
}
