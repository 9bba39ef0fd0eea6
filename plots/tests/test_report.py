"""Runs report.py on fixture results of the experiment files
(fixtures.paper_experiments) and checks the report: every figure drawn is
embedded and exists, the calibration set and the prediction set together
have one row per claim, claims of absent experiments say "not run", and
malformed results fail naming the file and field. The claims' own rules are
test_claims.py's, the model ablations' section test_report_ablation.py's.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_report.py -v
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import fixture_model
import fixtures

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
import claims  # noqa: E402  (needs the path above)
import provenance  # noqa: E402

TIMEOUT_SECONDS = 120
MIN_PNG_BYTES = 8 * 1024  # a drawn figure; an empty canvas is about 2 KB
# Left out of the fixture results, so that their claims must say "not run".
ABSENT = ("fig13-scalability", "fig03-verbs-outbound")
# Figures the present experiments make (fig03 from its inbound half alone).
EXPECTED_FIGURES = {"table1", "fig02", "fig03", "fig10", "fig11", "fig12", "fig14", "fig15",
                    "fig16", "open_loop", "smart_scaleup", "smart_btree",
                    "smart_breakdown"}
VERDICTS = {claims.YES, claims.PARTLY, claims.NO}
CALIBRATION, PREDICTION = "### Calibration set", "### Prediction set"
SMART = "### SMART's claims on SMART-BT"


def run_report(root: Path, out: Path, *extra: str):
    return subprocess.run(
        [sys.executable, str(PLOTS / "report.py"), "--results-root", str(root),
         "--out", str(out), *extra],
        capture_output=True, text=True, timeout=TIMEOUT_SECONDS, cwd=PLOTS.parent)


def table_rows(report: str, heading: str) -> list[list[str]]:
    """The cells of the rows of the first table after `heading` (its header
    and rule line skipped)."""
    section = report.split(f"\n{heading}\n", 1)[1]
    lines = []
    for line in section.lstrip("\n").splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:  # the table has ended
            break
    rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    return rows[2:]  # after the header and the |---| line


def claim_rows(report: str) -> list[list[str]]:
    """The rows of the claims of the paper, calibration set first, each as
    the prediction table orders its cells: ID, claim, figure, paper, ours,
    ours/paper, verdict, within ±25%."""
    public = {target.id for target in claims.CALIBRATION_TARGETS}
    calibration = [[row[0], row[1], row[2], row[3], row[4], row[5], row[7], row[6]]
                   for row in table_rows(report, CALIBRATION) if row[0] not in public]
    return calibration + table_rows(report, PREDICTION)


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-report-")
        cls.root = Path(cls.tmp.name) / "results"
        names = sorted(p.stem for p in fixtures.CONFIG_DIR.glob("*.json")
                       if p.stem not in ABSENT and p.stem != claims.CALIBRATION_BASICS)
        cls.directories = fixtures.paper_experiments(cls.root, names)
        cls.directories[claims.CALIBRATION_BASICS] = fixtures.calibration_basics(cls.root)[0]
        cls.out = Path(cls.tmp.name) / "report"
        cls.process = run_report(cls.root, cls.out, "--command", "fixtures.paper_experiments")
        report = cls.out / "REPORT.md"
        cls.report = report.read_text(encoding="utf-8") if report.is_file() else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_report_is_written(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        self.assertEqual(self.process.stderr, "")
        self.assertIn(f"wrote {self.out / 'REPORT.md'}", self.process.stdout)
        self.assertTrue(self.report.startswith("# "))

    def test_every_figure_is_embedded_and_exists(self):
        embedded = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", self.report)
        drawn = sorted((self.out / "figures").glob("*.png"))
        self.assertEqual({p.stem for p in drawn}, EXPECTED_FIGURES)
        self.assertEqual(sorted((self.out / path).resolve() for path in embedded),
                         sorted(p.resolve() for p in drawn))
        for path in embedded:
            self.assertFalse(Path(path).is_absolute(), path)
            png = self.out / path
            self.assertTrue(png.read_bytes().startswith(b"\x89PNG"), png)
            self.assertGreater(png.stat().st_size, MIN_PNG_BYTES, png)
            pdf = png.with_suffix(".pdf")
            self.assertTrue(pdf.read_bytes().startswith(b"%PDF"), pdf)

    def test_claims_table_has_one_row_per_claim(self):
        calibration = [c.id for c in claims.CLAIMS if claims.is_calibration(c)]
        prediction = [c.id for c in claims.CLAIMS if not claims.is_calibration(c)]
        self.assertEqual([row[0] for row in table_rows(self.report, CALIBRATION)],
                         calibration + [t.id for t in claims.CALIBRATION_TARGETS])
        self.assertEqual([row[0] for row in table_rows(self.report, PREDICTION)], prediction)
        self.assertEqual(sorted(calibration + prediction), sorted(c.id for c in claims.CLAIMS))
        self.assertTrue(all(len(row) == 8 for row in claim_rows(self.report)))

    def test_calibration_set_comes_first_and_is_counted_apart(self):
        self.assertLess(self.report.index(CALIBRATION), self.report.index(PREDICTION))
        calibration = table_rows(self.report, CALIBRATION)
        prediction = table_rows(self.report, PREDICTION)
        match = re.search(r"Calibration: (\d+) of (\d+) targets within tolerance.*"
                          r"Prediction: (\d+) of (\d+) claims within ±25%", self.report)
        self.assertIsNotNone(match, self.report[:600])
        self.assertEqual(match.groups(), (
            str(sum(row[6] == claims.YES for row in calibration)), str(len(calibration)),
            str(sum(row[7] == claims.YES for row in prediction)), str(len(prediction))))

    def test_smart_claims_have_their_own_table_and_count(self):
        rows = table_rows(self.report, SMART)
        self.assertEqual([row[0] for row in rows], [c.id for c in claims.SMART_CLAIMS])
        for row in rows:
            self.assertEqual(row[2], claims.SMART_INDEX_FIGURE, row)
            self.assertIn(row[6], VERDICTS, row)  # the fixtures run the experiment
        match = re.search(r"SMART's claims on SMART-BT vs Sherman\+ .*: (\d+) of (\d+) within",
                          self.report)
        self.assertIsNotNone(match, self.report[:900])
        self.assertEqual(match.groups(), (str(sum(row[7] == claims.YES for row in rows)),
                                          str(len(rows))))
        # Not among the paper's claims.
        paper_ids = {row[0] for row in claim_rows(self.report)}
        self.assertFalse(paper_ids & {c.id for c in claims.SMART_CLAIMS})

    def test_public_calibration_targets_come_from_calibration_basics(self):
        rows = {row[0]: row for row in table_rows(self.report, CALIBRATION)}
        values = fixtures.CALIBRATION_VALUES
        expected = {
            "calibration.read.unloaded-p50": f"{values['unloaded_read_p50_us']:g} µs (1 client)",
            "calibration.read.small-mops": f"{values['small_mops']:g} Mops (8 B, 176 clients)",
            "calibration.cas.host": f"{values['cas_host_mops']:g} Mops (1 address)"}
        for target in claims.CALIBRATION_TARGETS:
            row = rows[target.id]
            if claims.CALIBRATION_BASICS not in target.needs:
                # The cx6-200g profile's targets: SMART's measurements, no verdict either.
                self.assertEqual(row[2], claims.SMART_FIGURE, target.id)
                self.assertEqual(row[7], "–", target.id)
                continue
            self.assertEqual(row[2], claims.PUBLIC, target.id)
            # Within the ±25% tolerance, and no verdict: not a claim of the paper.
            self.assertEqual(row[6:], [claims.YES, "–"], target.id)
            if target.id in expected:
                self.assertEqual(row[4], expected[target.id])

    def test_strict_column_and_count(self):
        rows = claim_rows(self.report)
        kinds = {c.id: c.kind for c in claims.CLAIMS}
        for row in rows:
            if row[6] in VERDICTS:  # computed: judged strictly unless no paper number
                self.assertEqual(row[7] == "–", kinds[row[0]] == claims.COLLAPSE, row)
                self.assertIn(row[7], ("yes", "no", "–"), row)
            else:
                self.assertEqual(row[7], "–", row)
        within = sum(row[7] == claims.YES for row in rows)
        unjudged = sum(row[6] in VERDICTS and row[7] == "–" for row in rows)
        self.assertGreater(within, 0)
        self.assertRegex(self.report, rf"; {within} within ±25% of the paper \({unjudged} n/a\b")

    def test_without_ablations_the_section_says_so(self):
        section = self.report.split("\n## Model ablation\n", 1)[1]
        self.assertEqual(section.strip().splitlines()[0],
                         "No model ablations: the results root has no `ablation/` directory.")

    def test_claims_of_absent_experiments_are_not_run(self):
        needs = {c.id: c.needs for c in claims.CLAIMS}
        absent = 0
        for row in claim_rows(self.report):
            claim_id, ours, verdict = row[0], row[4], row[6]
            if any(name in ABSENT for name in needs[claim_id]):
                absent += 1
                self.assertEqual((ours, verdict), ("not run", "not run"), claim_id)
            else:  # computed: a number and a verdict
                self.assertIn(verdict, VERDICTS, claim_id)
                self.assertRegex(ours, r"^[+−]?[\d,.]+", claim_id)
        self.assertGreater(absent, 0)

    def test_stdout_lists_every_claim(self):
        lines = self.process.stdout.splitlines()
        for claim in claims.CLAIMS:
            self.assertTrue(any(line.startswith(claim.id + " ") for line in lines), claim.id)

    def test_provenance(self):
        self.assertIn(fixture_model.TOOL["git_revision"], self.report)
        self.assertIn("(clean tree)", self.report)
        self.assertIn("\n* dmbench binaries (tool.build_id): 1\n", self.report)
        self.assertIn(fixture_model.NIC_PROFILE["name"], self.report)
        self.assertIn("2026-01-01T00:00:00Z", self.report)
        self.assertIn("`fixtures.paper_experiments`", self.report)

    def test_a_revision_that_ran_as_two_binaries_is_marked(self):
        root = Path(self.tmp.name) / "two-binaries"
        source = self.directories["fig14-in-depth"]
        shutil.copytree(source, root / source.name)
        index = json.loads((root / source.name / "experiment.json").read_text())
        result_file = root / source.name / index["points"][0]["result"]
        result = json.loads(result_file.read_text())
        result["tool"]["build_id"] = "f" * 40
        result_file.write_text(json.dumps(result))
        out = Path(self.tmp.name) / "two-binaries-report"
        run = run_report(root, out)
        revision = fixture_model.TOOL["git_revision"][:12]
        self.assertIn("\n* dmbench binaries (tool.build_id): 2 — **revision "
                      f"{revision} ran as more than one binary**\n",
                      (out / "REPORT.md").read_text(), run.stderr)

    def test_binaries_line_counts_binaries_and_marks_revisions_with_several(self):
        self.assertIsNone(provenance.binaries_text([]))
        self.assertEqual(provenance.binaries_text([("a" * 40, "1"), ("b" * 40, "2"),
                                                   ("a" * 40, "1")]),
                         "* dmbench binaries (tool.build_id): 2")
        self.assertEqual(provenance.binaries_text([("a" * 40 + " (dirty)", "1"),
                                                   ("a" * 40 + " (dirty)", "2"),
                                                   ("b" * 40, "2")]),
                         "* dmbench binaries (tool.build_id): 2 — **revision "
                         f"{'a' * 12} (dirty) ran as more than one binary**")

    def test_malformed_result_fails_naming_file_and_field(self):
        root = Path(self.tmp.name) / "malformed"
        source = self.directories["fig14-in-depth"]
        shutil.copytree(source, root / source.name)
        index = json.loads((root / source.name / "experiment.json").read_text())
        point = next(p for p in index["points"] if p["variant"] == "Sherman")
        result_file = root / source.name / point["result"]
        result = json.loads(result_file.read_text())
        del result["operations"]["by_op"]["insert"]["round_trips"]
        result_file.write_text(json.dumps(result))

        out = Path(self.tmp.name) / "malformed-report"
        run = run_report(root, out)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn(str(result_file), run.stderr)
        self.assertIn("operations.by_op.insert.round_trips", run.stderr)
        # The report still shows what could be computed, and marks the rest.
        rows = {row[0]: row for row in claim_rows((out / "REPORT.md").read_text())}
        self.assertEqual(rows["fig14b.sherman.round-trips-p99"][6], "error")
        self.assertIn(rows["fig14a.sherman.lookups-without-retry"][6], VERDICTS)
        self.assertEqual(rows["fig10.write-only.sherman-vs-fgplus.throughput"][6], "not run")

    def test_duplicate_experiment_names_fail_and_prefix_selects(self):
        root = Path(self.tmp.name) / "duplicates"
        source = self.directories["fig16-hocl"]
        shutil.copytree(source, root / "a-fig16")
        shutil.copytree(source, root / "b-fig16")
        run = run_report(root, Path(self.tmp.name) / "duplicates-report")
        self.assertEqual(run.returncode, 1)
        self.assertIn(str(root / "a-fig16"), run.stderr)
        self.assertIn(str(root / "b-fig16"), run.stderr)
        out = Path(self.tmp.name) / "prefix-report"
        run = run_report(root, out, "--prefix", "b-")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn(str(root / "b-fig16"), (out / "REPORT.md").read_text())

    def test_no_results_is_an_error(self):
        empty = Path(self.tmp.name) / "empty"
        empty.mkdir()
        run = run_report(empty, Path(self.tmp.name) / "empty-report")
        self.assertEqual(run.returncode, 1)
        self.assertIn("no experiment results", run.stderr)


class ReportOfRealClusterResults(unittest.TestCase):
    """Results merged from a real cluster (backend.type "verbs": no
    simulator section, the compute servers' backends and their fallbacks)
    draw and report like simulated ones, and the report says where they ran."""

    FALLBACK = ("memory server 0 (10.0.0.1:7471): no NIC device memory for on-chip locks "
                "(ibv_alloc_dm failed: Operation not supported); they are in host memory")

    def test_verbs_results_are_reported_with_their_backend_and_fallbacks(self):
        with tempfile.TemporaryDirectory(prefix="dmbench-report-verbs-") as tmp:
            root = Path(tmp) / "results"
            fixtures.fig14(root)
            for path in root.rglob("*.json"):
                result = json.loads(path.read_text())
                if "schema_version" not in result or "operations" not in result:
                    continue
                result.pop("simulator")
                result["backend"] = {
                    "type": "verbs",
                    "compute_servers": [{"type": "verbs", "device": "mlx5_0",
                                         "fallbacks": [self.FALLBACK]}],
                    "fallbacks": [self.FALLBACK]}
                result["cluster"] = {"compute_servers": 1, "index_operations": 1000,
                                     "merged_from": 1}
                result["wall_clock"] = {"started_at": "2026-01-01T00:00:00Z",
                                        "wall_seconds": 3.0}
                fixtures.write_json(path, result)
            out = Path(tmp) / "report"
            process = run_report(root, out)
            self.assertEqual(process.returncode, 0, process.stderr)
            report = (out / "REPORT.md").read_text(encoding="utf-8")
            self.assertIn("a real RDMA cluster", report)
            self.assertIn("verbs: mlx5_0", report)
            self.assertIn(self.FALLBACK, report)
            self.assertTrue((out / "figures" / "fig14.png").is_file())
