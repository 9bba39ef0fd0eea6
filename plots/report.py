"""The reproduction report: every figure of the results, a summary of every
experiment, and the paper's claims (claims/) against ours.

    /usr/bin/python3 plots/report.py --results-root DIR --out REPORT_DIR
        [--figures-dir DIR] [--prefix PREFIX] [--command "ae/run.sh ..."]

Finds the experiments under DIR: every subdirectory (and DIR itself) that
holds an experiment.json of `dmbench sweep`, keyed by the experiment's
`name`, whatever the directory is called (so my-runs/exp-fig10 and
results/ae/fig10-breakdown-skewed both work); --prefix keeps only the
subdirectories whose name starts with PREFIX. Draws each figure with the
script its experiment file names ("plot": {"script", "output", "options"}:
plots/SCRIPT.py's draw(), experiments with one output drawn together) into
REPORT_DIR/figures/ (PNG and PDF), writes REPORT_DIR/REPORT.md and prints the
claims table.

Results roots beside DIR get sections of their own: model ablations,
DIR/ablation/LABEL/, each run with one mechanism of the simulated NIC
switched off (report_ablation.py), and seed replicates, DIR/seeds/SEED/,
DIR's index experiments run again with another seed (report_seeds.py). The
claims are checked on each and what moved is shown; ablations of NIC values
the calibration set cannot tell from the profile's get a section of their
own, the band each claim takes over them (report_equivalents.py).

Exit status 1 when any result is missing or malformed: the report is still
written, with the failing cells marked "error" and every error listed (each
names the file and field), so that one broken sweep does not hide the rest.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import claims as claimlib
import dmbench_results as dr
import micro_results
import provenance
from markdown_table import cell, table
from report_ablation import ablation_lines, ablations
from report_claims import (CALIBRATION_HEADER, CLAIMS_HEADER, CheckedClaims, calibration_rows,
                           claim_rows, print_claims, smart_summary, split_sets, summary_lines)
from report_equivalents import equivalent_lines
from report_figures import Drawn, draw_figures
from report_seeds import replicates, seed_lines

PROG = "report.py"


# -------------------------------------------------------------- summaries

def index_rows(experiment: dr.Experiment) -> list[list[str]]:
    rows = []
    for point in experiment.points:
        rows.append([point.name, point.label, dr.mix_label(point.mix), point.skew_label,
                     str(point.clients), claimlib.number(point.field("throughput_mops")),
                     claimlib.number(point.field("latency_us.p50")),
                     claimlib.number(point.field("latency_us.p99"))])
    return rows


INDEX_HEADER = ["Point", "Series", "Workload", "Key distribution", "Clients", "Throughput (Mops)",
                "p50 (µs)", "p99 (µs)"]
MICRO_HEADER = ["Benchmark", "Point", "Throughput (Mops)", "p50 (µs)", "p99 (µs)"]
# Fields of a micro point that are results, not the point's parameters.
MICRO_RESULTS = {"operations", "mops", "gigabytes_per_second", "latency_us", "simulator",
                 "p50_us", "p99_us"}


def micro_rows(experiment: dr.Experiment) -> list[list[str]]:
    rows = []
    for point in experiment.points:
        for benchmark in micro_results.entries(point):
            for index, values in enumerate(benchmark.points()):
                parameters = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                       for k, v in values.items() if k not in MICRO_RESULTS)
                rows.append([benchmark.name, parameters,
                             claimlib.number(benchmark.point_field(index, "mops")),
                             claimlib.number(benchmark.point_field(index, "latency_us.p50")),
                             claimlib.number(benchmark.point_field(index, "latency_us.p99"))])
    return rows


def summary(experiment: dr.Experiment) -> tuple[list[str], list[list[str]]]:
    if experiment.is_micro:
        return MICRO_HEADER, micro_rows(experiment)
    return INDEX_HEADER, index_rows(experiment)


@dataclass
class Provenance:
    revisions: list[str]
    backends: list[tuple[str, str]]  # provenance.backend_of() of each point, distinct
    started: list[str]
    fallbacks: list[str]  # what a real cluster's NICs could not do
    binaries: list[tuple[str, str]]  # (revision, build ID) of the points that name one


def experiment_provenance(experiment: dr.Experiment) -> Provenance:
    revisions, backends, started, fallbacks, binaries = [], [], [], [], []
    for point in experiment.points:
        revisions.append(provenance.revision_text(point))
        build_id = provenance.build_id_of(point.result)
        if build_id is not None:
            binaries.append((revisions[-1], build_id))
        backends.append(provenance.backend_of(point.result, point.source))
        if backends[-1][0] == "verbs":
            fallbacks += dr.require(point.result, "backend.fallbacks", point.source, dr.LIST)
        if not experiment.is_micro:  # micro documents carry no wall clock
            started.append(dr.require(point.result, "wall_clock.started_at", point.source,
                                      dr.STRING))
    return Provenance(dr.ordered(revisions), dr.ordered(backends), sorted(started),
                      dr.ordered(str(f) for f in fallbacks), dr.ordered(binaries))


def backend_cell(backends: list[tuple[str, str]]) -> str:
    """The NIC profile on the simulated fabric, "verbs: DEVICE" on a real cluster."""
    return ", ".join(name if kind == "sim" else f"verbs: {name}" for kind, name in backends)


def span(times: list[str]) -> str:
    if not times:
        return "not recorded"
    return times[0] if times[0] == times[-1] else f"{times[0]} … {times[-1]}"


def write_report(path: Path, args, experiments: dict[str, dr.Experiment],
                 found: dict[str, Path], drawn: list[Drawn], checked: CheckedClaims,
                 errors: list[str]) -> None:
    outcomes, targets, smart = checked.outcomes, checked.targets, checked.smart
    rows, revisions, backends, started, fallbacks, binaries = [], [], [], [], [], []
    for name in sorted(found):
        if name not in experiments:
            rows.append([name, str(found[name]), "error", "", "", ""])
            continue
        experiment = experiments[name]
        try:
            prov = experiment_provenance(experiment)
        except dr.ResultsError as error:
            errors.append(str(error))
            rows.append([name, str(experiment.directory), "error", "", "", ""])
            continue
        revisions += prov.revisions
        backends += prov.backends
        started += prov.started
        fallbacks += prov.fallbacks
        binaries += prov.binaries
        rows.append([name, str(experiment.directory), str(len(experiment.points)),
                     ", ".join(provenance.short_revision(r) for r in prov.revisions),
                     backend_cell(prov.backends), span(prov.started)])
    kinds = frozenset(kind for kind, _ in backends)
    simulated_only = kinds <= {"sim"}
    where = {frozenset({"verbs"}): "a real RDMA cluster",
             frozenset({"sim", "verbs"}): "the simulated RDMA fabric and a real RDMA cluster"}
    lines = [f"# dmbench: Sherman (SIGMOD'22) vs FG+ on "
             f"{where.get(kinds, 'the simulated RDMA fabric')}", ""]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for line in summary_lines(outcomes, targets) + [smart_summary(smart)]:
        lines += [line, ""]
    for line in checked.seed_summary:
        lines += [f"{line[0].upper()}{line[1:]} ([seed variation](#seed-variation)).", ""]
    if checked.equivalent_summary:
        text = checked.equivalent_summary
        lines += [f"{text[0].upper()}{text[1:]} "
                  "([calibration-equivalent NIC values](#calibration-equivalent-nic-values)).",
                  ""]

    # Provenance: where every number below comes from.
    lines += ["## Provenance", "",
              f"* Results: `{args.results_root}` ({len(found)} experiments"
              + (f", directories starting with `{args.prefix}`" if args.prefix else "") + ")",
              "* Command that produced the results: "
              + (f"`{args.command}`" if args.command else "not given (pass --command)"),
              f"* Report written {now} by `{shlex.join([PROG] + sys.argv[1:])}`"]
    dirty = any("(dirty)" in r for r in revisions)
    lines += [f"* dmbench revision: {', '.join(dr.ordered(revisions)) or 'unknown'}"
              + (" — **built from a tree with uncommitted changes**" if dirty else
                 " (clean tree)"),
              (f"* NIC profile: {', '.join(n for _, n in dr.ordered(backends)) or 'unknown'}"
               " (simulated fabric)" if simulated_only else
               f"* Backend: {provenance.backend_text(backends)}"),
              f"* Runs started (wall_clock.started_at): {span(sorted(started))}"]
    if (binaries_line := provenance.binaries_text(binaries)) is not None:
        lines += [binaries_line]
    if fallbacks:  # e.g. NICs without device memory for the on-chip lock table
        lines += [f"* Fallbacks of the real cluster: {'; '.join(dr.ordered(fallbacks))}"]
    lines += [""]
    lines += table(["Experiment", "Directory", "Points", "Revision",
                    "NIC profile" if simulated_only else "Backend",
                    "Started"], rows)
    lines += [""]

    # One section per figure: the figure, then its experiments' points.
    lines += ["## Figures and experiments", ""]
    shown = set()
    for figure in drawn:
        lines += [f"### {figure.key}", ""]
        if figure.png is not None:
            relative = Path(os.path.relpath(figure.png, path.parent)).as_posix()
            lines += [f"![{figure.key}]({relative})", ""]
        else:
            lines += [f"**Not drawn:** {figure.error}", ""]
        for experiment in figure.experiments:
            lines += experiment_section(experiment, errors)
            shown.add(experiment.name)
    others = [e for name, e in sorted(experiments.items()) if name not in shown]
    if others:
        lines += ["### Experiments without a figure script", ""]
        for experiment in others:
            lines += experiment_section(experiment, errors)

    lines += ["## Claims", "", claimlib.RULES, ""]
    lines += ["### Calibration set", "",
              "Hardware-level targets the NIC profile (`configs/nic/`) was calibrated on: the "
              "paper's microbenchmarks (Figs. 2, 3 and 16) and public ConnectX-5 figures, "
              f"the latter measured by the micro experiment `{claimlib.CALIBRATION_BASICS}`. "
              "Agreement here is by construction: it shows the model stands on its targets, "
              "not that it predicts anything. Tolerance is the ±25% rule above.", ""]
    calibration, prediction = split_sets(outcomes, targets)
    lines += table(CALIBRATION_HEADER, calibration_rows(calibration))
    lines += ["", "### Prediction set", "",
              "Every other claim: index results, which the model was not tuned to.", ""]
    lines += table(CLAIMS_HEADER, claim_rows(prediction))
    lines += ["", "Numbers of the paper not checked:", ""]
    lines += [f"* {text}" for text in claimlib.UNCHECKED]
    lines += ["", "### SMART's claims on SMART-BT", "",
              "SMART (ASPLOS'24 §6.2.3) on its Fig. 12(a)-(c): index results of another paper, "
              "on the cx6-200g profile, whose values were chosen on SMART's Figs. 3 and 4 only. "
              "Judged by the rules above, counted apart from the Sherman paper's claims.", ""]
    lines += table(CLAIMS_HEADER, claim_rows(smart))
    lines += [""] + ablation_lines(outcomes, checked.ablated, checked.seed_ranges)
    lines += equivalent_lines(outcomes, checked.ablated)
    lines += seed_lines(outcomes, smart, experiments, checked.replicated)
    if errors:
        lines += ["## Errors", ""] + [f"* {cell(error)}" for error in dr.ordered(errors)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def experiment_section(experiment: dr.Experiment, errors: list[str]) -> list[str]:
    lines = [f"**{experiment.name}** ({experiment.figure or 'no figure named'}; "
             f"`{experiment.directory}`)", ""]
    try:
        header, rows = summary(experiment)
        lines += table(header, rows)
    except dr.ResultsError as error:
        errors.append(str(error))
        lines += [f"**Summary not available:** {error}"]
    return lines + [""]


# --------------------------------------------------------------------- CLI

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--results-root", required=True, type=Path, metavar="DIR",
                        help="directory whose subdirectories hold `dmbench sweep` results")
    parser.add_argument("--out", required=True, type=Path, metavar="REPORT_DIR",
                        help="where REPORT.md goes")
    parser.add_argument("--figures-dir", type=Path, metavar="DIR",
                        help="where the figures go (default REPORT_DIR/figures)")
    parser.add_argument("--prefix", default="",
                        help="only subdirectories whose name starts with this (e.g. exp-)")
    parser.add_argument("--command", default="",
                        help="the command line that produced the results, for the report")
    args = parser.parse_args(argv)
    figures_dir = args.figures_dir or args.out / "figures"

    try:
        found = dr.discover(args.results_root, args.prefix)
    except dr.ResultsError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    if not found:
        print(f"{PROG}: error: {args.results_root}: no experiment results (no "
              f"{args.prefix or ''}* subdirectory holds an experiment.json)", file=sys.stderr)
        return 1

    experiments, broken = dr.load_experiments(found)
    errors: list[str] = list(broken.values())
    outcomes = claimlib.evaluate(experiments, broken)
    targets = claimlib.evaluate(experiments, broken, claimlib.CALIBRATION_TARGETS)
    smart = claimlib.evaluate(experiments, broken, claimlib.SMART_CLAIMS)
    errors += [o.error for o in outcomes + targets + smart if o.error]
    ablated = ablations(args.results_root, args.prefix, experiments, errors)
    checked = CheckedClaims(outcomes, targets, smart, ablated,
                            replicates(args.results_root, args.prefix, experiments, errors))

    try:
        args.out.mkdir(parents=True, exist_ok=True)
        drawn = draw_figures(experiments, figures_dir, errors,
                             [r.experiments for r in checked.replicated if not r.error])
        errors += [d.error for d in drawn if d.error]
        report = args.out / "REPORT.md"
        write_report(report, args, experiments, found, drawn, checked, errors)
    except OSError as error:
        print(f"{PROG}: error: {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {report}")
    print_claims(checked)
    for error in dr.ordered(errors):
        print(f"{PROG}: error: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
