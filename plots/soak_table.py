#!/usr/bin/python3
"""The consistency soak's table (ae/soak.sh): operations checked and
violations per point of configs/soak/checked-soak.json, summed over rounds.

usage: plots/soak_table.py DIR [--checked]

DIR holds what ae/soak.sh wrote: round-R/ for each round R, a `dmbench sweep`
of the soak experiment with run.seed R, whose POINT.json files are `dmbench
run --verify` results. Writes DIR/soak.json (one object per point and the
totals) and DIR/soak.md (the table), and prints the table. With --checked,
prints only the total of operations checked, 0 before any point has
finished (ae/soak.sh decides from it whether another round is needed), and
writes nothing.

Columns: the point (variant and key distribution), the rounds it finished,
operations checked (every recorded operation and the final lookups of every
written key), violations, the largest peak resident memory of one of its
processes (the checker's history is most of it: a round of a point is one
process, so this bounds the checker's memory whatever the soak's total), and
the wall time of its rounds.

Exit status: 0 with no violation; 3 when a result reports violations (as
`dmbench run --verify`); 1 when DIR holds no finished point or a result lacks
a field (the message names the file and field); 2 for bad usage.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dmbench_results import (BOOLEAN, INTEGER, LIST, NUMBER, ResultsError, read_json, require,
                             write_table)

PROG = "soak_table.py"
MIB = float(1 << 20)


def point_results(directory: Path) -> list[tuple[int, Path]]:
    """(round, result file) of every finished point, rounds in order."""
    found = []
    for round_dir in directory.glob("round-*"):
        suffix = round_dir.name.removeprefix("round-")
        if not round_dir.is_dir() or not suffix.isdigit():
            continue
        for path in round_dir.glob("*.json"):
            if path.name == "experiment.json" or path.name.endswith(".config.json"):
                continue
            found.append((int(suffix), path))
    return sorted(found)


def rows(directory: Path) -> list[dict]:
    by_point: dict[str, dict] = {}
    for round_number, path in point_results(directory):
        result = read_json(path, "soak result")
        if not require(result, "verify.enabled", path, BOOLEAN):
            raise ResultsError(f"{path}: field 'verify.enabled' is false: a soak point must run "
                               "with run.verify true")
        row = by_point.setdefault(path.stem, {
            "point": path.stem, "rounds": [], "operations_checked": 0, "violations": 0,
            "max_peak_rss_bytes": 0, "wall_seconds": 0.0, "examples": []})
        row["rounds"].append(round_number)
        row["operations_checked"] += require(result, "verify.operations_checked", path, INTEGER)
        violations = require(result, "verify.violations", path, INTEGER)
        row["violations"] += violations
        if violations:
            row["examples"] += [f"round {round_number}: {example}"
                                for example in require(result, "verify.examples", path, LIST)]
        row["max_peak_rss_bytes"] = max(
            row["max_peak_rss_bytes"], require(result, "wall_clock.peak_rss_bytes", path, NUMBER))
        row["wall_seconds"] += require(result, "wall_clock.wall_seconds", path, NUMBER)
    return sorted(by_point.values(), key=lambda row: row["point"])


def table(points: list[dict]) -> str:
    lines = ["| point | rounds | operations checked | violations | max peak RSS MiB | wall s |",
             "|---|---|---|---|---|---|"]
    for row in points:
        lines.append(f"| {row['point']} | {len(row['rounds'])} | {row['operations_checked']:,} | "
                     f"{row['violations']} | {row['max_peak_rss_bytes'] / MIB:.0f} | "
                     f"{row['wall_seconds']:.0f} |")
    checked = sum(row["operations_checked"] for row in points)
    violations = sum(row["violations"] for row in points)
    peak = max(row["max_peak_rss_bytes"] for row in points)
    wall = sum(row["wall_seconds"] for row in points)
    lines.append(f"| **total** | {sum(len(row['rounds']) for row in points)} | **{checked:,}** | "
                 f"**{violations}** | {peak / MIB:.0f} | {wall:.0f} |")
    for row in points:
        lines += [f"\n{row['point']}: {example}" for example in row["examples"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    arguments = [argument for argument in argv if argument != "--checked"]
    if len(arguments) != 1 or arguments[0].startswith("-") or len(argv) > 2:
        print(f"usage: {PROG} DIR [--checked] (a directory ae/soak.sh wrote)", file=sys.stderr)
        return 2
    directory = Path(arguments[0])
    try:
        points = rows(directory)
    except ResultsError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    if "--checked" in argv:
        # Before any point has finished (a fresh or interrupted soak): 0.
        print(sum(row["operations_checked"] for row in points))
        return 0
    if not points:
        print(f"{PROG}: {directory}: no finished point in round-*/ (run ae/soak.sh --out "
              f"{directory})", file=sys.stderr)
        return 1
    summary = {"points": points,
               "operations_checked": sum(row["operations_checked"] for row in points),
               "violations": sum(row["violations"] for row in points)}
    write_table(directory, "soak", summary, table(points))
    return 3 if summary["violations"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
