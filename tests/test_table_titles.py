"""Every row has a short title in both languages, and the saved findings' digest ignores
the fields that only hold words (`chanspec.model.table.WORDING_KEYS`)."""

from __future__ import annotations

import copy
import re

import pytest
from chanspec.checks.findings import compute
from chanspec.model import kinds
from chanspec.model import table as shared_table
from chanspec.model.chan import table
from chanspec.model.table import TableError
from hypothesis import given, settings
from hypothesis import strategies as st
from test_table import family_data, to_toml

TABLES = ("family", "classic", "chiha", "tan")


@pytest.mark.parametrize("name", TABLES)
def test_every_row_has_both_titles(name: str) -> None:
    t = kinds.load(name)
    for row in t.rows.values():
        assert row.title_vi.strip() and row.title_en.strip(), row.id
        assert row.title_vi != row.id and row.title_en != row.id, row.id


@pytest.mark.parametrize("field", ["title_vi", "title_en"])
@pytest.mark.parametrize("rid", ["deck", "chan-identical", "lao-thang"])
def test_a_row_without_a_title_is_a_load_error_naming_file_and_row(field: str, rid: str) -> None:
    data = family_data()
    row = next(r for r in data["rule"] if r["id"] == rid)
    del row[field]
    with pytest.raises(TableError) as info:
        table.load_text(to_toml(data), "cousins.toml")
    msg = str(info.value)
    probs = [p for p in info.value.problems if p.field == field]
    assert len(probs) == 1 and rid in str(probs[0]), info.value.problems
    assert "cousins.toml" in msg and rid in msg and field in msg and "\n" not in str(probs[0])


@pytest.mark.parametrize("field", ["title_vi", "title_en"])
def test_an_empty_title_is_a_load_error(field: str) -> None:
    data = family_data()
    data["rule"][0][field] = "  "
    with pytest.raises(TableError) as info:
        table.load_text(to_toml(data), "cousins.toml")
    assert any(p.field == field and "empty" in str(p) for p in info.value.problems)


def _load(data: dict) -> table.Table:
    return table.load_text(to_toml(data), "family.toml")


WORDS = st.text(alphabet="abcdeghiklmnopqrstuvxyàáạảãâầấậẩẫăằắặẳẵêềếệểễôồốộổỗ ",
                min_size=1, max_size=40).filter(lambda s: s.strip() != "")


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_rewording_a_row_keeps_the_findings_digest_and_moves_the_full_one(data: st.DataObject
                                                                          ) -> None:
    base = family_data()
    changed = copy.deepcopy(base)
    row = data.draw(st.sampled_from(changed["rule"]))
    field = data.draw(st.sampled_from(["title_vi", "title_en", "vi", "en", "section"]))
    new = data.draw(WORDS)
    if new == row[field]:
        return
    row[field] = new
    a, b = _load(base), _load(changed)
    assert compute.table_digest(a) == compute.table_digest(b)
    assert a.digest() != b.digest()


def test_a_machine_value_moves_the_findings_digest() -> None:
    base = family_data()
    changed = copy.deepcopy(base)
    row = next(r for r in changed["rule"] if r["id"] == "lao-thang")
    row["default"] = "off"
    assert compute.table_digest(_load(base)) != compute.table_digest(_load(changed))
    changed = copy.deepcopy(base)
    changed["variant"][0]["min_chan"] = 7
    assert compute.table_digest(_load(base)) != compute.table_digest(_load(changed))


def test_wording_keys_are_only_words() -> None:
    """No key the machine reads is among the wording keys: every name in WORDING_KEYS is
    a title, label, paraphrase, place or note."""
    assert all(re.fullmatch(r"(title|label)_(vi|en)|vi|en|section|locator|note", k)
               for k in shared_table.WORDING_KEYS)
