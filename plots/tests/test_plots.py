"""Runs every plot script on fixture results (tests/fixtures.py) and checks
that it writes a real PNG and PDF, and that missing or malformed results
fail with a non-zero exit and a message naming the file and field.

    /usr/bin/python3 -m unittest discover -s plots/tests -v
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import fixture_model
import fixtures
import schema

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
import dmbench_results as dr  # noqa: E402  (needs the path above)
import micro_results  # noqa: E402  (needs the path above)
import figure_drawing as fd  # noqa: E402
import workload_scale  # noqa: E402

MIN_PNG_BYTES = 8 * 1024  # a drawn figure; an empty canvas is about 2 KB
TIMEOUT_SECONDS = 120


def run_script(script: str, results: list[Path], out: Path, *extra: str):
    return subprocess.run(
        [sys.executable, str(PLOTS / script), "--results", *map(str, results),
         "--out", str(out), *extra],
        capture_output=True, text=True, timeout=TIMEOUT_SECONDS, cwd=PLOTS.parent)


class PlotScripts(unittest.TestCase):
    """One fixture directory and one run per script, made once, in parallel
    (each run pays for the matplotlib import)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-plots-")
        root = Path(cls.tmp.name)
        cls.results = {script: build(root / "results" / script.removesuffix(".py"))
                       for script, (build, _) in fixtures.FIGURES.items()}
        cls.outputs = {script: root / "out" / script.removesuffix(".py")
                       for script in fixtures.FIGURES}
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            runs = {script: pool.submit(run_script, script, cls.results[script],
                                        cls.outputs[script], *extra)
                    for script, (_, extra) in fixtures.FIGURES.items()}
            cls.runs = {script: future.result() for script, future in runs.items()}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_draws(self, script: str):
        run = self.runs[script]
        self.assertEqual(run.returncode, 0, f"{script} failed:\n{run.stderr}")
        self.assertEqual(run.stderr, "", f"{script} complained:\n{run.stderr}")
        stem = self.outputs[script]
        png, pdf = Path(f"{stem}.png"), Path(f"{stem}.pdf")
        self.assertTrue(png.read_bytes().startswith(b"\x89PNG"), png)
        self.assertGreater(png.stat().st_size, MIN_PNG_BYTES, png)
        self.assertTrue(pdf.read_bytes().startswith(b"%PDF"), pdf)
        self.assertGreater(pdf.stat().st_size, 1024, pdf)

    def check_missing_results(self, script: str):
        missing = Path(self.tmp.name) / "no-such-results"
        out = Path(self.tmp.name) / "missing" / script
        run = run_script(script, [missing], out)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn(str(missing), run.stderr)
        self.assertIn("not found", run.stderr)
        self.assertFalse(Path(f"{out}.png").exists(), "no figure from missing results")

    def test_fixture_results_follow_the_schema(self):
        checked = 0
        for directories in self.results.values():
            for directory in directories:
                index = json.loads((directory / "experiment.json").read_text())
                if "micro" in index["experiment"]:
                    continue
                for point in index["points"]:
                    result = json.loads((directory / point["result"]).read_text())
                    self.assertEqual(schema.check_result(result), [], point["result"])
                    checked += 1
        self.assertGreater(checked, 0)

    def test_schema_check_catches_missing_and_unlisted_fields(self):
        directory = self.results["fig14.py"][0]
        point = json.loads((directory / "experiment.json").read_text())["points"][0]
        result = json.loads((directory / point["result"]).read_text())
        del result["operations"]["by_op"]["insert"]["round_trips"]
        result["bogus"] = 1
        errors = schema.check_result(result)
        self.assertIn("missing operations.by_op.insert.round_trips", errors)
        self.assertIn("bogus is not in the schema", errors)

    def test_missing_field_names_file_and_field(self):
        source = self.results["fig14.py"][0]
        broken = Path(self.tmp.name) / "broken-field"
        copy_tree(source, broken)
        point = json.loads((broken / "experiment.json").read_text())["points"][1]
        result_file = broken / point["result"]
        result = json.loads(result_file.read_text())
        del result["operations"]["by_op"]["lookup"]["read_retries"]
        result_file.write_text(json.dumps(result))
        run = run_script("fig14.py", [broken], Path(self.tmp.name) / "broken-field-out")
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn(str(result_file), run.stderr)
        self.assertIn("operations.by_op.lookup.read_retries", run.stderr)

    def test_missing_point_result_names_the_file(self):
        source = self.results["table1.py"][0]
        broken = Path(self.tmp.name) / "broken-point"
        copy_tree(source, broken)
        point = json.loads((broken / "experiment.json").read_text())["points"][2]
        (broken / point["result"]).unlink()
        run = run_script("table1.py", [broken], Path(self.tmp.name) / "broken-point-out")
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn(str(broken / point["result"]), run.stderr)
        self.assertIn("not found", run.stderr)

    def test_micro_results_for_an_index_figure_are_refused(self):
        run = run_script("fig10.py", self.results["fig16.py"],
                         Path(self.tmp.name) / "wrong-kind")
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("microbenchmark experiment", run.stderr)

    def test_figure_14_draws_a_series_or_panel_with_no_operations(self):
        import fig14
        directory = fixtures.fig14(Path(self.tmp.name) / "no-lookups")[0]

        def no_lookups(name):
            result = directory / name
            document = json.loads(result.read_text(encoding="utf-8"))
            document["operations"]["by_op"]["lookup"]["read_retries"].update(
                count=0, buckets=[], min=0, max=0, mean=0, p50=0, p90=0, p99=0, p999=0)
            result.write_text(json.dumps(document), encoding="utf-8")

        def panel_a():
            figure = fig14.draw([dr.load_experiment(directory)], None)
            return next(ax for ax in figure.axes if ax.get_title().startswith("(a)"))
        no_lookups("FG+.json")
        legend = [text.get_text() for text in panel_a().get_legend().get_texts()]
        self.assertEqual(legend, ["FG+: none recorded", "Sherman"])
        no_lookups("Sherman.json")
        self.assertEqual([text.get_text() for text in panel_a().texts],
                         ["no operations recorded"])

    def test_figure_15_refuses_two_skews_in_one_key_size_panel(self):
        import fig15
        directory = fixtures.write_sweep(Path(self.tmp.name) / "fig15-skews", {
            "name": "fig15-skews", "figure": "Figure 15 (§5.6)", "ae": "fig15",
            "plot": {"script": "fig15"}, "base": fixtures.index_base(),
            "variants": fixtures.FG_AND_SHERMAN,
            "sweep": {"index.key_bytes": [16, 64], "workload.theta": [0.9, 0.99]}})
        with self.assertRaisesRegex(dr.ResultsError, r"fig15-skews: Figure 15's panel \(b\) "
                                    r"Key size draws one skewed key distribution, found "
                                    r"skew 0.9, skew 0.99"):
            fig15.draw([dr.load_experiment(directory)], None)


