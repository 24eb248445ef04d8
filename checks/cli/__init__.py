"""The ``chanspec`` command line: one ``cmd_<name>.py`` per command, found automatically.

May import every other part of chanspec; nothing imports it.  `app.main` is the console
script; `options` holds the flags every command shares (--ruleset, --players, --option …).
"""

from chanspec.checks.cli.app import main

__all__ = ["main"]
