"""What a change did to the simulator's counts (plots/sim_count_change.py):
two count tables compared point by point, the points to time named, and
missing or mismatched input refused with the file named.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_sim_count_change.py -v
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "sim_count_change.py"


def counted(point: str = "read-intensive-sherman-10000", instructions: float = 5000.0,
            ll_misses: float = 4.0, mispredicts: float = 30.0, events: int = 2000,
            fabric: float = 2500.0) -> dict:
    """A row of sim-count.json, as plots/sim_count_table.py writes it."""
    return {
        "point": point, "mix": point.split("-sherman")[0], "index": "sherman",
        "keys": 10_000, "index_operations": 1000, "events": events,
        "instructions": int(instructions * 1000),
        "instructions_per_operation": instructions, "instructions_per_event": 2.5,
        "l1d_misses_per_operation": 140.0, "ll_misses_per_operation": ll_misses,
        "mispredicts_per_operation": mispredicts,
        "parts": [{"part": "all of the fabric model", "instructions_per_operation": fabric,
                   "share_percent": 50.0},
                  {"part": "index cache", "instructions_per_operation": 400.0,
                   "share_percent": 8.0}],
        "unattributed_functions": {},
    }


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


class SimCountChange(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-sim-count-change-")
        self.before = Path(self.tmp.name) / "before"
        self.after = Path(self.tmp.name) / "after"
        self.before.mkdir()
        self.after.mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def tables(self, before: list, after: list, speed_after: float = 0.8e6) -> \
            subprocess.CompletedProcess:
        for directory, rows, speed in ((self.before, before, 0.75e6),
                                       (self.after, after, speed_after)):
            (directory / "sim-count.json").write_text(json.dumps(rows))
            timed = [{"point": row["point"], "index_operations_per_wall_second": speed,
                      "peak_rss_bytes": 3 << 29} for row in rows]
            (directory / "sim-speed.json").write_text(json.dumps(timed))
        return run(self.before, self.after)

    def test_each_count_and_part_before_and_after_for_the_points_counted_in_both(self):
        process = self.tables(
            [counted(), counted("write-intensive-sherman-10000", instructions=11000.0)],
            [counted(instructions=4500.0, fabric=2000.0),
             counted("read-intensive-fgplus-10000")])
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.after / "sim-count-change.json").read_text())
        self.assertEqual(row["point"], "read-intensive-sherman-10000")
        instructions = row["counts"]["instructions_per_operation"]
        self.assertEqual((instructions["before"], instructions["after"]), (5000.0, 4500.0))
        self.assertAlmostEqual(instructions["change"], -0.1)
        self.assertAlmostEqual(row["counts"]["ll_misses_per_operation"]["change"], 0.0)
        self.assertTrue(row["same_simulation"])
        self.assertFalse(row["time_it"])
        self.assertEqual(row["parts"][0],
                         {"part": "all of the fabric model", "before": 2500.0, "after": 2000.0})
        table = (self.after / "sim-count-change.md").read_text()
        self.assertEqual(process.stdout, table)
        self.assertIn("| 5,000 → 4,500 (-10.0%) |", table)
        # The timed pass's speed and memory beside the counts.
        self.assertIn("| 0.750 → 0.800 (+6.7%) | 1.50 → 1.50 (+0.0%) |", table)
        self.assertIn("| all of the fabric model | 2,500 → 2,000 |", table)
        self.assertIn("time these before believing the count: none.", table)

    def test_fewer_instructions_with_more_misses_or_mispredictions_is_named(self):
        process = self.tables(
            [counted(), counted("write-intensive-sherman-10000")],
            [counted(instructions=4800.0, ll_misses=8.0),
             counted("write-intensive-sherman-10000", instructions=4800.0, ll_misses=4.3,
                     mispredicts=32.0)])
        self.assertEqual(process.returncode, 0, process.stderr)
        read, write = json.loads((self.after / "sim-count-change.json").read_text())
        self.assertTrue(read["time_it"])
        self.assertEqual(read["rose"], ["ll_misses_per_operation"])
        # Within NOTED_RISE: counted as noise.
        self.assertFalse(write["time_it"])
        self.assertIn("time these before believing the count: read sherman 10,000 "
                      "(LL misses).", process.stdout)

    def test_where_mispredictions_and_misses_moved_most_is_named(self):
        run_lambda = ("dmbench::driver::RunBenchmark(dmbench::driver::RunConfig const&)::"
                      "{lambda(dmbench::rdma::Client&)#3}::operator()"
                      "(dmbench::rdma::Client&) const")
        before = dict(counted(), by_function={
            "mispredicts": {"__memcpy_avx_unaligned_erms": 2.0, run_lambda: 1.0,
                            "dmbench::Same::Go() const": 0.5, "dmbench::Gone::Run(int)": 0.1},
            "l1d_misses": {"__memcpy_avx_unaligned_erms": 3.0}}, by_source={
            "mispredicts": {"harness/rdma/sim/event_queue.h": 1.0, "memmove.S": 2.0},
            "l1d_misses": {}})
        after = dict(counted(), by_function={
            "mispredicts": {"__memcpy_avx_unaligned_erms": 0.5, run_lambda: 1.5,
                            "dmbench::Same::Go() const": 0.5, "dmbench::New::Run(int)": 0.2},
            "l1d_misses": {"__memcpy_avx_unaligned_erms": 2.0, "dmbench::New::Run(int)": 0.25}},
            by_source={"mispredicts": {"harness/rdma/sim/event_queue.h": 3.5, "memmove.S": 2.0},
                       "l1d_misses": {"stl_vector.h": 0.5}})
        # Tables written before sources were kept.
        functions_only = {"by_function": before["by_function"]}
        process = self.tables(
            [before, dict(counted("write-intensive-sherman-10000"), **functions_only)],
            [after, dict(counted("write-intensive-sherman-10000"), **functions_only)])
        self.assertEqual(process.returncode, 0, process.stderr)
        read, write = json.loads((self.after / "sim-count-change.json").read_text())
        # The largest moves first; one that moved not at all is left out.
        self.assertEqual(read["moved_most"]["by_function"]["mispredicts"],
                         [{"place": "__memcpy_avx_unaligned_erms", "before": 2.0,
                           "after": 0.5},
                          {"place": run_lambda, "before": 1.0, "after": 1.5},
                          {"place": "dmbench::New::Run(int)", "before": 0.0, "after": 0.2}])
        self.assertIn("- read sherman 10,000, by function: branch mispredicts "
                      "__memcpy_avx_unaligned_erms -1.50, driver::RunBenchmark::{lambda#3}::"
                      "operator() +0.50, New::Run +0.20; L1d misses __memcpy_avx_unaligned_erms "
                      "-1.00, New::Run +0.25\n", process.stdout)
        self.assertIn("- read sherman 10,000, by source file: branch mispredicts "
                      "harness/rdma/sim/event_queue.h +2.50, memmove.S +0.00; L1d misses "
                      "stl_vector.h +0.50\n", process.stdout)
        # Tables written before the counts were kept per place say so.
        self.assertIsNone(write["moved_most"]["by_source"])
        self.assertIn("- write sherman 10,000, by function: branch mispredicts "
                      "__memcpy_avx_unaligned_erms +0.00, Gone::Run +0.00, Same::Go() +0.00; "
                      "L1d misses __memcpy_avx_unaligned_erms +0.00\n", process.stdout)
        self.assertIn("- write sherman 10,000, by source file: not recorded (a count table "
                      "written before plots/sim_count_table.py kept counts per source file)\n",
                      process.stdout)

    def test_counts_per_place_that_are_not_amounts_are_refused(self):
        for field in ("by_function", "by_source"):
            for damaged in ({"mispredicts": {"f": "many"}, "l1d_misses": {}},
                            {"mispredicts": {}}, []):
                with self.subTest(field=field, damaged=damaged):
                    process = self.tables([counted()], [dict(counted(), **{field: damaged})])
                    self.assertEqual(process.returncode, 1, process.stdout)
                    self.assertIn("after/sim-count.json, point read-intensive-sherman-10000: "
                                  f"{field}.", process.stderr)

    def test_a_change_that_altered_the_simulation_is_marked(self):
        process = self.tables([counted()], [counted(events=2001)])
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.after / "sim-count-change.json").read_text())
        self.assertFalse(row["same_simulation"])
        self.assertIn("no: the change altered results", process.stdout)

    def test_counts_of_two_last_level_cache_sizes_are_refused(self):
        # A table written before --count-llc records no size: it was 32 MiB.
        older = counted()
        for size, compares in ((32 << 20, True), (8 << 20, False)):
            with self.subTest(size=size):
                newer = dict(counted(), llc_bytes=size)
                process = self.tables([older], [newer])
                self.assertEqual(process.returncode, 0 if compares else 1, process.stderr)
                if not compares:
                    self.assertIn("after/sim-count.json, point read-intensive-sherman-10000: "
                                  "counted with a last-level cache of 8388608 bytes",
                                  process.stderr)
                    self.assertIn("the same ae/bench-sim.sh --count-llc", process.stderr)

    def test_missing_or_unmatched_input_and_bad_usage(self):
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 1)
        self.assertIn("before/sim-count.json: the count table", process.stderr)
        process = self.tables([counted()], [counted("write-intensive-sherman-10000")])
        self.assertEqual(process.returncode, 1)
        self.assertIn("no point was counted in both", process.stderr)
        damaged = counted()
        del damaged["ll_misses_per_operation"]
        process = self.tables([counted()], [damaged])
        self.assertEqual(process.returncode, 1)
        self.assertIn("ll_misses_per_operation", process.stderr)
        self.assertIn("after/sim-count.json, point 0", process.stderr)
        self.tables([counted()], [counted()])
        (self.after / "sim-speed.json").write_text(json.dumps([{"point": "another"}]))
        process = run(self.before, self.after)
        self.assertEqual(process.returncode, 1)
        self.assertIn("after/sim-speed.json, point read-intensive-sherman-10000: missing",
                      process.stderr)
        self.assertEqual(run(self.before).returncode, 2)
        self.assertEqual(run("--help", self.after).returncode, 2)


if __name__ == "__main__":
    unittest.main()
