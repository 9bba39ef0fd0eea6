"""Seed replicates in the reproduction report (report.py): each directory
DIR/seeds/SEED/ is a results root holding DIR's index experiments run again
with run.seed = SEED (ae/seeds.sh), every other field as DIR ran it. The
claims are checked at every seed, and the section shows how far each claim's
value, verdict and ±25% status move with the seed alone: the seed draws the
keys and with them which leaves, locks and memory servers the hottest keys
fall on, so one seed's agreement with the paper may be luck. The paper's
bars are averages of three or more runs; the mean over seeds is judged too.
SMART's claims on SMART-BT (another paper's prediction set) get a table of
their own, when the replicates hold SMART's index experiment.

A seed directory holds index experiments only: a microbenchmark takes no
seed, so one found there is left out and its claims count as not rerun.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

import claims as claimlib
import dmbench_results as dr
import provenance
from config_difference import require_same_config
from markdown_table import table

SEEDS_DIR = dr.SEEDS_DIR

SECTION_HEADING = "## Seed variation"
CLAIMS_HEADING = "### Claims at every seed"
SMART_HEADING = "### SMART's claims at every seed"
SUMMARY_HEADER = ["Seed", "Results", "Revision", "Claims rerun", "Within ±25%", "Verdicts"]
CLAIM_HEADER_END = ["Mean", "Spread", "Within ±25% at", "Mean within ±25%?", "Verdicts",
                    "Seed-dependent?"]
JUDGED = (claimlib.YES, claimlib.PARTLY, claimlib.NO)


@dataclass
class SeedReplicate:
    """The results root DIR/seeds/SEED/ and the claims checked on it, the
    Sherman paper's and SMART's; `error` when it could not be read."""
    directory: Path
    seed: int | None = None
    outcomes: list[claimlib.Outcome] = field(default_factory=list)
    smart_outcomes: list[claimlib.Outcome] = field(default_factory=list)
    experiments: dict[str, dr.Experiment] = field(default_factory=dict)
    revisions: str = ""
    error: str = ""


def check_replicate(experiments: dict[str, dr.Experiment], main: dict[str, dr.Experiment],
                    seed: int) -> None:
    """A replicate differs from the main results in its seed alone: every
    point ran with the seed its directory names, and with the config of the
    main results' point of the same name in every other field (a replicate of
    another mode, say --quick beside --full, would otherwise pass for one)."""
    for name, experiment in experiments.items():
        if name not in main:
            raise dr.ResultsError(f"{experiment.directory}: experiment '{name}' is not among "
                                  f"the main results, so it replicates nothing")
        main_points = {point.name: point for point in main[name].points}
        for point in experiment.points:
            ran = point.config("run.seed", dr.INTEGER)
            if ran != seed:
                raise dr.ResultsError(f"{point.source}: field 'config.run.seed' is {ran}, not "
                                      f"the seed {seed} its directory "
                                      f"{SEEDS_DIR}/{seed}/ names")
            if point.name not in main_points:
                raise dr.ResultsError(f"{point.source}: point '{point.name}' is not among the "
                                      f"main results' points of '{name}'")
            require_same_config(point, main_points[point.name], ["run.seed"],
                                "a seed replicate may differ from the main results in its "
                                "seed alone (run ae/seeds.sh with the mode the main results "
                                "were run in)")


def replicates(root: Path, prefix: str, main: dict[str, dr.Experiment],
               errors: list[str]) -> list[SeedReplicate]:
    """Every ROOT/seeds/SEED/ directory in the order of its seed, checked
    against the main results `main` and its claims evaluated like theirs;
    what cannot be read goes to `errors` as well."""
    found = []
    for directory in dr.seed_directories(root):
        replicate = SeedReplicate(directory)
        try:
            if not directory.name.isdigit():
                raise dr.ResultsError(f"{directory}: a seed replicate's directory is named by "
                                      f"its seed ({SEEDS_DIR}/2/), not '{directory.name}'")
            replicate.seed = int(directory.name)
            experiments = dr.discover(directory, prefix)
            if not experiments:
                raise dr.ResultsError(f"{directory}: no experiment results in this seed "
                                      f"replicate")
            loaded, broken = dr.load_experiments(experiments)
            loaded = {name: e for name, e in loaded.items() if not e.is_micro}
            check_replicate(loaded, main, replicate.seed)
            replicate.revisions = revisions(loaded)
            replicate.experiments = loaded
        except dr.ResultsError as error:
            replicate.error = str(error)
            errors.append(replicate.error)
        else:
            errors += broken.values()
            replicate.outcomes = claimlib.evaluate(loaded, broken)
            replicate.smart_outcomes = claimlib.evaluate(loaded, broken, claimlib.SMART_CLAIMS)
            errors += [o.error for o in replicate.outcomes + replicate.smart_outcomes
                       if o.error]
        found.append(replicate)
    return found


def index_points(experiments: dict[str, dr.Experiment]) -> list[dr.Point]:
    return [point for experiment in experiments.values() if not experiment.is_micro
            for point in experiment.points]


def main_seed(experiments: dict[str, dr.Experiment]) -> str:
    """How the main results' column is headed: their seed when every index
    point ran with the same one."""
    seeds = {point.result.get("config", {}).get("run", {}).get("seed")
             for point in index_points(experiments)}
    return f"seed {seeds.pop()}" if len(seeds) == 1 and None not in seeds else "main results"


def revisions(experiments: dict[str, dr.Experiment]) -> str:
    """The revisions the index points were built from, short, as the
    provenance table shows them; "error" when a point does not say."""
    try:
        found = [provenance.revision_text(point) for point in index_points(experiments)]
    except dr.ResultsError:
        return "error"
    return ", ".join(dr.ordered(provenance.short_revision(text) for text in found))


def spread(claim: claimlib.Claim, values: list[float]) -> str:
    """How far the seeds' values lie apart: in percentage points for a
    share, else relative to their mean."""
    width = max(values) - min(values)
    if claim.kind == claimlib.PERCENT:
        return f"{claimlib.number(width)} points"
    mean = fmean(values)
    return f"{width / abs(mean):.0%}" if mean != 0 else "–"


@dataclass(frozen=True)
class ClaimAcross:
    """One claim computed in several results roots, the main results' first:
    at every seed here, at every calibration-equivalent set of NIC values in
    report_equivalents.py."""
    outcomes: tuple[claimlib.Outcome, ...]

    @property
    def claim(self) -> claimlib.Claim:
        return self.outcomes[0].claim

    @property
    def values(self) -> list[float]:
        return [o.ours.value for o in self.outcomes]

    @property
    def within(self) -> int:
        return sum(o.strict is True for o in self.outcomes)


@dataclass(frozen=True)
class ClaimAcrossSeeds(ClaimAcross):
    """One claim computed at every seed (the main results' first)."""

    @property
    def mean(self) -> float:
        return fmean(self.values)

    @property
    def mean_verdict(self) -> str:
        return claimlib.judge(self.claim, self.mean)[1]

    @property
    def mean_strict(self) -> bool | None:
        return claimlib.strict(self.claim, self.mean)

    @property
    def seed_dependent(self) -> bool:
        return len({(o.verdict, o.strict) for o in self.outcomes}) > 1


def across_seeds(outcomes: list[claimlib.Outcome], found: list[SeedReplicate],
                 smart: bool = False) -> list[ClaimAcrossSeeds]:
    """The claims computed in the main results and at every readable seed:
    `outcomes` are the main results' Sherman paper claims, or with `smart`
    SMART's."""
    readable = [r for r in found if not r.error]
    rows = []
    for number, outcome in enumerate(outcomes):
        column = (outcome,) + tuple((r.smart_outcomes if smart else r.outcomes)[number]
                                    for r in readable)
        if all(o.verdict in JUDGED and o.ours is not None for o in column):
            rows.append(ClaimAcrossSeeds(column))
    return rows


def seed_ranges(outcomes: list[claimlib.Outcome], found: list[SeedReplicate]
                ) -> dict[str, tuple[float, float]]:
    """Claim ID -> (smallest, largest) of its values at every seed, for the
    claims computed at every seed; empty without readable replicates."""
    if not any(not r.error for r in found):
        return {}
    return {row.claim.id: (min(row.values), max(row.values))
            for row in across_seeds(outcomes, found)}


def robustness(rows: list[ClaimAcrossSeeds]) -> tuple[int, int, int, int, int]:
    """(judged by ±25%, within at every seed, at none, the mean within,
    verdict and status the same at every seed)."""
    judged = [row for row in rows if row.outcomes[0].strict is not None]
    every = sum(row.within == len(row.outcomes) for row in judged)
    none = sum(row.within == 0 for row in judged)
    mean = sum(row.mean_strict is True for row in judged)
    steady = sum(not row.seed_dependent for row in rows)
    return len(judged), every, none, mean, steady


def seed_lines(outcomes: list[claimlib.Outcome], smart: list[claimlib.Outcome],
               main: dict[str, dr.Experiment], found: list[SeedReplicate]) -> list[str]:
    """The report's section: `outcomes` and `smart` are the main results'
    claims of the Sherman paper and of SMART."""
    lines = [SECTION_HEADING, ""]
    if not found:
        return lines + [f"No seed replicates: the results root has no `{SEEDS_DIR}/` directory "
                        f"(`ae/seeds.sh` runs the index experiments again with other seeds).",
                        ""]
    readable = [r for r in found if not r.error]
    rows = across_seeds(outcomes, found)
    main_label = main_seed(main)
    lines += [f"Each `{SEEDS_DIR}/SEED/` directory holds the index experiments run again with "
              f"`run.seed` = SEED and nothing else changed (`ae/seeds.sh`); the claims are "
              f"checked at every seed as above. The seed draws the keys, and so which leaves, "
              f"locks and memory servers the hottest keys fall on: a claim whose verdict or "
              f"±25% status changes with the seed is not decided by one run. The paper's bars "
              f"are averages of three or more runs, so the mean of our values over the seeds "
              f"is judged as well. Spread: the largest minus the smallest value, relative to "
              f"their mean (in percentage points for shares).", ""]
    summary = [[main_label, "(above)", revisions(main), str(len(rows)),
                str(sum(row.outcomes[0].strict is True for row in rows)),
                claimlib.tally_text([row.outcomes[0] for row in rows])]]
    for column, replicate in enumerate(readable, start=1):
        summary.append([f"seed {replicate.seed}", f"`{replicate.directory}`",
                        replicate.revisions, str(len(rows)),
                        str(sum(row.outcomes[column].strict is True for row in rows)),
                        claimlib.tally_text([row.outcomes[column] for row in rows])])
    for replicate in found:
        if replicate.error:
            summary.append([f"seed {replicate.seed}" if replicate.seed is not None else "error",
                            f"`{replicate.directory}`", "", "error", "", ""])
    judged, every, none, mean, steady = robustness(rows)
    summary.append(["mean over seeds", "", "", str(len(rows)), str(mean),
                    claimlib.verdicts_text(row.mean_verdict for row in rows)])
    lines += table(SUMMARY_HEADER, summary) + [""]
    lines += [f"Claims computed at every seed: {robustness_text(rows)}.", ""]
    for replicate in found:
        if replicate.error:
            lines += [f"**Not evaluated:** {replicate.error}", ""]
    header = ["ID", "Paper", main_label.capitalize()] + [f"Seed {r.seed}" for r in readable]
    if rows:
        lines += [CLAIMS_HEADING, ""]
        lines += table(header + CLAIM_HEADER_END, [claim_row(row) for row in rows]) + [""]
    smart_rows = across_seeds(smart, found, smart=True)
    if smart_rows:
        lines += [SMART_HEADING, "",
                  f"SMART's claims on SMART-BT computed at every seed: "
                  f"{robustness_text(smart_rows)}.", ""]
        lines += table(header + CLAIM_HEADER_END, [claim_row(row) for row in smart_rows])
        lines += [""]
    elif readable:
        lines += ["SMART's claims on SMART-BT are not computed at every seed: the replicates "
                  "hold no SMART index experiment (`ae/seeds.sh smart` runs it).", ""]
    return lines


def robustness_text(rows: list[ClaimAcrossSeeds]) -> str:
    """"N. Of the J with a number to judge by, ...", the sentence on
    robustness() that follows "claims computed at every seed: "."""
    judged, every, none, _, steady = robustness(rows)
    return (f"{len(rows)}. Of the {judged} with a number to judge by, {every} are within ±25% "
            f"at every seed, {none} at none and {judged - every - none} at some; {steady} of "
            f"{len(rows)} have the same verdict and ±25% status at every seed")


def claim_row(row: ClaimAcrossSeeds) -> list[str]:
    claim = row.claim
    signed = claim.kind == claimlib.DIFFERENCE
    judged = row.outcomes[0].strict is not None
    return ([claim.id, claimlib.paper_value(claim)]
            + [claimlib.show(value, claim.unit, signed) for value in row.values]
            + [claimlib.show(row.mean, claim.unit, signed), spread(claim, row.values),
               f"{row.within} of {len(row.outcomes)}" if judged else "–",
               claimlib.yes_no(row.mean_strict),
               ", ".join(o.verdict for o in row.outcomes),
               claimlib.yes_no(row.seed_dependent)])


def seed_summary(outcomes: list[claimlib.Outcome], smart: list[claimlib.Outcome],
                 found: list[SeedReplicate]) -> list[str]:
    """The lines on the seed replicates that open the report and end the
    claims printed on standard output: one for the Sherman paper's claims
    (`outcomes`), one for SMART's (`smart`) when any is computed at every
    seed; none without replicates."""
    readable = [r for r in found if not r.error]
    if not readable:
        return []
    seeds = ", ".join(str(r.seed) for r in readable)
    lines = []
    for which, rows in (("", across_seeds(outcomes, found)),
                        (", SMART's claims on SMART-BT", across_seeds(smart, found, smart=True))):
        if which and not rows:
            continue
        judged, every, none, mean, steady = robustness(rows)
        lines.append(f"seed replicates {seeds}{which}: {len(rows)} claims computed at every "
                     f"seed; of {judged} judged, {every} within ±25% at every seed, {none} at "
                     f"none, {judged - every - none} at some; mean over seeds within ±25% "
                     f"{mean}; {steady} with the same verdict and status at every seed")
    return lines
