"""Figures 10 and 11 (§5.2): the breakdown, one technique at a time."""

from __future__ import annotations

import dmbench_results as dr

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

CLAIMS = ClaimList()


# Figures 10 and 11 (§5.2): the breakdown, one technique at a time.
FIG10, FIG11 = "fig10-breakdown-skewed", "fig11-breakdown-uniform"
STEPS = ("FG+", "+Combine", "+On-Chip", "+Hierarchical", "+2-Level Ver")  # +2-Level Ver is Sherman


def step(results: Results, name: str, variant: str, mix: str) -> dr.Point:
    return pick(experiment(results, name), f"variant '{variant}', mix {mix}",
                lambda p: p.label == variant and p.mix == mix)


def gain(name: str, mix: str, better: str, base: str, metric, lower_is_better: bool):
    """Factor of `better` over `base`: throughput ratio, or latency base/better."""
    def compute(results):
        ours = metric(step(results, name, better, mix))
        theirs = metric(step(results, name, base, mix))
        return ratio(theirs, ours) if lower_is_better else ratio(ours, theirs)
    return compute


def breakdown_claims(name: str, figure: str, section: str, mix: str, panel: str,
                     values: tuple[float, float, float], quote: str) -> None:
    for metric_name, value, metric, lower in (("throughput", values[0], throughput, False),
                                              ("p50", values[1], p50, True),
                                              ("p99", values[2], p99, True)):
        what = "higher throughput" if not lower else f"lower {metric_name} latency"
        CLAIMS.add(id=f"fig{figure.split()[1]}.{mix}.sherman-vs-fgplus.{metric_name}",
              figure=f"{figure}{panel}", section=section,
              text=f"{quote}: Sherman/FG+ {what}", paper=value, unit="x", kind=FACTOR,
              needs=(name,), compute=gain(name, mix, STEPS[-1], STEPS[0], metric, lower),
              marks=(PaperMark(STEPS[-1], metric_name, (("mix", mix),), relative_to=STEPS[0]),))


breakdown_claims(FIG10, "Figure 10", "§5.2.1", "write-only", "(a)", (24.7, 1.2, 35.8),
                 "\"in write-only workloads, Sherman achieves 24.7× higher throughput with "
                 "1.2× lower median latency ... and 35.8× lower 99th percentile latency\"")
breakdown_claims(FIG10, "Figure 10", "§5.2.1", "write-intensive", "(b)", (23.6, 1.4, 30.2),
                 "\"In write-intensive workloads, Sherman achieves 23.6× higher throughput "
                 "with 1.4×/ 30.2× lower 50p/99p latency\"")

# Each technique's step, write-intensive skewed (§5.2.1 ➀-➃).
for _better, _base, _metric_name, _value, _quote in (
        ("+Combine", "FG+", "throughput", 3.37,
         "\"Command combination improves the throughput by 3.37×\""),
        ("+Combine", "FG+", "p50", 1.14, "\"... and reduces the 50p/99p latency by 1.14×/3.18×\""),
        ("+Combine", "FG+", "p99", 3.18, "\"... and reduces the 50p/99p latency by 1.14×/3.18×\""),
        ("+On-Chip", "+Combine", "throughput", 3.06,
         "\"By putting locks into on-chip memory of NICs, Sherman gains 3.06× and 3.48× "
         "improvement in terms of throughput and 99p latency\""),
        ("+On-Chip", "+Combine", "p99", 3.48, "on-chip locks: 3.48× lower 99p latency"),
        ("+Hierarchical", "+On-Chip", "throughput", 2.22,
         "\"Introducing hierarchical lock structure ... brings 2.22× higher throughput, 1.12× "
         "lower 50p latency and 2.68× lower 99p latency\""),
        ("+Hierarchical", "+On-Chip", "p50", 1.12, "hierarchical locks: 1.12× lower 50p latency"),
        ("+Hierarchical", "+On-Chip", "p99", 2.68, "hierarchical locks: 2.68× lower 99p latency")):
    _metric = {"throughput": throughput, "p50": p50, "p99": p99}[_metric_name]
    CLAIMS.add(id=f"fig10.write-intensive.{_better.strip('+').lower()}.{_metric_name}",
          figure="Figure 10(b)", section="§5.2.1",
          text=f"{_quote} ({_base} → {_better})", paper=_value, unit="x", kind=FACTOR,
          needs=(FIG10,),
          compute=gain(FIG10, "write-intensive", _better, _base, _metric,
                       _metric_name != "throughput"),
          marks=(PaperMark(_better, _metric_name, (("mix", "write-intensive"),),
                           relative_to=_base),))