class DamagedResults(unittest.TestCase):
    """Damage found by tests/fuzz_results.py, each of which used to escape
    as a Python exception instead of a ResultsError naming file and field."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-damaged-")
        self.directory = fixtures.fig14(Path(self.tmp.name))[0]
        self.index_file = self.directory / "experiment.json"

    def tearDown(self):
        self.tmp.cleanup()

    def edit_index(self, edit):
        index = json.loads(self.index_file.read_text())
        edit(index)
        self.index_file.write_text(json.dumps(index))

    def test_experiment_figure_and_name_must_be_strings(self):
        self.edit_index(lambda index: index["experiment"].update(figure=1))
        with self.assertRaisesRegex(dr.ResultsError, r"experiment: field 'figure' should be a string"):
            dr.load_experiment(self.directory)
        self.edit_index(lambda index: index["experiment"].update(figure="Figure 14", name=[1]))
        with self.assertRaisesRegex(dr.ResultsError, r"experiment: field 'name' should be a string"):
            dr.load_experiment(self.directory)

    def test_paper_scale_must_be_an_object(self):
        self.edit_index(lambda index: index["experiment"].update(paper_scale=[1]))
        experiment = dr.load_experiment(self.directory)
        with self.assertRaisesRegex(dr.ResultsError, r"field 'paper_scale' should be an object"):
            workload_scale.caption([experiment])

    def test_result_that_is_not_utf8_or_nested_too_deep_is_named(self):
        result = self.directory / json.loads(self.index_file.read_text())["points"][0]["result"]
        result.write_bytes(b"{\"a\": \"\xff\"}")
        with self.assertRaisesRegex(dr.ResultsError, r"is not UTF-8 text"):
            dr.load_experiment(self.directory)
        result.write_bytes(b"[" * 100000)
        with self.assertRaisesRegex(dr.ResultsError, r"nested too deeply"):
            dr.load_experiment(self.directory)


def copy_tree(source: Path, target: Path) -> None:
    target.mkdir(parents=True)
    for file in source.iterdir():
        (target / file.name).write_bytes(file.read_bytes())


# test_<script>_draws and test_<script>_missing_results for every script.
for _script in fixtures.FIGURES:
    _name = _script.removesuffix(".py")
    setattr(PlotScripts, f"test_{_name}_draws",
            lambda self, script=_script: self.check_draws(script))
    setattr(PlotScripts, f"test_{_name}_missing_results",
            lambda self, script=_script: self.check_missing_results(script))


class Histograms(unittest.TestCase):
    def histogram(self, buckets):
        document = {"h": {"count": sum(b[2] for b in buckets), "buckets": buckets}}
        return dr.Histogram.parse(document, "h", "test.json")

    def test_cdf_is_exact_at_bucket_upper_ends(self):
        xs, ys = self.histogram([[0, 0, 6], [1, 1, 2], [128, 129, 2]]).cdf()
        self.assertEqual(xs, [0, 1, 129])
        self.assertEqual(ys, [0.6, 0.8, 1.0])

    def test_merge_adds_counts_of_equal_buckets(self):
        merged = self.histogram([[3, 3, 1], [4, 4, 1]]).merged(self.histogram([[4, 4, 2]]))
        self.assertEqual(merged.count, 4)
        self.assertEqual(merged.buckets, ((3, 3, 1), (4, 4, 3)))

    def test_fixture_buckets_match_the_harness(self):
        # log-linear: exact below 128, then 64 buckets per power of two;
        # [1296, 1311] ns is a latency bucket of a real `dmbench run` result.
        self.assertEqual(fixture_model.bucket_of(127), (127, 127))
        self.assertEqual(fixture_model.bucket_of(128), (128, 129))
        self.assertEqual(fixture_model.bucket_of(1300), (1296, 1311))

    def test_count_must_match_buckets(self):
        document = {"h": {"count": 5, "buckets": [[0, 0, 4]]}}
        with self.assertRaisesRegex(dr.ResultsError, r"test.json: field 'h': buckets hold 4"):
            dr.Histogram.parse(document, "h", "test.json")

    def test_buckets_must_ascend(self):
        document = {"h": {"count": 2, "buckets": [[5, 5, 1], [2, 2, 1]]}}
        with self.assertRaisesRegex(dr.ResultsError, r"h\.buckets\[1\]"):
            dr.Histogram.parse(document, "h", "test.json")

    def test_micro_points_must_be_objects(self):
        # A point that is not an object was iterated as one (fuzz seed 6).
        benchmark = micro_results.MicroBenchmark({"benchmark": "verbs", "points": [{"mops": 1}, True]},
                                      Path("micro.json"))
        with self.assertRaisesRegex(dr.ResultsError,
                                    r"micro.json: field 'points\[1\]' should be an object, "
                                    r"got true"):
            benchmark.points()

    def test_require_names_the_field_and_type(self):
        with self.assertRaisesRegex(dr.ResultsError, r"r.json: missing field 'a.b.c'"):
            dr.require({"a": {"b": {}}}, "a.b.c", "r.json")
        with self.assertRaisesRegex(dr.ResultsError, r"'a' should be a number, got \"x\""):
            dr.require({"a": "x"}, "a", "r.json", dr.NUMBER)


class WorkloadScaleCaption(unittest.TestCase):
    """Index figures state their key count, the paper's, and the hottest
    key's share, which decide where a point sits near a collapse."""

    def sweep(self, root: Path, name: str, paper_keys: int | None, **workload):
        definition = {"name": name, "figure": "Figure 10 (§5.2.1)",
                      "base": fixtures.index_base(**workload),
                      "variants": fixtures.FG_AND_SHERMAN}
        if paper_keys is not None:
            definition["paper_scale"] = {"key_count": paper_keys}
        return dr.load_experiment(fixtures.write_sweep(root / name, definition))

    def test_counts_read_as_the_paper_writes_them(self):
        self.assertEqual(workload_scale.count_text(10_000_000), "10 M")
        self.assertEqual(workload_scale.count_text(1_000_000_000), "1 B")
        self.assertEqual(workload_scale.count_text(200_000_000), "200 M")
        self.assertEqual(workload_scale.count_text(20_000), "20 k")

    def test_title_states_keys_paper_keys_population_and_hottest_share(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            scaled = self.sweep(root, "scaled", 10**9, keys=10_000_000)
            self.assertEqual(fd.figure_title([scaled], "Figure 10", "Breakdown"),
                             "Figure 10 (§5.2.1): Breakdown · 10 M keys (paper 1 B), "
                             "hottest key 5.5%")
            faithful = self.sweep(root, "faithful", 10**9, keys=10_000_000,
                                  zipf_population=10**9)
            self.assertEqual(workload_scale.caption([faithful]),
                             "10 M keys (paper 1 B), Zipf ranks over 1 B, hottest key 4.2%")
            uniform = self.sweep(root, "uniform", None, distribution="uniform")
            self.assertEqual(workload_scale.caption([uniform]), "1 M keys")
            self.assertEqual(workload_scale.caption([scaled, faithful]),
                             "10 M keys (paper 1 B), Zipf ranks over 1 B, hottest key 4.2-5.5%")

    def test_results_without_the_scale_section_give_the_key_count(self):
        with tempfile.TemporaryDirectory() as tmp:
            experiment = self.sweep(Path(tmp), "old", 10**9, keys=10_000_000)
            for point in experiment.points:
                del point.result["workload_scale"]
            self.assertEqual(workload_scale.caption([experiment]), "10 M keys (paper 1 B)")


if __name__ == "__main__":
    unittest.main()
