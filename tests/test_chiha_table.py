"""The Chiha table (spec/chiha.toml, seed 004) through the registry of kinds: it loads as
its kind's table, its rows cite seed 004 by locators that resolve and paste nothing, and a
broken copy is refused with one line per problem naming the entry and the field."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
from chanspec.model import kinds, source
from chanspec.model import table as table_mod
from chanspec.model.chiha import table as chiha_table
from chanspec.model.table import OptionError, TableError
from test_table import SEEDS, needs_seeds, to_toml

SEED_004 = "004_46e5bebaec0e3188.txt"
TEXT = table_mod.builtin_path("chiha").read_text(encoding="utf-8")


def data() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(TEXT))


def problems(d: dict[str, Any]) -> list[str]:
    with pytest.raises(TableError) as info:
        kinds.load_text(to_toml(d), "bad.toml")
    lines = [str(p) for p in info.value.problems]
    assert lines and all("\n" not in x and x.startswith("bad.toml: ") for x in lines), lines
    return lines


def test_chiha_loads_through_the_registry_as_its_own_kind() -> None:
    t = kinds.load("chiha")
    assert isinstance(t, chiha_table.ChihaTable) and kinds.of(t).name == "chiha"
    assert kinds.of(t).has_machine and kinds.of(t).supports("play")
    assert not kinds.of(t).supports("check")  # item 4 of issue 29: not yet
    assert sorted(t.variants) == [3]
    r = kinds.rules("chiha", 3, lenh_partition="all-cards-best")
    assert r.players == 3 and r.option("lenh-partition") == "all-cards-best"
    assert r.rid("win.count_rule") == "lenh-partition"
    assert r.with_options(u_threshold="more-than").reading("win.threshold_rule") == "more-than"
    assert r.key() != kinds.rules("chiha", 3).key()
    # the table's own path, through the registry, is the same table
    assert kinds.load(str(table_mod.builtin_path("chiha"))).rows == t.rows


def test_open_rows_and_options() -> None:
    t = kinds.load("chiha")
    opened = sorted(r.id for r in t.rows.values() if r.status == "open")
    assert len(opened) >= 20
    for rid in ("deck-size", "u-threshold", "u-toi", "bust-penalty", "lenh-partition",
                "claim-priority", "two-players", "eat-bans", "quan-threshold"):
        assert rid in opened and len(t.rows[rid].values) >= 2, rid
    with pytest.raises(OptionError, match="no open or provisional row .*did you mean "
                       "'lenh-partition'"):
        t.resolve(3, {"lenh-partiton": "x"})
    with pytest.raises(OptionError, match="has the values laid-fixed-hand-best"):
        t.resolve(3, {"lenh-partition": "x"})
    with pytest.raises(OptionError, match="no \\[\\[variant\\]\\] for 2 players; it has: 3"):
        t.resolve(2)


@needs_seeds
def test_every_locator_resolves_in_seed_004_and_nothing_is_pasted() -> None:
    assert SEEDS is not None
    t = kinds.load("chiha")
    for r in t.rows.values():
        assert r.locator, r.id
        assert {p[0] for p in source.places(r.locator)} == {SEED_004}, r.id
        found = source.resolve(r.locator, SEEDS)
        assert found and all(s.strip() for s in found), r.id
    sents = source.all_sentences((SEEDS / SEED_004).read_text(encoding="utf-8"))
    assert len(sents) > 40
    pasted = [s for s in sents if len(s.split()) >= 5 and s.rstrip(".") in TEXT]
    assert not pasted, pasted


@pytest.mark.parametrize(("mutate", "expect"), [
    (lambda d: d["meld"][0].update(shape="run"), "meld[0].shape: 'run' is not one of"),
    (lambda d: d["meld"][1].update(rule="meld-doii"), "meld[1].rule:"),
    (lambda d: d["meld"][4].update(ranks=["tuong", "si", "vua"]), "'vua' is no rank"),
    (lambda d: d["meld"][6].update(size=5), "meld[6].size: expected 1 to 4"),
    (lambda d: d["deck"].update(copies_by_value={"four-copies": 4}),
     "deck.copies_by_value: must give the copies for every value"),
    (lambda d: d["discard_ban"][2].update(scope_rule="u-threshold"),
     "discard_ban[2].scope_rule: row 'u-threshold' is read for discard_ban.scope_rule"),
    (lambda d: d["discard_ban"][0].update(kind="colour"), "discard_ban[0].kind: 'colour'"),
    (lambda d: d["win"].pop("threshold"), "win.threshold: missing"),
    (lambda d: d["win"].update(threshold="15"), "win.threshold: expected"),
    (lambda d: d["forced_claim"][1].update(when="always"), "forced_claim[1].when: 'always'"),
    (lambda d: d["ruleset"].update(kind="chihaa"), "unknown kind 'chihaa'. Did you mean "
     "'chiha'?"),
], ids=["shape", "rule-ref", "rank", "size", "copies", "role-values", "ban-kind",
        "missing", "type", "claim-when", "kind"])
def test_a_broken_table_is_one_line_per_problem(mutate: Any, expect: str) -> None:
    d = data()
    mutate(d)
    lines = problems(d)
    assert any(expect in x for x in lines), lines


def test_several_problems_are_reported_at_once_and_files_fail_cleanly(tmp_path: Any) -> None:
    d = data()
    d["meld"][0]["shape"] = "run"
    d["win"]["quan"] = -1
    assert len(problems(d)) >= 2
    bad = tmp_path / "bad.toml"
    bad.write_text('[ruleset]\nid = "x"\nkind = "chiha"\n[[meld]\n', encoding="utf-8")
    with pytest.raises(TableError, match="not valid TOML"):
        kinds.load(str(bad))
    bad.write_bytes(b'[ruleset]\nkind = "chiha"\nid = "\xff"\n')
    with pytest.raises(TableError):
        kinds.load(str(bad))
    with pytest.raises(TableError, match="cannot read"):
        chiha_table.load(str(tmp_path / "none.toml"))
