"""How a claim of the paper is stated and judged: its kinds, the verdict and
strict (±25%) rules, the outcome of checking ours against it, and how values
are shown. The claims themselves are in the paper_*.py modules."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

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
class PaperMark:
    """Where the paper's value of a claim is drawn in its figure, beside
    ours. `series`: the series label the value belongs to (FG+, Sherman,
    +Combine, ...); `metric`: "throughput", "p50", "p90", "p99" (latency),
    "write_round_trips_p99" (Figure 14's CDF) or "throughput_floor" (a bound
    the paper states: more than `value`); `at`: the rest of
    the point's coordinates as (name, value) pairs, names as the figure
    script keys its points ("mix", "skew", "clients"); a figure that plots
    against clients and finds none in `at` draws a level, since the paper
    does not say at how many clients. The value drawn is `value` when given
    (an absolute number quoted in the claim's text), else the claim's own
    paper value, or, with `relative_to`, the claim's factor applied to OUR
    value of that series at the same point (throughput times the factor,
    latency divided by it): where the bar would be if the paper's step held
    on our base."""
    series: str
    metric: str
    at: tuple[tuple[str, object], ...] = ()
    value: float | None = None
    relative_to: str | None = None

    def coordinate(self, name: str):
        return dict(self.at).get(name)


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
    marks: tuple[PaperMark, ...] = ()  # where the figures draw the paper's value


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


def evaluate_claims(results: Results, broken: Mapping[str, str] | None,
                    claims: Sequence[Claim]) -> list[Outcome]:
    """Every claim against the results; `broken` maps experiments that are
    present but could not be loaded to their error, so that their claims
    are errors rather than "not run"."""
    broken = broken or {}
    outcomes = []
    for claim in claims:
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
    return verdicts_text(o.verdict for o in outcomes)


def verdicts_text(verdicts: Iterable[str]) -> str:
    """tally_text() of bare verdicts (a verdict judged on no one outcome,
    such as a mean's)."""
    verdicts = list(verdicts)
    return ", ".join(f"{verdicts.count(verdict)} {verdict}" for verdict in VERDICTS)


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
    return yes_no(outcome.strict)


def yes_no(flag: bool | None) -> str:
    """A yes/no cell; "–" where nothing was judged."""
    return {True: YES, False: NO, None: "–"}[flag]


def our_value(outcome: Outcome) -> str:
    if outcome.verdict == NOT_RUN:
        return "not run"
    if outcome.verdict == ERROR or outcome.ours is None:
        return "error"
    text = show(outcome.ours.value, outcome.claim.unit,
                signed=outcome.claim.kind == DIFFERENCE)
    return f"{text} ({outcome.ours.where})" if outcome.ours.where else text


# The figure of calibration targets that are public hardware figures, not
# claims of the paper.
PUBLIC = "ConnectX-5 public figures"


# The figure of the cx6-200g profile's targets, SMART's measurements
# (smart_calibration.py imports it from here).
SMART_FIGURE = "SMART (ASPLOS'24), ConnectX-6"


# The figure of SMART's index results (smart_btree.py): another paper's
# claims, judged by the same rules, counted apart from the Sherman paper's.
SMART_INDEX_FIGURE = "SMART (ASPLOS'24) Fig. 12(a)-(c)"


def of_paper(claim: Claim) -> bool:
    """A claim of the Sherman paper, not a public figure or another paper's
    measurement: only those count in the verdict on reproducing it."""
    return claim.figure not in (PUBLIC, SMART_FIGURE, SMART_INDEX_FIGURE)


class ClaimList(list):
    """The claims of one module, in the order they are declared."""

    def add(self, **fields) -> None:
        self.append(Claim(**fields))
