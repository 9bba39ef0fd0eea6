"""The paper's quantitative claims as data, and how to check ours against them.

Each Claim names the figure and section it comes from, a short quote or
paraphrase, the paper's value and unit, the experiments it needs (by the
`name` of configs/experiments/*.json) and a function that computes OUR value
from loaded results (experiment name -> dmbench_results.Experiment).

Every number below was read from the text of the Sherman paper (SIGMOD'22,
§3.1.1, §3.2, §5.2-§5.7). Where the paper states a
relation without a number ("almost the same", "does not affect", "collapse"),
the claim says so in `paper_text` and is judged by a rule for that kind of
statement instead of against a made-up number. Numbers the paper gives that
are not checked here, and why, are in UNCHECKED.

    /usr/bin/python3 plots/claims.py      # lists the claims
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import dmbench_results as dr

Results = Mapping[str, dr.Experiment]

# ------------------------------------------------------------ claim kinds
#
# How a claim is judged depends on what the paper states. The rules are
# printed in the report (RULES), so that every verdict can be re-derived by
# hand from the two numbers in its row.

FACTOR = "factor"          # "A is 3.37x B": ours is A/B computed the same way
DIFFERENCE = "difference"  # "p50 drops by 0.4 us": ours is the signed change
PARITY = "parity"          # "FG+ is 2% faster", "almost the same": a factor near 1
PERCENT = "percent"        # a share of operations, in %
ABSOLUTE = "absolute"      # a measured quantity: Mops, us, bytes, round trips
COLLAPSE = "collapse"      # "performance collapses", no number: ours is the drop factor
ABOVE = "above"            # "more than 50 Mops": a lower bound

YES, PARTLY, NO, NOT_RUN, ERROR = "yes", "partly", "no", "not run", "error"

RULES = (
    "Verdicts (\"reproduced?\") follow one rule per kind of statement; the setup is "
    "scaled (10 M keys instead of 1 B, one seed, simulated NICs), so the bands are wide "
    "and a verdict says whether the paper's effect shows, not whether the numbers match.\n"
    "\n"
    "* **Factor** (\"Sherman achieves 24.7x higher throughput\", \"1.2x lower latency\"; "
    "ours is computed the same way, higher-is-better over lower-is-better): *yes* when ours "
    "is on the same side of 1 and its gain (factor - 1) is within 2x of the paper's gain "
    "(so 1.02x does not count as reproducing 1.14x); *partly* when only the direction "
    "agrees; *no* otherwise. The last column is ours / paper.\n"
    "* **Difference** (\"p50 reduced by 400 ns\"): the same rule on the signed change "
    "itself: same sign and within 2x is *yes*, same sign only is *partly*.\n"
    "* **Parity** (\"FG+ outperforms Sherman by 2%\", \"almost the same\", \"does not "
    "affect\"; paper value about 1x): *yes* within 0.10 of the paper's factor, *partly* "
    "within 0.25, else *no* (one seed cannot resolve a 2% effect).\n"
    "* **Percent** (a share of operations): the last column is the difference in "
    "percentage points. *yes* within 5 points, and, when the paper's share is below 10% "
    "(or above 90%: then its complement), that small share must also be within 2x of "
    "the paper's, so that 0.2% does not pass for 0.02%; where the paper states a minimum "
    "(\"99.98% need no retry\") a higher share passes. *partly* within 15 points, else "
    "*no*.\n"
    "* **Absolute** (Mops, µs, bytes, round trips): *yes* when ours / paper is within "
    "[0.5, 2], *partly* within [0.2, 5], else *no*. Absolute figures depend on the "
    "scaled setup more than any ratio does.\n"
    "* **Collapse** (the paper says performance collapses and gives no number): ours is "
    "the drop factor; *yes* from 2x, *partly* above 1x, else *no*.\n"
    "* **Above** (\"more than 50 Mops\"): *yes* when ours is above the bound, else *no*.\n"
    "\n"
    "*not run*: an experiment the claim needs is not among the results. *error*: the "
    "experiment is there but a field or point the claim needs is missing (the errors "
    "list names the file and field).\n"
    "\n"
    "\"Within ±25%?\" is a second, strict reading of the same two numbers: does ours match "
    "the paper's value, not only its effect? *yes* when ours / paper is within [0.8, 1.25] "
    "for factors (the factor itself, not its gain), absolute values and differences; "
    "within 3 percentage points for shares; within 0.05 of the paper's factor for parity; "
    "above the bound for bounds. A collapse the paper gives no number for cannot be judged "
    "this way: \"–\", counted as n/a.")


@dataclass(frozen=True)
class Measured:
    value: float
    where: str = ""  # what the value was taken at, when the results had a choice


@dataclass(frozen=True)
class Claim:
    id: str
    figure: str
    section: str
    text: str              # quote (in quotation marks) or paraphrase
    paper: float | None    # None when the paper gives no number
    unit: str              # "x", "%", "Mops", "µs", "B", "round trips"
    kind: str
    needs: tuple[str, ...]  # experiment names
    compute: Callable[[Results], Measured]
    paper_text: str = ""   # how to show the paper's value when it is not a plain number
    note: str = ""         # caveats: derived values, what differs in our setup
    at_least: bool = False  # PERCENT: the paper states a minimum share


@dataclass(frozen=True)
class Outcome:
    claim: Claim
    verdict: str            # YES, PARTLY, NO, NOT_RUN, ERROR
    ours: Measured | None = None
    comparison: str = ""    # ours/paper, or the difference in points
    error: str = ""
    strict: bool | None = None  # within ±25% (see strict()); None: not judged


# ------------------------------------------------------------- judging

def judge(claim: Claim, ours: float) -> tuple[str, str]:
    """(comparison, verdict) of our value against the paper's (see RULES)."""
    paper, kind = claim.paper, claim.kind
    if kind == COLLAPSE:
        return "–", YES if ours >= 2 else PARTLY if ours > 1 else NO
    if kind == PERCENT:
        difference = ours - paper
        if claim.at_least and ours >= paper:
            close = True
        elif min(paper, 100 - paper) < 10:
            # The small share is the point of the claim: compare it relatively.
            small_paper = paper if paper < 50 else 100 - paper
            small_ours = ours if paper < 50 else 100 - ours
            close = 0.5 <= small_ours / small_paper <= 2
        else:
            close = True
        verdict = (YES if abs(difference) <= 5 and close
                   else PARTLY if abs(difference) <= 15 else NO)
        return f"{difference:+.2g} pp".replace("-", "−"), verdict
    ratio = ours / paper if paper else math.nan
    comparison = f"{ratio:.2g}".replace("-", "−") if math.isfinite(ratio) else "–"
    if kind in (FACTOR, DIFFERENCE):
        ours_effect = ours - 1 if kind == FACTOR else ours
        paper_effect = paper - 1 if kind == FACTOR else paper
        if ours_effect == 0 or (ours_effect > 0) != (paper_effect > 0):
            return comparison, NO
        return comparison, YES if 0.5 <= ours_effect / paper_effect <= 2 else PARTLY
    if kind == PARITY:
        gap = abs(ours - paper)
        return comparison, YES if gap <= 0.10 else PARTLY if gap <= 0.25 else NO
    if kind == ABSOLUTE:
        return comparison, (YES if 0.5 <= ratio <= 2 else PARTLY if 0.2 <= ratio <= 5
                            else NO)
    if kind == ABOVE:
        return comparison, YES if ours > paper else NO
    raise ValueError(f"claim {claim.id}: unknown kind {kind!r}")


