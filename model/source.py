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

Texts without numbered parts (000_e2a536ce1178235b.txt, 001_83f6d9d412e94032.txt) are
located by their headings instead: a place ``[Luật đánh bài] #3 s1-2`` is the numbered
item ``3.`` under the heading "Luật đánh bài", its first two sentences; ``[Đánh bài] •4
s1`` the fourth bullet (``•`` or ``-``) under that heading, ``[Chắn và Cạ] ¶1 s2`` its
first paragraph.  In such a text a heading is a short line (at most ten words) that is
not indented, starts with no marker (``•``, ``-``, ``+``, ``N.``) and does not end a
sentence; the first line is the title, and a short line followed by ``+`` lines leads them in (a
paragraph, not a heading).  An indented line, or one starting with ``+``,
continues the item, bullet or paragraph above it; each line of a block gives its own
sentences (``s1`` of a numbered item is its first line, ``s2`` often its example).  A
place may name another seed file before it (``…; 001_83f6d9d412e94032.txt [Điều kiện ù]
¶1 s3``), so one row can cite both texts.

This module never stores or prints the text's sentences in the project: tests use it to
show that every locator points at a real sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

# The English words of a row's ``section`` and their Vietnamese (`place_words`), longest
# first so that "all bullets" is read before "bullet".
SECTION_VI = (("first paragraph", "đoạn đầu"), ("closing paragraph", "đoạn cuối"),
              ("all bullets", "mọi gạch đầu dòng"), ("bullets", "các gạch đầu dòng"),
              ("bullet", "gạch đầu dòng"), ("items", "các mục"), ("item", "mục"),
              ("and", "và"))
_SECTION_WORDS = re.compile(r"\b(" + "|".join(re.escape(en) for en, _ in SECTION_VI) + r")\b")


def place_words(section: str, lang: str = "en") -> str:
    """Where a row is in its text, in words for people: the row's ``section`` with a
    comma after its part (``§3 bullet 2`` -> ``§3, bullet 2``), and in Vietnamese
    (``lang="vi"``) its English place labels read in Vietnamese (``§3, gạch đầu dòng 2``;
    ``000 Cước, item 2`` -> ``000 Cước, mục 2``).  Headings named in the section stay as
    the text writes them.  The one place where a section is put in words."""
    head, sep, rest = section.partition(" ")
    if (sep and head.startswith("§") and not head.endswith(",")
            and not rest.startswith("(")):
        section = f"{head}, {rest}"
    if lang == "vi":
        vi = dict(SECTION_VI)
        section = _SECTION_WORDS.sub(lambda m: vi[m.group(1)], section)
    return section


def cite_section(section: str, lang: str = "en", game: str = "Bài Chắn") -> str:
    """``§3 bullet 2`` -> ``Bài Chắn §3, bullet 2`` (``lang="vi"``: ``Bài Chắn §3, gạch
    đầu dòng 2``; `place_words`), the section put after the name of the game whose text
    it is in (`game`: the table's kind's, `Kind.game`; ``Tấn ¶9 (đỡ cùng chất)``).  A
    section of classic Chắn starts with its seed's number (``000 Bộ bài; 001 …``): it
    names its own texts, and gets no name before it."""
    words = place_words(section, lang)
    return words if section[:3].isdigit() else f"{game} {words}"


PLACE_RE = re.compile(r"^§(\d+) ([¶•])(\d+) s(\d+)(?:-(\d+))?$")
HEADED_RE = re.compile(r"^\[([^\]\n;]+)\] ([¶•#])(\d+) s(\d+)(?:-(\d+))?$")
PLAIN_RE = re.compile(r"^(¶)(\d+) s(\d+)(?:-(\d+))?$")
FILE_RE = re.compile(r"^[\w.-]+\.txt$")
ITEM_RE = re.compile(r"^(\d+)\.\s+(\S.*)$")
HEADING_WORDS = 10
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


@dataclass
class Section:
    """The blocks under one heading of a headed text (each block: its sentences)."""

    heading: str
    paragraphs: list[list[str]] = field(default_factory=list)
    bullets: list[list[str]] = field(default_factory=list)
    items: dict[int, list[str]] = field(default_factory=dict)


def _is_heading(raw: str) -> bool:
    line = raw.strip()
    return (raw[:1] not in (" ", "\t") and line[:1] not in ("•", "-", "+", ".")
            and not ITEM_RE.match(line) and line[-1] not in ".!?:"
            and len(line.split()) <= HEADING_WORDS)


