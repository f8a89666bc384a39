"""Driving a page with the keyboard alone and counting the keys (issue 27's budgets).

`Keys` presses keys through Playwright, counts every one, and after each checks that focus did
not fall to `<body>` (focus must always land on a sensible control)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {body: true};
  const attrs = {};
  for (const name of a.getAttributeNames()) attrs[name] = a.getAttribute(name);
  const around = [];
  for (let n = a; n && n !== document.body && around.length < 8; n = n.parentElement) {
    around.push(typeof n.className === 'string' ? n.className : '');
  }
  return {body: false, tag: a.tagName.toLowerCase(), attrs, around: around.join(' '),
          text: (a.getAttribute('aria-label') || a.textContent || '').trim().slice(0, 120)};
}"""


TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


@dataclass
class Keys:
    """Press keys on `page`, count them, and record where focus went after each."""

    page: Any
    count: int = 0
    lost: list[str] = field(default_factory=list)  # keys after which focus was on <body>

    def press(self, key: str, settle_ms: int | None = None) -> dict[str, Any]:
        """Press `key`; then wait `settle_ms` (for a key that asks the kernel), or else until
        the page has drawn twice: focus moves and our handlers run within the key's own
        event, and a fixed pause per key was a third of what the keyboard tests took."""
        self.page.keyboard.press(key)
        self.count += 1
        if settle_ms is None:
            self.page.evaluate(TWO_FRAMES)
        else:
            self.page.wait_for_timeout(settle_ms)
        active = self.active()
        if active["body"]:
            self.lost.append(f"key {self.count} ({key})")
        return active

    def active(self) -> dict[str, Any]:
        return self.page.evaluate(ACTIVE)

    def until(
        self, key: str, done: Callable[[dict[str, Any]], bool], limit: int, what: str
    ) -> dict[str, Any]:
        """Press `key` until `done(active element)`; fail after `limit` presses."""
        for _ in range(limit):
            active = self.press(key)
            if done(active):
                return active
        raise AssertionError(f"{what}: not reached in {limit} presses of {key}: {self.active()}")


def wait_until(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def has(attr: str, value: str | None = None) -> Callable[[dict[str, Any]], bool]:
    """A test on the active element: it carries `attr` (equal to `value` when given)."""
    return lambda a: (
        not a["body"] and attr in a["attrs"] and (value is None or a["attrs"][attr] == value)
    )


def within(css_class: str) -> Callable[[dict[str, Any]], bool]:
    """A test on the active element: it or one of its near ancestors has `css_class`."""
    return lambda a: not a["body"] and css_class in a["around"].split()


LISTEN = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return false;
  window.__heard = window.__heard || {};
  const heard = window.__heard[selector] = [];
  if (node.textContent) heard.push(node.textContent);
  new MutationObserver(() => { if (node.textContent) heard.push(node.textContent); })
    .observe(node, {childList: true, characterData: true, subtree: true});
  return true;
}"""


@dataclass
class Announcer:
    """Every text a live region (`selector`) has held since `listen()`, in order.

    A screen reader hears each text the region is given, however briefly it stays, so a test
    must not poll the region's current text: a short pause ("… is thinking.") can come and go
    between two polls."""

    page: Any
    selector: str

    def listen(self) -> Announcer:
        assert self.page.evaluate(LISTEN, self.selector), f"no live region {self.selector}"
        return self

    def heard(self) -> list[str]:
        return self.page.evaluate("(s) => window.__heard[s].slice()", self.selector)

    def wait_for(self, words: str, timeout: float = 20.0) -> None:
        """Wait until some text the region held contains `words`."""
        wait_until(
            lambda: any(words in text for text in self.heard()),
            f"{words!r} read out (heard {self.heard()[-3:]!r})",
            timeout,
        )
