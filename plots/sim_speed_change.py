#!/usr/bin/python3
"""What a change did to the simulator's speed: the runs of two builds that
ae/bench-sim.sh --against timed in alternation, point by point.

usage: plots/sim_speed_change.py BEFORE AFTER
       plots/sim_speed_change.py --pool OUT PASS [PASS ...]

BEFORE/points/ and AFTER/points/ hold the two builds' results, as
plots/sim_speed_table.py reads them (NAME.json, or NAME.rK.json for round
K). Each round ran both builds on every point one after the other, the
build that went first alternating from round to round, so that a machine
that slows or speeds up over minutes weighs on both alike: two pairs of
passes run one after the other put the second build behind at 7 of 8
points, by 2-13%, on a VM where alternation put it ahead.

For every point run by both, the table gives the time per simulated index
operation before and after, as medians over the rounds, with the change;
the ratio of the two builds' times round by round (after / before), its
median with a 95% interval; and in how many of the rounds the after build
took less, with the sign test's p. Each round's two runs share the
machine's mood, so the ratio within a round is steadier than either time:
on a 2-vCPU VM whose runs were 10-15% apart, 21 alternated rounds put two
builds' medians 6% apart while their round-by-round ratio was 0.995,
faster in 12 rounds of 21 (p = 0.66). The interval is distribution-free
(order statistics of the ratios), so it needs 6 rounds or more; the
verdict is "faster" or "slower" only when it excludes 1, else "not shown".
The time is the
simulating thread's CPU time (wall_clock.simulation_cpu_seconds), which
leaves out what other work took from a run; where either build's results do
not record it (a revision before the field), the wall time of the
simulation, and the row says so. Then the wall-clock speed, and whether the
two builds simulated the same (operations, events, throughput and the run's
settings equal: sim_speed_table.SIMULATED, what a point's repeated runs
must agree on). A
change meant to leave results alone must say "yes". Writes
AFTER/sim-speed-change.json and .md and prints the table.

--pool pools the rounds of several passes of the same two builds, each
PASS a directory ae/bench-sim.sh --against wrote (the before build's
results in PASS/against): a change of a few percent can need more rounds
than one pass had, and passes taken at different times share no machine
mood, but each round's ratio still compares two runs that did. Writes
OUT/sim-speed-change.json and .md. Passes whose before runs, or whose after
runs, come from more than one build are refused: builds are told apart by
their binaries' build IDs (tool.build_id), or for results older than the
field by revision and whether its tree had changes.

When every round of a point ran the same binary on both sides (equal build
IDs), its row says so (same_binary) and a line under the table too: the
ratios then measure the machine's noise alone, which is worth knowing on
purpose and a mistake otherwise (a binary copied from a build directory
before it was rebuilt).

Exit status: 0; 1 when a directory has no points, the two share no point,
passes to pool come from more than two builds, or a result lacks a field
(the message names the file); 2 for bad usage.
"""

from __future__ import annotations

import math
import re
import statistics
import sys
from pathlib import Path

from dmbench_results import write_table
from sim_speed_table import SIMULATED, TableError, comparison_main, point_cells, ran_point

PROG = "sim_speed_change.py"


def runs_by_point(directory: Path) -> dict[str, dict[int, dict]]:
    """Each point's runs, by round (1 for a point run once)."""
    folder = directory / "points"
    if not folder.is_dir():
        raise TableError(f"{folder}: no such directory (run ae/bench-sim.sh --against)")
    points: dict[str, dict[int, dict]] = {}
    for path in sorted(folder.glob("*.json")):
        match = re.fullmatch(r"(.*?)(?:\.r([0-9]+))?", path.stem)
        name, round_number = match.group(1), int(match.group(2) or 1)
        points.setdefault(name, {})[round_number] = ran_point(path)
    if not points:
        raise TableError(f"{folder}: no results (NAME.json files) in it")
    return points


def pooled_runs(directories: list[Path]) -> dict[str, dict[tuple[int, int], dict]]:
    """Each point's runs over several directories, by (directory, round):
    the first directory is 1."""
    pooled: dict[str, dict[tuple[int, int], dict]] = {}
    for number, directory in enumerate(directories, start=1):
        for name, rounds in runs_by_point(directory).items():
            for round_number, run in rounds.items():
                pooled.setdefault(name, {})[(number, round_number)] = run
    return pooled


def one_build(points: dict[str, dict], side: str) -> None:
    """Refuses runs of one side that name more than one build."""
    builds = {run["build"] for rounds in points.values() for run in rounds.values()}
    if len(builds) > 1:
        raise TableError(f"the {side} runs come from {len(builds)} builds "
                         f"({', '.join(sorted(map(str, builds)))}): pool passes of the same "
                         "two builds")


def nanoseconds_per_operation(run: dict, measure: str) -> float:
    if measure == "cpu":
        return run["cpu_ns_per_operation"]
    return 1e9 / run["index_operations_per_wall_second"]


# The interval's coverage: what the verdict's "shown" means.
CONFIDENCE = 0.95


