"""Runs report.py on fixture results of the experiment files
(fixtures.paper_experiments) and checks the report: every figure drawn is
embedded and exists, the calibration set and the prediction set together
have one row per claim, claims of absent experiments say "not run", model
ablations are found and compared, and malformed results fail naming the file
and field. Also checks the verdict and strict rules of claims.py on
hand-picked values.

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
import dmbench_results as dr  # noqa: E402
import report_ablation  # noqa: E402

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
        self.assertIn(fixture_model.NIC_PROFILE["name"], self.report)
        self.assertIn("2026-01-01T00:00:00Z", self.report)
        self.assertIn("`fixtures.paper_experiments`", self.report)

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


class Verdicts(unittest.TestCase):
    """The rules of claims.RULES on values from the real results."""

    def verdict(self, kind, paper, ours, **fields):
        claim = claims.Claim(id="t", figure="", section="", text="", paper=paper, unit="x",
                             kind=kind, needs=(), compute=lambda r: None, **fields)
        return claims.judge(claim, ours)[1]

    def test_factor_compares_gains(self):
        self.assertEqual(self.verdict(claims.FACTOR, 1.14, 1.2), claims.YES)
        self.assertEqual(self.verdict(claims.FACTOR, 1.14, 1.02), claims.PARTLY)
        self.assertEqual(self.verdict(claims.FACTOR, 24.7, 1.55), claims.PARTLY)
        self.assertEqual(self.verdict(claims.FACTOR, 1.82, 0.957), claims.NO)
        self.assertEqual(self.verdict(claims.FACTOR, 5.39, 1.0), claims.NO)

    def test_difference_needs_the_same_sign(self):
        self.assertEqual(self.verdict(claims.DIFFERENCE, -0.4, -0.3), claims.YES)
        self.assertEqual(self.verdict(claims.DIFFERENCE, -0.4, -0.064), claims.PARTLY)
        self.assertEqual(self.verdict(claims.DIFFERENCE, 0.1, -0.064), claims.NO)

    def test_parity_bands(self):
        self.assertEqual(self.verdict(claims.PARITY, 0.98, 0.936), claims.YES)
        self.assertEqual(self.verdict(claims.PARITY, 1.0, 0.841), claims.PARTLY)
        self.assertEqual(self.verdict(claims.PARITY, 1.0, 0.154), claims.NO)

    def test_percent_small_shares_compare_relatively(self):
        self.assertEqual(self.verdict(claims.PERCENT, 3.6, 5.3), claims.YES)
        self.assertEqual(self.verdict(claims.PERCENT, 3.6, 0.5), claims.PARTLY)
        self.assertEqual(self.verdict(claims.PERCENT, 94, 88.9), claims.PARTLY)
        self.assertEqual(self.verdict(claims.PERCENT, 93.6, 89.2), claims.YES)
        self.assertEqual(self.verdict(claims.PERCENT, 99.98, 99.77, at_least=True),
                         claims.PARTLY)
        self.assertEqual(self.verdict(claims.PERCENT, 99.98, 99.9992, at_least=True),
                         claims.YES)
        self.assertEqual(self.verdict(claims.PERCENT, 98, 65), claims.NO)

    def test_absolute_collapse_and_bound(self):
        self.assertEqual(self.verdict(claims.ABSOLUTE, 44, 73.9), claims.YES)
        self.assertEqual(self.verdict(claims.ABSOLUTE, 32.9, 4.59), claims.NO)
        self.assertEqual(self.verdict(claims.ABSOLUTE, 6.2, 2.22), claims.PARTLY)
        self.assertEqual(self.verdict(claims.COLLAPSE, None, 258), claims.YES)
        self.assertEqual(self.verdict(claims.COLLAPSE, None, 1.0), claims.NO)
        self.assertEqual(self.verdict(claims.ABOVE, 50, 77.8), claims.YES)
        self.assertEqual(self.verdict(claims.ABOVE, 50, 43.7), claims.NO)

    def strict(self, kind, paper, ours):
        claim = claims.Claim(id="t", figure="", section="", text="", paper=paper, unit="x",
                             kind=kind, needs=(), compute=lambda r: None)
        return claims.strict(claim, ours)

    def test_strict_rule(self):
        # Factors: ours / paper of the factor itself, so 1.02x passes for 1.14x
        # (gain 0.02 against 0.14: only "partly" by the verdict's rule).
        self.assertTrue(self.strict(claims.FACTOR, 1.14, 1.02))
        self.assertFalse(self.strict(claims.FACTOR, 1.14, 0.9))
        self.assertTrue(self.strict(claims.FACTOR, 3.85, 3.28))
        self.assertFalse(self.strict(claims.FACTOR, 3.65, 6.69))
        self.assertTrue(self.strict(claims.ABSOLUTE, 0.34, 0.422))
        self.assertFalse(self.strict(claims.ABSOLUTE, 0.34, 0.43))
        self.assertFalse(self.strict(claims.ABSOLUTE, 100, 79))
        self.assertTrue(self.strict(claims.DIFFERENCE, -0.4, -0.33))
        self.assertFalse(self.strict(claims.DIFFERENCE, 0.1, -0.1))
        # Shares: percentage points, not a ratio.
        self.assertTrue(self.strict(claims.PERCENT, 3.6, 5.3))
        self.assertTrue(self.strict(claims.PERCENT, 99.98, 99.77))
        self.assertFalse(self.strict(claims.PERCENT, 93.6, 89.2))
        self.assertTrue(self.strict(claims.PARITY, 0.98, 0.936))
        self.assertFalse(self.strict(claims.PARITY, 1.0, 0.94))
        self.assertTrue(self.strict(claims.ABOVE, 50, 50.5))
        self.assertFalse(self.strict(claims.ABOVE, 50, 49.5))
        self.assertIsNone(self.strict(claims.COLLAPSE, None, 258))

    def test_claims_are_well_formed(self):
        ids = [c.id for c in claims.CLAIMS]
        self.assertEqual(len(ids), len(set(ids)))
        configs = {p.stem for p in fixtures.CONFIG_DIR.glob("*.json")}
        for claim in claims.CLAIMS:
            self.assertTrue(set(claim.needs) <= configs, claim.id)
            # A number from the paper, except where it states no number.
            self.assertEqual(claim.paper is None, claim.kind == claims.COLLAPSE, claim.id)
            self.assertTrue(claim.text and claim.section.startswith("§"), claim.id)


class CalibrationSet(unittest.TestCase):
    """Which claims are calibration, and the public figures' lookups in the
    micro experiment calibration-basics."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-calibration-")
        self.directory = fixtures.calibration_basics(Path(self.tmp.name))[0]

    def tearDown(self):
        self.tmp.cleanup()

    def evaluate(self) -> dict[str, claims.Outcome]:
        """The targets read from calibration-basics, evaluated on the fixture."""
        results = {claims.CALIBRATION_BASICS: dr.load_experiment(self.directory)}
        basics = [t for t in claims.CALIBRATION_TARGETS if claims.CALIBRATION_BASICS in t.needs]
        return {o.claim.id: o for o in claims.evaluate(results, claims=basics)}

    def test_calibration_claims_are_those_of_the_microbenchmarks(self):
        micro = {path.stem for path in fixtures.CONFIG_DIR.glob("*.json")
                 if "micro" in json.loads(path.read_text(encoding="utf-8"))}
        for claim in claims.CLAIMS:
            self.assertEqual(claims.is_calibration(claim), set(claim.needs) <= micro, claim.id)
        figures = {c.figure.split("(")[0].strip() for c in claims.CLAIMS
                   if claims.is_calibration(c)}
        self.assertEqual(figures, {"Figure 2", "Figure 3", "Figure 16"})
        self.assertTrue(all(claims.is_calibration(t) for t in claims.CALIBRATION_TARGETS))

    def test_targets_are_read_from_calibration_basics(self):
        outcomes = self.evaluate()
        values = fixtures.CALIBRATION_VALUES
        self.assertEqual(outcomes["calibration.read.unloaded-p50"].ours,
                         claims.Measured(values["unloaded_read_p50_us"], "1 client"))
        self.assertEqual(outcomes["calibration.read.small-mops"].ours.value,
                         values["small_mops"])
        self.assertEqual(outcomes["calibration.cas.host"].ours.value, values["cas_host_mops"])
        self.assertNotIn("calibration.cas.on-chip", outcomes)  # no primary source
        # 256 B is the smallest size from which WRITEs are bandwidth-bound.
        self.assertIn("at 256 B", outcomes["calibration.write.bandwidth"].ours.where)
        self.assertTrue(all(o.strict for o in outcomes.values()), outcomes)

    def test_a_missing_field_is_an_error_naming_it(self):
        micro = self.directory / "micro.json"
        document = json.loads(micro.read_text(encoding="utf-8"))
        del document["benchmarks"][0]["points"][0]["clients"]  # the unloaded READ
        fixtures.write_json(micro, document)
        outcomes = self.evaluate()
        unloaded = outcomes["calibration.read.unloaded-p50"]
        self.assertEqual(unloaded.verdict, claims.ERROR)
        self.assertIn(str(micro), unloaded.error)
        self.assertIn("missing field 'clients'", unloaded.error)
        self.assertEqual(outcomes["calibration.cas.host"].verdict, claims.YES)

    def test_without_calibration_basics_the_targets_are_not_run(self):
        outcomes = claims.evaluate({}, claims=claims.CALIBRATION_TARGETS)
        self.assertEqual({o.verdict for o in outcomes}, {claims.NOT_RUN})
        self.assertEqual({claims.strict_value(o) for o in outcomes}, {"–"})


