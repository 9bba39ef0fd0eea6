#!/usr/bin/python3
"""What a change did to the simulator's counts: two directories that
ae/bench-sim.sh --count wrote, one before the change and one after, point by
point.

usage: plots/sim_count_change.py BEFORE AFTER

Reads each directory's sim-count.json and sim-speed.json (plots/sim_count_table.py
and plots/sim_speed_table.py write them) and, for every point counted in
both, gives each count per simulated index operation before and after, with
its change: instructions, L1 data-cache misses, last-level cache misses and
branch mispredictions; then the timed pass's speed and peak resident memory,
which on a shared machine move by 15% from run to run; then instructions per
operation by part of the simulator. Writes AFTER/sim-count-change.json and
AFTER/sim-count-change.md, and prints the tables.

Instructions alone can mislead. A change that trades instructions for misses
to DRAM or for mispredictions can leave the count lower and the machine
slower: keeping the bytes of nodes read once, so that their second read
copied them instead of building them again, cut 3.9% of the instructions of
a 10 M-key read-intensive point, nearly doubled its last-level misses (4.6
to 8.7 per operation) and ran 13% slower (medians of three alternating
runs). So the table names every point
where instructions fell and misses or mispredictions rose by more than
NOTED_RISE: time those (ae/bench-sim.sh --repeat) before believing the count.
A point whose two runs simulated different things (other operations or
events: the change altered results) is marked, since its counts then
describe two different runs. Misses counted with two different last-level
caches (ae/bench-sim.sh --count-llc) do not compare, so such a point is
refused.

Last, per point, the functions, and the source files, whose mispredictions
and L1 data misses per operation moved most. callgrind's branch predictor
shares its counters between branches far apart (plots/sim_count_table.py),
so code that moves moves mispredictions between unrelated functions: a
change to the client coroutines' switch took 0.35 mispredictions per
operation out of libc's memcpy, and a change to one resource-reservation
function put about one per operation into the coroutines' resumption. When
the places named are not the ones the change touched, what moved is layout,
not the change. Source files tell apart what functions cannot: code inlined
into another function counts for that function, but for the file it is
written in. The calendar queue's push is inlined into the NIC model's
ScheduleResponder, so by function its mispredictions were the NIC model's;
by source file they were harness/rdma/sim/event_queue.h's.

Exit status: 0; 1 when a directory has no sim-count.json, the two share no
point, a row lacks a field, or a point was counted with two last-level
cache sizes (the message names the file); 2 for bad usage.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dmbench_results import ResultsError, read_json, require
from sim_count_table import PER_PLACE_COUNTS
from sim_profile_table import head_of, part_table
from sim_speed_table import comparison_main, point_cells

PROG = "sim_count_change.py"

# The columns compared: (field, column head, scale shown, decimals shown).
# The counts, per simulated index operation, of sim-count.json:
COUNTS = (("instructions_per_operation", "instructions / op", 1.0, 0),
          ("l1d_misses_per_operation", "L1d misses / op", 1.0, 1),
          ("ll_misses_per_operation", "LL misses / op", 1.0, 2),
          ("mispredicts_per_operation", "branch mispredicts / op", 1.0, 1))
# The timed pass's figures of sim-speed.json, shown beside the counts:
TIMED = (("index_operations_per_wall_second", "timed: M index ops / wall s", 1e-6, 3),
         ("peak_rss_bytes", "peak RSS, GiB", 1 / float(1 << 30), 2))
# What a counted point must have for the comparison, besides its point name
# and COUNTS.
IDENTITY = ("mix", "index", "keys", "index_operations", "events", "parts")
# A rise of misses or mispredictions, as a fraction, above which a point with
# fewer instructions is named as one to time. Code that only moved has
# shifted callgrind's mispredictions by 9% to 18% (plots/sim_count_table.py),
# so a named rise of mispredictions is to be checked against where they
# moved (the report's last section) as well as timed.
NOTED_RISE = 0.10
# The counts kept per place (plots/sim_count_table.py's PER_PLACE_COUNTS),
# each named in the table as its count per operation is (COUNTS); the places
# they are kept per, each a row's field and what the report calls one; and
# how many places of each a point names where each count moved most.
MOVED = tuple(count for count, _ in PER_PLACE_COUNTS)
PLACES = (("by_function", "function"), ("by_source", "source file"))
SHOWN_MOVED = 3
# The last-level cache of a count table written before ae/bench-sim.sh had
# --count-llc, whose rows do not record it: the size was fixed then.
FIXED_LLC_BYTES = 32 << 20


def table_rows(path: Path, what: str, fields: tuple[str, ...]) -> dict[str, dict]:
    """The rows of the table at `path`, by point, each with `fields`."""
    rows = read_json(path, what)
    if not isinstance(rows, list):
        raise ResultsError(f"{path}: not a list of points")
    points = {}
    for number, row in enumerate(rows):
        for field in ("point",) + fields:
            require(row, field, f"{path}, point {number}")
        points[row["point"]] = row
    return points


def counted_points(directory: Path) -> dict[str, dict]:
    """The rows of DIRECTORY/sim-count.json, by point, each with its timed
    figures (TIMED) from DIRECTORY/sim-speed.json."""
    counted = table_rows(directory / "sim-count.json",
                         "the count table (plots/sim_count_table.py writes it)",
                         IDENTITY + tuple(field for field, *_ in COUNTS))
    timed = table_rows(directory / "sim-speed.json",
                       "the speed table (plots/sim_speed_table.py writes it)", ())
    for name, row in counted.items():
        row.setdefault("llc_bytes", FIXED_LLC_BYTES)
        check_places(row, f"{directory / 'sim-count.json'}, point {name}")
        source = f"{directory / 'sim-speed.json'}, point {name}"
        if name not in timed:
            raise ResultsError(f"{source}: missing, though the point was counted")
        for field, *_ in TIMED:
            row[field] = require(timed[name], field, source)
    return counted


def check_places(row: dict, source: str) -> None:
    """Raises ResultsError unless each of row's PLACES fields, where there
    is one (a table written before it was kept has none), maps each count of
    MOVED to amounts per place."""
    for field, place in PLACES:
        if field not in row:
            continue
        for count in MOVED:
            amounts = row[field].get(count) if isinstance(row[field], dict) else None
            if not isinstance(amounts, dict) or not all(
                    isinstance(amount, (int, float)) for amount in amounts.values()):
                raise ResultsError(f"{source}: {field}.{count} must map each {place} to an "
                                   "amount per operation")


def moved_most(before: dict, after: dict) -> dict:
    """Per field of PLACES, per count of MOVED, the SHOWN_MOVED places whose
    amount per operation changed most, each with its amount before and
    after; None for a field that either row lacks."""
    moved: dict = {}
    for field, _ in PLACES:
        if field not in before or field not in after:
            moved[field] = None
            continue
        moved[field] = {}
        for count in MOVED:
            old, new = before[field][count], after[field][count]
            names = sorted(set(old) | set(new),
                           key=lambda name: (-abs(new.get(name, 0.0) - old.get(name, 0.0)), name))
            moved[field][count] = [{"place": name, "before": old.get(name, 0.0),
                                    "after": new.get(name, 0.0)} for name in names[:SHOWN_MOVED]]
    return moved


def short_name(function: str) -> str:
    """`function` without the project's namespace, parameter lists (its own
    and those of the functions a lambda of it is in) and a trailing const:
    an empty list, as of operator(), stays."""
    name = function.replace("dmbench::", "").replace("(anonymous namespace)", "{anonymous}")
    out, depth, opened = [], 0, 0
    for at, char in enumerate(name):
        if char == "(":
            depth += 1
            if depth == 1:
                opened = at
            continue
        if char == ")" and depth > 0:
            depth -= 1
            if depth == 0 and at == opened + 1:
                out.append("()")
            continue
        if depth == 0:
            out.append(char)
    return "".join(out).removesuffix(" const")


def change(before: float, after: float) -> float | None:
    return None if before == 0 else after / before - 1


def compared_row(before: dict, after: dict) -> dict:
    counts = {field: {"before": before[field], "after": after[field],
                      "change": change(before[field], after[field])}
              for field, *_ in COUNTS + TIMED}
    parts_before = {part["part"]: part["instructions_per_operation"] for part in before["parts"]}
    parts = [{"part": part["part"], "before": parts_before.get(part["part"], 0.0),
              "after": part["instructions_per_operation"]} for part in after["parts"]]
    fewer_instructions = after["instructions_per_operation"] < before["instructions_per_operation"]
    rose = [field for field, *_ in COUNTS[1:]
            if (counts[field]["change"] or 0) > NOTED_RISE]
    return {
        "point": after["point"], "mix": after["mix"], "index": after["index"],
        "keys": after["keys"],
        "same_simulation": all(before[key] == after[key]
                               for key in ("index_operations", "events")),
        "counts": counts, "parts": parts,
        "time_it": fewer_instructions and bool(rose), "rose": rose,
        "moved_most": moved_most(before, after),
    }


def compare(before_directory: Path, after_directory: Path) -> list[dict]:
    before = counted_points(before_directory)
    after = counted_points(after_directory)
    shared = [name for name in after if name in before]
    if not shared:
        raise ResultsError(f"{before_directory} and {after_directory}: no point was counted "
                           "in both (run ae/bench-sim.sh --count with the same --keys and "
                           "--indexes)")
    for name in shared:
        if before[name]["llc_bytes"] != after[name]["llc_bytes"]:
            raise ResultsError(
                f"{after_directory / 'sim-count.json'}, point {name}: counted with a "
                f"last-level cache of {after[name]['llc_bytes']} bytes, {before_directory} with "
                f"{before[name]['llc_bytes']}; count both builds with the same "
                "ae/bench-sim.sh --count-llc")
    return [compared_row(before[name], after[name]) for name in shared]


def count_name(field: str) -> str:
    return next(head for name, head, *_ in COUNTS if name == field).removesuffix(" / op")


def cell(count: dict, scale: float, decimals: int) -> str:
    changed = "" if count["change"] is None else f" ({100 * count['change']:+.1f}%)"
    return (f"{scale * count['before']:,.{decimals}f} → {scale * count['after']:,.{decimals}f}"
            f"{changed}")


def tables(rows: list[dict]) -> str:
    columns = COUNTS + TIMED
    out = ["| workload | index | keys | " + " | ".join(head for _, head, *_ in columns)
           + " | simulates the same |",
           "|---|---|---|" + "---|" * len(columns) + "---|"]
    for row in rows:
        cells = " | ".join(cell(row["counts"][field], scale, decimals)
                           for field, _, scale, decimals in columns)
        out.append(f"{point_cells(row)} {cells} | "
                   f"{'yes' if row['same_simulation'] else 'no: the change altered results'} |")
    out += ["", "Instructions per operation by part, before → after:", "",
            *part_table(rows, lambda part: f"{part['before']:,.0f} → {part['after']:,.0f}")]
    noted = "; ".join(f"{head_of(row)} ({', '.join(map(count_name, row['rose']))})"
                      for row in rows if row["time_it"])
    out += ["", "Fewer instructions, but more misses or mispredictions (over "
            f"{100 * NOTED_RISE:.0f}%), so time these before believing the count: "
            f"{noted or 'none'}."]
    out += ["", "Where mispredictions and L1 data misses per operation moved most (code "
            "that moves moves callgrind's mispredictions between unrelated functions; if "
            "these are not the places changed, the change in the total is layout; code "
            "inlined into a function counts for that function, but for the source file it "
            "is written in):", ""]
    for row in rows:
        for field, place in PLACES:
            moved = row["moved_most"][field]
            if moved is None:
                out.append(f"- {head_of(row)}, by {place}: not recorded (a count table "
                           f"written before plots/sim_count_table.py kept counts per {place})")
                continue
            shown = short_name if field == "by_function" else str
            out.append(f"- {head_of(row)}, by {place}: " + "; ".join(
                f"{count_name(f'{count}_per_operation')} "
                + ", ".join(f"{shown(entry['place'])} "
                            f"{entry['after'] - entry['before']:+.2f}" for entry in moved[count])
                for count in MOVED))
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    return comparison_main(argv, PROG, "ae/bench-sim.sh --count", "sim-count-change", compare,
                           tables, errors=(ResultsError,))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