STRICT_RATIO = (0.8, 1.25)  # ours / paper: factors, absolute values, differences
STRICT_POINTS = 3           # percentage points: shares
STRICT_PARITY = 0.05        # from the paper's factor: parity


def strict(claim: Claim, ours: float) -> bool | None:
    """Whether our value matches the paper's number, not only its effect
    (the "within ±25%" rule of RULES); None when the paper gives no number."""
    paper, kind = claim.paper, claim.kind
    if paper is None:
        return None
    if kind == PERCENT:
        return abs(ours - paper) <= STRICT_POINTS
    if kind == PARITY:
        return abs(ours - paper) <= STRICT_PARITY
    if kind == ABOVE:
        return ours > paper
    if kind in (FACTOR, DIFFERENCE, ABSOLUTE, COLLAPSE):
        return paper != 0 and STRICT_RATIO[0] <= ours / paper <= STRICT_RATIO[1]
    raise ValueError(f"claim {claim.id}: unknown kind {kind!r}")


def evaluate(results: Results, broken: Mapping[str, str] | None = None,
             claims: Sequence[Claim] | None = None) -> list[Outcome]:
    """Every claim against the results; `broken` maps experiments that are
    present but could not be loaded to their error, so that their claims
    are errors rather than "not run"."""
    broken = broken or {}
    outcomes = []
    for claim in CLAIMS if claims is None else claims:
        failed = [name for name in claim.needs if name in broken]
        if failed:
            outcomes.append(Outcome(claim, ERROR, error=broken[failed[0]]))
            continue
        if any(name not in results for name in claim.needs):
            outcomes.append(Outcome(claim, NOT_RUN))
            continue
        try:
            measured = claim.compute(results)
        except dr.ResultsError as error:
            outcomes.append(Outcome(claim, ERROR, error=str(error)))
            continue
        if not math.isfinite(measured.value):
            outcomes.append(Outcome(claim, ERROR, error=f"claim {claim.id}: our value is "
                                    f"{measured.value} ({measured.where})"))
            continue
        comparison, verdict = judge(claim, measured.value)
        outcomes.append(Outcome(claim, verdict, measured, comparison,
                                strict=strict(claim, measured.value)))
    return outcomes


VERDICTS = (YES, PARTLY, NO, NOT_RUN, ERROR)


def tally(outcomes: Sequence[Outcome]) -> dict[str, int]:
    """How many outcomes have each verdict, in the order of VERDICTS."""
    return {verdict: sum(o.verdict == verdict for o in outcomes) for verdict in VERDICTS}


def tally_text(outcomes: Sequence[Outcome]) -> str:
    """"41 yes, 27 partly, 11 no, 0 not run, 0 error"."""
    return ", ".join(f"{count} {verdict}" for verdict, count in tally(outcomes).items())


@dataclass(frozen=True)
class StrictCount:
    within: int  # computed and within ±25% of the paper
    unjudged: int  # computed, but the paper gives no number to judge by (n/a)


def strict_count(outcomes: Sequence[Outcome]) -> StrictCount:
    computed = [o for o in outcomes if o.verdict in (YES, PARTLY, NO)]
    return StrictCount(within=sum(o.strict is True for o in computed),
                       unjudged=sum(o.strict is None for o in computed))


# ----------------------------------------------------------- formatting

