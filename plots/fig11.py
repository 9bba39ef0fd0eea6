"""Figure 11 (§5.2.2): performance breakdown under uniform workloads; the
same drawing as Figure 10 (see fig10.py).

    python3 plots/fig11.py --results DIR --out STEM
"""

import sys

import fig10

if __name__ == "__main__":
    sys.exit(fig10.run(figure=11))
