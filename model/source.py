"""Where a row's words are in the family's text: parsing a seed file into parts,
paragraphs, bullets and sentences, and resolving a row's `locator` against it.

A locator (the ``locator`` field of a ``[[rule]]`` row, shape checked by the loader with
`table.LOCATOR_RE`) names the seed file once, then one or more places separated by
``"; "``::

    002_b3948e333907311d.txt §2 ¶5 s2; §4 •3 s1-2

``§2`` is part 2 of the text (the line ``2. …``); ``¶5`` its fifth paragraph, counted
through the whole part (headings are not paragraphs); ``•3`` its third bullet; ``s2`` the
second sentence of that paragraph or bullet, ``s1-2`` the first two.  A heading is a line
that does not end a sentence (no final ``.``, ``!``, ``?`` or ``:``); a bullet starts with
``•``.  Sentences end at ``.``, ``!`` or ``?`` followed by a space.

This module never stores or prints the text's sentences in the project: tests use it to
show that every locator points at a real sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

# how a row's ``section`` is read aloud in Vietnamese (`cite_section`)
SECTION_VI = (("first paragraph", "đoạn đầu"), ("closing paragraph", "đoạn cuối"),
              ("all bullets", "mọi gạch đầu dòng"), ("bullet", "gạch đầu dòng"))


def cite_section(section: str, lang: str = "en") -> str:
    """``§3 bullet 2`` -> ``Bài Chắn §3, bullet 2`` (``lang="vi"``: ``Bài Chắn §3, gạch
    đầu dòng 2``); a heading named in the section (``§2 Chíu``) stays as it is."""
    head, sep, rest = section.partition(" ")
    if sep and not head.endswith(",") and not rest.startswith("("):
        section = f"{head}, {rest}"
    if lang == "vi":
        for en, vi in SECTION_VI:
            section = section.replace(en, vi)
    return f"Bài Chắn {section}"


PLACE_RE = re.compile(r"^§(\d+) ([¶•])(\d+) s(\d+)(?:-(\d+))?$")
PART_RE = re.compile(r"^(\d+)\.\s+\S")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class LocatorError(ValueError):
    """A locator that does not point at a sentence of the text."""


@dataclass
class Part:
    number: int
    paragraphs: list[list[str]] = field(default_factory=list)  # each: its sentences
    bullets: list[list[str]] = field(default_factory=list)


def sentences(block: str) -> list[str]:
    return [s for s in SENTENCE_END.split(block.strip()) if s]


def parse(text: str) -> dict[int, Part]:
    """The parts of a seed text, by number."""
    parts: dict[int, Part] = {}
    cur: Part | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = PART_RE.match(line)
        if m:
            cur = parts.setdefault(int(m.group(1)), Part(int(m.group(1))))
            continue
        if cur is None:
            continue  # the title
        if line.startswith("•"):
            cur.bullets.append(sentences(line.lstrip("•").strip()))
        elif line[-1] in ".!?:":
            cur.paragraphs.append(sentences(line))
        # else: a heading
    return parts


def places(locator: str) -> tuple[str, list[tuple[int, str, int, int, int]]]:
    """``(file, [(part, "¶" or "•", block, first sentence, last sentence), ...])``."""
    file, _, rest = locator.partition(" ")
    out = []
    for place in rest.split("; "):
        m = PLACE_RE.match(place)
        if not m:
            raise LocatorError(f"{place!r} is not a place like '§3 •1 s1'")
        first = int(m.group(4))
        last = int(m.group(5) or first)
        if last < first:
            raise LocatorError(f"{place!r}: sentence range ends before it starts")
        out.append((int(m.group(1)), m.group(2), int(m.group(3)), first, last))
    return file, out


def resolve(locator: str, seeds: Path) -> list[str]:
    """The sentences a locator points at, read from the seed file in folder `seeds`
    (raises LocatorError naming what is missing)."""
    file, where = places(locator)
    path = seeds / file
    if not path.is_file():
        raise LocatorError(f"no seed file {file!r} in {seeds}")
    parts = parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for part, kind, block, first, last in where:
        p = parts.get(part)
        if p is None:
            raise LocatorError(f"{file} has no part {part}")
        blocks = p.paragraphs if kind == "¶" else p.bullets
        if not 1 <= block <= len(blocks):
            raise LocatorError(f"{file} §{part} has {len(blocks)} "
                               f"{'paragraphs' if kind == '¶' else 'bullets'}, not {block}")
        sents = blocks[block - 1]
        if last > len(sents):
            raise LocatorError(f"{file} §{part} {kind}{block} has {len(sents)} sentences, "
                               f"not {last}")
        out += sents[first - 1:last]
    return out