def parse_headed(text: str) -> dict[str, list[Section]]:
    """The sections of a text organised by headings (000, 001), by heading; a heading
    that occurs twice maps to both sections (a locator naming it is refused)."""
    out: dict[str, list[Section]] = {}
    cur: Section | None = None
    block: list[str] | None = None
    lines = [raw for raw in text.splitlines() if raw.strip()][1:]  # the title dropped
    for n, raw in enumerate(lines):
        line = raw.strip()
        leads_in = n + 1 < len(lines) and lines[n + 1].strip().startswith("+")
        if _is_heading(raw) and not leads_in:
            cur = Section(line)
            out.setdefault(line, []).append(cur)
            block = None
            continue
        if cur is None:
            continue
        m = ITEM_RE.match(line)
        if line[:1] in ("•", "-") and not line.startswith("--"):
            block = sentences(line[1:].strip())
            cur.bullets.append(block)
        elif m:
            block = sentences(m.group(2))
            cur.items[int(m.group(1))] = block
        elif (raw[:1] in (" ", "\t") or line.startswith("+")) and block is not None:
            block.extend(sentences(line))
        else:
            block = sentences(line)
            cur.paragraphs.append(block)
    return out


Place = tuple[str, str, str, int, int, int]  # file, part or heading, kind, block, s_first, s_last


def places(locator: str) -> list[Place]:
    """``[(file, part or [heading], "¶" / "•" / "#", block, first, last), ...]``; a part
    is its number as text, a heading is kept in its brackets."""
    file, _, rest = locator.partition(" ")
    out: list[Place] = []
    for place in rest.split("; "):
        head, _, tail = place.partition(" ")
        if FILE_RE.match(head):
            file, place = head, tail
        plain = PLAIN_RE.match(place)
        if plain:  # a text of paragraphs only: no part, no heading
            first, last = int(plain.group(3)), int(plain.group(4) or plain.group(3))
            if last < first:
                raise LocatorError(f"{place!r}: sentence range ends before it starts")
            out.append((file, "", "¶", int(plain.group(2)), first, last))
            continue
        m = PLACE_RE.match(place) or HEADED_RE.match(place)
        if not m:
            raise LocatorError(f"{place!r} is not a place like '§3 •1 s1' or "
                               "'[Luật đánh bài] #3 s1'")
        first = int(m.group(4))
        last = int(m.group(5) or first)
        if last < first:
            raise LocatorError(f"{place!r}: sentence range ends before it starts")
        where = m.group(1) if m.re is PLACE_RE else f"[{m.group(1)}]"
        out.append((file, where, m.group(2), int(m.group(3)), first, last))
    return out


def _blocks(seeds: Path, file: str, where: str, kind: str,
            cache: dict[str, str]) -> tuple[str, list[list[str]] | dict[int, list[str]]]:
    path = seeds / file
    if file not in cache:
        if not path.is_file():
            raise LocatorError(f"no seed file {file!r} in {seeds}")
        cache[file] = path.read_text(encoding="utf-8")
    text = cache[file]
    if not where:
        return file, parse_plain(text)
    if where.startswith("["):
        heading = where[1:-1]
        found = parse_headed(text).get(heading, [])
        if len(found) != 1:
            raise LocatorError(f"{file} has {'no' if not found else 'more than one'} heading "
                               f"{heading!r}")
        sec = found[0]
        label = f"{file} {where}"
        return label, sec.items if kind == "#" else (
            sec.paragraphs if kind == "¶" else sec.bullets)
    p = parse(text).get(int(where))
    if p is None:
        raise LocatorError(f"{file} has no part {where}")
    return f"{file} §{where}", p.paragraphs if kind == "¶" else p.bullets


def resolve(locator: str, seeds: Path) -> list[str]:
    """The sentences a locator points at, read from the seed files in folder `seeds`
    (raises LocatorError naming what is missing)."""
    out: list[str] = []
    cache: dict[str, str] = {}
    for file, where, kind, block, first, last in places(locator):
        label, blocks = _blocks(seeds, file, where, kind, cache)
        if isinstance(blocks, dict):
            if block not in blocks:
                raise LocatorError(f"{label} has no item {block}. (items: "
                                   f"{', '.join(map(str, sorted(blocks))) or 'none'})")
            sents = blocks[block]
        else:
            if not 1 <= block <= len(blocks):
                raise LocatorError(f"{label} has {len(blocks)} "
                                   f"{'paragraphs' if kind == '¶' else 'bullets'}, not {block}")
            sents = blocks[block - 1]
        if last > len(sents):
            raise LocatorError(f"{label} {kind}{block} has {len(sents)} sentences, not {last}")
        out += sents[first - 1:last]
    return out


def parse_plain(text: str) -> list[list[str]]:
    """The paragraphs of a text without parts or headings (003): every non-empty line
    after the title, each as its sentences."""
    return [sentences(raw.strip()) for raw in text.splitlines() if raw.strip()][1:]


def all_sentences(text: str) -> list[str]:
    """Every sentence of a seed text, in any format (for the no-pasting test)."""
    out = [s for p in parse(text).values() for b in p.paragraphs + p.bullets for s in b]
    for secs in parse_headed(text).values():
        for sec in secs:
            for b in sec.paragraphs + sec.bullets + list(sec.items.values()):
                out += b
    if not out:  # neither parts nor headings (003): a run of paragraphs
        out = [s for b in parse_plain(text) for s in b]
    return out
