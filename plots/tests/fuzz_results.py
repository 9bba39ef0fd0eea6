"""Fuzzes what the plot scripts and the report read: the result directories
of `dmbench sweep` (experiment.json and one result per point), damaged.

Each case takes the fixture results of one figure (tests/fixtures.py) or of
one paper experiment, damages one or more of their files (values of the
wrong type or out of range, missing and unknown fields, NaN and infinities,
truncated or invalid JSON, an experiment index pointing nowhere), and reads
them as the scripts do:

  plots       in-process: dmbench_results.load_experiment and the figure's
              draw(); must draw or raise ResultsError (a message naming the
              file and field)
  report      in-process: report.py's main() on a results root holding the
              damaged experiment; must return 0 or 1 (a broken experiment is
              reported as an error, the rest still written)
  plots-cli   a figure script in a process of its own: exit status 0, 1
              (results missing or malformed) or 2 (bad command line), a
              message, no traceback, within the time limit
  csv         in-process: results_csv.py's main() on the same results root
              as report; must return 0 (every cell written) or 1 (an error
              naming what is wrong)
  seeds       in-process: report.py's main() and results_csv.py's on that
              root with a seed replicate of one of its index experiments
              beside it (seeds/SEED/), the replicate damaged; 0 or 1 as above
  seed-figures in-process: a figure's draw(), as in plots, given a seed
              replicate of one of its index experiments, damaged, to draw
              the seeds' range from; must draw or raise ResultsError
  ablations   in-process: report.py's main() on the report's root with a
              model ablation of one of its index experiments beside it
              (ablation/LABEL/), the ablation or its description damaged;
              0 or 1 as above

Any other exception, exit status or a traceback is a finding. Cases are
drawn from (seed, kind, case number), so a finding is replayed alone:

    /usr/bin/python3 plots/tests/fuzz_results.py [--cases N] [--report-cases N]
        [--cli-cases N] [--csv-cases N] [--seeds-cases N] [--seed-figure-cases N]
        [--ablation-cases N] [--seed S] [--case N --kind KIND]

Prints the cases per kind; exits 1 if there were findings.
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import fixtures
from result_damage import damage_directory

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
import dmbench_results as dr  # noqa: E402  (needs the path above)
import figure_drawing as fd  # noqa: E402

CLI_TIMEOUT_SECONDS = 120
# Experiments for report cases: an index figure, a micro figure and the
# experiment behind most of the calibration claims.
REPORT_EXPERIMENTS = ("fig14-in-depth", "fig16-hocl", "calibration-basics", "table1-fg")

# -------------------------------------------------------------- cases

class Fixtures:
    """The fixture results, built once, copied for each case."""

    def __init__(self, root: Path):
        self.figures = {script: build(root / "figures" / script.removesuffix(".py"))
                        for script, (build, _) in fixtures.FIGURES.items()}
        self.report = fixtures.paper_experiments(root / "report", REPORT_EXPERIMENTS)


def copy_directories(directories, target: Path) -> list[Path]:
    copies = []
    for number, directory in enumerate(directories):
        copied = target / f"{number}-{directory.name}"
        shutil.copytree(directory, copied)
        copies.append(copied)
    return copies


def plots_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    """("finding" or "accepted" or "refused", detail)."""
    script = rng.choice(sorted(fixture.figures))
    directories = copy_directories(fixture.figures[script], case_dir)
    victim = rng.choice(directories)
    how = f"{script} on {victim.name}:\n" + damage_directory(rng, victim)
    return draw_case(script, directories, [], case_dir, how)


def seed_figures_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    """A figure's fixture results and a seed replicate of one of its index
    experiments, the replicate damaged (the seeds' whiskers and bands)."""
    script = rng.choice(sorted(script for script, directories in fixture.figures.items()
                               if any(not dr.load_experiment(d).is_micro for d in directories)))
    directories = copy_directories(fixture.figures[script], case_dir)
    source = rng.choice([d for d in directories if not dr.load_experiment(d).is_micro])
    replica = case_dir / dr.SEEDS_DIR / str(rng.randrange(2, 5)) / source.name
    shutil.copytree(source, replica)
    fixtures.reseed(replica, int(replica.parent.name))
    how = f"{script} with a seed replicate of {source.name} damaged:\n" + damage_directory(
        rng, replica)
    return draw_case(script, directories, [replica], case_dir, how)


def draw_case(script: str, directories: list[Path], replicas: list[Path], case_dir: Path,
              how: str) -> tuple[str, str]:
    """Loads `directories` and the seed replicates `replicas` and draws the
    figure with `script`'s draw(): it must draw or raise ResultsError."""
    extra = dict(fixtures.FIGURES)[script][1]
    # fig11.py is fig10.py's draw() with figure 11.
    module = importlib.import_module("fig10" if script == "fig11.py" else script.removesuffix(".py"))
    parser = argparse.ArgumentParser()
    if hasattr(module, "add_arguments"):
        module.add_arguments(parser)
    args = parser.parse_args(extra)
    args.results, args.out = [str(d) for d in directories], str(case_dir / "out")
    if script == "fig11.py":
        args.figure = 11
    plt = fd.pyplot()
    try:
        with redirect_stderr(io.StringIO()):
            experiments = [dr.load_experiment(d) for d in directories]
            args.replicates = [dr.load_experiment(d) for d in replicas]
            figure = module.draw(experiments, args)
        plt.close(figure)
        return "accepted", how
    except dr.ResultsError as error:
        return "refused", f"{how}\n{error}"
    except Exception:  # noqa: BLE001  (what the fuzzer is after)
        return "finding", f"{how}\n{traceback.format_exc()}"
    finally:
        plt.close("all")


def in_process_main_case(rng, fixture: Fixtures, case_dir: Path, what: str,
                         run_main, beside=None) -> tuple[str, str]:
    """The report's results root with one experiment damaged, given to
    `run_main(root, case_dir)` (a script's main()): it must return 0 or 1,
    and 1 with an error message. `beside(rng, fixture, root)`, when given,
    adds a results root beside the root's experiments (a seed replicate, an
    ablation) and returns its experiment, which is damaged instead."""
    root = case_dir / "root"
    for name, directory in fixture.report.items():
        shutil.copytree(directory, root / name)
    victim = root / rng.choice(sorted(fixture.report))
    if beside is not None:
        victim = beside(rng, fixture, root)
    how = f"{what} with {victim.name} damaged:\n" + damage_directory(rng, victim)
    output = io.StringIO()
    try:
        with redirect_stdout(output), redirect_stderr(output):
            status = run_main(root, case_dir)
    except Exception:  # noqa: BLE001  (what the fuzzer is after)
        return "finding", f"{how}\n{traceback.format_exc()}"
    finally:
        fd.pyplot().close("all")
    if status not in (0, 1):
        return "finding", f"{how}\nexit status {status}"
    if status == 1 and "error:" not in output.getvalue():
        return "finding", f"{how}\nexit status 1 without an error message"
    return ("accepted" if status == 0 else "refused"), how


def seed_replicate(rng, fixture: Fixtures, root: Path) -> Path:
    """ROOT/seeds/SEED/NAME: a copy of one of the root's index experiments
    as run with another seed (report_seeds.py)."""
    name = rng.choice(sorted(n for n in fixture.report
                             if not dr.load_experiment(fixture.report[n]).is_micro))
    replica = root / dr.SEEDS_DIR / str(rng.randrange(2, 5)) / name
    shutil.copytree(fixture.report[name], replica)
    fixtures.reseed(replica, int(replica.parent.name))
    return replica


def ablation_of(rng, fixture: Fixtures, root: Path) -> Path:
    """ROOT/ablation/LABEL/NAME: a copy of one of the root's index
    experiments as an ablation that switched one NIC override, its
    ABLATION.json beside it (report_ablation.py)."""
    name = rng.choice(sorted(n for n in fixture.report
                             if not dr.load_experiment(fixture.report[n]).is_micro))
    directory = root / dr.ABLATION_DIR / "units-off"
    ablation = directory / name
    shutil.copytree(fixture.report[name], ablation)
    fixtures.write_json(directory / "ABLATION.json", {
        "label": "units-off", "mechanism": "processing units",
        "switch": "backend.nic_overrides.processing_units=0"})
    if rng.randrange(2):  # its description damaged as well
        damage_directory(rng, directory)
    return ablation


def report_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    report = importlib.import_module("report")
    return in_process_main_case(rng, fixture, case_dir, "report", lambda root, out: report.main(
        ["--results-root", str(root), "--out", str(out / "out")]))


def cli_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    script = rng.choice(sorted(fixture.figures))
    directories = copy_directories(fixture.figures[script], case_dir)
    how = f"{script}:\n" + damage_directory(rng, rng.choice(directories))
    command = [sys.executable, str(PLOTS / script), "--results", *map(str, directories),
               "--out", str(case_dir / "out")]
    if rng.randrange(4) == 0:
        command = command[:2] + rng.choice((["--bogus"], ["--results"], ["--out"], []))
    try:
        run = subprocess.run(command, capture_output=True, text=True, errors="replace",
                             timeout=CLI_TIMEOUT_SECONDS, cwd=PLOTS.parent)
    except subprocess.TimeoutExpired:
        return "finding", f"{how}\ndid not finish in {CLI_TIMEOUT_SECONDS} s"
    if "Traceback" in run.stderr or run.returncode not in (0, 1, 2):
        return "finding", f"{how}\nexit status {run.returncode}:\n{run.stderr[-3000:]}"
    if run.returncode != 0 and not run.stderr.strip():
        return "finding", f"{how}\nexit status {run.returncode} without a message"
    return ("accepted" if run.returncode == 0 else "refused"), how


def csv_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    results_csv = importlib.import_module("results_csv")
    return in_process_main_case(
        rng, fixture, case_dir, "results_csv.py", lambda root, out: results_csv.main(
            [str(root), "--out", str(out / "runs.csv"), "--micro-out", str(out / "micro.csv")]))


def seeds_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    report, results_csv = importlib.import_module("report"), importlib.import_module("results_csv")

    def both(root: Path, out: Path) -> int:
        return max(report.main(["--results-root", str(root), "--out", str(out / "out")]),
                   results_csv.main([str(root), "--out", str(out / "runs.csv")]))
    return in_process_main_case(rng, fixture, case_dir, "report and results_csv.py", both,
                                beside=seed_replicate)


def ablations_case(rng, fixture: Fixtures, case_dir: Path) -> tuple[str, str]:
    report = importlib.import_module("report")
    return in_process_main_case(rng, fixture, case_dir, "report", lambda root, out: report.main(
        ["--results-root", str(root), "--out", str(out / "out")]), beside=ablation_of)


# New kinds go last: a kind's number seeds its cases.
KINDS = {"plots": plots_case, "report": report_case, "plots-cli": cli_case, "csv": csv_case,
         "seeds": seeds_case, "seed-figures": seed_figures_case, "ablations": ablations_case}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=60, help="plots cases (in-process)")
    parser.add_argument("--report-cases", type=int, default=4, help="report cases (in-process)")
    parser.add_argument("--cli-cases", type=int, default=2, help="figure scripts run as processes")
    parser.add_argument("--csv-cases", type=int, default=10, help="results_csv.py cases")
    parser.add_argument("--seeds-cases", type=int, default=4,
                        help="report and results_csv.py cases with a damaged seed replicate")
    parser.add_argument("--seed-figure-cases", type=int, default=20,
                        help="figure scripts' draw() with a damaged seed replicate")
    parser.add_argument("--ablation-cases", type=int, default=4,
                        help="report cases with a damaged model ablation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kind", choices=sorted(KINDS), help="only this kind")
    parser.add_argument("--case", type=int, help="replay this case number, printing it")
    args = parser.parse_args(argv)
    counts = {"plots": args.cases, "report": args.report_cases, "plots-cli": args.cli_cases,
              "csv": args.csv_cases, "seeds": args.seeds_cases,
              "seed-figures": args.seed_figure_cases, "ablations": args.ablation_cases}
    findings = []
    print(f"{'input kind':<14} {'cases':>8} {'accepted':>9} {'refused':>8} {'findings':>9} "
          f"{'seconds':>9}")
    with tempfile.TemporaryDirectory(prefix="dmbench-fuzz-plots-") as tmp:
        fixture = Fixtures(Path(tmp) / "fixtures")
        for kind_number, (kind, run_case) in enumerate(KINDS.items()):
            if args.kind and kind != args.kind:
                continue
            numbers = [args.case] if args.case is not None else range(counts[kind])
            tally = {"accepted": 0, "refused": 0, "finding": 0}
            started = time.monotonic()
            for number in numbers:
                rng = random.Random(f"{args.seed}/{kind_number}/{number}")
                case_dir = Path(tmp) / f"{kind}-{number}"
                case_dir.mkdir()
                verdict, detail = run_case(rng, fixture, case_dir)
                shutil.rmtree(case_dir, ignore_errors=True)
                tally[verdict] += 1
                if args.case is not None:
                    print(f"{kind} case {number}: {verdict}\n{detail}", file=sys.stderr)
                if verdict == "finding":
                    line = (f"{kind} case {number}: {detail[-1500:]}\n(replay: /usr/bin/python3 "
                            f"plots/tests/fuzz_results.py --seed {args.seed} --kind {kind} "
                            f"--case {number})")
                    print(f"FINDING {line}", file=sys.stderr)
                    findings.append(line)
            print(f"{kind:<14} {sum(tally.values()):>8} {tally['accepted']:>9} "
                  f"{tally['refused']:>8} {tally['finding']:>9} "
                  f"{time.monotonic() - started:>9.1f}", flush=True)
    print(f"fuzz plots: seed {args.seed}, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
