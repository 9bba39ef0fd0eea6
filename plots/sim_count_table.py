#!/usr/bin/python3
"""What the simulator executes per simulated index operation (ae/bench-sim.sh
--count): instructions, cache misses and branch mispredictions, counted by
callgrind over each point's measured run, in all and per part of the
simulator.

usage: plots/sim_count_table.py DIR

DIR/points/callgrind/ holds, for the first run of each point that ran
(STEM: NAME, or NAME.r1 with --repeat), what the counted pass left:
STEM.json, the result of the same `dmbench run` under callgrind, and
STEM.out, callgrind's counts (callgrind_annotate and KCachegrind read it
too). The counted run must simulate what the timed run did (the same
operations and events: the same config and seed), or its counts would not
describe it. Per operation means per simulated index operation of the
warm-up and window; misses and mispredictions are those of callgrind's
models (a 32 KiB L1 data cache and a last-level cache of 32 MiB unless
ae/bench-sim.sh --count-llc chose another size, which each row records as
llc_bytes and the table names; and its branch predictor), not of the
machine. Functions are split into the parts of plots/sim_profile_table.py,
by the same rules.
Writes DIR/sim-count.json and DIR/sim-count.md, and prints the tables.

Unlike wall time, counts repeat: two counted runs of a build differ by a
few hundred instructions in hundreds of millions (the progress lines print
wall-clock times). So they tell apart two builds whose speeds a shared
machine cannot, at the price of not seeing what a count hides: a miss to
DRAM and an L1 hit count one each. Mispredictions repeat too, but
callgrind's predictor is far simpler than a real one: 16,384 two-bit
counters indexed by 7 bits of global history and only 7 bits of the
branch's address, so branches far apart share counters, and code that
moves, with no other change, moves mispredictions between unrelated
functions: by up to 18% of a point's total in one test (README). Each
row therefore keeps, per function, its mispredictions and L1 data misses
per operation (by_function), so that plots/sim_count_change.py can say
where a change moved them; and the same per source file (by_source), where
code inlined into a function counts for the file it is written in, not for
the function: the event queue's push, inlined into the NIC model, counts
for harness/rdma/sim/event_queue.h. Look at all three counts: a change
that trades instructions for mispredictions can leave the count lower and
the machine slower.

Exit status: 0; 1 when DIR holds no counted point, or a count file or result
cannot be read, or disagrees with itself or with the timed run (the message
names the file); 2 for bad usage.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from sim_profile_table import (largest, part_table, ran_rows, split_by_part, unattributed_lines,
                               with_groups)
from sim_speed_table import SIMULATED, TableError, point_cells, ran_point, table_main

PROG = "sim_count_table.py"

# callgrind's names of the counts a row reports, summed where two are listed.
INSTRUCTIONS = ("Ir",)
L1D_MISSES = ("D1mr", "D1mw")
LL_MISSES = ("DLmr", "DLmw")
# Mispredicted conditional and indirect branches.
MISPREDICTS = ("Bcm", "Bim")
# The counts kept per function (by_function) and per source file (by_source),
# for plots/sim_count_change.py to say where a change moved them: the two
# that code layout moves.
PER_PLACE_COUNTS = (("mispredicts", MISPREDICTS), ("l1d_misses", L1D_MISSES))
# The project's top folders of C++ sources: a source file under one is named
# from there (harness/rdma/sim/event_queue.h), so that two builds from two
# checkouts name it alike; any other by its file name (stl_vector.h).
PROJECT_FOLDERS = ("harness", "indexes", "workloads")
# Parts callgrind cannot see: it counts the process's own instructions, not
# the kernel's work for it (page faults, system calls).
NOT_COUNTED = ("kernel",)
# The last-level cache callgrind modelled, from its header ("desc: LL cache:
# 33554432 B, 64 B, 16-way associative").
LL_CACHE = re.compile(r"^desc: LL cache: (\d+) B\b")
# A name line: which kind of name, its compressed id, the name (given only
# where the id first appears).
NAME = re.compile(r"^(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn)=(?:\((\d+)\))? ?(.*)$")
# The kinds that share one table of compressed names.
TABLE_OF = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn",
            "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl"}


def numbers(tokens: list[str], where: str) -> list[int]:
    try:
        return [int(token) for token in tokens]
    except ValueError as error:
        raise TableError(f"{where}: a count is not a number ({error})") from error


class CallgrindCounts(NamedTuple):
    totals: dict[str, int]  # by event name
    # Each function's own counts (not those of what it calls), by (object's
    # file name, function).
    functions: dict[tuple[str, str], dict[str, int]]
    # The same by source file (source_name), inlined code where it is written.
    sources: dict[str, dict[str, int]]
    llc_bytes: int  # the last-level cache callgrind modelled


def source_name(path: str) -> str:
    """`path` from the last of PROJECT_FOLDERS in it on, else its file name."""
    parts = path.split("/")
    for at in range(len(parts) - 2, -1, -1):
        if parts[at] in PROJECT_FOLDERS:
            return "/".join(parts[at:])
    return parts[-1]


def read_callgrind(path: Path) -> CallgrindCounts:
    """What a callgrind output file counted.

    The format is callgrind's (valgrind.org/docs/manual/cl-format.html):
    ob= and fn= lines say whose the cost lines after them are, fl= the
    function's source file and fi= or fe= that of the (inlined) lines after
    them until the next fn=, a calls= line says that the cost line after it
    is a call's (inclusive, so not the caller's own), and names are
    compressed to "(id)" after their first use.
    """
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as error:
        raise TableError(f"{path}: cannot read it ({error})") from error
    events: list[str] = []
    positions = 1
    totals: dict[str, int] | None = None
    llc_bytes: int | None = None
    names: dict[str, dict[str, str]] = {"ob": {}, "fn": {}, "fl": {}}
    functions: dict[tuple[str, str], list[int]] = {}
    sources: dict[str, list[int]] = {}
    where_object, function = "", None
    function_file = source_file = "???"
    call_cost_next = False
    for number, line in enumerate(lines, 1):
        where = f"{path}:{number}"
        if not line or line.startswith("#"):
            continue
        if match := LL_CACHE.match(line):
            llc_bytes = int(match[1])
        elif line.startswith("events:"):
            events = line.split(":", 1)[1].split()
        elif line.startswith("positions:"):
            positions = len(line.split(":", 1)[1].split())
        elif line.startswith(("summary:", "totals:")):
            # callgrind writes both, the same; a file may have either.
            these = dict(zip(events, numbers(line.split(":", 1)[1].split(), where)))
            if totals is not None and these != totals:
                raise TableError(f"{where}: the totals disagree with the summary")
            totals = these
        elif match := NAME.match(line):
            kind, ident, name = match[1], match[2], match[3]
            table = names[TABLE_OF[kind]]
            if ident is not None:
                if name:
                    table[ident] = name
                elif ident not in table:
                    raise TableError(f"{where}: {kind}=({ident}) before its name was given")
                name = table[ident]
            if kind == "ob":
                where_object = Path(name).name
            elif kind == "fn":
                function = name
                source_file = function_file
            elif kind == "fl":
                function_file = source_file = name
            elif kind in ("fi", "fe"):
                source_file = name
        elif line.startswith("calls="):
            call_cost_next = True
        elif line[0].isdigit() or line[0] in "+-*":
            if call_cost_next:
                call_cost_next = False
                continue
            if function is None:
                raise TableError(f"{where}: a cost line before any fn= line")
            counts = numbers(line.split()[positions:], where)
            own = functions.setdefault((where_object, function), [0] * len(events))
            written = sources.setdefault(source_name(source_file), [0] * len(events))
            for i, count in enumerate(counts[:len(events)]):
                own[i] += count
                written[i] += count
    needed = INSTRUCTIONS + L1D_MISSES + LL_MISSES + MISPREDICTS
    missing = [name for name in needed if name not in events]
    if llc_bytes is None:
        missing.append("its LL cache's description")
    if totals is None or missing:
        raise TableError(f"{path}: not the output of callgrind --cache-sim=yes "
                         f"--branch-sim=yes (missing: {', '.join(missing) or 'summary'})")
    if totals.get("Ir", 0) == 0:
        raise TableError(f"{path}: no instructions counted (did callgrind collect inside "
                         "the measured run?)")
    counted = sum(own[events.index("Ir")] for own in functions.values())
    if counted != totals["Ir"]:
        raise TableError(f"{path}: its functions' instructions add up to {counted}, its "
                         f"summary says {totals['Ir']}")
    return CallgrindCounts(totals, {key: dict(zip(events, own)) for key, own in functions.items()},
                           {key: dict(zip(events, own)) for key, own in sources.items()},
                           llc_bytes)


def counted_row(row: dict, folder: Path) -> dict:
    stem = row["run_stems"][0]
    result = folder / "callgrind" / f"{stem}.json"
    if not result.exists():
        raise TableError(f"{result}: missing (was the point counted? ae/bench-sim.sh --count)")
    counted = ran_point(result)
    for key in SIMULATED:
        if counted[key] != row[key]:
            raise TableError(f"{result}: the counted run simulated {key} {counted[key]}, the "
                             f"timed run {row[key]}; the same config and seed must give the "
                             "same simulation")
    callgrind = read_callgrind(folder / "callgrind" / f"{stem}.out")
    totals, functions = callgrind.totals, callgrind.functions
    operations = counted["index_operations"]
    if operations <= 0:
        raise TableError(f"{result}: simulator.index_operations must be positive")

    def per_operation(events: tuple[str, ...]) -> float:
        return sum(totals.get(event, 0) for event in events) / operations

    parts, unattributed = split_by_part((dso, function, counts.get("Ir", 0))
                                        for (dso, function), counts in functions.items())
    parts = with_groups({name: count for name, count in parts.items()
                         if name not in NOT_COUNTED})
    return {
        "point": row["point"], "mix": row["mix"], "index": row["index"], "keys": row["keys"],
        "index_operations": operations, "events": counted["events"],
        "instructions": totals["Ir"],
        "instructions_per_operation": per_operation(INSTRUCTIONS),
        "instructions_per_event": totals["Ir"] / counted["events"] if counted["events"] else None,
        "l1d_misses_per_operation": per_operation(L1D_MISSES),
        "ll_misses_per_operation": per_operation(LL_MISSES),
        "mispredicts_per_operation": per_operation(MISPREDICTS),
        "llc_bytes": callgrind.llc_bytes,
        "parts": [{"part": name, "instructions_per_operation": count / operations,
                   "share_percent": 100 * count / totals["Ir"]}
                  for name, count in parts.items()],
        "unattributed_functions": {name: count / operations
                                   for name, count in largest(unattributed).items()},
        "by_function": {name: per_place(((function, counts) for (_, function), counts
                                         in functions.items()), events, operations)
                        for name, events in PER_PLACE_COUNTS},
        "by_source": {name: per_place(callgrind.sources.items(), events, operations)
                      for name, events in PER_PLACE_COUNTS},
    }


def per_place(places: Iterable[tuple[str, dict[str, int]]], events: tuple[str, ...],
              operations: int) -> dict[str, float]:
    """Per place (a function, a source file) with any, the sum of `events`
    per operation; a name given twice is summed."""
    amounts: dict[str, float] = {}
    for place, counts in places:
        amount = sum(counts.get(event, 0) for event in events)
        if amount:
            amounts[place] = amounts.get(place, 0.0) + amount / operations
    return amounts


def cache_size(size: int) -> str:
    return f"{size >> 20} MiB" if size % (1 << 20) == 0 else f"{size >> 10} KiB"


def tables(rows: list[dict]) -> str:
    out = ["| workload | index | keys | instructions / op | instructions / event | "
           "L1d misses / op | LL misses / op | branch mispredicts / op | index ops counted |",
           "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        per_event = row["instructions_per_event"]
        out.append(
            f"{point_cells(row)} "
            f"{row['instructions_per_operation']:,.0f} | "
            f"{'–' if per_event is None else f'{per_event:,.0f}'} | "
            f"{row['l1d_misses_per_operation']:.1f} | {row['ll_misses_per_operation']:.2f} | "
            f"{row['mispredicts_per_operation']:.1f} | {row['index_operations']:,} |")
    sizes = sorted({row["llc_bytes"] for row in rows})
    out += ["", "Misses are those of callgrind's model: an L1 data cache of 32 KiB and a "
            f"last-level cache of {' or '.join(map(cache_size, sizes))}"
            f"{' (per point: llc_bytes in sim-count.json)' if len(sizes) > 1 else ''}."]
    out += ["", "Instructions per operation by part (share of the run's, %):", "",
            *part_table(rows, lambda part: f"{part['instructions_per_operation']:,.0f} "
                                           f"({part['share_percent']:.1f})")]
    out += ["", "Parts as in plots/sim_profile_table.py, but for "
            f"{', '.join(NOT_COUNTED)}: callgrind counts user space alone. The largest "
            "functions of none, instructions per operation:"]
    out += unattributed_lines(rows, "unattributed_functions", lambda count: f"{count:,.0f}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    return table_main(argv, PROG, "ae/bench-sim.sh --count", "sim-count",
                      lambda directory: ran_rows(directory, counted_row, "counted"), tables)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
