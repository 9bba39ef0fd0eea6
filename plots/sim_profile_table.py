#!/usr/bin/python3
"""Where the simulator's time goes (ae/bench-sim.sh --profile): each point's
CPU time, sampled by perf over its simulation alone, split into the
simulator's parts, and how fast the point would run if a part, or the whole fabric model, cost
nothing.

usage: plots/sim_profile_table.py DIR

DIR/points/ holds what ae/bench-sim.sh --profile wrote: beside each point's
result NAME.json, NAME.perf.txt, the `perf report --stdio --no-children -q
--sort dso,sym` of the samples perf record took from the start of the
point's simulation (warm-up and window) to its end (dmbench run
--perf-control), so neither set-up nor bulkload is in it. With --repeat N,
NAME.rK.json and NAME.rK.perf.txt for K = 1..N: a part's share is the mean
of the runs' shares, the speed the median (plots/sim_speed_table.py).

A symbol belongs to the first part in PARTS whose pattern matches "DSO
NAME", NAME the symbol up to its first "<" or "(", or else to the first
whose pattern matches "DSO SYMBOL"; what none matches is "unattributed", and its
largest symbols are listed, so that nothing is hidden. perf samples
functions, not call paths: a library routine (memcpy, malloc) counts where
it is, not where it was called from. "If free" is the point's simulated
index operations per wall second divided by (1 - share): the bound on what
making that part cost nothing could give. Writes DIR/sim-profile.json and
DIR/sim-profile.md, and prints the tables.

Exit status: 0; 1 when DIR holds no profiled point, or a profile or result
cannot be read (the message names the file); 2 for bad usage.
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator

from sim_speed_table import TableError, points, table_main

PROG = "sim_profile_table.py"

# (part, what it is, pattern over "DSO SYMBOL"); the first that matches wins.
PARTS = (
    ("event queue", "SimCluster::Run and ::Dispatch: the events, in time order",
     r"rdma::sim::SimCluster::(Run|Dispatch)\b|EventQueue"),
    ("coroutines", "switching between the clients' coroutines (Boost.Context)",
     r"ClientCoroutine|_fcontext|boost::context"),
    ("resource reservations", "SerialResource: links, message engines, PCIe reserved in time",
     r"rdma::sim::SerialResource"),
    ("statistics", "latency histograms and per-operation counters",
     r"LogLinearHistogram|RunStatistics|::AddStats\b|StatsScope"),
    ("node materialization", "a bulkloaded node's bytes, built when first touched",
     r"KeySpaceBulkload|BulkloadImage|DeferredBlocks|EncodeFreshLeaf"),
    ("memory-server bytes", "MemoryRegion and PagedBytes: what verbs read and write",
     r"rdma::sim::(MemoryRegion|PagedBytes)"),
    ("NIC and verb model", "the rest of the simulated NICs and clients: posting, "
     "responders, atomics, doorbells, completions",
     r"rdma::sim::|dmbench::rdma::"),
    ("libc copies and fills", "memcpy, memmove and memset, whoever calls them",
     r"^libc\S* .*__mem(cpy|move|set)"),
    ("index cache", "IndexCache, its spans and cached routes",
     r"IndexCache|FenceOrderedSpans|CachedRoutes|CachedNodeStore"),
    ("index logic", "the B-link tree, node format and locks, client side",
     r"dmbench::indexes::"),
    ("workload generation", "keys and operations: Zipfian draws (libm's pow), scrambling",
     r"dmbench::workloads::|^libm\S* "),
    ("driver", "the benchmark loop", r"dmbench::driver::"),
    ("allocator", "malloc and free", r"\b(malloc|free|cfree|_int_\w+|operator (new|delete))\b"),
    ("kernel", "page faults and system calls", r"^\[kernel"),
)
# Sums of parts, each a row of its own below the parts.
GROUPS = (
    ("all of the fabric model", ("event queue", "coroutines", "resource reservations",
                                 "memory-server bytes", "NIC and verb model")),
)
UNATTRIBUTED = "unattributed"
SHOWN_UNATTRIBUTED = 5
LINE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)%\s+(\S+)\s+\[[.k]\]\s+(.+?)\s*$")


def part_of(dso: str, symbol: str) -> str:
    # The function's own name first: a lambda inside BLinkTree::Lookup(rdma::
    # Client&, ...) is index logic. Then the whole symbol, whose template
    # arguments say whom a generic search served.
    head = re.split(r"[<(]", symbol, maxsplit=1)[0]
    for text in (f"{dso} {head}", f"{dso} {symbol}"):
        for name, _, pattern in PARTS:
            if re.search(pattern, text):
                return name
    return UNATTRIBUTED


def split_by_part(items: Iterable[tuple[str, str, float]]) -> tuple[dict[str, float],
                                                                    dict[str, float]]:
    """Sums the amounts of (dso, symbol, amount) items per part (every part of
    PARTS, then unattributed) and per unattributed symbol."""
    parts = {name: 0.0 for name, _, _ in PARTS}
    parts[UNATTRIBUTED] = 0.0
    unattributed: dict[str, float] = {}
    for dso, symbol, amount in items:
        part = part_of(dso, symbol)
        parts[part] += amount
        if part == UNATTRIBUTED:
            unattributed[symbol] = unattributed.get(symbol, 0.0) + amount
    return parts, unattributed


def with_groups(parts: dict[str, float]) -> dict[str, float]:
    """`parts` and, after them, each group's sum of its members."""
    return {**parts, **{group: sum(parts[name] for name in members)
                        for group, members in GROUPS}}


