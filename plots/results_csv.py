#!/usr/bin/python3
"""Turns dmbench results into tidy CSV tables: one row per point.

usage: plots/results_csv.py RESULTS... [--out FILE] [--micro-out FILE] [--prefix PREFIX]

RESULTS are results roots (a directory of experiment directories, as
`ae/run.sh --out DIR` writes) or single experiment directories (as `dmbench
sweep --out DIR` writes). Every index-run point becomes one row of --out
(default: standard output): which experiment and series it belongs to, every
field of its resolved config as a column (`config.index.preset`,
`config.workload.theta`, ...), then throughput, latency percentiles, round
trips and bytes per operation, overall and per operation type. The model
ablations of a root (ROOT/ablation/LABEL/) are rows too, with their label in
the `ablation` column (empty for the root's own points), and so are its seed
replicates (ROOT/seeds/SEED/, ae/seeds.sh), told apart from the root's own
points by `config.run.seed`; a replicate's microbenchmarks, which take no
seed, are left out. Microbenchmark points
(`dmbench micro`) go to --micro-out, one row per measured point; without it
they are left out, and the count left out is said on standard error.

Columns are described in results/SCHEMA.md ("Tidy tables"). Cells are empty
where a point has no such value (an operation type that did not run, a config
field that a result written by an older revision lacks). Wall-clock figures
are left out, so that the same results give the same bytes.

Load it with `csv.DictReader`, or `pandas.read_csv(FILE)` (python3-pandas).

Exit status: 0; 1 when a results directory cannot be read (the message names
the file and field); 2 for bad usage.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path
from typing import Any, Iterable, TextIO

import dmbench_results as dr
import micro_results
import provenance

PROG = "results_csv.py"
OPS = ("overall", "insert", "update", "lookup", "delete", "range")
# Per operation type, in column order: the field of the op-stats object and
# the column's name after the op's prefix.
# Per operation type, in column order: the field of the op-stats object, the
# column's name after the op's prefix, and whether every op-stats has it
# (results/SCHEMA.md); the others are empty where absent.
OP_FIELDS = (
    ("count", "count", True),
    ("throughput_mops", "throughput_mops", True),
    ("latency_us.mean", "latency_us.mean", True),
    ("latency_us.p50", "latency_us.p50", True),
    ("latency_us.p90", "latency_us.p90", True),
    ("latency_us.p99", "latency_us.p99", True),
    ("latency_us.p999", "latency_us.p999", True),
    ("intended_latency_us.p50", "intended_latency_us.p50", False),
    ("intended_latency_us.p99", "intended_latency_us.p99", False),
    ("censored_arrivals", "censored_arrivals", False),
    ("round_trips.mean", "round_trips.mean", True),
    ("round_trips.p99", "round_trips.p99", True),
    ("verbs_per_op.reads", "reads_per_op", True),
    ("verbs_per_op.writes", "writes_per_op", True),
    ("verbs_per_op.atomics", "atomics_per_op", True),
    ("verbs_per_op.bytes_read", "bytes_read_per_op", True),
    ("verbs_per_op.bytes_written", "bytes_written_per_op", True),
    ("write_bytes.mean", "write_back_bytes.mean", False),
    ("lock_retries.mean", "lock_retries.mean", False),
    ("read_retries.mean", "read_retries.mean", False),
    ("handovers.mean", "handovers.mean", False),
    ("index.cache_hit_ratio", "cache_hit_ratio", False),
)
# Whole-run numbers after the config columns, and whether every result has
# them; then the revision that ran.
RUN_FIELDS = (("seed", True), ("measured_seconds", True), ("throughput_mops", True),
              ("verify.violations", False), ("simulator.torn_reads", False))
# What every measured point of a microbenchmark has (results/SCHEMA.md).
MICRO_NUMBERS = ("operations", "mops", "gigabytes_per_second", "latency_us.p50",
                 "latency_us.p90", "latency_us.p99", "latency_us.p999", "latency_us.mean")
ID_COLUMNS = ("results", "ablation", "experiment", "figure", "point", "series", "index",
              "clients")


def cell(value: Any) -> str:
    """A JSON value as a CSV cell: numbers exactly as JSON read them,
    booleans as true/false (as in the config files), lists and objects as
    JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def lookup(document: Any, path: str) -> Any:
    """The value at a dotted path, or None when any part is absent."""
    node = document
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def number(document: Any, path: str, source: Path, where: str, required: bool) -> Any:
    """The number at `path` of `document`; None when absent and not
    `required`. Anything else is an error naming the file and field: a cell
    of the wrong kind would be a silent wrong result in someone's analysis."""
    value = lookup(document, path)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        state = "missing" if value is None else f"not a finite number ({json.dumps(value)})"
        raise dr.ResultsError(f"{source}: field '{where}{path}' is {state}")
    return value


def flatten(document: dict, prefix: str) -> dict[str, Any]:
    """Every leaf of `document` under dotted names starting with `prefix`."""
    leaves: dict[str, Any] = {}
    for key, value in document.items():
        name = f"{prefix}.{key}"
        if isinstance(value, dict) and value:
            leaves.update(flatten(value, name))
        else:
            leaves[name] = value
    return leaves


