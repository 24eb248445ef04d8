"""Old name of `chanspec.checks.conform.refengine`, kept so that
``python -m chanspec.checks.refengine`` goes on working for engines' test scripts."""

import sys

from chanspec.checks.conform.refengine import serve

if __name__ == "__main__":
    sys.exit(serve())
