"""The simulator benchmark's table (plots/sim_speed_table.py): one row per
point, each figure taken from its result, refused points shown with their
reason, and damaged input named.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_sim_speed_table.py -v
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

SCRIPT = Path(__file__).resolve().parents[1] / "sim_speed_table.py"
REFUSAL = ("dmbench run: config error: the simulated cluster of workload.keys (1000000000 "
           "keys, ...) needs at least 26.8 GiB of memory in this process, and this machine "
           "has 23.5 GiB")


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


def write_point(folder: Path, mix: str, keys: int, peak: int, speed: float,
                run_suffix: str = "", cpu_seconds: float = 18.0) -> dict:
    config = fixtures.resolve({"workload": {"mix": mix, "keys": keys}})
    result = fixture_model.model_run(config)
    result["wall_clock"].update({"peak_rss_bytes": peak, "wall_seconds": 30.0,
                                 "simulation_wall_seconds": 20.0,
                                 "simulation_cpu_seconds": cpu_seconds,
                                 "index_operations_per_wall_second": speed})
    name = f"{mix}-{config['index']['preset']}-{keys}{run_suffix}"
    fixtures.write_json(folder / f"{name}.json", result)
    (folder / f"{name}.log").write_text("ran\n")
    return result


class SimSpeedTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-sim-speed-")
        self.out = Path(self.tmp.name)
        self.folder = self.out / "points"
        self.folder.mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def test_rows_carry_each_results_figures_and_refusals_their_reason(self):
        small = write_point(self.folder, "write-intensive", 10_000_000, 2 << 30, 250_000.0)
        write_point(self.folder, "read-intensive", 10_000_000, 1 << 30, 900_000.0)
        (self.folder / "write-intensive-sherman-1000000000.log").write_text(
            "== loading\n" + REFUSAL + "\n\n")
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        rows = json.loads((self.out / "sim-speed.json").read_text())
        self.assertEqual([(r["mix"], r["keys"], r["ran"]) for r in rows],
                         [("read-intensive", 10_000_000, True),
                          ("write-intensive", 10_000_000, True),
                          ("write-intensive", 1_000_000_000, False)])
        write = rows[1]
        self.assertEqual(write["index_operations_per_wall_second"], 250_000.0)
        self.assertEqual(write["peak_rss_bytes"], 2 << 30)
        self.assertAlmostEqual(write["bytes_per_key"], (2 << 30) / 10_000_000)
        self.assertEqual(write["setup_wall_seconds"], 10.0)
        self.assertEqual(write["throughput_mops"], small["throughput_mops"])
        self.assertEqual(rows[2]["refused"], REFUSAL)
        table = (self.out / "sim-speed.md").read_text()
        self.assertEqual(process.stdout, table)
        self.assertIn("| write-intensive skewed | sherman | 10,000,000 | 0.250 |", table)
        self.assertIn("| 1,000,000,000 | refused: " + REFUSAL, table)
        self.assertIn(f"| {small['throughput_mops']:.3f} | cold 64 MiB; 1 + 10 ms |", table)
        self.assertEqual((write["cache_prewarm"], write["cache_mib"], write["warmup_ms"],
                          write["measure_ms"]), (False, 64, 1.0, 10.0))

    def test_the_settings_column_says_how_the_caches_started(self):
        result = write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0)
        result["config"]["index"].update({"cache_prewarm": True, "cache_mib": 477})
        result["config"]["run"].update({"warmup_ms": 10.0, "measure_ms": 20.0})
        fixtures.write_json(self.folder / "read-intensive-sherman-10000.json", result)
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        self.assertIn("| warm 477 MiB; 10 + 20 ms |", process.stdout)
        result["config"]["index"]["cache_prewarm"] = "yes"
        fixtures.write_json(self.folder / "read-intensive-sherman-10000.json", result)
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("config.index.cache_prewarm: must be true or false, got 'yes'",
                      process.stderr)

    def test_an_older_result_without_cache_prewarm_started_cold(self):
        result = write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0)
        result["config"]["index"]["cache_mib"] = 477
        del result["config"]["index"]["cache_prewarm"]
        fixtures.write_json(self.folder / "read-intensive-sherman-10000.json", result)
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        self.assertIn("| cold 477 MiB; 1 + 10 ms |", process.stdout)

    def test_a_result_without_a_field_is_named(self):
        result = write_point(self.folder, "write-intensive", 10_000, 1 << 20, 1.0)
        del result["wall_clock"]["events_per_wall_second"]
        path = self.folder / "write-intensive-sherman-10000.json"
        fixtures.write_json(path, result)
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn(f"{path}: wall_clock.events_per_wall_second: missing", process.stderr)

    def table_without(self, wall_clock_field: str) -> subprocess.CompletedProcess:
        """The table of one point whose result lacks `wall_clock_field`, as
        a revision before the field was recorded left it."""
        result = write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0)
        del result["wall_clock"][wall_clock_field]
        fixtures.write_json(self.folder / "read-intensive-sherman-10000.json", result)
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        return process

    def test_an_older_result_without_peak_memory_shows_a_dash(self):
        self.assertIn("| – | – |", self.table_without("peak_rss_bytes").stdout)

    def test_repeated_runs_give_medians_and_the_speed_range(self):
        for run_index, (speed, peak) in enumerate([(300_000.0, 3 << 30), (200_000.0, 1 << 30),
                                                   (260_000.0, 2 << 30)], start=1):
            write_point(self.folder, "write-intensive", 10_000_000, peak, speed, f".r{run_index}")
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-speed.json").read_text())
        self.assertEqual((row["point"], row["runs"]), ("write-intensive-sherman-10000000", 3))
        self.assertEqual(row["index_operations_per_wall_second"], 260_000.0)
        self.assertEqual(row["index_operations_per_wall_second_range"], [200_000.0, 300_000.0])
        self.assertEqual(row["peak_rss_bytes"], 2 << 30)
        self.assertIn("| 10,000,000 | 0.260 (0.200–0.300) |", process.stdout)

    def test_cpu_time_per_operation_with_its_median_and_range(self):
        results = [write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0, f".r{k}",
                               cpu_seconds=cpu)
                   for k, cpu in enumerate([0.3, 0.1, 0.2], start=1)]
        operations = results[0]["simulator"]["index_operations"]
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-speed.json").read_text())
        self.assertAlmostEqual(row["cpu_ns_per_operation"], 0.2e9 / operations)
        low, high = row["cpu_ns_per_operation_range"]
        self.assertAlmostEqual(low, 0.1e9 / operations)
        self.assertAlmostEqual(high, 0.3e9 / operations)
        self.assertIn(f"| {0.2e9 / operations:,.0f} ({0.1e9 / operations:,.0f}–"
                      f"{0.3e9 / operations:,.0f}) |", process.stdout)

    def test_an_older_result_without_cpu_time_shows_a_dash(self):
        process = self.table_without("simulation_cpu_seconds")
        [row] = json.loads((self.out / "sim-speed.json").read_text())
        self.assertIsNone(row["cpu_ns_per_operation"])
        self.assertRegex(process.stdout, r"\| [0-9.]+ \| – \| 30\.0 \(10\.0\) \|")

    def test_runs_of_one_point_that_simulated_differently_are_named(self):
        write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0, ".r1")
        other = write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0, ".r2")
        other["simulator"]["events"] += 1
        fixtures.write_json(self.folder / "read-intensive-sherman-10000.r2.json", other)
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("read-intensive-sherman-10000: its runs simulated different events",
                      process.stderr)

    def test_no_points_and_bad_usage(self):
        self.assertEqual(run(self.out).returncode, 1)
        self.assertEqual(run().returncode, 2)


if __name__ == "__main__":
    unittest.main()