def sign_test_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test: how likely a split of rounds at least this
    uneven is when each round goes either way with even odds."""
    rounds = wins + losses
    fewer = min(wins, losses)
    tail = sum(math.comb(rounds, k) for k in range(fewer + 1)) / 2 ** rounds
    return min(1.0, 2 * tail)


def median_interval(values: list[float],
                    confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """An interval that holds the median of what `values` sample with at
    least `confidence`, whatever their distribution: the k-th smallest and
    the k-th largest value, k the largest with P(Binomial(n, 1/2) < k) at
    most (1 - confidence) / 2. None when no k is (fewer than 6 values at
    95%)."""
    ordered = sorted(values)
    n = len(ordered)
    k = 0
    below = 0.0  # P(Binomial(n, 1/2) <= k - 1), summed as k grows
    while k < n // 2:
        below += math.comb(n, k) / 2 ** n
        if below > (1 - confidence) / 2:
            break
        k += 1
    return (ordered[k - 1], ordered[n - k]) if k > 0 else None


def verdict(interval: tuple[float, float] | None) -> str:
    if interval is not None and interval[1] < 1:
        return "faster"
    if interval is not None and interval[0] > 1:
        return "slower"
    return "not shown"


def compared_row(name: str, before: dict[int, dict], after: dict[int, dict]) -> dict:
    rounds = sorted(set(before) & set(after))
    pairs = [(before[k], after[k]) for k in rounds]
    measure = ("cpu" if all(run["cpu_ns_per_operation"] is not None
                            for pair in pairs for run in pair) else "wall")
    times = [(nanoseconds_per_operation(old, measure), nanoseconds_per_operation(new, measure))
             for old, new in pairs]
    old_time = statistics.median(old for old, _ in times)
    new_time = statistics.median(new for _, new in times)
    ratios = [new / old for old, new in times if old > 0]
    interval = median_interval(ratios)
    wins = sum(1 for old, new in times if new < old)
    losses = sum(1 for old, new in times if new > old)
    first = pairs[0][1]
    return {
        "point": name, "mix": first["mix"], "index": first["index"], "keys": first["keys"],
        "rounds": len(rounds), "measure": measure,
        "ns_per_operation": {"before": old_time, "after": new_time,
                             "change": new_time / old_time - 1 if old_time > 0 else None},
        "ratio_per_round": {"median": statistics.median(ratios) if ratios else None,
                            "interval": list(interval) if interval else None,
                            "confidence": CONFIDENCE},
        "verdict": verdict(interval),
        "after_faster_rounds": wins,
        "sign_test_p": sign_test_p(wins, losses),
        "index_operations_per_wall_second": {
            "before": statistics.median(old["index_operations_per_wall_second"]
                                        for old, _ in pairs),
            "after": statistics.median(new["index_operations_per_wall_second"]
                                       for _, new in pairs)},
        "same_simulation": all(old[key] == new[key] for old, new in pairs for key in SIMULATED),
        "same_binary": all(old["build_id"] is not None and old["build_id"] == new["build_id"]
                           for old, new in pairs),
    }


def compare(before_directory: Path, after_directory: Path) -> list[dict]:
    return compared_rows(runs_by_point(before_directory), runs_by_point(after_directory),
                         f"{before_directory} and {after_directory}")


def pool(passes: list[Path]) -> list[dict]:
    before = pooled_runs([directory / "against" for directory in passes])
    after = pooled_runs(passes)
    one_build(before, "before")
    one_build(after, "after")
    return compared_rows(before, after, ", ".join(map(str, passes)))


def compared_rows(before: dict[str, dict], after: dict[str, dict], where: str) -> list[dict]:
    shared = [name for name in after if name in before and set(before[name]) & set(after[name])]
    if not shared:
        raise TableError(f"{where}: no point ran in the same round in both "
                         "(run ae/bench-sim.sh --against)")
    rows = [compared_row(name, before[name], after[name]) for name in shared]
    rows.sort(key=lambda row: (row["mix"], row["index"], row["keys"]))
    return rows


def table(rows: list[dict]) -> str:
    out = ["| workload | index | keys | ns / op (CPU or wall), before → after | "
           f"after / before per round: median ({100 * CONFIDENCE:.0f}% interval) | "
           "after faster (sign test) | "
           "M index ops / wall s, before → after | simulates the same |",
           "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        time = row["ns_per_operation"]
        change = "" if time["change"] is None else f" ({100 * time['change']:+.1f}%)"
        speed = row["index_operations_per_wall_second"]
        out.append(
            f"{point_cells(row)} {time['before']:,.0f} → {time['after']:,.0f}{change}, "
            f"{row['measure']} | {ratio_cell(row)} | "
            f"in {row['after_faster_rounds']} of {row['rounds']} rounds "
            f"(p = {row['sign_test_p']:.2g}) | "
            f"{speed['before'] / 1e6:.3f} → {speed['after'] / 1e6:.3f} | "
            f"{'yes' if row['same_simulation'] else 'no: the change altered results'} |")
    same = [point_cells(row).strip("| ").replace(" | ", ", ") for row in rows
            if row["same_binary"]]
    if same:
        out.append(f"\nBoth builds are one binary (equal tool.build_id) at {'; '.join(same)}: "
                   "the ratios there measure noise alone.")
    return "\n".join(out) + "\n"


def ratio_cell(row: dict) -> str:
    ratio = row["ratio_per_round"]
    if ratio["median"] is None:
        return "–"
    interval = ratio["interval"]
    spread = (f"{interval[0]:.3f}–{interval[1]:.3f}" if interval
              else "too few rounds for one")
    return f"{ratio['median']:.3f} ({spread}): {row['verdict']}"


def pool_main(argv: list[str]) -> int:
    """--pool OUT PASS [PASS ...], the options already taken off."""
    if len(argv) < 2 or any(arg.startswith("-") for arg in argv):
        print(f"usage: {PROG} --pool OUT PASS [PASS ...] (directories "
              "ae/bench-sim.sh --against wrote)", file=sys.stderr)
        return 2
    out, *passes = map(Path, argv)
    try:
        rows = pool(passes)
    except TableError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    write_table(out, "sim-speed-change", rows, table(rows))
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--pool"]:
        return pool_main(argv[1:])
    return comparison_main(argv, PROG, "ae/bench-sim.sh --against", "sim-speed-change", compare,
                           table)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
