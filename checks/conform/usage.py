"""Which decisions of the machine each row of a rule table is used for, measured.

`measure` plays seeded games under the table's defaults and under each single
non-default option value (the same worlds as the decision inventory,
``tests/test_inventory.py``).  At every step it asks `State.explain` about every candidate
action of every seat that could answer, and counts the rows cited, split by whether the
explanation allows or refuses the action and by the action's kind; it also counts the rows
cited by the consequences the machine logs (`replay.consequence_rules`) and by the
resolution of competing claims (`replay.claim_resolution`).

`structure_refs` lists where the table's own structure names a row (``turn.draw_rule``,
``[[restriction]]`` entries, ``when = {option = …}`` conditions …).

`rules_document` puts it together, one entry per row: the data ``chanspec rules`` prints.
Rows are described by their paraphrases and their `locator`; the family's text itself is
never read here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.conform.replay import claim_resolution, consequence_rules
from chanspec.model import kinds
from chanspec.model import table as shared_table
from chanspec.model.chan import cai
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import Action, State, deal_random
from chanspec.model.source import cite_section

# Action lines of the event log: decisions of a seat, not consequences of the rules.
ACTION_EVENTS = frozenset({"start", "u", "chiu-u", "chiu", "eat", "reclaim", "pass",
                           "discard", "return", "timeout"})
MAX_STEPS = 2000  # a hand is far shorter; a guard against an endless loop of the rules


@dataclass
class Usage:
    """Citations of each row in a sample of games: ``decisions[row][label] = count`` where
    a label is ``allows <kind>``, ``refuses <kind>``, ``consequence <event>`` or
    ``resolves claims``."""

    seed: int
    games: int  # games per world
    worlds: list[dict[str, str]]
    decisions: dict[str, Counter[str]] = field(default_factory=dict)
    stuck: int = 0  # games that stopped with nobody able to act

    @property
    def total_games(self) -> int:
        return self.games * len(self.worlds)

    def cite(self, rows: Iterable[str], label: str) -> None:
        for r in dict.fromkeys(rows):
            self.decisions.setdefault(r, Counter())[label] += 1


def worlds(table: table_mod.Table) -> list[dict[str, str]]:
    """The defaults, then each single non-default value of each open or provisional row."""
    out: list[dict[str, str]] = [{}]
    for name, values in table.option_space():
        out += [{name: v} for v in values if v != table.rows[name].default]
    return out


def _world_key(opts: Mapping[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(opts.items())) or "defaults"


def _asked(st: State) -> list[tuple[int, bool]]:
    """(seat, is pending) for every seat whose candidate actions are explained: the pending
    seats, and in a claim window every seat that has not answered (a claim refused by
    leaving a seat out of the window is a refusal too)."""
    pending = set(st.pending())
    seats = set(pending)
    if st.phase == "window" and st.window is not None:
        seats |= set(range(st.n)) - set(st.window.responses)
    return [(s, s in pending) for s in sorted(seats)]


def _closes_contest(st: State, a: Action) -> bool:
    """Does `a` give the last answer in a window where two or more seats claim?"""
    w = st.window
    if st.phase != "window" or w is None:
        return False
    responses = dict(w.responses)
    responses[a.seat] = a
    claims = [x for x in responses.values() if x.kind not in ("pass", "timeout")]
    return len(claims) >= 2 and set(responses) == set(w.options)


def _play(usage: Usage, rules: table_mod.Rules, rng: random.Random, opener: int) -> None:
    seed = rng.getrandbits(32)
    st = State(rules, deal_random(rules, seed, drawer=opener) if cai.has_ritual(rules)
               else deal_random(rules, seed, opener=opener))
    seen_events = 0
    for _ in range(MAX_STEPS):
        for e in st.events[seen_events:]:
            if e["type"] == "start" and e.get("rules"):  # the cái card named the opener
                usage.cite(e["rules"], "decides the opener")
            if e["type"] not in ACTION_EVENTS:
                usage.cite(consequence_rules(rules, e), f"consequence {e['type']}")
        seen_events = len(st.events)
        legal = st.legal_actions()
        if st.is_terminal():
            return
        if not legal:
            usage.stuck += 1
            return
        cands: dict[Action, None] = dict.fromkeys(legal)
        for s, pending in _asked(st):
            cands.update(dict.fromkeys(a for a in st.candidate_actions(s)
                                       if pending or a.kind != "pass"))
        for a in cands:
            ex = st.explain(a)
            usage.cite(ex.rules, f"{'allows' if ex.legal else 'refuses'} {a.kind}")
        claims = [a for a in legal if a.kind in ("eat", "chiu", "reclaim")]
        a = (rng.choice(claims) if claims and rng.random() < 0.6 else rng.choice(legal))
        before = st.copy() if _closes_contest(st, a) else None
        st.apply(a)
        if before is not None:
            usage.cite(claim_resolution(before, a, st), "resolves claims")


def measure(table: table_mod.Table, games: int, seed: int) -> Usage:
    """`games` seeded games (4 and 5 players in turn, a random policy that claims more
    often than not) under the defaults and under every single non-default option value."""
    usage = Usage(seed=seed, games=games, worlds=worlds(table))
    players = sorted(table.variants)
    for opts in usage.worlds:
        for g in range(games):
            rng = random.Random(f"{seed}:{_world_key(opts)}:{g}")
            n = players[g % len(players)]
            _play(usage, table.resolve(n, opts), rng, opener=g % n)
    return usage


# --------------------------------------------------------------------------- structure

def _is_ref_key(key: str) -> bool:
    return key in ("rule", "option") or key.endswith(("_rule", "_rules", "_option"))


def _label(key: str, item: Mapping[str, Any]) -> str:
    """``restriction[trigger=discard]``: an entry of an array of tables, by its fields."""
    bits = [f"{k}={v}" for k, v in item.items()
            if k not in ("rule", "option") and isinstance(v, str | int) and not
            isinstance(v, bool)][:2]
    return f"{key}[{', '.join(bits)}]" if bits else key


def structure_refs(table: table_mod.Table) -> dict[str, list[str]]:
    """Row id -> the places of the table's structure that name it (its ``[[rule]]`` rows
    and ``[ruleset]`` aside)."""
    rows = table.rows
    out: dict[str, list[str]] = {}

    def add(rid: Any, where: str) -> None:
        if isinstance(rid, str) and rid in rows and where not in out.get(rid, []):
            out.setdefault(rid, []).append(where)

    def walk(obj: Any, where: str) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                here = f"{where}.{k}" if where else str(k)
                if _is_ref_key(str(k)):
                    for x in (v if isinstance(v, list) else [v]):
                        add(x, here)
                if isinstance(v, dict | list):
                    walk(v, here)
        elif isinstance(obj, list):
            for item in obj:
                if isinstance(item, dict):
                    label = _label(where.rsplit(".", 1)[-1], item)
                    prefix = where.rsplit(".", 1)[0] + "." if "." in where else ""
                    walk(item, prefix + label)

    for key, value in table.data.items():
        if key in ("rule", "ruleset"):
            continue
        walk({key: value}, "")
    return out


# --------------------------------------------------------------------------- document

def _decision_list(counter: Counter[str] | None) -> list[dict[str, Any]]:
    if not counter:
        return []
    order = {"allows": 0, "refuses": 1, "resolves": 2, "consequence": 3}
    items = sorted(counter.items(), key=lambda kv: (order.get(kv[0].split()[0], 9), kv[0]))
    return [{"use": label.split(" ", 1)[0], "kind": label.split(" ", 1)[1]
             if " " in label else "", "count": n} for label, n in items]


def row_entry(row: shared_table.Row, usage: Usage,
              refs: Mapping[str, list[str]], game: tuple[str, str] = ("Bài Chắn", "Bài Chắn")
              ) -> dict[str, Any]:
    """One row of ``chanspec rules``'s document; `game` is the name of the game whose
    text the row's section cites, in Vietnamese and English (`Kind.game`)."""
    entry: dict[str, Any] = {
        "id": row.id, "status": row.status, "found_by": row.found_by,
        "section": row.section, "cite": cite_section(row.section, "en", game[1]),
        "cite_vi": cite_section(row.section, "vi", game[0]),
        "locator": row.locator or None, "vi": row.vi, "en": row.en,
        "title_vi": row.title_vi or None, "title_en": row.title_en or None,
    }
    if row.is_option:
        entry["default"] = row.default
        entry["values"] = [{"value": v, "vi": row.value_text.get(v, {}).get("vi", ""),
                            "en": row.value_text.get(v, {}).get("en", ""),
                            "label_vi": row.label(v, "vi"), "label_en": row.label(v, "en"),
                            "default": v == row.default} for v in row.values]
    else:
        entry["default"] = None
        entry["values"] = []
    entry["settled_by"] = [dict(d) for d in row.decisions]
    entry["decisions"] = _decision_list(usage.decisions.get(row.id))
    entry["structure"] = list(refs.get(row.id, []))
    return entry


def rules_document(table: table_mod.Table, usage: Usage,
                   ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The JSON document of ``chanspec rules``: the sample, then one entry per row (all
    rows of the table, or those of `ids`, in table order)."""
    refs = structure_refs(table)
    wanted = None if ids is None else set(ids)
    kind = kinds.of(table)
    game = (kind.game("vi"), kind.game("en"))
    rows = [row_entry(r, usage, refs, game) for r in table.rows.values()
            if wanted is None or r.id in wanted]
    return {
        "ruleset": table.id, "title_vi": table.title_vi, "title_en": table.title_en,
        "kind": kind.name,
        "sample": {"seed": usage.seed, "games_per_world": usage.games,
                   "worlds": len(usage.worlds), "games": usage.total_games,
                   "stuck": usage.stuck,
                   "policy": "random; a claim (eat, chiu, reclaim) when one is legal "
                             "with probability 0.6",
                   "players": sorted(table.variants)},
        "rows": rows,
    }