def run_row(point: dr.Point, experiment: dr.Experiment, results: str, ablation: str) -> dict:
    row = {"results": results, "ablation": ablation, "experiment": experiment.name,
           "figure": experiment.figure, "point": point.name, "series": point.label,
           "index": point.index_label, "clients": point.clients}
    row.update(flatten(point.field("config", dr.OBJECT), "config"))
    for path, required in RUN_FIELDS:
        row[path] = number(point.result, path, point.source, "", required)
    row["tool.git_revision"] = point.field("tool.git_revision", dr.STRING)
    row["tool.git_dirty"] = point.field("tool.git_dirty", dr.BOOLEAN)
    row["tool.build_id"] = provenance.build_id_of(point.result)
    by_op = point.field("operations.by_op", dr.OBJECT)
    for op in OPS:
        where = "operations.overall." if op == "overall" else f"operations.by_op.{op}."
        stats = point.field(where[:-1], dr.OBJECT) if op == "overall" or op in by_op else None
        for path, column, required in OP_FIELDS:
            row[f"{op}.{column}"] = (None if stats is None else
                                     number(stats, path, point.source, where, required))
    return row


def micro_rows(experiment: dr.Experiment, results: str, ablation: str) -> list[dict]:
    rows = []
    for point in experiment.points:
        for number_of, benchmark in enumerate(micro_results.entries(point)):
            parameters = {f"benchmark.{key}": value for key, value in benchmark.document.items()
                          if not isinstance(value, (list, dict))}
            for measured in benchmark.points():
                row = {"results": results, "ablation": ablation, "experiment": experiment.name,
                       "figure": experiment.figure, "point": point.name}
                row.update(parameters)
                for path in MICRO_NUMBERS:
                    number(measured, path, point.source, f"benchmarks[{number_of}].points[].",
                           True)
                for key, value in measured.items():
                    if key == "simulator":
                        continue  # simulator speed: wall-clock, not a result
                    if isinstance(value, dict):
                        row.update(flatten(value, key))
                    else:
                        row[key] = value
                rows.append(row)
    return rows


def roots(paths: Iterable[Path], prefix: str) -> list[tuple[str, str, Path, bool]]:
    """(results argument, ablation label, experiment directory, whether it is
    a seed replicate) for every experiment under the arguments: each root's
    own, then its ablations, then its seed replicates."""
    found = []
    for path in paths:
        for directory in dr.discover(path, prefix).values():
            found.append((str(path), "", directory, False))
        ablations = path / dr.ABLATION_DIR
        if ablations.is_dir():
            for label in sorted(p for p in ablations.iterdir() if p.is_dir()):
                for directory in dr.discover(label, prefix).values():
                    found.append((str(path), label.name, directory, False))
        for seed in dr.seed_directories(path):
            for directory in dr.discover(seed, prefix).values():
                found.append((str(path), "", directory, True))
    return found


def columns_of(rows: list[dict], leading: Iterable[str]) -> list[str]:
    """The leading columns, then every other key in order of first appearance."""
    columns = list(leading)
    seen = set(columns)
    for row in rows:
        for key in row:
            if key not in seen:
                seen.add(key)
                columns.append(key)
    return columns


def write_csv(rows: list[dict], columns: list[str], out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell(row.get(column)) for column in columns])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, metavar="RESULTS",
                        help="a results root or an experiment directory")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="the index-run table (default: standard output)")
    parser.add_argument("--micro-out", type=Path, metavar="FILE",
                        help="the microbenchmark table (default: left out)")
    parser.add_argument("--prefix", default="",
                        help="only experiment directories whose name starts with this")
    args = parser.parse_args(argv)
    run_rows, micro = [], []
    try:
        found = roots(args.results, args.prefix)
        if not found:
            raise dr.ResultsError(f"{', '.join(map(str, args.results))}: no experiment results "
                                  "(no directory holding an experiment.json)")
        for results, ablation, directory, replicate in found:
            experiment = dr.load_experiment(directory)
            if experiment.is_micro:
                # A microbenchmark takes no seed: a replicate's is the root's again.
                if not replicate:
                    micro.extend(micro_rows(experiment, results, ablation))
            else:
                run_rows.extend(run_row(point, experiment, results, ablation)
                                for point in experiment.points)
    except dr.ResultsError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    run_columns = columns_of(run_rows, ID_COLUMNS)
    if args.out is None:
        write_csv(run_rows, run_columns, sys.stdout)
    else:
        with args.out.open("w", encoding="utf-8", newline="") as out:
            write_csv(run_rows, run_columns, out)
        print(f"{PROG}: wrote {len(run_rows)} index-run rows to {args.out}", file=sys.stderr)
    if args.micro_out is not None:
        with args.micro_out.open("w", encoding="utf-8", newline="") as out:
            write_csv(micro, columns_of(micro, ID_COLUMNS[:5]), out)
        print(f"{PROG}: wrote {len(micro)} microbenchmark rows to {args.micro_out}",
              file=sys.stderr)
    elif micro:
        print(f"{PROG}: {len(micro)} microbenchmark points left out (--micro-out FILE keeps "
              "them)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