def number(value: float) -> str:
    """Three significant digits, never scientific notation."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def percent(value: float) -> str:
    """Enough decimals that a share near 0% or 100% keeps its small part
    (99.9992%, not 100.00%)."""
    small = min(value, 100 - value)
    decimals = 1 if small <= 0 or small >= 1 else min(6, 1 - math.floor(math.log10(small)))
    return f"{value:.{decimals}f}%"


def show(value: float, unit: str, signed: bool = False) -> str:
    if unit == "%":
        return percent(value)
    text = number(value)
    if signed and value > 0:
        text = "+" + text
    text = text.replace("-", "−")
    return f"{text}×" if unit == "x" else f"{text} {unit}"


def paper_value(claim: Claim) -> str:
    if claim.paper_text:
        return claim.paper_text
    if claim.unit == "%":  # as the paper prints it: 99.98%, 0.4%
        return f"{claim.paper:g}%"
    return show(claim.paper, claim.unit, signed=claim.kind == DIFFERENCE)


def verdict_value(outcome: Outcome) -> str:
    """The "reproduced?" cell: the verdict, "–" for a public figure's value."""
    if of_paper(outcome.claim) or outcome.verdict in (NOT_RUN, ERROR):
        return outcome.verdict
    return "–"


def strict_value(outcome: Outcome) -> str:
    """The "within ±25%" cell: yes, no, or "–" where nothing was judged."""
    return {True: YES, False: NO, None: "–"}[outcome.strict]


def our_value(outcome: Outcome) -> str:
    if outcome.verdict == NOT_RUN:
        return "not run"
    if outcome.verdict == ERROR or outcome.ours is None:
        return "error"
    text = show(outcome.ours.value, outcome.claim.unit,
                signed=outcome.claim.kind == DIFFERENCE)
    return f"{text} ({outcome.ours.where})" if outcome.ours.where else text


# --------------------------------------------------------- result access

def experiment(results: Results, name: str) -> dr.Experiment:
    return results[name]


def pick(exp: dr.Experiment, what: str, test: Callable[[dr.Point], bool]) -> dr.Point:
    """The one point of `exp` that passes `test`; an error naming the
    experiment index and what was looked for when there is none or several
    (a claim must not silently take one of two candidates)."""
    found = [point for point in exp.points if test(point)]
    if len(found) != 1:
        names = ", ".join(point.name for point in exp.points)
        raise dr.ResultsError(
            f"{exp.directory / 'experiment.json'}: {'no' if not found else len(found)} "
            f"points for {what} in experiment '{exp.name}' (points: {names})")
    return found[0]


def throughput(point: dr.Point) -> float:
    return point.field("throughput_mops")


def latency(percentile: str) -> Callable[[dr.Point], float]:
    return lambda point: point.field(f"latency_us.{percentile}")


p50, p90, p99 = latency("p50"), latency("p90"), latency("p99")


def range_throughput(point: dr.Point) -> float:
    """Range queries only: in range-write half the clients insert (§5.3)."""
    return point.field(point.op_stats("range") + ".throughput_mops")


def share(histogram: dr.Histogram, test: Callable[[float, float], bool]) -> float:
    """% of the values in buckets (low, high) that pass `test`."""
    return 100 * sum(c for low, high, c in histogram.buckets if test(low, high)) / histogram.count


def percentile(histogram: dr.Histogram, fraction: float) -> float:
    """As the harness reports it: the midpoint of the bucket holding the
    percentile (exact below 128, where buckets are single values)."""
    running = 0
    for low, high, count in histogram.buckets:
        running += count
        if running >= fraction * histogram.count:
            return (low + high) / 2
    return histogram.buckets[-1][1]


def ratio(numerator: float, denominator: float, where: str = "") -> Measured:
    return Measured(numerator / denominator if denominator else math.nan, where)


# ---------------------------------------------------------------- claims

CLAIMS: list[Claim] = []


def claim(**fields) -> None:
    CLAIMS.append(Claim(**fields))


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
    for _metric, _value, _unit, _get in zip(("mops", "p50", "p90", "p99"), _values,
                                            ("Mops", "µs", "µs", "µs"),
                                            (throughput, p50, p90, p99)):
        _what = "throughput" if _metric == "mops" else f"{_metric} latency"
        claim(id=f"table1.{_mix}.{_dist}.{_metric}", figure="Table 1", section="§3.1.1",
              text=f"FG, {_mix}, {_where}: {_what}",
              paper=_value, unit=_unit, kind=ABSOLUTE, needs=(TABLE1,),
              compute=lambda r, m=_mix, d=_dist, g=_get: Measured(g(table1_point(r, m, d))),
              note="absolute value; scaled setup (10 M keys)")

# Figure 2 (§3.2.2): RDMA spin locks (CAS acquire, FAA release as in FG).
FIG02 = "fig02-rdma-locks"


def fig02_faa(results: Results) -> tuple[dict, dict, float]:
    """FAA-release figures at Zipfian 0 and at the highest parameter."""
    benchmarks = dr.micro_benchmarks([experiment(results, FIG02)], "spinlock")
    releases = dr.micro_points_by(benchmarks, "release")
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


claim(id="fig02.collapse.throughput", figure="Figure 2", section="§3.2.2",
      text="\"The system experiences performance collapse in terms of throughput ... under "
           "high-contention settings\" (FAA release, as FG)",
      paper=None, unit="x", kind=COLLAPSE, needs=(FIG02,), paper_text="collapse",
      compute=lambda r: (lambda u, s, t: ratio(u["mops"], s["mops"],
                                               f"uniform / Zipfian {t:g}"))(*fig02_faa(r)),
      note="ours: throughput at Zipfian 0 over throughput at the highest parameter")
claim(id="fig02.collapse.p99", figure="Figure 2", section="§3.2.2",
      text="\"... performance collapse in terms of throughput and latency\" (99th percentile)",
      paper=None, unit="x", kind=COLLAPSE, needs=(FIG02,), paper_text="collapse",
      compute=lambda r: (lambda u, s, t: ratio(s["p99"], u["p99"],
                                               f"Zipfian {t:g} / uniform"))(*fig02_faa(r)),
      note="ours: p99 at the highest Zipfian parameter over p99 at 0")

# Figure 3 (§3.2.3): RDMA_WRITE throughput by IO size.


