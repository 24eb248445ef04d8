"""How chanspec prints and writes: bilingual lines and atomic files.

Every part of `chanspec.checks` may use this module; it imports nothing of chanspec.

Language convention (``--lang``):

* ``vi`` (the default): every human line is Vietnamese; the English translation follows
  on the next line, indented and marked ``(en)``.  Rule ids, card codes and JSON stay as
  they are.
* ``en``: English only.

JSON output (``--json``) is language-independent.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

EN_MARK = "(en)"


def say(lang: str, vi: str, en: str, indent: str = "") -> str:
    """One message in the chosen language convention (see the module docstring)."""
    if lang == "en":
        return f"{indent}{en}"
    if vi.casefold() == en.casefold():
        return f"{indent}{vi}"
    return f"{indent}{vi}\n{indent}  {EN_MARK} {en}"


def pick(lang: str, vi: str, en: str) -> str:
    """A short label: ``vi / en`` in Vietnamese mode, ``en`` in English mode."""
    if lang == "en":
        return en
    return vi if vi.casefold() == en.casefold() else f"{vi} / {en}"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 deal``, ``2 deals``: English number agreement (thousands separated)."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


def with_article(word: str) -> str:
    """``a discard``, ``an open row``, ``an 'eat' line``: the English indefinite article,
    chosen by the first letter or digit of `word` (quotes skipped; 8, 11 and 18 read "an")."""
    bare = word.lstrip("'\"`")
    digits = bare[:len(bare) - len(bare.lstrip("0123456789"))]
    if digits:
        vowel = digits.startswith("8") or digits in ("11", "18")
    elif bare[:1].lower() == "u" and not bare[1:2].isalpha():
        vowel = False  # 'u' (ù) reads "you"
    else:
        vowel = bare[:1].lower() in tuple("aeiou")
    return f"{'an' if vowel else 'a'} {word}"


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write text to path atomically: a temporary file in the same folder, then replace."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