def write_ablation(root: Path, label: str, mechanism: str, **fields) -> Path:
    directory = root / report_ablation.ABLATION_DIR / label
    directory.mkdir(parents=True)
    fixtures.write_json(directory / report_ablation.ABLATION_FILE, dict(
        {"label": label, "mechanism": mechanism,
         "switch": f"backend.nic_overrides.{label}=false", "description": f"{mechanism}."},
        **fields))
    return directory


class Ablations(unittest.TestCase):
    """A results root with model ablations beside it: DIR/ablation/LABEL/."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-ablation-")
        cls.root = Path(cls.tmp.name) / "results"
        fixtures.fig14(cls.root)
        fixtures.fig16(cls.root)
        # On-chip locks no faster than host ones: Fig. 16's on-chip step moves.
        slower = write_ablation(cls.root, "no-on-chip-speedup", "on-chip lock latency")
        micro = fixtures.fig16(slower)[0] / "micro.json"
        document = json.loads(micro.read_text(encoding="utf-8"))
        for point in document["benchmarks"][0]["points"]:
            if point["variant"] == "+On-Chip":
                point["mops"] = 4.5
        fixtures.write_json(micro, document)
        # The same results: nothing moves.
        same = write_ablation(cls.root, "no-op", "nothing")
        fixtures.fig14(same)
        fixtures.fig16(same)
        cls.out = Path(cls.tmp.name) / "report"
        cls.process = run_report(cls.root, cls.out)
        cls.report = (cls.out / "REPORT.md").read_text(encoding="utf-8")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_ablations_are_not_experiments_of_the_root(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        experiments = table_rows(self.report, "## Provenance")
        self.assertEqual([(row[0], row[1]) for row in experiments],
                         [("fig14-in-depth", str(self.root / "fig14")),
                          ("fig16-hocl", str(self.root / "fig16"))])

    def test_one_row_per_mechanism_with_counts_against_the_full_model(self):
        def counts(rows):  # over the claims computed: (count, within, tally)
            ran = [row for row in rows if row[6] != claims.NOT_RUN]
            return (f"{len(ran)} of {len(claims.CLAIMS)}",
                    sum(row[7] == claims.YES for row in ran),
                    claims.tally_text([claims.Outcome(claims.CLAIMS[0], row[6]) for row in ran]))
        ran, within, tally = counts(claim_rows(self.report))
        fig16 = counts([row for row in claim_rows(self.report) if row[0].startswith("fig16.")])
        rows = {row[1]: row for row in table_rows(self.report, "## Model ablation")}
        self.assertEqual(set(rows), {"`no-on-chip-speedup`", "`no-op`"})
        slower, same = rows["`no-on-chip-speedup`"], rows["`no-op`"]
        self.assertEqual(slower[0], "on-chip lock latency")
        self.assertEqual(slower[2], "`backend.nic_overrides.no-on-chip-speedup=false`")
        self.assertEqual(same[3:], [ran, f"{within} / {within}", tally, tally, "0"])
        # Only Fig. 16 was rerun: the full model's counts are over its claims.
        self.assertEqual(slower[3], fig16[0])
        self.assertTrue(slower[4].endswith(f" / {fig16[1]}"), slower[4])
        self.assertEqual(slower[6], fig16[2])
        self.assertEqual(slower[7], "2")  # the moved claims, listed below

    def test_moved_claims_are_listed_with_both_values(self):
        moved = table_rows(self.report, "### on-chip lock latency off (`no-on-chip-speedup`)")
        # The hierarchical step is over +On-Chip: it moves with it; handover,
        # over +Hierarchical, does not.
        self.assertEqual([row[0] for row in moved],
                         ["fig16.on-chip.throughput", "fig16.hierarchical.throughput"])
        self.assertEqual(moved[0][1:4], ["1.39× (Zipfian 0.99)", "1.02× (Zipfian 0.99)",
                                         "2.89×"])
        self.assertIn("No claim moved.", self.report.split("### nothing off (`no-op`)")[1])
        self.assertIn("ablation no-on-chip-speedup (on-chip lock latency off): 10 claims rerun",
                      self.process.stdout)

    def test_a_malformed_description_fails_naming_file_and_field(self):
        root = Path(self.tmp.name) / "malformed"
        shutil.copytree(self.root / "fig16", root / "fig16")
        directory = write_ablation(root, "broken", "something")
        description = json.loads((directory / report_ablation.ABLATION_FILE).read_text())
        del description["switch"]
        fixtures.write_json(directory / report_ablation.ABLATION_FILE, description)
        fixtures.fig16(directory)
        out = Path(self.tmp.name) / "malformed-report"
        run = run_report(root, out)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"{directory / report_ablation.ABLATION_FILE}: missing field 'switch'",
                      run.stderr)
        self.assertIn("**Not evaluated:**", (out / "REPORT.md").read_text(encoding="utf-8"))

    def test_discover_skips_the_ablation_directory(self):
        root = Path(self.tmp.name) / "stray"
        fixtures.fig16(root)
        # A sweep written into the ablations' directory itself by mistake.
        shutil.copytree(self.root / "fig14", root / report_ablation.ABLATION_DIR)
        self.assertEqual(dr.discover(root), {"fig16-hocl": root / "fig16"})


if __name__ == "__main__":
    unittest.main()


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
