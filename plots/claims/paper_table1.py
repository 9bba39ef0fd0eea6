"""Table 1 (§3.1.1): FG, the original one-sided B-link tree."""

from __future__ import annotations

import dmbench_results as dr

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

CLAIMS = ClaimList()


# Table 1 (§3.1.1): FG, the original one-sided B-link tree. Columns as the
# paper orders them; every value read from the extracted table, the
# throughput and p99 ones also stated in §3.1.1's prose.
TABLE1 = "table1-fg"
TABLE1_VALUES = {  # (mix, distribution): Mops, p50, p90, p99 (us)
    ("read-intensive", "uniform"): (31.8, 4.9, 6.4, 14.9),
    ("read-intensive", "skew"): (32.9, 4.7, 6.2, 15.3),
    ("write-intensive", "uniform"): (18.7, 9.5, 14.3, 19),
    ("write-intensive", "skew"): (0.34, 10, 68.7, 19890),
}


def table1_point(results: Results, mix: str, distribution: str) -> dr.Point:
    def test(point):
        skewed = point.config("workload.distribution", dr.STRING) != "uniform"
        return point.mix == mix and skewed == (distribution == "skew")
    return pick(experiment(results, TABLE1), f"{mix}, {distribution}", test)


for (_mix, _dist), _values in TABLE1_VALUES.items():
    _where = "Zipfian 0.99" if _dist == "skew" else "uniform"
    _skew = "skew 0.99" if _dist == "skew" else "uniform"
    for _metric, _value, _unit, _get, _mark in zip(("mops", "p50", "p90", "p99"), _values,
                                                   ("Mops", "µs", "µs", "µs"),
                                                   (throughput, p50, p90, p99),
                                                   ("throughput", "p50", "p90", "p99")):
        _what = "throughput" if _metric == "mops" else f"{_metric} latency"
        CLAIMS.add(id=f"table1.{_mix}.{_dist}.{_metric}", figure="Table 1", section="§3.1.1",
              text=f"FG, {_mix}, {_where}: {_what}",
              paper=_value, unit=_unit, kind=ABSOLUTE, needs=(TABLE1,),
              compute=lambda r, m=_mix, d=_dist, g=_get: Measured(g(table1_point(r, m, d))),
              note="absolute value; scaled setup (10 M keys)",
              marks=(PaperMark("FG", _mark, (("mix", _mix), ("skew", _skew))),))
