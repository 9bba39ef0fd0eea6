"""Model ablations in the reproduction report (report.py): each directory
DIR/ablation/LABEL/ is a results root run with one mechanism of the
simulated NIC switched off, described by its ABLATION.json ({"label",
"mechanism", "switch", "description"}, and "kind" for the sets of
report_equivalents.py); the claims are checked on it and
what moved against the full model is shown. With seed replicates beside
the root (report_seeds.py), each moved claim is also set against the range
its values take at the seeds, so that a move the seed alone makes is told
apart from one the mechanism makes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import claims as claimlib
import dmbench_results as dr
from config_difference import require_same_config
from markdown_table import table

ABLATION_DIR = dr.ABLATION_DIR
ABLATION_FILE = "ABLATION.json"   # in each DIR/ablation/LABEL/: what was switched off
MOVED_RELATIVE = 0.10             # ours changed by more than this: the claim moved
NO_SEEDS = claimlib.yes_no(None)  # a cell that needs seed replicates the root lacks
MECHANISM = "mechanism"           # ABLATION.json's kind when it names none

ABLATION_HEADER = ["Mechanism switched off", "Label", "Switch", "Claims rerun",
                   "Within ±25% (off / full)", "Verdicts, mechanism off", "Verdicts, full model",
                   "Claims moved", "Beyond the seeds' range"]
ACROSS_HEADING = "### Each moved claim across the ablations"
MOVED_HEADER = ["ID", "Ours, full model", "Ours, mechanism off", "Paper",
                "Verdict (full → off)", "Within ±25% (full → off)", "Seeds' range",
                "Beyond it?"]


@dataclass
class Ablation:
    """One mechanism of the NIC model switched off: its description and the
    claims checked on its results; `error` when either could not be read."""
    directory: Path
    label: str
    mechanism: str = ""
    switch: str = ""
    description: str = ""
    # "mechanism" (one switched off, or an open value moved), or
    # "calibration-equivalent" (report_equivalents.py)
    kind: str = MECHANISM
    outcomes: list[claimlib.Outcome] = field(default_factory=list)
    error: str = ""


def ablations(root: Path, prefix: str, main: dict[str, dr.Experiment],
              errors: list[str]) -> list[Ablation]:
    """Every ROOT/ablation/LABEL/ directory, checked against the main
    results `main` and its claims evaluated like the full model's; what
    cannot be read goes to `errors` as well."""
    parent = root / ABLATION_DIR
    if not parent.is_dir():
        return []
    found = []
    for directory in sorted(entry for entry in parent.iterdir() if entry.is_dir()):
        ablation = Ablation(directory, directory.name)
        try:
            description_file = directory / ABLATION_FILE
            description = dr.read_json(description_file, "ablation description")
            ablation.label = dr.require(description, "label", description_file, dr.STRING)
            ablation.mechanism = dr.require(description, "mechanism", description_file,
                                            dr.STRING)
            ablation.switch = dr.require(description, "switch", description_file, dr.STRING)
            ablation.description = description.get("description", "")
            if "kind" in description:
                ablation.kind = dr.require(description, "kind", description_file, dr.STRING)
            experiments = dr.discover(directory, prefix)
            if not experiments:
                raise dr.ResultsError(f"{directory}: no experiment results in this ablation")
            loaded, broken = dr.load_experiments(experiments)
            check_ablation(loaded, main, ablation.switch)
        except dr.ResultsError as error:
            ablation.error = str(error)
            errors.append(ablation.error)
        else:
            errors += broken.values()
            ablation.outcomes = claimlib.evaluate(loaded, broken)
            errors += [o.error for o in ablation.outcomes if o.error]
        found.append(ablation)
    return found


def check_ablation(experiments: dict[str, dr.Experiment], main: dict[str, dr.Experiment],
                   switch: str) -> None:
    """An ablation differs from the main results in what it switches alone:
    each of its index points ran with the config of the main results' point
    of the same name, apart from the fields its switch ("path=value ...")
    sets. An ablation run in another mode, say --quick beside --full
    results, would otherwise pass for the mechanism's effect. Points the
    main results lack have nothing to be compared with."""
    switched = [part.split("=", 1)[0] for part in switch.split() if "=" in part]
    for name, experiment in experiments.items():
        if name not in main or experiment.is_micro:
            continue
        main_points = {point.name: point for point in main[name].points}
        for point in experiment.points:
            if point.name not in main_points:
                continue
            require_same_config(point, main_points[point.name], switched,
                                "an ablation may differ from the main results only in what "
                                f"it switches ({switch}); run ae/ablation.sh with the mode "
                                "the main results were run in")


def rerun(outcomes: list[claimlib.Outcome], ablation: Ablation
          ) -> list[tuple[claimlib.Outcome, claimlib.Outcome]]:
    """(full model, mechanism off) of each claim the ablation reran: an
    ablation may rerun only the experiments its mechanism matters to."""
    return [(full, off) for full, off in zip(outcomes, ablation.outcomes)
            if off.verdict != claimlib.NOT_RUN]


def moved(full: claimlib.Outcome, off: claimlib.Outcome) -> bool:
    """Whether switching the mechanism off moved a claim the ablation reran:
    its verdict or its ±25% status changed, or ours changed by more than
    MOVED_RELATIVE."""
    if (full.verdict, full.strict) != (off.verdict, off.strict):
        return True
    return (full.ours is not None and off.ours is not None
            and abs(off.ours.value - full.ours.value) > MOVED_RELATIVE * abs(full.ours.value))


def moves(pairs: list[tuple[claimlib.Outcome, claimlib.Outcome]]
          ) -> list[tuple[claimlib.Outcome, claimlib.Outcome]]:
    """The (full model, mechanism off) pairs of rerun() whose claim moved."""
    return [(full, off) for full, off in pairs if moved(full, off)]


def beyond(off: claimlib.Outcome, ranges: dict[str, tuple[float, float]]) -> bool | None:
    """Whether the claim's value with the mechanism off lies outside the
    range its values take at the seeds (report_seeds.seed_ranges); None when
    the seeds did not compute it."""
    if off.claim.id not in ranges or off.ours is None:
        return None
    low, high = ranges[off.claim.id]
    return not low <= off.ours.value <= high


def beyond_count(changes: list[tuple[claimlib.Outcome, claimlib.Outcome]],
                 ranges: dict[str, tuple[float, float]]) -> str:
    if not ranges:
        return NO_SEEDS
    judged = [beyond(off, ranges) for _, off in changes]
    return f"{sum(b is True for b in judged)} of {sum(b is not None for b in judged)}"


def ablation_lines(outcomes: list[claimlib.Outcome], found: list[Ablation],
                   ranges: dict[str, tuple[float, float]]) -> list[str]:
    lines = ["## Model ablation", ""]
    if not found:
        return lines + [f"No model ablations: the results root has no `{ABLATION_DIR}/` "
                        f"directory.", ""]
    lines += [f"Each row is the results root `{ABLATION_DIR}/LABEL/`: the same experiments "
              f"with one mechanism of the simulated NIC switched off ({ABLATION_FILE} says "
              f"which), and the claims checked on it as above. The counts are over the claims "
              f"the ablation reran (whose experiments it holds), with the mechanism off and "
              f"with the full model. A claim moved when its verdict or its ±25% status changed "
              f"or ours changed by more than {MOVED_RELATIVE:.0%}. With seed replicates "
              f"(`seeds/`, report_seeds.py) a moved claim is also checked against the range "
              f"its values take at the seeds: one outside it moved further than the seed "
              f"alone moves it (a rough band with a few seeds).", ""]
    rows, sections = [], []
    for ablation in found:
        if ablation.error:
            rows.append([ablation.mechanism or "error", f"`{ablation.label}`",
                         f"`{ablation.switch}`" if ablation.switch else "", "error", "", "", "",
                         "", ""])
            sections += [f"### `{ablation.label}`", "", f"**Not evaluated:** {ablation.error}",
                         ""]
            continue
        pairs = rerun(outcomes, ablation)
        changes = moves(pairs)
        offs, fulls = [off for _, off in pairs], [full for full, _ in pairs]
        rows.append([ablation.mechanism, f"`{ablation.label}`", f"`{ablation.switch}`",
                     f"{len(pairs)} of {len(outcomes)}",
                     f"{claimlib.strict_count(offs).within} / "
                     f"{claimlib.strict_count(fulls).within}",
                     claimlib.tally_text(offs), claimlib.tally_text(fulls), str(len(changes)),
                     beyond_count(changes, ranges)])
        sections += [f"### {ablation.mechanism} off (`{ablation.label}`)", ""]
        if ablation.description:
            sections += [ablation.description, ""]
        if not changes:
            sections += ["No claim moved.", ""]
            continue
        sections += table(MOVED_HEADER, [
            [full.claim.id, claimlib.our_value(full), claimlib.our_value(off),
             claimlib.paper_value(full.claim), f"{full.verdict} → {off.verdict}",
             f"{claimlib.strict_value(full)} → {claimlib.strict_value(off)}",
             range_text(full, ranges), claimlib.yes_no(beyond(off, ranges))]
            for full, off in changes]) + [""]
    return (lines + table(ABLATION_HEADER, rows) + [""]
            + across_ablations(outcomes, [a for a in found if not a.error], ranges) + sections)


def across_ablations(outcomes: list[claimlib.Outcome], found: list[Ablation],
                     ranges: dict[str, tuple[float, float]]) -> list[str]:
    """One row per claim some ablation moved, with its value under every
    ablation: which open value or mechanism decides a claim, at a glance
    (the sections below list each ablation's moves)."""
    reran = [dict((full.claim.id, off) for full, off in rerun(outcomes, a)) for a in found]
    rows = []
    for full in outcomes:
        offs = [by_id.get(full.claim.id) for by_id in reran]
        movers = [off for off in offs if off is not None and moved(full, off)]
        if not movers:
            continue
        cells = ["–" if off is None else
                 f"**{claimlib.our_value(off)}**" if off in movers else claimlib.our_value(off)
                 for off in offs]
        rows.append([full.claim.id, claimlib.paper_value(full.claim), claimlib.our_value(full),
                     range_text(full, ranges)] + cells
                    + [f"{len(movers)} of {sum(off is not None for off in offs)}"])
    if not rows:
        return []
    header = (["ID", "Paper", "Full model", "Seeds' range"]
              + [f"`{ablation.label}`" for ablation in found] + ["Moved by"])
    return [ACROSS_HEADING, "",
            "Each claim some ablation moved, with ours under every ablation (in bold where it "
            "moved; – where the ablation did not rerun it): which mechanism or open value "
            "decides it.", ""] + table(header, rows) + [""]


def range_text(full: claimlib.Outcome, ranges: dict[str, tuple[float, float]]) -> str:
    """The claim's range over the seeds, as its values are shown."""
    if full.claim.id not in ranges:
        return NO_SEEDS
    low, high = ranges[full.claim.id]
    signed = full.claim.kind == claimlib.DIFFERENCE
    return (f"{claimlib.show(low, full.claim.unit, signed)} to "
            f"{claimlib.show(high, full.claim.unit, signed)}")


def ablation_summaries(outcomes: list[claimlib.Outcome], found: list[Ablation],
                       ranges: dict[str, tuple[float, float]]) -> list[str]:
    """A line per ablation that could be evaluated, for the claims printed on
    standard output."""
    lines = []
    for ablation in found:
        if not ablation.error:
            pairs = rerun(outcomes, ablation)
            changes = moves(pairs)
            seeds = (f" ({beyond_count(changes, ranges)} beyond the seeds' range)"
                     if ranges else "")
            lines.append(
                f"ablation {ablation.label} ({ablation.mechanism} off): {len(pairs)} claims "
                f"rerun, {claimlib.strict_count([off for _, off in pairs]).within} within "
                f"±25% (full model {claimlib.strict_count([f for f, _ in pairs]).within}), "
                f"{len(changes)} moved{seeds}")
    return lines
