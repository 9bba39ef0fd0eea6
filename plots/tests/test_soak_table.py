"""The consistency soak's table (plots/soak_table.py): operations and
violations summed per point over rounds, violations listed and reported by
the exit status, and input that is not a checked run named.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_soak_table.py -v
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import fixture_model
import fixtures

SCRIPT = Path(__file__).resolve().parents[1] / "soak_table.py"
POINT = "Sherman__workload.distribution=zipfian"


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


def write_point(out: Path, round_number: int, name: str, checked: int, peak: int,
                examples: tuple[str, ...] = ()) -> None:
    result = fixture_model.model_run(fixtures.resolve({"run": {"verify": True}}))
    result["verify"] = {"enabled": True, "operations_checked": checked,
                        "violations": len(examples), "examples": list(examples)}
    result["wall_clock"].update({"peak_rss_bytes": peak, "wall_seconds": 2.5})
    folder = out / f"round-{round_number}"
    folder.mkdir(exist_ok=True)
    fixtures.write_json(folder / f"{name}.json", result)
    fixtures.write_json(folder / f"{name}.config.json", result["config"])
    fixtures.write_json(folder / "experiment.json", {"name": "checked-soak"})


class SoakTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-soak-")
        self.out = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_rounds_add_up_per_point_and_the_peak_is_the_largest_process(self):
        write_point(self.out, 1, POINT, 1000, 100 << 20)
        write_point(self.out, 2, POINT, 1500, 300 << 20)
        write_point(self.out, 1, "FG__workload.distribution=uniform", 700, 200 << 20)
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        summary = json.loads((self.out / "soak.json").read_text())
        self.assertEqual(summary["operations_checked"], 3200)
        self.assertEqual(summary["violations"], 0)
        sherman = next(row for row in summary["points"] if row["point"] == POINT)
        self.assertEqual((sherman["rounds"], sherman["operations_checked"]), ([1, 2], 2500))
        self.assertEqual(sherman["max_peak_rss_bytes"], 300 << 20)
        self.assertIn("| **total** | 3 | **3,200** | **0** | 300 | 8 |", process.stdout)
        self.assertEqual(process.stdout, (self.out / "soak.md").read_text())
        checked = run(self.out, "--checked")
        self.assertEqual((checked.returncode, checked.stdout), (0, "3200\n"))

    def test_a_violation_is_listed_with_its_round_and_exits_3(self):
        write_point(self.out, 1, POINT, 1000, 1 << 20)
        write_point(self.out, 2, POINT, 1000, 1 << 20, ("lookup client 3 key 9: stale",))
        process = run(self.out)
        self.assertEqual(process.returncode, 3, process.stderr)
        self.assertIn(f"{POINT}: round 2: lookup client 3 key 9: stale", process.stdout)

    def test_a_run_without_the_checker_is_refused(self):
        write_point(self.out, 1, POINT, 1000, 1 << 20)
        path = self.out / "round-1" / f"{POINT}.json"
        result = json.loads(path.read_text())
        result["verify"] = {"enabled": False}
        path.write_text(json.dumps(result))
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn(f"{path}: field 'verify.enabled' is false", process.stderr)

    def test_missing_rounds_and_fields_are_named(self):
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("no finished point in round-*/", process.stderr)
        # A round cut short before its first result: the table has nothing to
        # show, but the soak's running total is 0 and the soak can go on.
        (self.out / "round-1").mkdir()
        fixtures.write_json(self.out / "round-1" / f"{POINT}.config.json", {})
        self.assertEqual(run(self.out).returncode, 1)
        checked = run(self.out, "--checked")
        self.assertEqual((checked.returncode, checked.stdout), (0, "0\n"))
        write_point(self.out, 1, POINT, 1000, 1 << 20)
        path = self.out / "round-1" / f"{POINT}.json"
        result = json.loads(path.read_text())
        del result["verify"]["operations_checked"]
        path.write_text(json.dumps(result))
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("missing field 'verify.operations_checked'", process.stderr)

    def test_bad_usage_exits_2(self):
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run(self.out, "--other").returncode, 2)


if __name__ == "__main__":
    unittest.main()
