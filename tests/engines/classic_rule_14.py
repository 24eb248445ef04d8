"""A wrong engine for classic Chắn: it forgets rule of play 14 (loi-14-an-roi-danh, 000
[Luật đánh bài] #14: no discarding a face one has eaten).  Under restriction-mode=forbid
it allows such discards; under penalise it records no fault for them.  Everything else is
the reference machine."""

from __future__ import annotations

import dataclasses
import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.table import Rules


def forget_rule_14(rules: Rules) -> Rules:
    kept = tuple(r for r in rules.restrictions if r.rule != "loi-14-an-roi-danh")
    return dataclasses.replace(rules, restrictions=kept)


if __name__ == "__main__":
    sys.exit(serve(rules_hook=forget_rule_14))
