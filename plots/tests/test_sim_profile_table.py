"""Where the simulator's time goes (plots/sim_profile_table.py): perf
reports split into the simulator's parts, the speed each part's removal
would bound, and damaged input named.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_sim_profile_table.py -v
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from test_sim_speed_table import write_point

SCRIPT = Path(__file__).resolve().parents[1] / "sim_profile_table.py"

# Lines as `perf report --stdio --no-children -q --sort dso,sym` prints them.
REPORT = """\
    20.00%  dmbench            [.] dmbench::rdma::sim::SerialResource::Serve
    10.00%  libc.so.6          [.] __memmove_avx512_unaligned_erms
    10.00%  dmbench            [.] dmbench::InterpolatedUpperBoundWithin<dmbench::indexes::CachedRoutes::Branch const*, dmbench::indexes::IndexCache::SlotFor(dmbench::indexes::IndexCache::Span const&, unsigned long)::{lambda(dmbench::indexes::CachedRoutes::Branch const&)#1}>
    10.00%  dmbench            [.] dmbench::indexes::BLinkTree::Lookup(dmbench::rdma::Client&, unsigned long, unsigned long*, dmbench::indexes::IndexOpStats&)::{lambda()#1}::operator()
    10.00%  dmbench            [.] dmbench::rdma::sim::SimCluster::Dispatch
     9.00%  dmbench            [.] dmbench::rdma::sim::NicModel::ScheduleResponder
     8.00%  [kernel.kallsyms]  [k] clear_page_erms
     7.00%  dmbench            [.] dmbench::driver::KeySpaceBulkload::Range
     6.00%  libm.so.6          [.] __ieee754_pow_fma
     5.00%  dmbench            [.] dmbench::SomethingNew::Run
     5.00%  dmbench            [.] dmbench::rdma::ClientCoroutine::Resume
"""


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


def shares(row: dict) -> dict:
    return {part["part"]: part["share_percent"] for part in row["parts"]}


class SimProfileTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-sim-profile-")
        self.out = Path(self.tmp.name)
        self.folder = self.out / "points"
        self.folder.mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def profile(self, name: str, text: str) -> None:
        (self.folder / f"{name}.perf.txt").write_text(text)

    def profiled_round(self, run_index: int, serve: int) -> None:
        """Round `run_index` of a read-intensive point, which spent `serve`%
        in resource reservations and the rest in the driver."""
        write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0, f".r{run_index}")
        self.profile(f"read-intensive-sherman-10000.r{run_index}",
                     f"  {serve}.00%  dmbench  [.] dmbench::rdma::sim::SerialResource::Serve\n"
                     f"  {100 - serve}.00%  dmbench  [.] dmbench::driver::RunBenchmark\n")

    def test_symbols_go_to_their_parts_and_each_part_bounds_the_speed(self):
        write_point(self.folder, "read-intensive", 10_000, 1 << 20, 800_000.0)
        self.profile("read-intensive-sherman-10000", REPORT)
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-profile.json").read_text())
        got = shares(row)
        self.assertAlmostEqual(got["resource reservations"], 20.0)
        self.assertAlmostEqual(got["libc copies and fills"], 10.0)
        # A generic search counts for whom its template arguments name...
        self.assertAlmostEqual(got["index cache"], 10.0)
        # ...and a lambda for the function it is in, not for its parameters.
        self.assertAlmostEqual(got["index logic"], 10.0)
        self.assertAlmostEqual(got["event queue"], 10.0)
        self.assertAlmostEqual(got["NIC and verb model"], 9.0)
        self.assertAlmostEqual(got["kernel"], 8.0)
        self.assertAlmostEqual(got["node materialization"], 7.0)
        self.assertAlmostEqual(got["workload generation"], 6.0)
        self.assertAlmostEqual(got["coroutines"], 5.0)
        self.assertAlmostEqual(got["unattributed"], 5.0)
        self.assertAlmostEqual(got["all of the fabric model"], 20 + 10 + 9 + 5)
        self.assertAlmostEqual(sum(share for part, share in got.items()
                                   if part != "all of the fabric model"), 100.0)
        self.assertEqual(row["unattributed_symbols"], {"dmbench::SomethingNew::Run": 5.0})
        fabric = next(part for part in row["parts"] if part["part"] == "all of the fabric model")
        self.assertAlmostEqual(fabric["if_free_index_operations_per_wall_second"],
                               800_000.0 / (1 - 0.44))
        table = (self.out / "sim-profile.md").read_text()
        self.assertEqual(process.stdout, table)
        self.assertIn("| resource reservations | 20.0 (1.000) |", table)
        self.assertIn("| all of the fabric model | 44.0 (1.429) |", table)
        self.assertIn("dmbench::SomethingNew::Run 5.0%", table)

    def test_shares_are_rescaled_to_the_samples_perf_listed(self):
        write_point(self.folder, "write-intensive", 10_000, 1 << 20, 100_000.0)
        self.profile("write-intensive-sherman-10000",
                     "    30.00%  dmbench  [.] dmbench::rdma::sim::SerialResource::Serve\n"
                     "    10.00%  dmbench  [.] dmbench::workloads::ClientWorkload::Next\n")
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-profile.json").read_text())
        self.assertAlmostEqual(shares(row)["resource reservations"], 75.0)
        self.assertAlmostEqual(shares(row)["workload generation"], 25.0)

    def test_repeated_runs_give_the_mean_share(self):
        self.profiled_round(1, 40)
        self.profiled_round(2, 20)
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-profile.json").read_text())
        self.assertAlmostEqual(shares(row)["resource reservations"], 30.0)
        self.assertAlmostEqual(shares(row)["driver"], 70.0)

    def test_a_round_that_was_refused_leaves_the_others_profiles(self):
        # Round 2 was refused: a log, no result, no profile.
        self.profiled_round(1, 40)
        self.profiled_round(3, 20)
        (self.folder / "read-intensive-sherman-10000.r2.log").write_text("refused\n")
        process = run(self.out)
        self.assertEqual(process.returncode, 0, process.stderr)
        [row] = json.loads((self.out / "sim-profile.json").read_text())
        self.assertEqual(row["runs"], 2)
        self.assertAlmostEqual(shares(row)["resource reservations"], 30.0)

    def test_a_missing_or_damaged_profile_is_named(self):
        write_point(self.folder, "read-intensive", 10_000, 1 << 20, 1.0)
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("read-intensive-sherman-10000.perf.txt: cannot read it", process.stderr)
        self.profile("read-intensive-sherman-10000", REPORT + "garbage here\n")
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("read-intensive-sherman-10000.perf.txt:12: not a line of `perf report",
                      process.stderr)
        self.profile("read-intensive-sherman-10000", "# no samples\n")
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("no samples", process.stderr)

    def test_refused_points_alone_and_bad_usage(self):
        (self.folder / "write-intensive-sherman-1000000000.log").write_text("refused\n")
        process = run(self.out)
        self.assertEqual(process.returncode, 1)
        self.assertIn("no point ran", process.stderr)
        self.assertEqual(run().returncode, 2)


if __name__ == "__main__":
    unittest.main()
