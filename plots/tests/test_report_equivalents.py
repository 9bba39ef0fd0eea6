"""Runs report.py on a fixture results root with ablations of kind
"calibration-equivalent" beside it (ae/ablation.sh writes them from
plots/calibration/fit_cx5_atomics.py) and checks their section: the band of
each claim over the profile's values and the sets, at how many sets it is
within ±25%, the summary among the report's first lines, and that an
ordinary ablation takes no part in the band.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_report_equivalents.py -v
"""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

import fixtures
from test_report import PLOTS, run_report, table_rows
from test_report_ablation import write_ablation

import sys
sys.path.insert(0, str(PLOTS))
import report_equivalents  # noqa: E402


def with_on_chip_mops(directory: Path, mops: float) -> None:
    """Fig. 16's results in `directory`, +On-Chip at `mops` Mops."""
    micro = fixtures.fig16(directory)[0] / "micro.json"
    document = json.loads(micro.read_text(encoding="utf-8"))
    for point in document["benchmarks"][0]["points"]:
        if point["variant"] == "+On-Chip":
            point["mops"] = mops
    fixtures.write_json(micro, document)


class CalibrationEquivalents(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-equivalents-")
        cls.root = Path(cls.tmp.name) / "results"
        fixtures.fig16(cls.root)
        kind = {"kind": report_equivalents.EQUIVALENT}
        # One set as the profile's values, one whose on-chip step is the
        # paper's (the fixture's is 1.39x).
        fixtures.fig16(write_ablation(cls.root, "equivalent-a", "set a", **kind))
        with_on_chip_mops(write_ablation(cls.root, "equivalent-b", "set b", **kind), 12.75)
        # An ordinary ablation that moves the step much further: not in the band.
        with_on_chip_mops(write_ablation(cls.root, "no-on-chip", "on-chip memory"), 2.0)
        cls.out = Path(cls.tmp.name) / "report"
        cls.process = run_report(cls.root, cls.out)
        cls.report = (cls.out / "REPORT.md").read_text(encoding="utf-8")
        cls.rows = {row[0]: row for row in table_rows(cls.report, report_equivalents.HEADING)}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_claim_rerun_at_every_set_has_a_row(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        self.assertEqual(sorted(self.rows), sorted(
            row[0] for row in table_rows(self.report, "### Calibration set")
            if row[0].startswith("fig16.")))
        self.assertIn("`equivalent-a` (backend.nic_overrides.equivalent-a=false); "
                      "`equivalent-b`", self.report)

    def test_the_band_spans_the_profile_and_the_sets_alone(self):
        moved = self.rows["fig16.on-chip.throughput"]
        # The profile's and set a's 1.39x, set b's 2.9x: not no-on-chip's 0.45x.
        self.assertEqual(moved[2], "1.39× (Zipfian 0.99)")
        self.assertEqual(moved[3], "1.39× to 2.9×")
        self.assertEqual(moved[4], "1 of 3")
        self.assertEqual(moved[5], "partly / 1 yes, 2 partly")
        # The hierarchical step is over +On-Chip: set b lowers it.
        self.assertEqual(self.rows["fig16.hierarchical.throughput"][3], "0.486× to 1.02×")
        steady = self.rows["fig16.handover.throughput"]
        self.assertEqual(steady[3], "3.23× to 3.23×")
        self.assertEqual(steady[4], "0 of 3")

    def test_the_summary_counts_claims_within_at_every_set_none_and_some(self):
        rows = [row for row in self.rows.values() if row[4] != "–"]
        every = sum(row[4] == "3 of 3" for row in rows)
        none = sum(row[4] == "0 of 3" for row in rows)
        expected = (f"Calibration-equivalent NIC values (3 sets, the profile's among them): "
                    f"{len(self.rows)} claims computed at every set; of {len(rows)} judged, "
                    f"{every} within ±25% at every set, {none} at none, "
                    f"{len(rows) - every - none} at some")
        self.assertIn(expected, self.report)
        self.assertIn(expected[0].lower() + expected[1:], self.process.stdout)

    def test_no_section_without_equivalent_sets(self):
        root = Path(self.tmp.name) / "plain"
        fixtures.fig16(root)
        with_on_chip_mops(write_ablation(root, "no-on-chip", "on-chip memory"), 2.0)
        out = Path(self.tmp.name) / "plain-report"
        run = run_report(root, out)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn(report_equivalents.HEADING, (out / "REPORT.md").read_text())

    def test_a_set_that_cannot_be_read_is_named_where_the_band_is(self):
        root = Path(self.tmp.name) / "unreadable"
        fixtures.fig16(root)
        kind = {"kind": report_equivalents.EQUIVALENT}
        fixtures.fig16(write_ablation(root, "equivalent-a", "set a", **kind))
        write_ablation(root, "equivalent-b", "set b", **kind)  # no results: never ran
        out = Path(self.tmp.name) / "unreadable-report"
        run = run_report(root, out)
        self.assertEqual(run.returncode, 1)
        report = (out / "REPORT.md").read_text(encoding="utf-8")
        self.assertIn("**Not in the band** (could not be read; see Errors): `equivalent-b`.",
                      report)
        self.assertIn("Calibration-equivalent NIC values (2 sets, the profile's among them; 1 "
                      "more could not be read, so the band leaves them out)", report)

    def test_a_kind_that_is_not_a_string_is_named(self):
        root = Path(self.tmp.name) / "bad-kind"
        fixtures.fig16(root)
        fixtures.fig16(write_ablation(root, "equivalent-x", "set x", kind=7))
        out = Path(self.tmp.name) / "bad-kind-report"
        run = run_report(root, out)
        self.assertEqual(run.returncode, 1)
        self.assertIn("ABLATION.json: field 'kind'", run.stderr)


if __name__ == "__main__":
    unittest.main()
