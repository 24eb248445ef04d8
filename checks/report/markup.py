"""The two smallest pieces of the report's HTML, shared by every page and figure: text
escaped for HTML (`esc`) and a phrase in both languages (`bi`), of which the page's CSS
shows the chosen one."""

from __future__ import annotations

import html


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def bi(vi: str, en: str) -> str:
    """Both languages; CSS shows the chosen one (Vietnamese by default)."""
    return f'<span class="vi" lang="vi">{esc(vi)}</span><span class="en" lang="en">{esc(en)}</span>'