CLAIMS.add(id="fig10.write-intensive.2-level-ver.throughput", figure="Figure 10(b)", section="§5.2.1",
      text="\"Two-level version mechanism does not bring considerable throughput improvement "
           "(only %3)\" (+Hierarchical → +2-Level Ver)",
      paper=1.03, unit="x", kind=PARITY, needs=(FIG10,),
      compute=gain(FIG10, "write-intensive", "+2-Level Ver", "+Hierarchical", throughput, False))
CLAIMS.add(id="fig10.write-intensive.2-level-ver.p50", figure="Figure 10(b)", section="§5.2.1",
      text="\"the 50p latency is reduced by 400ns (from 7.3𝜇 to 6.9𝜇)\" "
           "(+Hierarchical → +2-Level Ver)",
      paper=-0.4, unit="µs", kind=DIFFERENCE, needs=(FIG10,),
      compute=lambda r: Measured(p50(step(r, FIG10, "+2-Level Ver", "write-intensive"))
                                 - p50(step(r, FIG10, "+Hierarchical", "write-intensive"))),
      note="ours: p50 of +2-Level Ver minus p50 of +Hierarchical",
      marks=(PaperMark("+Hierarchical", "p50", (("mix", "write-intensive"),), value=7.3),
             PaperMark("+2-Level Ver", "p50", (("mix", "write-intensive"),), value=6.9)))
CLAIMS.add(id="fig10.read-intensive.sherman-vs-fgplus.throughput", figure="Figure 10(c)",
      section="§5.2.1",
      text="\"in read-intensive workloads ... Sherman does not present considerable "
           "performance improvement\" (Sherman/FG+ throughput)",
      paper=1.0, unit="x", kind=PARITY, needs=(FIG10,), paper_text="≈1× (no considerable gain)",
      compute=gain(FIG10, "read-intensive", STEPS[-1], STEPS[0], throughput, False))
CLAIMS.add(id="fig10.read-intensive.combine.p99", figure="Figure 10(c)", section="§5.2.1",
      text="\"command combination reduces 99p latency from 15.3𝜇s to 12.9𝜇s\" "
           "(FG+ → +Combine, read-intensive)",
      paper=15.3 / 12.9, unit="x", kind=FACTOR, needs=(FIG10,),
      compute=gain(FIG10, "read-intensive", "+Combine", "FG+", p99, True),
      note="paper value derived: 15.3 / 12.9",
      marks=(PaperMark("FG+", "p99", (("mix", "read-intensive"),), value=15.3),
             PaperMark("+Combine", "p99", (("mix", "read-intensive"),), value=12.9)))
CLAIMS.add(id="fig10.read-intensive.2-level-ver.p50", figure="Figure 10(c)", section="§5.2.1",
      text="\"Sherman increases the 50p latency by 100ns (2%)\", attributed to unsorted "
           "leaves (read-intensive)",
      paper=0.1, unit="µs", kind=DIFFERENCE, needs=(FIG10,),
      compute=lambda r: Measured(p50(step(r, FIG10, "+2-Level Ver", "read-intensive"))
                                 - p50(step(r, FIG10, "+Hierarchical", "read-intensive"))),
      note="ours: +2-Level Ver minus +Hierarchical (the step that adds the unsorted leaves; "
           "the paper does not say which bar it compares with)")

breakdown_claims(FIG11, "Figure 11", "§5.2.2", "write-only", "(a)", (1.24, 1.24, 2.01),
                 "\"Sherman delivers 1.24× and 1.15× higher throughput in write-only and "
                 "write-intensive workloads\"; \"reduces 50p/99p latency by 1.24×/2.01× and "
                 "1.19×/1.27×\" (write-only)")
breakdown_claims(FIG11, "Figure 11", "§5.2.2", "write-intensive", "(b)", (1.15, 1.19, 1.27),
                 "(same sentences, write-intensive)")
for _mix, _panel in (("write-only", "(a)"), ("write-intensive", "(b)")):
    CLAIMS.add(id=f"fig11.{_mix}.hocl.throughput", figure=f"Figure 11{_panel}", section="§5.2.2",
          text="\"HOCL is designed for high-contention scenarios ..., so it does not increase "
               f"throughput in uniform workloads\" (+Combine → +Hierarchical, {_mix})",
          paper=1.0, unit="x", kind=PARITY, needs=(FIG11,), paper_text="≈1× (no gain)",
          compute=gain(FIG11, _mix, "+Hierarchical", "+Combine", throughput, False))
