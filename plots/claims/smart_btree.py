"""SMART's (ASPLOS'24 §6.2.3) statements on its Fig. 12(a)-(c): SMART-BT
against Sherman+ on one server, judged on the `smart-fig12-btree`
experiment. They are index results of another paper: a prediction set of
the cx6-200g profile (no value of it was chosen on them), judged by the
same rules as the Sherman paper's claims but counted apart from them.

SMART's multi-blade Fig. 12(d)-(f) (up to 8 servers, 94 threads each) is
not run: its 1.1x/2.0x are not checked."""

from __future__ import annotations

from typing import Callable

import dmbench_results as dr

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

FIG12 = "smart-fig12-btree"
SMART_FIG12 = SMART_INDEX_FIGURE  # the source column of these claims
PLUS, SPECULATIVE, SMART_BT = "Sherman+", "Sherman+ w/ SL", "SMART-BT"


def line(results: Results, mix: str, label: str) -> dict[int, dr.Point]:
    """Threads -> point of one series and mix."""
    return series_points(experiment(results, FIG12), f"{label} with {mix}",
                  lambda p: p.mix == mix and p.label == label,
                  lambda p: p.config("topology.threads_per_compute_server", dr.INTEGER),
                  "thread count")


def at_most_threads(mix: str, numerator: str, denominator: str) -> Callable[[Results], Measured]:
    """numerator / denominator throughput at the most threads both ran."""
    def compute(results):
        top, bottom = line(results, mix, numerator), line(results, mix, denominator)
        threads = max(set(top) & set(bottom) or [0])
        if not threads:
            raise dr.ResultsError(f"experiment '{FIG12}': no {mix} thread count with both "
                                  f"{numerator} and {denominator}")
        return ratio(throughput(top[threads]), throughput(bottom[threads]), f"{threads} threads")
    return compute


def best_ratio(mix: str, numerator: str, denominator: str) -> Callable[[Results], Measured]:
    """The largest numerator / denominator throughput over the thread counts."""
    def compute(results):
        top, bottom = line(results, mix, numerator), line(results, mix, denominator)
        shared = set(top) & set(bottom)
        if not shared:
            raise dr.ResultsError(f"experiment '{FIG12}': no {mix} thread count with both "
                                  f"{numerator} and {denominator}")
        best = max(shared, key=lambda t: throughput(top[t]) / throughput(bottom[t]))
        return ratio(throughput(top[best]), throughput(bottom[best]), f"{best} threads")
    return compute


def most_threads(mix: str, label: str) -> Callable[[Results], Measured]:
    def compute(results):
        points = line(results, mix, label)
        threads = max(points)
        return Measured(throughput(points[threads]), f"{threads} threads")
    return compute


_READ = ("\"For read-heavy and read-only workloads, SMART-BT outperforms Sherman+ by 1.8× and "
         "2.0× respectively (using 94 threads)\"")

CLAIMS = [
    Claim(id="smart.fig12a.smartbt-vs-shermanplus", figure=SMART_FIG12, section="§6.2.3",
          text="\"For write-heavy workloads, update operations dominate the execution time, and "
               "the throughput of SMART-BT is slightly higher than that of Sherman+\" "
               "(YCSB A, at the most threads)",
          paper=1.17, unit="x", kind=FACTOR, needs=(FIG12,),
          paper_text="slightly higher (raw data at 94 threads: 1.17×)",
          compute=at_most_threads("ycsb-a", SMART_BT, PLUS)),
    Claim(id="smart.fig12b.smartbt-vs-shermanplus", figure=SMART_FIG12, section="§6.2.3",
          text=_READ + " (the 1.8×, YCSB B)", paper=1.8, unit="x", kind=FACTOR,
          needs=(FIG12,), compute=at_most_threads("ycsb-b", SMART_BT, PLUS)),
    Claim(id="smart.fig12c.smartbt-vs-shermanplus", figure=SMART_FIG12, section="§6.2.3",
          text=_READ + " (the 2.0×, YCSB C)", paper=2.0, unit="x", kind=FACTOR,
          needs=(FIG12,), compute=at_most_threads("ycsb-c", SMART_BT, PLUS)),
    Claim(id="smart.fig12b.speculative-vs-shermanplus.max", figure=SMART_FIG12,
          section="§6.2.3",
          text="\"Sherman+ w/ SL has up to 1.6× higher throughput than Sherman+ under "
               "read-heavy workloads\" (YCSB B)", paper=1.6, unit="x", kind=FACTOR,
          needs=(FIG12,), compute=best_ratio("ycsb-b", SPECULATIVE, PLUS),
          note="ours: the largest ratio over the thread counts run"),
    Claim(id="smart.fig12c.speculative.most-threads", figure=SMART_FIG12, section="§6.2.3",
          text="\"Under read-only workloads, the throughput of Sherman+ w/ SL is only 16.3 MOP/s "
               "when using 94 threads\" (shared doorbells: it does not scale past 64 threads)",
          paper=16.3, unit="Mops", kind=ABSOLUTE, needs=(FIG12,),
          compute=most_threads("ycsb-c", SPECULATIVE)),
]