def fig03_small_writes(name: str) -> Callable[[Results], Measured]:
    def compute(results):
        lowest = math.inf
        for benchmark in dr.micro_benchmarks([experiment(results, name)], "verbs"):
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
    claim(id=f"fig03.{_direction}.small-io", figure="Figure 3", section="§3.2.3",
          text=f"\"When IO size is less than or equal to 128 bytes, the throughput is more "
               f"than 50Mops\" ({_direction})",
          paper=50, unit="Mops", kind=ABOVE, needs=(_name,), paper_text="> 50 Mops",
          compute=fig03_small_writes(_name))

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
        claim(id=f"fig{figure.split()[1]}.{mix}.sherman-vs-fgplus.{metric_name}",
              figure=f"{figure}{panel}", section=section,
              text=f"{quote}: Sherman/FG+ {what}", paper=value, unit="x", kind=FACTOR,
              needs=(name,), compute=gain(name, mix, STEPS[-1], STEPS[0], metric, lower))


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
    claim(id=f"fig10.write-intensive.{_better.strip('+').lower()}.{_metric_name}",
          figure="Figure 10(b)", section="§5.2.1",
          text=f"{_quote} ({_base} → {_better})", paper=_value, unit="x", kind=FACTOR,
          needs=(FIG10,),
          compute=gain(FIG10, "write-intensive", _better, _base, _metric,
                       _metric_name != "throughput"))

claim(id="fig10.write-intensive.2-level-ver.throughput", figure="Figure 10(b)", section="§5.2.1",
      text="\"Two-level version mechanism does not bring considerable throughput improvement "
           "(only %3)\" (+Hierarchical → +2-Level Ver)",
      paper=1.03, unit="x", kind=PARITY, needs=(FIG10,),
      compute=gain(FIG10, "write-intensive", "+2-Level Ver", "+Hierarchical", throughput, False))
claim(id="fig10.write-intensive.2-level-ver.p50", figure="Figure 10(b)", section="§5.2.1",
      text="\"the 50p latency is reduced by 400ns (from 7.3𝜇 to 6.9𝜇)\" "
           "(+Hierarchical → +2-Level Ver)",
      paper=-0.4, unit="µs", kind=DIFFERENCE, needs=(FIG10,),
      compute=lambda r: Measured(p50(step(r, FIG10, "+2-Level Ver", "write-intensive"))
                                 - p50(step(r, FIG10, "+Hierarchical", "write-intensive"))),
      note="ours: p50 of +2-Level Ver minus p50 of +Hierarchical")
claim(id="fig10.read-intensive.sherman-vs-fgplus.throughput", figure="Figure 10(c)",
      section="§5.2.1",
      text="\"in read-intensive workloads ... Sherman does not present considerable "
           "performance improvement\" (Sherman/FG+ throughput)",
      paper=1.0, unit="x", kind=PARITY, needs=(FIG10,), paper_text="≈1× (no considerable gain)",
      compute=gain(FIG10, "read-intensive", STEPS[-1], STEPS[0], throughput, False))
claim(id="fig10.read-intensive.combine.p99", figure="Figure 10(c)", section="§5.2.1",
      text="\"command combination reduces 99p latency from 15.3𝜇s to 12.9𝜇s\" "
           "(FG+ → +Combine, read-intensive)",
      paper=15.3 / 12.9, unit="x", kind=FACTOR, needs=(FIG10,),
      compute=gain(FIG10, "read-intensive", "+Combine", "FG+", p99, True),
      note="paper value derived: 15.3 / 12.9")
