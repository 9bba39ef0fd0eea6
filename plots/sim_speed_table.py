#!/usr/bin/python3
"""The simulator benchmark's table (ae/bench-sim.sh): how fast the simulated
fabric runs and how much memory it holds, one row per point.

usage: plots/sim_speed_table.py DIR

DIR/points/ holds what ae/bench-sim.sh wrote: NAME.json, a `dmbench run`
result, for each point that ran, and NAME.log, its output, for every point.
With --repeat N each point ran N times, as NAME.rK.json and NAME.rK.log
(K = 1..N); its row gives the median of each wall-clock figure and, for the
speeds, the range over the runs, and the runs' simulated figures must agree
(the same config and seed simulate the same thing). A point with a log and
no result was refused before it started (the log's last line says why, e.g.
more memory than the machine has). Writes DIR/sim-speed.json (one object per
point) and DIR/sim-speed.md (the table), and prints the table.

Columns: the workload mix, index preset and key count; simulated index
operations (warm-up and window) per wall-clock second and events per
wall-clock second, both over the simulation only; the CPU time of the
simulating thread per index operation, in nanoseconds ("–" for a result of
a revision that did not record it), the steadier figure on a shared
machine, where other work takes the core from a run; the wall time of the whole
process and of its set-up (key space, bulkload: the whole minus the
simulation); the process's peak resident memory and that divided by the key
count ("–" for a result of a revision that did not record it); and the
simulated throughput, so that a speed change that alters
results shows; and the settings that decide how much of the run is a cold
start: whether the index caches started warm and their size, and the
warm-up and measured window in simulated milliseconds.

Exit status: 0; 1 when DIR holds no point or a result lacks a field (the
message names the file and field); 2 for bad usage.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

from dmbench_results import write_table
from provenance import build_id_of

PROG = "sim_speed_table.py"
GIB = float(1 << 30)


class TableError(Exception):
    pass


def lookup(result: dict, path: str, where: Path, hint: str = "") -> Any:
    """The value at dotted `path` of `result`; names the file and path when missing."""
    value: Any = result
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            raise TableError(f"{where}: {path}: missing{hint}")
        value = value[part]
    return value


def field(result: dict, path: str, where: Path) -> Any:
    value = lookup(result, path, where,
                   " (is it a `dmbench run` result on the simulated fabric?)")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TableError(f"{where}: {path}: must be a number, got {value!r}")
    return value


def text_field(result: dict, path: str, where: Path) -> str:
    return str(lookup(result, path, where))


def flag_field(result: dict, path: str, where: Path) -> bool:
    value = lookup(result, path, where)
    if not isinstance(value, bool):
        raise TableError(f"{where}: {path}: must be true or false, got {value!r}")
    return value


def ran_point(path: Path) -> dict:
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise TableError(f"{path}: not a readable JSON result ({error})") from error
    if not isinstance(result, dict):
        raise TableError(f"{path}: a result must be a JSON object")
    keys = field(result, "config.workload.keys", path)
    wall = field(result, "wall_clock.wall_seconds", path)
    simulation = field(result, "wall_clock.simulation_wall_seconds", path)
    # Results of revisions before peak_rss_bytes existed have none.
    peak = (field(result, "wall_clock.peak_rss_bytes", path)
            if "peak_rss_bytes" in result.get("wall_clock", {}) else None)
    operations = field(result, "simulator.index_operations", path)
    # Nor do those before simulation_cpu_seconds existed.
    cpu = (field(result, "wall_clock.simulation_cpu_seconds", path)
           if "simulation_cpu_seconds" in result.get("wall_clock", {}) else None)
    return {
        "point": path.stem,
        "mix": text_field(result, "config.workload.mix", path),
        "index": text_field(result, "config.index.preset", path),
        "keys": keys,
        "ran": True,
        "index_operations": operations,
        "events": field(result, "simulator.events", path),
        "index_operations_per_wall_second":
            field(result, "wall_clock.index_operations_per_wall_second", path),
        "events_per_wall_second": field(result, "wall_clock.events_per_wall_second", path),
        "cpu_ns_per_operation": (cpu * 1e9 / operations
                                 if cpu is not None and operations > 0 else None),
        "wall_seconds": wall,
        "setup_wall_seconds": max(0.0, wall - simulation),
        "peak_rss_bytes": peak,
        "bytes_per_key": peak / keys if peak is not None and keys > 0 else None,
        "throughput_mops": field(result, "throughput_mops", path),
        # Revisions before index.cache_prewarm existed started caches cold.
        "cache_prewarm": (flag_field(result, "config.index.cache_prewarm", path)
                          if "cache_prewarm" in result.get("config", {}).get("index", {})
                          else False),
        "cache_mib": field(result, "config.index.cache_mib", path),
        "warmup_ms": field(result, "config.run.warmup_ms", path),
        "measure_ms": field(result, "config.run.measure_ms", path),
        "build_id": build_id_of(result),
        "build": build_of(result),
    }


def build_of(result: dict) -> str | None:
    """Which build wrote a result: its binary's build ID or, without one, the
    revision it was built from, marked when its tree had uncommitted
    changes; None when the result names neither."""
    build_id = build_id_of(result)
    if build_id is not None:
        return f"build {build_id}"
    tool = result.get("tool")
    if not isinstance(tool, dict) or not isinstance(tool.get("git_revision"), str):
        return None
    return tool["git_revision"] + ("+dirty" if tool.get("git_dirty") else "")


# Figures a run simulates: equal in every run of a point.
SIMULATED = ("index_operations", "events", "throughput_mops", "cache_prewarm", "cache_mib",
             "warmup_ms", "measure_ms")
# Figures of the machine running it, which vary from run to run: the median.
WALL = ("index_operations_per_wall_second", "events_per_wall_second", "cpu_ns_per_operation",
        "wall_seconds", "setup_wall_seconds", "peak_rss_bytes", "bytes_per_key")
RANGED = ("index_operations_per_wall_second", "events_per_wall_second", "cpu_ns_per_operation")


def point_of_runs(name: str, runs: list[dict], where: Path) -> dict:
    """One row from a point's runs (at least one)."""
    # run_stems: the runs' file names without suffix (NAME, or NAME.rK for
    # the rounds that ran), for whatever else a run left beside its result.
    row = dict(runs[0], point=name, runs=len(runs), run_stems=[run["point"] for run in runs])
    for key in SIMULATED:
        if len({run[key] for run in runs}) > 1:
            raise TableError(f"{where}: {name}: its runs simulated different {key} "
                             f"({sorted({run[key] for run in runs})}); the same config and seed "
                             "must give the same simulation")
    for key in WALL:
        values = [run[key] for run in runs if run[key] is not None]
        row[key] = statistics.median(values) if values else None
    for key in RANGED:
        values = [run[key] for run in runs if run[key] is not None]
        row[f"{key}_range"] = [min(values), max(values)] if values else None
    return row


