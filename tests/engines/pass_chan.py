"""A wrong engine: passing a card one could eat as a chắn creates no ban (it ignores
pass-chan-ban, §3 bullet 1).  Everything else is the reference machine."""

from __future__ import annotations

import dataclasses
import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.table import Rules


def drop_pass_chan_ban(rules: Rules) -> Rules:
    kept = tuple(r for r in rules.restrictions if r.rule != "pass-chan-ban")
    return dataclasses.replace(rules, restrictions=kept)


if __name__ == "__main__":
    sys.exit(serve(rules_hook=drop_pass_chan_ban))