claim(id="fig10.read-intensive.2-level-ver.p50", figure="Figure 10(c)", section="§5.2.1",
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
    claim(id=f"fig11.{_mix}.hocl.throughput", figure=f"Figure 11{_panel}", section="§5.2.2",
          text="\"HOCL is designed for high-contention scenarios ..., so it does not increase "
               f"throughput in uniform workloads\" (+Combine → +Hierarchical, {_mix})",
          paper=1.0, unit="x", kind=PARITY, needs=(FIG11,), paper_text="≈1× (no gain)",
          compute=gain(FIG11, _mix, "+Hierarchical", "+Combine", throughput, False))

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


claim(id="fig12a.range-100.sherman-vs-fgplus", figure="Figure 12(a)", section="§5.3",
      text="\"when the range size equals 100, FG+ outperforms Sherman by 2%\" "
           "(Sherman/FG+ range throughput)",
      paper=0.98, unit="x", kind=PARITY, needs=(FIG12A,), compute=range_ratio(FIG12A, 100))
claim(id="fig12a.range-1000.sherman-vs-fgplus", figure="Figure 12(a)", section="§5.3",
      text="\"as range size grows (i.e., 1000), the throughput of Sherman and FG+ drops and "
           "is almost the same\"",
      paper=1.0, unit="x", kind=PARITY, needs=(FIG12A,), paper_text="≈1× (almost the same)",
      compute=range_ratio(FIG12A, 1000))


def fig12b_best(results: Results) -> Measured:
    best = max((range_ratio(FIG12B, size)(results).value, size)
               for size in range_sizes(results, FIG12B))
    return Measured(best[0], f"range size {best[1]:,}")


claim(id="fig12b.sherman-vs-fgplus.max", figure="Figure 12(b)", section="§5.3",
      text="\"Sherman outperforms FG+ by up to 1.82×\" (range throughput, range-write)",
      paper=1.82, unit="x", kind=FACTOR, needs=(FIG12B,), compute=fig12b_best,
      note="ours: the largest Sherman/FG+ ratio over the range sizes run")

# Figure 13 (§5.4): scalability, write-intensive.
FIG13 = "fig13-scalability"


def fig13_series(results: Results, index: str, skew: str) -> dict[int, dr.Point]:
    exp = experiment(results, FIG13)
    points = [p for p in exp.points if p.index_label == index and p.skew_label == skew]
    if not points:
        raise dr.ResultsError(f"{exp.directory / 'experiment.json'}: no {index} points "
                              f"with {skew} in experiment '{exp.name}'")
    return dr.unique_points(points, lambda p: p.clients, f"{index} {skew} client count")


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


claim(id="fig13.uniform.sherman.mops", figure="Figure 13", section="§5.4",
      text="\"In case of 528 client threads, Sherman achieves 44 Mops\" (uniform)",
      paper=44, unit="Mops", kind=ABSOLUTE, needs=(FIG13,),
      compute=lambda r: (lambda s, f, c: Measured(s, f"{c} clients"))(*fig13_at_most_clients(r)),
      note="ours at the largest client count run (528 in the experiment file)")
claim(id="fig13.uniform.sherman-vs-fgplus", figure="Figure 13", section="§5.4",
      text="\"... 1.14× the throughput of FG+\" (uniform, 528 client threads)",
      paper=1.14, unit="x", kind=FACTOR, needs=(FIG13,),
      compute=lambda r: (lambda s, f, c: ratio(s, f, f"{c} clients"))(*fig13_at_most_clients(r)))
for _theta, _mops, _factor in ((0.9, 21, 1.44), (0.99, 9, 1.4)):
    _skew = f"skew {_theta:g}"
    claim(id=f"fig13.zipf{_theta:g}.sherman.peak", figure="Figure 13", section="§5.4",
          text=f"\"Sherman achieves 21 Mops peak throughput in case of 0.9 skewness, which is "
               f"1.44× higher than that of FG+; and 9 Mops in case of 0.99 skewness, which is "
               f"1.4× higher\" (Zipfian {_theta:g}, Sherman peak)",
          paper=_mops, unit="Mops", kind=ABSOLUTE, needs=(FIG13,),
          compute=lambda r, s=_skew: (lambda sh, fg: Measured(sh[0], f"{sh[1]} clients"))(
              *fig13_peaks(r, s)))
    claim(id=f"fig13.zipf{_theta:g}.sherman-vs-fgplus.peak", figure="Figure 13", section="§5.4",
          text=f"(same sentence) Zipfian {_theta:g}: Sherman peak / FG+ peak",
          paper=_factor, unit="x", kind=FACTOR, needs=(FIG13,),
          compute=lambda r, s=_skew: (lambda sh, fg: ratio(
              sh[0], fg[0], f"peaks at {sh[1]} / {fg[1]} clients"))(*fig13_peaks(r, s)))
claim(id="fig13.zipf0.99.fgplus.collapse", figure="Figure 13", section="§5.4",
      text="\"in skewed workloads ... FG+ experiences performance collapse\" when more client "
           "threads are added (Zipfian 0.99)",
      paper=None, unit="x", kind=COLLAPSE, needs=(FIG13,), paper_text="collapse",
      compute=lambda r: (lambda series: ratio(
          max(throughput(p) for p in series.values()), throughput(series[max(series)]),
          f"peak / {max(series)} clients"))(fig13_series(r, "FG+", "skew 0.99")),
      note="ours: FG+'s peak throughput over its throughput at the most clients")

# Figure 14 (§5.5): in-depth, write-intensive, Zipfian 0.99.
FIG14 = "fig14-in-depth"


def fig14_point(results: Results, index: str) -> dr.Point:
    return pick(experiment(results, FIG14), index, lambda p: p.index_label == index)


def lookups_without_retry(index: str) -> Callable[[Results], Measured]:
    def compute(results):
        point = fig14_point(results, index)
        return Measured(share(point.histogram(point.op_stats("lookup") + ".read_retries"),
                              lambda low, high: high == 0))
    return compute


def writes_with_round_trips(index: str, trips: int) -> Callable[[Results], Measured]:
    return lambda r: Measured(share(dr.write_ops_histogram(fig14_point(r, index), "round_trips"),
                                    lambda low, high: low == high == trips))


def write_round_trips_p99(index: str) -> Callable[[Results], Measured]:
    return lambda r: Measured(percentile(
        dr.write_ops_histogram(fig14_point(r, index), "round_trips"), 0.99))


def sherman_common_write_size(results: Results) -> Measured:
    histogram = dr.write_ops_histogram(fig14_point(results, "Sherman"), "write_bytes")
    low, high, count = max(histogram.buckets, key=lambda bucket: bucket[2])
    return Measured((low + high) / 2, f"most common, {100 * count / histogram.count:.1f}% of writes")


def sherman_split_writes(results: Results) -> Measured:
    point = fig14_point(results, "Sherman")
    node = point.config("index.node_bytes", dr.NUMBER)
    # A split writes back more than one node; a write without one, an entry.
    return Measured(share(dr.write_ops_histogram(point, "write_bytes"),
                          lambda low, high: low > node), f"> {node:g} B")


for _index, _id in (("FG+", "fgplus"), ("Sherman", "sherman")):
    claim(id=f"fig14a.{_id}.lookups-without-retry",
          figure="Figure 14(a)", section="§5.5.1",
          text=f"\"for FG+ and Sherman, 99.98% of lookup operations do not requires retries\" "
               f"({_index})",
          paper=99.98, unit="%", kind=PERCENT, needs=(FIG14,), at_least=True,
          compute=lookups_without_retry(_index))
claim(id="fig14b.fgplus.writes-4-round-trips", figure="Figure 14(b)", section="§5.5.2",
      text="\"94% of write operations need 4 round trips in FG+\"",
      paper=94, unit="%", kind=PERCENT, needs=(FIG14,),
      compute=writes_with_round_trips("FG+", 4))
claim(id="fig14b.sherman.writes-3-round-trips", figure="Figure 14(b)", section="§5.5.2",
      text="\"while 93.6% need 3 round trips in Sherman\"",
      paper=93.6, unit="%", kind=PERCENT, needs=(FIG14,),
      compute=writes_with_round_trips("Sherman", 3))
claim(id="fig14b.sherman.writes-2-round-trips", figure="Figure 14(b)", section="§5.5.2",
      text="\"3.6% of write operations in Sherman only need 2 round trips\" (handover)",
      paper=3.6, unit="%", kind=PERCENT, needs=(FIG14,),
      compute=writes_with_round_trips("Sherman", 2))
claim(id="fig14b.fgplus.round-trips-p99", figure="Figure 14(b)", section="§5.5.2",
      text="\"for FG+, the 99th percentile of round trips is 453\"",
      paper=453, unit="round trips", kind=ABSOLUTE, needs=(FIG14,),
      compute=write_round_trips_p99("FG+"))
claim(id="fig14b.sherman.round-trips-p99", figure="Figure 14(b)", section="§5.5.2",
      text="\"its [Sherman's] 99th percentile of round trips is 11\"",
      paper=11, unit="round trips", kind=ABSOLUTE, needs=(FIG14,),
      compute=write_round_trips_p99("Sherman"))
claim(id="fig14c.sherman.write-size", figure="Figure 14(c)", section="§5.5.3",
      text="\"for write operations without node splits, Sherman only needs to write back 17 "
           "bytes\"",
      paper=17, unit="B", kind=ABSOLUTE, needs=(FIG14,), compute=sherman_common_write_size,
      note="dmbench stores each 4-bit version in its own byte: an entry is 18 B")
claim(id="fig14c.split-writes", figure="Figure 14(c)", section="§5.5.3",
      text="\"only about 0.4% of write operations trigger node splits, inducing large than "
           "1KB writes\"",
      paper=0.4, unit="%", kind=PERCENT, needs=(FIG14,), compute=sherman_split_writes,
      note="ours: Sherman's writes that write back more than one node")

# Figure 15 (§5.6): key size and cache size.
FIG15A, FIG15B, FIG15C = "fig15a-key-size-uniform", "fig15b-key-size-skewed", "fig15c-cache-size"


def by_key_size(results: Results, name: str, index: str, size: int) -> dr.Point:
    return pick(experiment(results, name), f"{index}, {size}-byte keys",
                lambda p: p.index_label == index and p.config("index.key_bytes") == size)


def key_ratio(name: str, size: int) -> Callable[[Results], Measured]:
    return lambda r: ratio(throughput(by_key_size(r, name, "Sherman", size)),
                           throughput(by_key_size(r, name, "FG+", size)))


claim(id="fig15a.key16.sherman-vs-fgplus", figure="Figure 15(a)", section="§5.6.1",
      text="\"as the key size grows from 16B to 1KB, the performance advantage of Sherman over "
           "FG+ increases from 1.17× to 1.47×\" (16 B, uniform)",
      paper=1.17, unit="x", kind=FACTOR, needs=(FIG15A,), compute=key_ratio(FIG15A, 16))
claim(id="fig15a.key1024.sherman-vs-fgplus", figure="Figure 15(a)", section="§5.6.1",
      text="(same sentence) 1 KB keys, uniform",
      paper=1.47, unit="x", kind=FACTOR, needs=(FIG15A,), compute=key_ratio(FIG15A, 1024))
claim(id="fig15b.key1024.sherman-vs-fgplus", figure="Figure 15(b)", section="§5.6.1",
      text="\"When the key size is 1KB, Sherman still outperforms FG+ by 1.4×\" (skewed)",
      paper=1.4, unit="x", kind=FACTOR, needs=(FIG15B,), compute=key_ratio(FIG15B, 1024))
claim(id="fig15b.fgplus.key-size-insensitive", figure="Figure 15(b)", section="§5.6.1",
      text="\"Since FG+ suffers from low throughput in high-contention scenarios, the "
           "increasing key size does not affect its throughput\" (FG+ at 1 KB / at 16 B)",
      paper=1.0, unit="x", kind=PARITY, needs=(FIG15B,), paper_text="≈1× (not affected)",
      compute=lambda r: ratio(throughput(by_key_size(r, FIG15B, "FG+", 1024)),
                              throughput(by_key_size(r, FIG15B, "FG+", 16))))


def largest_cache_hit_ratio(results: Results) -> Measured:
    exp = experiment(results, FIG15C)
    largest = max(exp.points, key=lambda p: p.config("index.cache_mib", dr.NUMBER))
    return Measured(100 * largest.field("operations.overall.index.cache_hit_ratio"),
                    f"{largest.config('index.cache_mib'):g} MiB")


claim(id="fig15c.cache-hit-ratio", figure="Figure 15(c)", section="§5.6.2",
      text="\"a 400MB index cache can bring a cache hit rate close to 98%\"",
      paper=98, unit="%", kind=PERCENT, needs=(FIG15C,), compute=largest_cache_hit_ratio,
      note="ours at the largest cache swept; the cache is scaled with the tree (the "
           "experiment file puts 1 MiB here near 100 MB at 1 billion keys)")

# Figure 16 (§5.7): HOCL micro benchmark, Zipfian 0.99.
FIG16 = "fig16-hocl"


def fig16_variants(results: Results) -> tuple[dict[str, dict], float]:
    benchmarks = dr.micro_benchmarks([experiment(results, FIG16)], "hocl")
    variants = dr.micro_points_by(benchmarks, "variant")
    theta = max(t for by_theta in variants.values() for t in by_theta)
    at_theta = {v: by_theta[theta] for v, by_theta in variants.items() if theta in by_theta}
    for needed in ("RDMA lock", "+On-Chip", "+Hierarchical", "+Handover"):
        if needed not in at_theta:
            raise dr.ResultsError(f"{benchmarks[0].source}: no hocl variant '{needed}' at "
                                  f"Zipfian {theta:g} (found: {', '.join(at_theta)})")
    return at_theta, theta


def hocl_gain(better: str, base: str, key: str) -> Callable[[Results], Measured]:
    def compute(results):
        variants, theta = fig16_variants(results)
        ours, theirs = variants[better][key], variants[base][key]
        where = f"Zipfian {theta:g}"
        return ratio(ours, theirs, where) if key == "mops" else ratio(theirs, ours, where)
    return compute


for _key, _name, _value in (("mops", "throughput", 2.89), ("p50", "p50", 3.01),
                            ("p99", "p99", 2.88)):
    claim(id=f"fig16.on-chip.{_name}", figure="Figure 16", section="§5.7",
          text="\"Putting locks into on-chip memory improves the throughput by 2.89× and "
               "reduces the 50p/99p latency by 3.01×/2.88×\"" + f" ({_name})",
          paper=_value, unit="x", kind=FACTOR, needs=(FIG16,),
          compute=hocl_gain("+On-Chip", "RDMA lock", _key))
for _key, _name, _value in (("mops", "throughput", 3.85), ("p50", "p50", 5.39),
                            ("p99", "p99", 3.65)):
    claim(id=f"fig16.hierarchical.{_name}", figure="Figure 16", section="§5.7",
          text="\"By introducing local lock tables ... we gain 3.85×, 5.39×, and 3.65× "
               "improvement in throughput, 50p latency, and 99p latency\"" + f" ({_name})",
          paper=_value, unit="x", kind=FACTOR, needs=(FIG16,),
          compute=hocl_gain("+Hierarchical", "+On-Chip", _key),
          note="local lock tables with wait queues, no handover")
for _key, _name, _value in (("mops", "throughput", 2.34), ("p99", "p99", 3.19)):
    claim(id=f"fig16.handover.{_name}", figure="Figure 16", section="§5.7",
          text="\"Handover mechanism further improve the throughput by 2.34× and reduces the "
               "99p latency by 3.19×\"" + f" ({_name})",
          paper=_value, unit="x", kind=FACTOR, needs=(FIG16,),
          compute=hocl_gain("+Handover", "+Hierarchical", _key))

# ------------------------------------------- calibration and prediction
#
# The NIC profile (configs/nic/) was tuned until the microbenchmarks matched
# hardware-level targets: the paper's Figs. 2, 3 and 16 and public ConnectX-5
# figures. Claims on those are the calibration set: agreement there is by
# construction. Every other claim (the index results) is the model's
# prediction.

CALIBRATION_BASICS = "calibration-basics"  # the public figures' micro experiment
CALIBRATION_EXPERIMENTS = frozenset({FIG02, FIG03_INBOUND, FIG03_OUTBOUND, FIG16,
                                     CALIBRATION_BASICS})


def is_calibration(claim: Claim) -> bool:
    """A claim on calibration targets: it needs calibration experiments only."""
    return bool(claim.needs) and set(claim.needs) <= CALIBRATION_EXPERIMENTS


def basics_points(results: Results, benchmark: str,
                  test: Callable[[dr.MicroBenchmark, int], bool],
                  what: str) -> list[tuple[dr.MicroBenchmark, int]]:
    """(benchmark, point number) of every `benchmark` point of
    calibration-basics that passes `test`; an error saying `what` was looked
    for when there is none. A point without a field the test reads is an
    error naming the file, the point and the field."""
    exp = experiment(results, CALIBRATION_BASICS)
    found = [(entry, number) for entry in dr.micro_benchmarks([exp], benchmark)
             for number, _ in enumerate(entry.points()) if test(entry, number)]
    if not found:
        raise dr.ResultsError(f"{exp.directory}: no '{benchmark}' point for {what} in "
                              f"experiment '{exp.name}'")
    return found


def verb_test(verb: str, test: Callable[[int], bool] = lambda size: True):
    """Points of `verb` ("READ", "WRITE") whose IO size passes `test`."""
    return lambda entry, number: (entry.point_field(number, "verb", dr.STRING) == verb
                                  and test(entry.point_field(number, "io_bytes", dr.INTEGER)))


def unloaded_read(results: Results) -> Measured:
    """p50 of 8 B READs, one per batch, at the fewest clients run (ideally
    one: no queueing anywhere)."""
    found = basics_points(results, "verbs", lambda entry, number: (
        verb_test("READ", lambda size: size == 8)(entry, number)
        and entry.point_field(number, "depth", dr.INTEGER) == 1), "8 B READs at depth 1")
    clients = min(entry.point_field(number, "clients", dr.INTEGER) for entry, number in found)
    p50 = min(entry.point_field(number, "p50_us") for entry, number in found
              if entry.point_field(number, "clients", dr.INTEGER) == clients)
    return Measured(p50, f"{clients} client{'s' if clients > 1 else ''}")


def small_message_rate(verb: str) -> Callable[[Results], Measured]:
    """The highest rate of `verb` at the smallest IO size run: a NIC's
    message rate shows where the clients saturate it."""
    def compute(results):
        found = basics_points(results, "verbs", verb_test(verb), f"{verb}s")
        size = min(entry.point_field(number, "io_bytes", dr.INTEGER) for entry, number in found)
        mops, clients = max((entry.point_field(number, "mops"),
                             entry.point_field(number, "clients", dr.INTEGER))
                            for entry, number in found
                            if entry.point_field(number, "io_bytes", dr.INTEGER) == size)
        return Measured(mops, f"{size} B, {clients} clients")
    return compute


def write_bandwidth(results: Results) -> Measured:
    """The lowest, over the IO sizes from 256 B, of the highest WRITE
    bandwidth at that size: bandwidth-bound from 256 B means every such size
    reaches it."""
    found = basics_points(results, "verbs", verb_test("WRITE", lambda size: size >= 256),
                          "WRITEs of 256 B or more")
    by_size: dict[int, float] = {}
    for entry, number in found:
        size = entry.point_field(number, "io_bytes", dr.INTEGER)
        by_size[size] = max(by_size.get(size, 0.0),
                            entry.point_field(number, "gigabytes_per_second"))
    size = min(by_size, key=by_size.get)
    return Measured(by_size[size], f"at {size:,} B, the lowest of {len(by_size)} sizes ≥ 256 B")


def cas_rate(memory: str, many: bool = False) -> Callable[[Results], Measured]:
    """The highest CAS rate in `memory` ("host", "on-chip"): on one address,
    or (`many`) over the most addresses the run spread its CASes over."""
    def compute(results):
        found = basics_points(results, "atomics", lambda entry, number: (
            entry.point_field(number, "memory", dr.STRING) == memory
            and (many or entry.point_field(number, "addresses", dr.INTEGER) == 1)),
            f"CAS in {memory} memory")
        if many:
            most = max(entry.point_field(number, "addresses", dr.INTEGER)
                       for entry, number in found)
            found = [(entry, number) for entry, number in found
                     if entry.point_field(number, "addresses", dr.INTEGER) == most]
        addresses = found[0][0].point_field(found[0][1], "addresses", dr.INTEGER)
        return Measured(max(entry.point_field(number, "mops") for entry, number in found),
                        f"{addresses} address{'es' if addresses > 1 else ''}")
    return compute


PUBLIC = "ConnectX-5 public figures"


def of_paper(claim: Claim) -> bool:
    """A claim of the paper, not a public figure: only those have a verdict
    on reproducing the paper."""
    return claim.figure != PUBLIC

# Public ConnectX-5 figures the NIC profile was calibrated on that are not
# claims of the paper (README "The simulated fabric"; configs/nic/cx5-100g.json).
# WRITE above 50 Mops up to 128 B is one, and also the paper's Fig. 3 claim.
CALIBRATION_TARGETS = [
    Claim(id="calibration.read.unloaded-p50", figure=PUBLIC, section="",
          text="unloaded 8 B READ round trip", paper=2, unit="µs", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=unloaded_read, paper_text="~2 µs"),
    Claim(id="calibration.read.small-mops", figure=PUBLIC, section="",
          text="small READs per NIC", paper=110, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=small_message_rate("READ"),
          paper_text="~110 Mops"),
    Claim(id="calibration.write.small-mops", figure=PUBLIC, section="",
          text="small WRITEs per NIC", paper=110, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=small_message_rate("WRITE"),
          paper_text="~110 Mops"),
    Claim(id="calibration.write.bandwidth", figure=PUBLIC, section="",
          text="WRITE bandwidth-bound from 256 B", paper=12, unit="GB/s", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=write_bandwidth, paper_text="~12 GB/s"),
    Claim(id="calibration.cas.host", figure=PUBLIC, section="",
          text="same-address CAS on host memory", paper=2, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=cas_rate("host"),
          paper_text="~2 Mops"),
    Claim(id="calibration.cas.host-many", figure=PUBLIC, section="",
          text="CAS spread over many host-memory words (Kalia et al., ATC'16 §5.4: 52 Mops "
               "on Connect-IB)", paper=52, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=cas_rate("host", many=True),
          paper_text="~52 Mops"),
    Claim(id="calibration.cas.on-chip-many", figure=PUBLIC, section="",
          text="CAS spread over many on-chip words (Sherman §4.3: ~110 Mops)", paper=110,
          unit="Mops", kind=ABSOLUTE, needs=(CALIBRATION_BASICS,),
          compute=cas_rate("on-chip", many=True), paper_text="~110 Mops"),
]

# Numbers in the paper's §3 and §5 that no claim checks, and why.
UNCHECKED = (
    "Same-address CAS on on-chip memory is no calibration target: the ~8 Mops the project's "
    "design document carried has no primary measurement behind it. Fig. 16's on-chip step, "
    "measured on the paper's ConnectX-5, sets atomic_on_chip_ns instead; calibration-basics "
    "still measures the rate it implies.",
    "Figure 2: the only number printed in the extracted figure (0.494) cannot be tied to a "
    "series or axis reliably, so it is not used; the claims check the collapse the text "
    "states.",
    "Figure 3 (§3.2.3): \"when IO size reaches 256 bytes, NICs's hardware bandwidth restricts "
    "throughput\" gives no number beyond the 128 B bound checked; the calibration set checks "
    "the bandwidth against the public ~12 GB/s instead.",
    "Figure 14(a): \"FG+ experiences a few multiple times (e.g., 9) of read retries\" is an "
    "example, not a measurement.",
    "Figure 16: the wait queues' fairness effect (99p 414 µs → 372 µs) is not checked: the "
    "text does not say which two bars it compares, and 372 µs does not follow from the "
    "3.65× p99 step it states beside it.",
    "Table 1: all sixteen values were read from the extracted table (four columns, rows in "
    "the printed order); throughput and p99 are also stated in §3.1.1's prose. None was "
    "skipped.",
)


def main() -> int:
    for c in CLAIMS:
        print(f"{c.id:55} {c.figure:14} {paper_value(c):>24}  {c.kind}")
    print(f"{len(CLAIMS)} claims")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
