"""Two builds' speed compared round by round (plots/sim_speed_change.py): the
median time per operation of each, in how many rounds the later build took
less, CPU time where both recorded it and wall time where not, and a change
of results named.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_sim_speed_change.py -v
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import fixtures
from test_sim_speed_table import write_point

SCRIPT = Path(__file__).resolve().parents[1] / "sim_speed_change.py"
KEYS = 10_000


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


class SimSpeedChange(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-sim-speed-change-")
        self.before = Path(self.tmp.name) / "against"
        self.after = Path(self.tmp.name)
        for directory in (self.before, self.after):
            (directory / "points").mkdir(parents=True, exist_ok=True)

    def tearDown(self):
        self.tmp.cleanup()

    def rounds(self, directory: Path, cpu_seconds: list[float], mix: str = "read-intensive"):
        return [write_point(directory / "points", mix, KEYS, 1 << 20, 1e6, f".r{k}",
                            cpu_seconds=cpu)
                for k, cpu in enumerate(cpu_seconds, start=1)]

    def test_medians_the_change_and_the_rounds_the_after_build_won(self):
        [result, *_] = self.rounds(self.before, [0.30, 0.20, 0.25])
        self.rounds(self.after, [0.22, 0.21, 0.20])
        operations = result["simulator"]["index_operations"]
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.after / "sim-speed-change.json").read_text())
        self.assertEqual((row["point"], row["rounds"], row["measure"]),
                         (f"read-intensive-sherman-{KEYS}", 3, "cpu"))
        self.assertAlmostEqual(row["ns_per_operation"]["before"], 0.25e9 / operations)
        self.assertAlmostEqual(row["ns_per_operation"]["after"], 0.21e9 / operations)
        self.assertAlmostEqual(row["ns_per_operation"]["change"], 0.21 / 0.25 - 1)
        # Round 2: 0.21 against 0.20, the after build slower.
        self.assertEqual(row["after_faster_rounds"], 2)
        self.assertTrue(row["same_simulation"])
        self.assertIn(f"| {0.25e9 / operations:,.0f} → {0.21e9 / operations:,.0f} (-16.0%), cpu "
                      "| in 2 of 3 rounds |", process.stdout)
        self.assertIn("| yes |", process.stdout)
        self.assertEqual(process.stdout, (self.after / "sim-speed-change.md").read_text())

    def test_wall_time_where_a_build_did_not_record_cpu_time(self):
        for k, result in enumerate(self.rounds(self.before, [0.3, 0.3]), start=1):
            del result["wall_clock"]["simulation_cpu_seconds"]
            name = f"read-intensive-sherman-{KEYS}.r{k}.json"
            fixtures.write_json(self.before / "points" / name, result)
        self.rounds(self.after, [0.2, 0.2])
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.after / "sim-speed-change.json").read_text())
        self.assertEqual(row["measure"], "wall")
        # write_point gives both builds the same wall-clock speed, 1 M ops/s.
        self.assertAlmostEqual(row["ns_per_operation"]["before"], 1000.0)
        self.assertEqual(row["after_faster_rounds"], 0)

    def test_a_change_of_results_is_named(self):
        self.rounds(self.before, [0.3])
        [result] = self.rounds(self.after, [0.2])
        result["simulator"]["events"] += 1
        fixtures.write_json(self.after / "points" / f"read-intensive-sherman-{KEYS}.r1.json",
                            result)
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 0, process.stderr)
        self.assertIn("| no: the change altered results |", process.stdout)

    def test_no_shared_point_an_empty_directory_and_bad_usage(self):
        self.rounds(self.before, [0.3], mix="write-intensive")
        self.rounds(self.after, [0.2])
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 1)
        self.assertIn("no point ran in the same round in both", process.stderr)
        empty = Path(self.tmp.name) / "empty"
        (empty / "points").mkdir(parents=True)
        process = run(empty, self.after)
        self.assertEqual(process.returncode, 1)
        self.assertIn("no results (NAME.json files)", process.stderr)
        self.assertEqual(run(self.after).returncode, 2)
        self.assertEqual(run("--help", self.after).returncode, 2)


if __name__ == "__main__":
    unittest.main()
