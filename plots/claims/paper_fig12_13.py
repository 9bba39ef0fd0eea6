"""Figures 12 and 13 (§5.3, §5.4): range queries and scalability."""

from __future__ import annotations

from typing import Callable

import dmbench_results as dr

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

CLAIMS = ClaimList()


# Figure 12 (§5.3): range queries; range throughput only.
FIG12A, FIG12B = "fig12a-range-only", "fig12b-range-write"


def by_range_size(results: Results, name: str, index: str, size) -> dr.Point:
    return pick(experiment(results, name), f"{index}, range size {size}",
                lambda p: p.index_label == index and p.config("workload.range_size") == size)


def range_sizes(results: Results, name: str) -> list:
    return sorted({p.config("workload.range_size") for p in experiment(results, name).points})


def range_ratio(name: str, size) -> Callable[[Results], Measured]:
    return lambda r: ratio(range_throughput(by_range_size(r, name, "Sherman", size)),
                           range_throughput(by_range_size(r, name, "FG+", size)))


CLAIMS.add(id="fig12a.range-100.sherman-vs-fgplus", figure="Figure 12(a)", section="§5.3",
      text="\"when the range size equals 100, FG+ outperforms Sherman by 2%\" "
           "(Sherman/FG+ range throughput)",
      paper=0.98, unit="x", kind=PARITY, needs=(FIG12A,), compute=range_ratio(FIG12A, 100),
      marks=(PaperMark("Sherman", "throughput", (("mix", "range-only"), ("range_size", 100)),
                       relative_to="FG+"),))
CLAIMS.add(id="fig12a.range-1000.sherman-vs-fgplus", figure="Figure 12(a)", section="§5.3",
      text="\"as range size grows (i.e., 1000), the throughput of Sherman and FG+ drops and "
           "is almost the same\"",
      paper=1.0, unit="x", kind=PARITY, needs=(FIG12A,), paper_text="≈1× (almost the same)",
      compute=range_ratio(FIG12A, 1000))


def fig12b_best(results: Results) -> Measured:
    best = max((range_ratio(FIG12B, size)(results).value, size)
               for size in range_sizes(results, FIG12B))
    return Measured(best[0], f"range size {best[1]:,}")


CLAIMS.add(id="fig12b.sherman-vs-fgplus.max", figure="Figure 12(b)", section="§5.3",
      text="\"Sherman outperforms FG+ by up to 1.82×\" (range throughput, range-write)",
      paper=1.82, unit="x", kind=FACTOR, needs=(FIG12B,), compute=fig12b_best,
      note="ours: the largest Sherman/FG+ ratio over the range sizes run")

# Figure 13 (§5.4): scalability, write-intensive.
FIG13 = "fig13-scalability"


def fig13_series(results: Results, index: str, skew: str) -> dict[int, dr.Point]:
    return series_points(experiment(results, FIG13), f"{index} with {skew}",
                  lambda p: p.index_label == index and p.skew_label == skew,
                  lambda p: p.clients, "client count")


def fig13_at_most_clients(results: Results) -> tuple[float, float, int]:
    sherman = fig13_series(results, "Sherman", "uniform")
    fgplus = fig13_series(results, "FG+", "uniform")
    clients = max(set(sherman) & set(fgplus) or [0])
    if not clients:
        raise dr.ResultsError(f"{experiment(results, FIG13).directory}: no uniform client "
                              f"count with both a Sherman and an FG+ point")
    return throughput(sherman[clients]), throughput(fgplus[clients]), clients


def fig13_peaks(results: Results, skew: str) -> tuple[tuple[float, int], tuple[float, int]]:
    return tuple(max((throughput(p), clients) for clients, p in
                     fig13_series(results, index, skew).items())
                 for index in ("Sherman", "FG+"))


CLAIMS.add(id="fig13.uniform.sherman.mops", figure="Figure 13", section="§5.4",
      text="\"In case of 528 client threads, Sherman achieves 44 Mops\" (uniform)",
      paper=44, unit="Mops", kind=ABSOLUTE, needs=(FIG13,),
      compute=lambda r: (lambda s, f, c: Measured(s, f"{c} clients"))(*fig13_at_most_clients(r)),
      note="ours at the largest client count run (528 in the experiment file)",
      marks=(PaperMark("Sherman", "throughput", (("skew", "uniform"), ("clients", 528))),))
CLAIMS.add(id="fig13.uniform.sherman-vs-fgplus", figure="Figure 13", section="§5.4",
      text="\"... 1.14× the throughput of FG+\" (uniform, 528 client threads)",
      paper=1.14, unit="x", kind=FACTOR, needs=(FIG13,),
      compute=lambda r: (lambda s, f, c: ratio(s, f, f"{c} clients"))(*fig13_at_most_clients(r)))
for _theta, _mops, _factor in ((0.9, 21, 1.44), (0.99, 9, 1.4)):
    _skew = f"skew {_theta:g}"
    CLAIMS.add(id=f"fig13.zipf{_theta:g}.sherman.peak", figure="Figure 13", section="§5.4",
          text=f"\"Sherman achieves 21 Mops peak throughput in case of 0.9 skewness, which is "
               f"1.44× higher than that of FG+; and 9 Mops in case of 0.99 skewness, which is "
               f"1.4× higher\" (Zipfian {_theta:g}, Sherman peak)",
          paper=_mops, unit="Mops", kind=ABSOLUTE, needs=(FIG13,),
          compute=lambda r, s=_skew: (lambda sh, fg: Measured(sh[0], f"{sh[1]} clients"))(
              *fig13_peaks(r, s)),
          # The paper does not say at how many clients the peak is: a level.
          marks=(PaperMark("Sherman", "throughput", (("skew", _skew),)),))
    CLAIMS.add(id=f"fig13.zipf{_theta:g}.sherman-vs-fgplus.peak", figure="Figure 13", section="§5.4",
          text=f"(same sentence) Zipfian {_theta:g}: Sherman peak / FG+ peak",
          paper=_factor, unit="x", kind=FACTOR, needs=(FIG13,),
          compute=lambda r, s=_skew: (lambda sh, fg: ratio(
              sh[0], fg[0], f"peaks at {sh[1]} / {fg[1]} clients"))(*fig13_peaks(r, s)),
          # FG+'s peak, from the two numbers of the sentence.
          marks=(PaperMark("FG+", "throughput", (("skew", _skew),), value=_mops / _factor),))
CLAIMS.add(id="fig13.zipf0.99.fgplus.collapse", figure="Figure 13", section="§5.4",
      text="\"in skewed workloads ... FG+ experiences performance collapse\" when more client "
           "threads are added (Zipfian 0.99)",
      paper=None, unit="x", kind=COLLAPSE, needs=(FIG13,), paper_text="collapse",
      compute=lambda r: (lambda series: ratio(
          max(throughput(p) for p in series.values()), throughput(series[max(series)]),
          f"peak / {max(series)} clients"))(fig13_series(r, "FG+", "skew 0.99")),
      note="ours: FG+'s peak throughput over its throughput at the most clients")
