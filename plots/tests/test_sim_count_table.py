"""What the simulator executes per operation (plots/sim_count_table.py):
callgrind's counts read from its own format, split into the simulator's
parts per simulated index operation, and damaged or mismatched input named.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_sim_count_table.py -v
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from test_sim_speed_table import write_point

SCRIPT = Path(__file__).resolve().parents[1] / "sim_count_table.py"
EVENTS = "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim"


def callgrind_output(counts: str, body: str) -> str:
    """A callgrind output file as valgrind 3.19 writes one with
    --cache-sim=yes (a 32 MiB last-level cache): `body` after the header,
    `counts` its summary and its totals."""
    return f"""\
# callgrind format
version: 1
creator: callgrind-3.19.0
desc: LL cache: 33554432 B, 64 B, 16-way associative
positions: line
events: {EVENTS}
summary: {counts}
{body}
totals: {counts}
"""


# Names compressed after their first use, a call's inclusive cost after its
# calls= line, an inlined file (fi=) inside a function, relative positions.
# Own instructions: Serve 300, FindLeaf 100, pow 200 + 100, SomethingNew 300.
COUNTS = callgrind_output("1000 0 0 0 6 4 0 1 1 90 7 10 3", """
ob=(1) /build/release/harness/cli/dmbench
fl=(1) ???
fn=(1) dmbench::rdma::sim::SerialResource::Serve(long, long, long)
0 300 0 0 0 6 4 0 1 1 90 7 10 3
cfn=(2) dmbench::indexes::IndexCache::FindLeaf(unsigned long)
calls=5 0
0 999999 0 0 0 50
fn=(2)
0 100

ob=(2) /usr/lib/x86_64-linux-gnu/libm.so.6
fl=(2) ./math/../sysdeps/ieee754/dbl-64/e_pow.c
fn=(3) __ieee754_pow_fma
12 200
fi=(3) ./math/../sysdeps/ieee754/dbl-64/math_config.h
+2 100