def refused_point(log: Path, name: str) -> dict:
    lines = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines()
             if line.strip()]
    mix, _, rest = name.partition("-intensive-")
    index, _, keys = rest.rpartition("-")
    return {"point": name, "mix": f"{mix}-intensive", "index": index,
            "keys": int(keys) if keys.isdigit() else 0, "ran": False,
            "refused": lines[-1] if lines else "(no output)"}


def points(directory: Path) -> list[dict]:
    folder = directory / "points"
    if not folder.is_dir():
        raise TableError(f"{folder}: no such directory (run ae/bench-sim.sh --out {directory})")
    logs: dict[str, list[Path]] = {}
    for log in sorted(folder.glob("*.log")):
        # NAME.log, or NAME.rK.log for run K of a repeated point.
        logs.setdefault(re.sub(r"\.r[0-9]+$", "", log.stem), []).append(log)
    rows = []
    for name, point_logs in logs.items():
        runs = [ran_point(log.with_suffix(".json")) for log in point_logs
                if log.with_suffix(".json").exists()]
        rows.append(point_of_runs(name, runs, folder) if runs
                    else refused_point(point_logs[-1], name))
    if not rows:
        raise TableError(f"{folder}: no points (NAME.log files) in it")
    rows.sort(key=lambda row: (row["mix"], row["index"], row["keys"]))
    return rows


