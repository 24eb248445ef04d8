"""An engine that plays other readings of three open rows, whatever it is asked, and has
one real bug.

Readings (rows of spec/family.toml the text leaves open): ``lao-thang=off``,
``drawn-card-offer=next-only``, ``pass-ca-ban=none``.  The bug: passing a
card one could eat as a chắn creates no ban (pass-chan-ban, §3 bullet 1, is settled: no
reading allows it).  Everything else is the reference machine: the rules it is sent are
resolved again with its own three readings, then the ban row is dropped.
"""

from __future__ import annotations

import dataclasses
import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.table import Rules

READINGS = {"lao-thang": "off", "drawn-card-offer": "next-only", "pass-ca-ban": "none"}


def its_own_rules(rules: Rules) -> Rules:
    mine = rules.table.resolve(rules.players, {**rules.options, **READINGS})
    kept = tuple(r for r in mine.restrictions if r.rule != "pass-chan-ban")
    return dataclasses.replace(mine, restrictions=kept)


if __name__ == "__main__":
    sys.exit(serve(rules_hook=its_own_rules))
