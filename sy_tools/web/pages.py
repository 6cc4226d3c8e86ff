"""The pages' HTML: one frame (``static/page.html``) with each page's own panel, and the
panel parts the pages and the replay share; read from the package (no template engine)."""

from __future__ import annotations

import os

STATIC = os.path.join(os.path.dirname(__file__), "static")


#: The pages: their title and script (``static/page.html`` with the panel ``static/KIND-panel.html``).
PAGES = {"table": ("the table", "table.js"), "mrx": ("Mr. X", "mrx.js")}


def static_text(name: str) -> str:
    with open(os.path.join(STATIC, name), encoding="utf-8") as f:
        return f.read()


def page_html(kind: str) -> str:
    """The page ``kind`` (a key of :data:`PAGES`): the shared frame with its own panel."""
    title, script = PAGES[kind]
    text = static_text("page.html")
    panel = static_text(f"{kind}-panel.html").replace("{{facts}}", static_text("facts.html").rstrip("\n"))
    for key, value in (("title", title), ("script", script), ("kind", kind), ("panel", panel)):
        text = text.replace("{{" + key + "}}", value)
    return text
