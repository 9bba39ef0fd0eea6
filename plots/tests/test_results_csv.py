"""The tidy tables (plots/results_csv.py): one row per point, the resolved
config as columns, each cell the value of the result it came from, empty
where a point has none, ablations labelled, the same bytes on every run, and
errors that name the directory.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_results_csv.py -v
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import fixture_model
import fixtures

PLOTS = Path(__file__).resolve().parents[1]
SCRIPT = PLOTS / "results_csv.py"


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, check=False)


def read_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as table:
        return list(csv.DictReader(table))


class ResultsCsv(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-csv-")
        cls.root = Path(cls.tmp.name) / "results"
        cls.directories = fixtures.paper_experiments(
            cls.root, ["fig13-scalability", "fig12a-range-only", "fig16-hocl"])
        # One model ablation of the root: a copy of one experiment.
        ablated = cls.root / "ablation" / "no-processing-units"
        ablated.mkdir(parents=True)
        shutil.copytree(cls.directories["fig13-scalability"], ablated / "fig13-scalability")
        # The ablation's first point as a result older than tool.build_id.
        index = json.loads((ablated / "fig13-scalability" / "experiment.json").read_text())
        cls.older_point = index["points"][0]["name"]
        older = ablated / "fig13-scalability" / index["points"][0]["result"]
        result = json.loads(older.read_text())
        del result["tool"]["build_id"]
        older.write_text(json.dumps(result))
        cls.out = Path(cls.tmp.name) / "runs.csv"
        cls.micro_out = Path(cls.tmp.name) / "micro.csv"
        cls.process = run(cls.root, "--out", cls.out, "--micro-out", cls.micro_out)
        cls.rows = read_rows(cls.out) if cls.out.is_file() else []

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def points(self, name: str) -> list[dict]:
        index = json.loads((self.directories[name] / "experiment.json").read_text())
        return index["points"]

    def test_one_row_per_point_ablations_labelled(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        fig13 = len(self.points("fig13-scalability"))
        fig12 = len(self.points("fig12a-range-only"))
        self.assertEqual(len(self.rows), 2 * fig13 + fig12)
        labels = {(row["experiment"], row["ablation"]) for row in self.rows}
        self.assertEqual(labels, {("fig13-scalability", ""), ("fig12a-range-only", ""),
                                  ("fig13-scalability", "no-processing-units")})
        self.assertIn(f"wrote {len(self.rows)} index-run rows", self.process.stderr)

    def test_cells_are_the_results_values(self):
        for entry in self.points("fig13-scalability"):
            result = json.loads((self.directories["fig13-scalability"] / entry["result"])
                                .read_text())
            row = next(r for r in self.rows
                       if r["point"] == entry["name"] and r["ablation"] == "")
            self.assertEqual(float(row["throughput_mops"]), result["throughput_mops"])
            self.assertEqual(row["config.index.preset"], result["config"]["index"]["preset"])
            self.assertEqual(float(row["config.workload.theta"]),
                             result["config"]["workload"]["theta"])
            self.assertEqual(row["config.topology.colocated"],
                             "true" if result["config"]["topology"]["colocated"] else "false")
            insert = result["operations"]["by_op"]["insert"]
            self.assertEqual(float(row["insert.latency_us.p99"]), insert["latency_us"]["p99"])
            self.assertEqual(float(row["insert.bytes_written_per_op"]),
                             insert["verbs_per_op"]["bytes_written"])
            self.assertEqual(float(row["overall.round_trips.mean"]),
                             result["operations"]["overall"]["round_trips"]["mean"])
            topology = result["config"]["topology"]
            self.assertEqual(int(row["clients"]), 8 * topology["threads_per_compute_server"]
                             * topology["coroutines_per_thread"])
            self.assertEqual(row["series"], entry["variant"])
            self.assertEqual(row["tool.build_id"], result["tool"]["build_id"])

    def test_a_result_older_than_the_build_id_leaves_its_cell_empty(self):
        [older] = [r for r in self.rows
                   if r["point"] == self.older_point and r["ablation"] == "no-processing-units"]
        self.assertEqual(older["tool.build_id"], "")
        self.assertEqual(older["tool.git_revision"], fixture_model.TOOL["git_revision"])

    def test_operations_that_did_not_run_are_empty(self):
        ranges = [row for row in self.rows if row["experiment"] == "fig12a-range-only"]
        self.assertTrue(ranges)
        for row in ranges:
            self.assertNotEqual(row["range.count"], "")
            self.assertEqual(row["insert.count"], "")
            self.assertEqual(row["lookup.latency_us.p99"], "")

    def test_microbenchmark_points_have_their_own_table(self):
        micro = read_rows(self.micro_out)
        document = json.loads((self.directories["fig16-hocl"] / "micro.json").read_text())
        expected = sum(len(benchmark["points"]) for benchmark in document["benchmarks"])
        self.assertEqual(len(micro), expected)
        self.assertEqual({row["experiment"] for row in micro}, {"fig16-hocl"})
        first = document["benchmarks"][0]["points"][0]
        self.assertEqual(float(micro[0]["mops"]), first["mops"])
        self.assertEqual(float(micro[0]["latency_us.p99"]), first["latency_us"]["p99"])
        self.assertNotIn("simulator.wall_seconds", micro[0])

    def test_same_results_same_bytes_and_stdout_without_out(self):
        again = run(self.root, "--prefix", "fig13")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("fig13-scalability", again.stdout)
        self.assertNotIn("fig12a-range-only", again.stdout)
        twice = Path(self.tmp.name) / "again.csv"
        self.assertEqual(run(self.root, "--out", twice, "--micro-out", self.micro_out)
                         .returncode, 0)
        self.assertEqual(twice.read_bytes(), self.out.read_bytes())
        self.assertNotIn("wall", self.out.read_text().splitlines()[0])

    def test_micro_points_left_out_are_counted(self):
        process = run(self.directories["fig16-hocl"])
        self.assertEqual(process.returncode, 0, process.stderr)
        self.assertIn("microbenchmark points left out (--micro-out FILE keeps them)",
                      process.stderr)

    def test_errors_name_the_directory(self):
        missing = Path(self.tmp.name) / "nothing-here"
        process = run(missing)
        self.assertEqual(process.returncode, 1)
        self.assertIn(f"{missing}: results root not found", process.stderr)
        empty = Path(self.tmp.name) / "empty"
        empty.mkdir()
        process = run(empty)
        self.assertEqual(process.returncode, 1)
        self.assertIn("no experiment results", process.stderr)
        broken = Path(self.tmp.name) / "broken"
        shutil.copytree(self.directories["fig12a-range-only"], broken / "fig12a-range-only")
        point = self.points("fig12a-range-only")[0]["result"]
        (broken / "fig12a-range-only" / point).write_text('{"schema_version": 1}')
        process = run(broken)
        self.assertEqual(process.returncode, 1)
        self.assertIn(point, process.stderr)
        self.assertIn("missing field 'config", process.stderr)

    def test_a_micro_benchmark_without_points_is_refused(self):
        # The table read micro documents its own way and wrote no row for an
        # empty `points`, where the figures and the report refuse it.
        broken = Path(self.tmp.name) / "no-micro-points"
        shutil.copytree(self.directories["fig16-hocl"], broken / "fig16-hocl")
        micro = broken / "fig16-hocl" / "micro.json"
        document = json.loads(micro.read_text())
        document["benchmarks"][0]["points"] = []
        micro.write_text(json.dumps(document))
        process = run(broken, "--micro-out", Path(self.tmp.name) / "no-points.csv")
        self.assertEqual(process.returncode, 1)
        self.assertIn(f"{micro} benchmarks[0]: benchmark 'hocl' has no points", process.stderr)


if __name__ == "__main__":
    unittest.main()
