"""Points of results/reference/, run again from the configs they record, must
give the same result, field for field, apart from `wall_clock` and `tool`.

Same config and seed give bit-identical results, so a difference here means
a change altered the reference results: regenerate results/reference/ (its
README says how) and say so in the change, or find what broke determinism.
The points are the reference's cheapest ones that, together, take every
index preset, open and closed loop, a range query, key size, the speculative
lookup and a model ablation through the simulator (about 7 s in a release
build).

    /usr/bin/python3 reference_results_test.py DMBENCH SOURCE_DIR
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

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


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    dmbench, reference_root = argv[0], Path(argv[1]) / "results" / "reference"
    failed = 0
    with tempfile.TemporaryDirectory(prefix="dmbench-reference-") as tmp:
        for point in POINTS:
            reference = json.loads((reference_root / f"{point}.json").read_text())
            config = Path(tmp) / "config.json"
            config.write_text(json.dumps(reference["config"]))
            out = Path(tmp) / "result.json"
            run = subprocess.run([dmbench, "run", "--config", str(config), "--out", str(out)],
                                 capture_output=True, text=True, check=False)
            if run.returncode != 0:
                print(f"FAIL {point}: dmbench run exited {run.returncode}: {run.stderr.strip()}")
                failed += 1
                continue
            ours = json.loads(out.read_text())
            for document in (ours, reference):
                for field in RUN_SPECIFIC:
                    document.pop(field, None)
            found = list(differences(ours, reference))
            if found:
                failed += 1
                print(f"FAIL {point}: {len(found)} fields differ from results/reference, "
                      f"first: {'; '.join(found[:5])}")
            else:
                print(f"same {point}")
    if failed:
        print(f"reference results test: {failed} of {len(POINTS)} points differ. If the "
              "change meant to alter results, regenerate results/reference/ (see its README) "
              "and say so; otherwise it broke determinism.")
        return 1
    print(f"reference results test: passed ({len(POINTS)} points)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
