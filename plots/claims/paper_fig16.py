"""Figure 16 (§5.7): the HOCL microbenchmark."""

from __future__ import annotations

from typing import Callable

import dmbench_results as dr
import micro_results

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

CLAIMS = ClaimList()


# Figure 16 (§5.7): HOCL micro benchmark, Zipfian 0.99.
FIG16 = "fig16-hocl"
# Local lock tables without wait queues: a point the text states, not a bar
# (harness/micro/hocl_benchmark.h, kHoclNoWaitQueues).
NO_WAIT_QUEUES = "+Local (no queues)"


def fig16_variants(results: Results, *also: str) -> tuple[dict[str, dict], float]:
    """The points at the highest Zipfian parameter, by variant: the paper's
    four bars and the variants named in `also` must be there."""
    benchmarks = micro_results.benchmarks([experiment(results, FIG16)], "hocl")
    variants = micro_results.points_by(benchmarks, "variant")
    theta = max(t for by_theta in variants.values() for t in by_theta)
    at_theta = {v: by_theta[theta] for v, by_theta in variants.items() if theta in by_theta}
    for needed in ("RDMA lock", "+On-Chip", "+Hierarchical", "+Handover") + also:
        if needed not in at_theta:
            raise dr.ResultsError(f"{benchmarks[0].source}: no hocl variant '{needed}' at "
                                  f"Zipfian {theta:g} (found: {', '.join(at_theta)})")
    return at_theta, theta


def hocl_gain(better: str, base: str, key: str) -> Callable[[Results], Measured]:
    def compute(results):
        variants, theta = fig16_variants(results, better, base)
        ours, theirs = variants[better][key], variants[base][key]
        where = f"Zipfian {theta:g}"
        return ratio(ours, theirs, where) if key == "mops" else ratio(theirs, ours, where)
    return compute


for _key, _name, _value in (("mops", "throughput", 2.89), ("p50", "p50", 3.01),
                            ("p99", "p99", 2.88)):
    CLAIMS.add(id=f"fig16.on-chip.{_name}", figure="Figure 16", section="§5.7",
          text="\"Putting locks into on-chip memory improves the throughput by 2.89× and "
               "reduces the 50p/99p latency by 3.01×/2.88×\"" + f" ({_name})",
          paper=_value, unit="x", kind=FACTOR, needs=(FIG16,),
          compute=hocl_gain("+On-Chip", "RDMA lock", _key),
          marks=(PaperMark("+On-Chip", _name, (("theta", 0.99),), relative_to="RDMA lock"),))
for _key, _name, _value in (("mops", "throughput", 3.85), ("p50", "p50", 5.39),
                            ("p99", "p99", 3.65)):
    CLAIMS.add(id=f"fig16.hierarchical.{_name}", figure="Figure 16", section="§5.7",
          text="\"By introducing local lock tables ... we gain 3.85×, 5.39×, and 3.65× "
               "improvement in throughput, 50p latency, and 99p latency\"" + f" ({_name})",
          paper=_value, unit="x", kind=FACTOR, needs=(FIG16,),
          compute=hocl_gain("+Hierarchical", "+On-Chip", _key),
          note="local lock tables with wait queues, no handover",
          marks=(PaperMark("+Hierarchical", _name, (("theta", 0.99),), relative_to="+On-Chip"),))
for _key, _name, _value in (("mops", "throughput", 2.34), ("p99", "p99", 3.19)):
    CLAIMS.add(id=f"fig16.handover.{_name}", figure="Figure 16", section="§5.7",
          text="\"Handover mechanism further improve the throughput by 2.34× and reduces the "
               "99p latency by 3.19×\"" + f" ({_name})",
          paper=_value, unit="x", kind=FACTOR, needs=(FIG16,),
          compute=hocl_gain("+Handover", "+Hierarchical", _key),
          marks=(PaperMark("+Handover", _name, (("theta", 0.99),),
                           relative_to="+Hierarchical"),))
CLAIMS.add(id="fig16.wait-queues.p99", figure="Figure 16", section="§5.7",
      text="\"Wait queues provide first-come-first-served fairness within a CS; as a result, "
           "the 99p latency is reduced from 414𝜇s to 372𝜇s\" (the factor)",
      paper=414 / 372, unit="x", kind=FACTOR, needs=(FIG16,),
      compute=hocl_gain("+Hierarchical", NO_WAIT_QUEUES, "p99"),
      note="local lock tables without wait queues (a freed local lock goes to any waiter) over "
           "+Hierarchical; the paper's figure has no bar for the former",
      marks=(PaperMark(NO_WAIT_QUEUES, "p99", (("theta", 0.99),), value=414),))
CLAIMS.add(id="fig16.hierarchical.p99-absolute", figure="Figure 16", section="§5.7",
      text="(same sentence) the 99p latency of local lock tables with wait queues: 372 µs",
      paper=372, unit="µs", kind=ABSOLUTE, needs=(FIG16,),
      compute=lambda r: (lambda v, t: Measured(v["+Hierarchical"]["p99"], f"Zipfian {t:g}"))(
          *fig16_variants(r)),
      marks=(PaperMark("+Hierarchical", "p99", (("theta", 0.99),), value=372),))