def head_of(row: dict) -> str:
    """A point's short name, as a column head: "read sherman 10,000,000"."""
    return f"{row['mix'].split('-')[0]} {row['index']} {row['keys']:,}"


def part_table(rows: list[dict], cell: Callable[[dict], str],
               first: tuple[str, ...] = ()) -> list[str]:
    """A markdown table with a column per row (point) and a line per part
    in the rows' "parts" (every row lists the same parts, in the same order):
    cell(the row's entry of that part).
    `first`: lines to put above the parts' lines."""
    out = ["| part | " + " | ".join(map(head_of, rows)) + " |", "|---|" + "---|" * len(rows),
           *first]
    for name in (part["part"] for part in rows[0]["parts"]):
        cells = [cell(next(part for part in row["parts"] if part["part"] == name))
                 for row in rows]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return out


def largest(amounts: dict[str, float]) -> dict[str, float]:
    """The SHOWN_UNATTRIBUTED largest of `amounts`, largest first."""
    return dict(sorted(amounts.items(), key=lambda item: -item[1])[:SHOWN_UNATTRIBUTED])


def unattributed_lines(rows: list[dict], field: str, amount: Callable[[float], str],
                       indent: str = "") -> list[str]:
    """A list item per row: its head, then its row[field]'s symbols (in that
    dict's order), each with amount(its value)."""
    out = []
    for row in rows:
        symbols = ", ".join(f"{symbol[:70]} {amount(value)}"
                            for symbol, value in row[field].items())
        out.append(f"{indent}- {head_of(row)}: {symbols or 'none'}")
    return out


def ran_rows(directory: Path, make_row: Callable[[dict, Path], dict], what: str) -> list[dict]:
    """make_row(row, DIR/points) for each row of plots/sim_speed_table.py's
    points that ran; `what` is done to them ("profiled", "counted")."""
    rows = [make_row(row, directory / "points") for row in points(directory) if row["ran"]]
    if not rows:
        raise TableError(f"{directory / 'points'}: no point ran, so none was {what}")
    return rows


def perf_lines(path: Path) -> Iterator[tuple[str, str, float]]:
    """A perf report's (dso, symbol, share) lines."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as error:
        raise TableError(f"{path}: cannot read it ({error})") from error
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = LINE.match(line)
        if not match:
            raise TableError(f"{path}:{number}: not a line of `perf report --stdio "
                             f"--no-children -q --sort dso,sym`: {line.strip()[:80]!r}")
        yield match[2], match[3], float(match[1])


def read_profile(path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """A perf report's shares per part (percent of its samples, summing to
    100) and its unattributed symbols' shares."""
    parts, unattributed = split_by_part(perf_lines(path))
    total = sum(parts.values())
    if total <= 0:
        raise TableError(f"{path}: no samples (did perf record sample the simulation?)")
    # perf rounds each line to two decimals; rescale so the shares add to 100.
    return ({name: 100 * share / total for name, share in parts.items()},
            {name: 100 * share / total for name, share in unattributed.items()})


def profiled_row(row: dict, folder: Path) -> dict:
    """The point's row with its parts' mean shares and the speeds if free."""
    profiles = [read_profile(folder / f"{stem}.perf.txt") for stem in row["run_stems"]]
    shares = {name: statistics.fmean(profile[0][name] for profile in profiles)
              for name in profiles[0][0]}
    unattributed: dict[str, float] = {}
    for _, symbols in profiles:
        for symbol, share in symbols.items():
            unattributed[symbol] = unattributed.get(symbol, 0.0) + share / len(profiles)
    shares = with_groups(shares)
    unattributed = {symbol: share for symbol, share in unattributed.items() if share >= 0.05}
    speed = row["index_operations_per_wall_second"]
    return {
        "point": row["point"], "mix": row["mix"], "index": row["index"], "keys": row["keys"],
        "runs": row["runs"], "index_operations_per_wall_second": speed,
        "parts": [{"part": name, "share_percent": share,
                   "if_free_index_operations_per_wall_second":
                       speed / (1 - share / 100) if share < 100 else None}
                  for name, share in shares.items()],
        "unattributed_symbols": largest(unattributed),
    }


def tables(rows: list[dict]) -> str:
    def cell(part: dict) -> str:
        free = part["if_free_index_operations_per_wall_second"]
        return f"{part['share_percent']:.1f} ({'–' if free is None else f'{free / 1e6:.3f}'})"

    speeds = "| (all: M index ops / wall s) | " + " | ".join(
        f"{row['index_operations_per_wall_second'] / 1e6:.3f}" for row in rows) + " |"
    out = ["Share of each point's simulation CPU time, % (M index ops / wall s if the part "
           "cost nothing):", "", *part_table(rows, cell, first=(speeds,))]
    out += ["", "Parts:", ""]
    out += [f"- {name}: {what}" for name, what, _ in PARTS]
    out += [f"- {group}: the sum of {', '.join(members)}" for group, members in GROUPS]
    out.append(f"- {UNATTRIBUTED}: none of the parts; the largest such symbols per point:")
    out += unattributed_lines(rows, "unattributed_symbols", lambda share: f"{share:.1f}%", "  ")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    return table_main(argv, PROG, "ae/bench-sim.sh --profile", "sim-profile",
                      lambda directory: ran_rows(directory, profiled_row, "profiled"), tables)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
