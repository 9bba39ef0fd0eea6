"""Lists the claims: cd plots && /usr/bin/python3 -m claims"""

import sys

from claims import CLAIMS
from claims.judging import paper_value


def main() -> int:
    for c in CLAIMS:
        print(f"{c.id:55} {c.figure:14} {paper_value(c):>24}  {c.kind}")
    print(f"{len(CLAIMS)} claims")
    return 0


sys.exit(main())
