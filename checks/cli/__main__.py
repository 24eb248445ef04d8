"""``python -m chanspec.checks.cli`` runs the command line, as the ``chanspec`` script does."""

import sys

from chanspec.checks.cli.app import main

sys.exit(main())
