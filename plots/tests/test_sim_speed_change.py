"""Two builds' speed compared round by round (plots/sim_speed_change.py): the
median time per operation of each, the round-by-round ratio with its
distribution-free interval and verdict, in how many rounds the later build
took less with the sign test's p, CPU time where both recorded it and wall
time where not, and a change of results named.

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

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
from sim_speed_change import median_interval, sign_test_p  # noqa: E402

SCRIPT = PLOTS / "sim_speed_change.py"
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

    def rounds(self, directory: Path, cpu_seconds: list[float], mix: str = "read-intensive",
               build_id: str | None = None) -> list[dict]:
        """Results of rounds 1, 2, ... of a point, by a binary whose build ID
        is `build_id`, else one per side (the before build's results lie in
        a directory named against)."""
        if build_id is None:
            build_id = ("b" if directory.name == "against" else "a") * 40
        results = []
        for k, cpu in enumerate(cpu_seconds, start=1):
            result = write_point(directory / "points", mix, KEYS, 1 << 20, 1e6, f".r{k}",
                                 cpu_seconds=cpu)
            result["tool"]["build_id"] = build_id
            fixtures.write_json(directory / "points" / f"{mix}-sherman-{KEYS}.r{k}.json", result)
            results.append(result)
        return results

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
        # Three rounds are too few for an interval of the ratio's median,
        # and for the sign test to tell anything.
        self.assertIsNone(row["ratio_per_round"]["interval"])
        # Rounds' ratios 0.22/0.30, 0.21/0.20, 0.20/0.25.
        self.assertAlmostEqual(row["ratio_per_round"]["median"], 0.8)
        self.assertEqual(row["verdict"], "not shown")
        self.assertEqual(row["sign_test_p"], 1.0)
        self.assertIn(f"| {0.25e9 / operations:,.0f} → {0.21e9 / operations:,.0f} (-16.0%), cpu "
                      "| 0.800 (too few rounds for one): not shown | in 2 of 3 rounds (p = 1) |",
                      process.stdout)
        self.assertIn("| yes |", process.stdout)
        self.assertEqual(process.stdout, (self.after / "sim-speed-change.md").read_text())

    def test_a_steady_gain_is_shown_and_noise_is_not(self):
        # Nine rounds whose speed wanders by a third, the after build 10%
        # faster in each: its medians barely differ, its ratio does.
        wander = [0.30, 0.20, 0.26, 0.22, 0.31, 0.19, 0.28, 0.24, 0.21]
        self.rounds(self.before, wander)
        self.rounds(self.after, [0.9 * cpu for cpu in wander], mix="read-intensive")
        self.rounds(self.before, wander, mix="write-intensive")
        # Write-intensive: faster in five rounds, slower in four.
        self.rounds(self.after, [cpu * (0.95 if k % 2 == 0 else 1.05)
                                 for k, cpu in enumerate(wander)], mix="write-intensive")
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 0, process.stderr)
        rows = {row["mix"]: row for row in
                json.loads((self.after / "sim-speed-change.json").read_text())}
        read, write = rows["read-intensive"], rows["write-intensive"]
        self.assertEqual(read["verdict"], "faster")
        self.assertAlmostEqual(read["ratio_per_round"]["median"], 0.9)
        self.assertEqual(read["after_faster_rounds"], 9)
        self.assertAlmostEqual(read["sign_test_p"], 2 / 2 ** 9)
        self.assertEqual(write["verdict"], "not shown")
        for bound, expected in zip(write["ratio_per_round"]["interval"], (0.95, 1.05)):
            self.assertAlmostEqual(bound, expected)
        self.assertEqual(write["after_faster_rounds"], 5)
        self.assertIn("| 0.900 (0.900–0.900): faster | in 9 of 9 rounds (p = 0.0039) |",
                      process.stdout)
        self.assertIn("| 0.950 (0.950–1.050): not shown | in 5 of 9 rounds (p = 1) |",
                      process.stdout)

    def test_the_interval_and_the_sign_test_against_their_binomial_sums(self):
        # n = 6: P(B <= 0) = 1/64 fits in 2.5%, P(B <= 1) = 7/64 does not.
        self.assertEqual(median_interval([6, 1, 5, 2, 4, 3]), (1, 6))
        self.assertIsNone(median_interval([1, 2, 3, 4, 5]))  # 1/32 > 2.5%
        # n = 21: P(B <= 5) = 1.3% fits, P(B <= 6) = 3.9% does not.
        self.assertEqual(median_interval(list(range(1, 22))), (6, 16))
        self.assertIsNone(median_interval([]))
        # 12 of 21: 2 * P(B <= 9) for B ~ Binomial(21, 1/2).
        self.assertAlmostEqual(sign_test_p(12, 9), 0.66362, places=5)
        self.assertEqual(sign_test_p(21, 0), 2 / 2 ** 21)
        self.assertEqual(sign_test_p(0, 0), 1.0)
        self.assertEqual(sign_test_p(3, 3), 1.0)

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

    def test_one_binary_on_both_sides_is_named(self):
        self.rounds(self.before, [0.3, 0.2], build_id="d" * 40)
        self.rounds(self.after, [0.2, 0.3], build_id="d" * 40)
        self.rounds(self.before, [0.3, 0.2], mix="write-intensive")
        self.rounds(self.after, [0.2, 0.3], mix="write-intensive")
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 0, process.stderr)
        rows = {row["mix"]: row for row in
                json.loads((self.after / "sim-speed-change.json").read_text())}
        self.assertTrue(rows["read-intensive"]["same_binary"])
        self.assertFalse(rows["write-intensive"]["same_binary"])
        self.assertIn("Both builds are one binary (equal tool.build_id) at read-intensive "
                      f"skewed, sherman, {KEYS:,}: the ratios there measure noise alone.",
                      process.stdout)
        self.assertNotIn("write-intensive skewed, sherman", process.stdout)

    def test_a_change_of_results_is_named(self):
        self.rounds(self.before, [0.3])
        [result] = self.rounds(self.after, [0.2])
        result["simulator"]["events"] += 1
        fixtures.write_json(self.after / "points" / f"read-intensive-sherman-{KEYS}.r1.json",
                            result)
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 0, process.stderr)
        self.assertIn("| no: the change altered results |", process.stdout)

    def second_pass(self) -> tuple[Path, Path]:
        """Another pass's directory, as ae/bench-sim.sh --against leaves it,
        and its before build's results."""
        after = Path(self.tmp.name) / "pass2"
        before = after / "against"
        for directory in (before, after):
            (directory / "points").mkdir(parents=True)
        return before, after

    def test_pool_compares_the_rounds_of_every_pass(self):
        self.rounds(self.before, [0.30, 0.20, 0.25])
        self.rounds(self.after, [0.22, 0.21, 0.20])
        before, after = self.second_pass()
        self.rounds(before, [0.40, 0.40, 0.40, 0.40])
        self.rounds(after, [0.36, 0.44, 0.30, 0.34])
        out = Path(self.tmp.name) / "pooled"
        process = run("--pool", out, self.after, after)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((out / "sim-speed-change.json").read_text())
        # Rounds 1 of both passes are two rounds, not one.
        self.assertEqual(row["rounds"], 7)
        self.assertEqual(row["after_faster_rounds"], 2 + 3)
        # Ratios 0.733, 1.05, 0.8, then 0.9, 1.1, 0.75, 0.85: their median.
        self.assertAlmostEqual(row["ratio_per_round"]["median"], 0.85)
        self.assertEqual(process.stdout, (out / "sim-speed-change.md").read_text())
        # Each pass alone, as before.
        self.assertEqual(run(self.before, self.after).returncode, 0)
        [alone] = json.loads((self.after / "sim-speed-change.json").read_text())
        self.assertEqual(alone["rounds"], 3)

    def test_pool_refuses_passes_of_other_builds_and_bad_usage(self):
        self.rounds(self.before, [0.3])
        self.rounds(self.after, [0.2])
        before, after = self.second_pass()
        self.rounds(before, [0.3])
        self.rounds(after, [0.2], build_id="c" * 40)
        out = Path(self.tmp.name) / "pooled"
        process = run("--pool", out, self.after, after)
        self.assertEqual(process.returncode, 1)
        self.assertIn(f"the after runs come from 2 builds (build {'a' * 40}, build {'c' * 40})",
                      process.stderr)
        self.assertFalse(out.exists())
        # Results older than the build ID: told apart by revision and changes.
        for directory in (before, after, self.before, self.after):
            for path in (directory / "points").glob("*.json"):
                result = json.loads(path.read_text())
                del result["tool"]["build_id"]
                result["tool"]["git_dirty"] = directory == after
                fixtures.write_json(path, result)
        process = run("--pool", out, self.after, after)
        self.assertEqual(process.returncode, 1)
        self.assertIn("the after runs come from 2 builds", process.stderr)
        self.assertIn("+dirty", process.stderr)
        self.assertEqual(run("--pool", out).returncode, 2)
        self.assertEqual(run("--pool", out, "--help").returncode, 2)

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
