"""Figures 2 and 3 (§3.2): RDMA spin locks and RDMA_WRITE by IO size."""

from __future__ import annotations

from typing import Callable

import dmbench_results as dr
import micro_results

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

CLAIMS = ClaimList()


# Figure 2 (§3.2.2): RDMA spin locks (CAS acquire, FAA release as in FG).
FIG02 = "fig02-rdma-locks"


def fig02_faa(results: Results) -> tuple[dict, dict, float]:
    """FAA-release figures at Zipfian 0 and at the highest parameter."""
    benchmarks = micro_results.benchmarks([experiment(results, FIG02)], "spinlock")
    releases = micro_results.points_by(benchmarks, "release")
    faa = [release for release in releases if release.upper().startswith("FAA")]
    source = benchmarks[0].source
    if len(faa) != 1:
        raise dr.ResultsError(f"{source}: expected one FAA release series (FG's lock), found "
                              f"{', '.join(releases) or 'none'}")
    by_theta = releases[faa[0]]
    if 0 not in by_theta:
        raise dr.ResultsError(f"{source}: no {faa[0]} point at Zipfian parameter 0 (uniform)")
    highest = max(by_theta)
    return by_theta[0], by_theta[highest], highest


CLAIMS.add(id="fig02.collapse.throughput", figure="Figure 2", section="§3.2.2",
      text="\"The system experiences performance collapse in terms of throughput ... under "
           "high-contention settings\" (FAA release, as FG)",
      paper=None, unit="x", kind=COLLAPSE, needs=(FIG02,), paper_text="collapse",
      compute=lambda r: (lambda u, s, t: ratio(u["mops"], s["mops"],
                                               f"uniform / Zipfian {t:g}"))(*fig02_faa(r)),
      note="ours: throughput at Zipfian 0 over throughput at the highest parameter")
CLAIMS.add(id="fig02.collapse.p99", figure="Figure 2", section="§3.2.2",
      text="\"... performance collapse in terms of throughput and latency\" (99th percentile)",
      paper=None, unit="x", kind=COLLAPSE, needs=(FIG02,), paper_text="collapse",
      compute=lambda r: (lambda u, s, t: ratio(s["p99"], u["p99"],
                                               f"Zipfian {t:g} / uniform"))(*fig02_faa(r)),
      note="ours: p99 at the highest Zipfian parameter over p99 at 0")

# Figure 3 (§3.2.3): RDMA_WRITE throughput by IO size.


def fig03_small_writes(name: str) -> Callable[[Results], Measured]:
    def compute(results):
        lowest = math.inf
        for benchmark in micro_results.benchmarks([experiment(results, name)], "verbs"):
            for number_, _ in enumerate(benchmark.points()):
                if benchmark.point_field(number_, "io_bytes", dr.INTEGER) <= 128:
                    lowest = min(lowest, benchmark.point_field(number_, "mops"))
        if lowest == math.inf:
            raise dr.ResultsError(f"{experiment(results, name).directory}: no RDMA_WRITE "
                                  f"point with an IO size of at most 128 bytes")
        return Measured(lowest, "lowest at ≤128 B")
    return compute


FIG03_INBOUND, FIG03_OUTBOUND = "fig03-verbs", "fig03-verbs-outbound"
for _name, _direction in ((FIG03_INBOUND, "inbound"), (FIG03_OUTBOUND, "outbound")):
    CLAIMS.add(id=f"fig03.{_direction}.small-io", figure="Figure 3", section="§3.2.3",
          text=f"\"When IO size is less than or equal to 128 bytes, the throughput is more "
               f"than 50Mops\" ({_direction})",
          paper=50, unit="Mops", kind=ABOVE, needs=(_name,), paper_text="> 50 Mops",
          compute=fig03_small_writes(_name),
          # A floor over the IO sizes it names, for each direction's curve.
          marks=(PaperMark(_direction.capitalize(), "throughput_floor",
                           (("max_io_bytes", 128),), value=50),))
