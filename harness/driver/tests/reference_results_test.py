"""Points of results/reference/, run again from the configs they record, must
give the same result, field for field, apart from `wall_clock` and `tool`.

Same config and seed give bit-identical results, so a difference here means
a change altered the reference results: regenerate results/reference/ (its
README says how) and say so in the change, or find what broke determinism.
The points are the reference's cheapest ones that, together, take every
index preset, open and closed loop, a range query, key size, the speculative
lookup and a model ablation through the simulator (about 7 s in a release
build).

    /usr/bin/python3 reference_results_test.py [--all] [--jobs N]
        [--launcher CMD] DMBENCH SOURCE_DIR

--all reruns every result of results/reference/ instead (1,107 of them,
about 12 minutes with --jobs 2): whether this machine and build reproduce
the whole reference. --launcher runs dmbench through a program, split on
spaces, such as an emulator for a binary built for another CPU
(ae/check-aarch64.sh). Exit status: 0 when every point is the same, 1 when
one differs or its run fails, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator, Sequence

POINTS = (
    "smart-fig12-btree/SMART-BT__topology.threads_per_compute_server=1__workload.mix=ycsb-a",
    "smart-fig12-btree/Sherman+-w--SL__topology.threads_per_compute_server=1__workload.mix=ycsb-b",
    "open-loop-latency/FG+__run.target_mops=0.5",
    "open-loop-latency/Sherman__run.target_mops=1",
    "fig15b-key-size-skewed/FG+_key16",
    "fig13-scalability/Sherman_zipf0.99__topology.coroutines_per_thread=1"
    "__topology.threads_per_compute_server=1",
    "fig10-breakdown-skewed/+Combine__workload.mix=write-only",
    "table1-fg/workload.distribution=zipfian__workload.mix=write-intensive",
    "ablation/no-parking-slots/fig10-breakdown-skewed/FG+__workload.mix=write-only",
    "fig12a-range-only/Sherman__workload.range_size=100",
)
# What two runs of one config may differ in (results/SCHEMA.md).
RUN_SPECIFIC = ("wall_clock", "tool")


def differences(ours: Any, reference: Any, path: str = "") -> Iterator[str]:
    """The dotted paths at which the two JSON values differ."""
    if type(ours) is not type(reference):
        yield path or "."
    elif isinstance(ours, dict):
        for key in sorted(set(ours) | set(reference)):
            where = f"{path}.{key}" if path else key
            if key not in ours or key not in reference:
                yield where + (" (only in the reference)" if key not in ours else " (new)")
            else:
                yield from differences(ours[key], reference[key], where)
    elif isinstance(ours, list):
        if len(ours) != len(reference):
            yield f"{path} (length {len(ours)}, reference {len(reference)})"
        else:
            for number, (mine, theirs) in enumerate(zip(ours, reference)):
                yield from differences(mine, theirs, f"{path}[{number}]")
    elif ours != reference:
        yield f"{path} ({json.dumps(ours)}, reference {json.dumps(reference)})"


def every_point(reference_root: Path) -> list[str]:
    """Every result of the reference (a document with its config and tool), as
    its path without .json: the figures' and microbenchmarks' CSVs, summaries
    and the report are not results."""
    points = []
    for path in sorted(reference_root.rglob("*.json")):
        try:
            document = json.loads(path.read_text())
        except json.JSONDecodeError:
            continue
        if isinstance(document, dict) and "config" in document and "tool" in document:
            points.append(str(path.relative_to(reference_root).with_suffix("")))
    return points


def check_point(command: Sequence[str], reference_root: Path, point: str) -> str | None:
    """Runs `point`'s recorded config; None when the result is the reference's,
    else what went wrong."""
    reference = json.loads((reference_root / f"{point}.json").read_text())
    with tempfile.TemporaryDirectory(prefix="dmbench-reference-") as tmp:
        config = Path(tmp) / "config.json"
        config.write_text(json.dumps(reference["config"]))
        out = Path(tmp) / "result.json"
        run = subprocess.run([*command, "run", "--config", str(config), "--out", str(out)],
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            return f"dmbench run exited {run.returncode}: {run.stderr.strip()}"
        ours = json.loads(out.read_text())
    for document in (ours, reference):
        for field in RUN_SPECIFIC:
            document.pop(field, None)
    found = list(differences(ours, reference))
    if found:
        return (f"{len(found)} fields differ from results/reference, "
                f"first: {'; '.join(found[:5])}")
    return None


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"takes a positive integer, got '{text}'")
    return int(text)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="reference_results_test.py",
        description="Reruns results of results/reference/ and compares them field by field.")
    parser.add_argument("--all", action="store_true",
                        help="every result of the reference, not the test's ten points")
    parser.add_argument("--jobs", type=positive, default=1, help="runs at a time (default 1)")
    parser.add_argument("--launcher", default="",
                        help="a program to run dmbench with, e.g. qemu-aarch64")
    parser.add_argument("dmbench")
    parser.add_argument("source_dir", type=Path)
    args = parser.parse_args(argv)
    reference_root = args.source_dir / "results" / "reference"
    command = [*shlex.split(args.launcher), args.dmbench]
    try:
        probe = subprocess.run([*command, "config", "--help"], capture_output=True, text=True,
                               check=False)
        cannot = "" if probe.returncode == 0 else (probe.stderr.strip()
                                                    or f"exit status {probe.returncode}")
    except OSError as error:
        cannot = str(error)
    if cannot:
        print(f"reference results test: cannot run {shlex.join(command)}: {cannot}",
              file=sys.stderr)
        return 2
    points = every_point(reference_root) if args.all else list(POINTS)
    if not points or not all((reference_root / f"{point}.json").is_file() for point in points):
        print(f"reference results test: {reference_root} lacks the reference's results "
              "(SOURCE_DIR must be the checkout's root)", file=sys.stderr)
        return 2
    failed = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = pool.map(lambda point: check_point(command, reference_root, point), points)
        for done, (point, problem) in enumerate(zip(points, outcomes), start=1):
            if problem:
                failed += 1
                print(f"FAIL {point}: {problem}", flush=True)
            elif not args.all:
                print(f"same {point}")
            elif done % 100 == 0:
                print(f"{done} of {len(points)} points run, {failed} differ", flush=True)
    if failed:
        print(f"reference results test: {failed} of {len(points)} points differ. If the "
              "change meant to alter results, regenerate results/reference/ (see its README) "
              "and say so; otherwise it broke determinism.")
        return 1
    print(f"reference results test: passed ({len(points)} points)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
