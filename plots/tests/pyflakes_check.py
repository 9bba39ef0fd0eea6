"""Static check of the project's Python with Debian's pyflakes: names used
but never defined or imported, imports never used, and the like. Such a
fault in a rarely taken branch (a claim whose denominator is zero) passes
every test that does not reach it and then stops a whole report.

    /usr/bin/python3 plots/tests/pyflakes_check.py PATH...

Checks every .py file under the PATHs; prints each finding as FILE:LINE:
MESSAGE and exits 1 when there is one. The claims package re-exports its
judging API with `from .judging import *` on purpose, so pyflakes' notes on
star imports are not findings (a name such a module leaves undefined is then
not caught here, only by the tests).
"""

from __future__ import annotations

import sys

from pyflakes import api, messages, reporter

STAR_IMPORT_NOTES = (messages.ImportStarUsed, messages.ImportStarUsage)


class Findings(reporter.Reporter):
    """Writes findings to standard error, counting those that are not
    notes on star imports."""

    def __init__(self) -> None:
        super().__init__(sys.stdout, sys.stderr)
        self.count = 0

    def flake(self, message) -> None:
        if isinstance(message, STAR_IMPORT_NOTES):
            return
        self.count += 1
        super().flake(message)

    def syntaxError(self, filename, msg, lineno, offset, text) -> None:  # noqa: N802
        self.count += 1
        super().syntaxError(filename, msg, lineno, offset, text)

    def unexpectedError(self, filename, msg) -> None:  # noqa: N802
        self.count += 1
        super().unexpectedError(filename, msg)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: pyflakes_check.py PATH...", file=sys.stderr)
        return 2
    findings = Findings()
    api.checkRecursive(argv, findings)
    print(f"pyflakes: {findings.count} findings in {', '.join(argv)}")
    return 1 if findings.count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