def gibibytes(value: float | None) -> str:
    return "–" if value is None else f"{value / GIB:.2f}"


def per_key(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def ranged(row: dict, key: str, unit: float, spec: str) -> str:
    """`key` in `unit`s as `spec` formats it; with several runs, the median
    and the range; "–" where no run recorded it."""
    if row[key] is None:
        return "–"
    text = format(row[key] / unit, spec)
    if row["runs"] > 1:
        low, high = row[f"{key}_range"]
        text += f" ({format(low / unit, spec)}–{format(high / unit, spec)})"
    return text


def point_cells(row: dict) -> str:
    """The first three cells of a point's row in the simulator's tables."""
    return f"| {row['mix']} skewed | {row['index']} | {row['keys']:,} |"


def settings(row: dict) -> str:
    """How much of the run is a cold start, e.g. "warm 477 MiB; 10 + 20 ms"."""
    caches = "warm" if row["cache_prewarm"] else "cold"
    return f"{caches} {row['cache_mib']:g} MiB; {row['warmup_ms']:g} + {row['measure_ms']:g} ms"


def table(rows: list[dict]) -> str:
    header = ("| workload | index | keys | M index ops / wall s | M events / wall s | "
              "CPU ns / op | wall s (set-up) | peak RSS GiB | bytes / key | simulated Mops | "
              "caches; warm-up + window |")
    lines = [header, "|" + "---|" * 11]
    for row in rows:
        start = point_cells(row)
        if not row["ran"]:
            lines.append(f"{start} refused: {row['refused']} | | | | | | | |")
            continue
        lines.append(
            f"{start} {ranged(row, 'index_operations_per_wall_second', 1e6, '.3f')} | "
            f"{ranged(row, 'events_per_wall_second', 1e6, '.2f')} | "
            f"{ranged(row, 'cpu_ns_per_operation', 1, ',.0f')} | "
            f"{row['wall_seconds']:.1f} ({row['setup_wall_seconds']:.1f}) | "
            f"{gibibytes(row['peak_rss_bytes'])} | {per_key(row['bytes_per_key'])} | "
            f"{row['throughput_mops']:.3f} | {settings(row)} |")
    return "\n".join(lines) + "\n"


def table_main(argv: list[str], prog: str, wrote: str, stem: str,
               rows_of: Callable[[Path], list[dict]],
               render: Callable[[list[dict]], str]) -> int:
    """A table script's main over the directory `wrote` (a command) left:
    DIR/STEM.json and .md from rows_of(DIR), rendered; 1 on a TableError,
    2 for bad usage."""
    if len(argv) != 1 or argv[0].startswith("-"):
        print(f"usage: {prog} DIR (a directory {wrote} wrote)", file=sys.stderr)
        return 2
    directory = Path(argv[0])
    try:
        rows = rows_of(directory)
    except TableError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    write_table(directory, stem, rows, render(rows))
    return 0


def comparison_main(argv: list[str], prog: str, wrote: str, stem: str,
                    compare: Callable[[Path, Path], list[dict]],
                    render: Callable[[list[dict]], str],
                    errors: tuple[type[Exception], ...] = (TableError,)) -> int:
    """A comparing script's main over BEFORE and AFTER, two directories
    `wrote` (a command) left: AFTER/STEM.json and .md from compare(BEFORE,
    AFTER), rendered; 1 on one of `errors`, 2 for bad usage."""
    if len(argv) != 2 or any(arg.startswith("-") for arg in argv):
        print(f"usage: {prog} BEFORE AFTER (two directories {wrote} wrote)", file=sys.stderr)
        return 2
    before, after = map(Path, argv)
    try:
        rows = compare(before, after)
    except errors as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    write_table(after, stem, rows, render(rows))
    return 0


def main(argv: list[str]) -> int:
    return table_main(argv, PROG, "ae/bench-sim.sh", "sim-speed", points, table)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