ob=(1)
fl=(1)
fn=(4) dmbench::SomethingNew::Run()
* 300
""")

# Inlined code (fi=, fe=) of one function, and a function after it with no
# fl= of its own: its lines are its function's file's again. The checkout
# lies under a folder named like one of the project's.
INLINED = callgrind_output("100 0 0 0 4 0 0 0 0 20 9 0 0", """
ob=(1) /build/release/harness/cli/dmbench
fl=(1) /home/me/workloads/one/harness/rdma/sim/nic_model.cc
fn=(1) dmbench::rdma::sim::NicModel::ScheduleResponder(int)
10 30 0 0 0 0 0 0 0 0 5 2
fi=(2) /home/me/workloads/one/harness/rdma/sim/event_queue.h
+10 30 0 0 0 1 0 0 0 0 5 5
fe=(3) /usr/include/c++/12/bits/stl_vector.h
+10 10 0 0 0 3
fn=(2) dmbench::rdma::sim::NicModel::Respond(int)
40 30 0 0 0 0 0 0 0 0 10 2
""")


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


def per_operation(row: dict) -> dict:
    return {part["part"]: part["instructions_per_operation"] for part in row["parts"]}


class SimCountTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-sim-count-")
        self.out = Path(self.tmp.name)
        self.folder = self.out / "points"
        (self.folder / "callgrind").mkdir(parents=True)

    def tearDown(self):
        self.tmp.cleanup()

    def point(self, stem: str = "read-intensive-sherman-10000", counts: str = COUNTS,
              suffix: str = "") -> dict:
        """A timed point, and its counted run: the same result, and `counts`."""
        result = write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0, suffix)
        shutil.copy(self.folder / f"{stem}{suffix}.json",
                    self.folder / "callgrind" / f"{stem}{suffix}.json")
        (self.folder / "callgrind" / f"{stem}{suffix}.out").write_text(counts)
        return result

    def test_counts_per_operation_in_all_and_by_part(self):
        result = self.point()
        operations = result["simulator"]["index_operations"]
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-count.json").read_text())
        self.assertEqual(row["instructions"], 1000)
        self.assertAlmostEqual(row["instructions_per_operation"], 1000 / operations)
        self.assertAlmostEqual(row["instructions_per_event"],
                               1000 / result["simulator"]["events"])
        self.assertAlmostEqual(row["l1d_misses_per_operation"], 10 / operations)
        self.assertAlmostEqual(row["ll_misses_per_operation"], 2 / operations)
        self.assertAlmostEqual(row["mispredicts_per_operation"], 10 / operations)
        self.assertEqual(row["llc_bytes"], 32 << 20)
        got = per_operation(row)
        self.assertAlmostEqual(got["resource reservations"], 300 / operations)
        # A call's cost is the callee's, not the caller's own.
        self.assertAlmostEqual(got["index cache"], 100 / operations)
        # Inlined code (fi=) counts for the function it is inlined in, and
        # the object (libm) decides the part.
        self.assertAlmostEqual(got["workload generation"], 300 / operations)
        self.assertAlmostEqual(got["unattributed"], 300 / operations)
        self.assertAlmostEqual(got["all of the fabric model"], 300 / operations)
        self.assertNotIn("kernel", got)
        shares = {part["part"]: part["share_percent"] for part in row["parts"]}
        self.assertAlmostEqual(shares["resource reservations"], 30.0)
        self.assertEqual(list(row["unattributed_functions"]), ["dmbench::SomethingNew::Run()"])
        # Per function, its own mispredictions and L1 data misses (not those
        # of what it calls), and only functions that have any.
        serve = "dmbench::rdma::sim::SerialResource::Serve(long, long, long)"
        self.assertEqual(row["by_function"], {"mispredicts": {serve: 10 / operations},
                                              "l1d_misses": {serve: 10 / operations}})
        self.assertEqual(row["by_source"], {"mispredicts": {"???": 10 / operations},
                                            "l1d_misses": {"???": 10 / operations}})
        table = (self.out / "sim-count.md").read_text()
        self.assertEqual(process.stdout, table)
        self.assertIn(f"| {1000 / operations:,.0f} |", table)
        self.assertIn("dmbench::SomethingNew::Run()", table)
        self.assertIn("a last-level cache of 32 MiB.", table)

    def test_inlined_code_counts_for_its_function_and_for_its_own_source_file(self):
        result = self.point(counts=INLINED)
        operations = result["simulator"]["index_operations"]
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-count.json").read_text())
        self.assertEqual(row["by_function"]["mispredicts"], {
            "dmbench::rdma::sim::NicModel::ScheduleResponder(int)": 7 / operations,
            "dmbench::rdma::sim::NicModel::Respond(int)": 2 / operations})
        # The project's files are named from its top folder on, whatever the
        # checkout's path; others by their file name.
        self.assertEqual(row["by_source"], {
            "mispredicts": {"harness/rdma/sim/nic_model.cc": 4 / operations,
                            "harness/rdma/sim/event_queue.h": 5 / operations},
            "l1d_misses": {"harness/rdma/sim/event_queue.h": 1 / operations,
                           "stl_vector.h": 3 / operations}})

    def test_the_last_level_cache_counted_with_is_recorded_and_named(self):
        # ae/bench-sim.sh --count-llc 8: callgrind's header says so.
        self.point(counts=COUNTS.replace("LL cache: 33554432 B", "LL cache: 8388608 B"))
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-count.json").read_text())
        self.assertEqual(row["llc_bytes"], 8 << 20)
        self.assertIn("a last-level cache of 8 MiB.", process.stdout)
        self.assertNotIn("32 MiB", process.stdout)

    def test_repeated_points_are_counted_once_from_their_first_run(self):
        self.point(suffix=".r1")
        write_point(self.folder, "read-intensive", 10_000, 1 << 20, 2.0, ".r2")
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-count.json").read_text())
        self.assertEqual(row["instructions"], 1000)

    def test_a_counted_run_that_simulated_something_else_is_refused(self):
        self.point()
        counted = self.folder / "callgrind" / "read-intensive-sherman-10000.json"
        result = json.loads(counted.read_text())
        result["simulator"]["events"] += 1
        counted.write_text(json.dumps(result))
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("the counted run simulated events", process.stderr)

    def test_damaged_counts_are_named(self):
        cases = {
            COUNTS.replace("summary: 1000", "summary: 1001").replace("totals: 1000",
                                                                       "totals: 1001"):
                "its functions' instructions add up to 1000, its summary says 1001",
            COUNTS.replace("totals: 1000", "totals: 1001"):
                ".out:31: the totals disagree with the summary",
            COUNTS.replace("desc: LL cache: 33554432 B, 64 B, 16-way associative\n", ""):
                "(missing: its LL cache's description)",
            COUNTS.replace(EVENTS, "Ir").replace(" 0 0 0 6 4 0 1 1 90 7 10 3", ""):
                "not the output of callgrind --cache-sim=yes --branch-sim=yes (missing: D1mr",
            COUNTS.replace(" Bc Bcm Bi Bim", "").replace(" 90 7 10 3", ""):
                "(missing: Bcm, Bim)",
            COUNTS.replace("fn=(2) dmbench::indexes::IndexCache::FindLeaf(unsigned long)",
                           "fn=(9)"): "fn=(9) before its name was given",
            COUNTS.replace("0 100\n", "0 lots\n"): "a count is not a number",
            "desc: LL cache: 8388608 B, 64 B, 16-way associative\npositions: line\n"
            "events: Ir D1mr D1mw DLmr DLmw Bcm Bim\nsummary: 0 0 0 0 0 0 0\n":
                "no instructions counted",
        }
        for counts, message in cases.items():
            with self.subTest(message=message):
                self.point(counts=counts)
                process = run(self.out)
                self.assertEqual(process.returncode, 1)
                self.assertIn(message, process.stderr)

    def test_an_uncounted_point_and_bad_usage(self):
        write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0)
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("was the point counted? ae/bench-sim.sh --count", process.stderr)
        self.assertEqual(run().returncode, 2)


if __name__ == "__main__":
    unittest.main()
