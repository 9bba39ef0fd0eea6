"""Runs report.py on a fixture results root with model ablations beside it
(DIR/ablation/LABEL/, ae/ablation.sh) and checks the model-ablation
section: a row per ablation with its counts against the full model, the
claims each moved, each moved claim under every ablation, a malformed
description named, and an ablation refused when it differs from the main
results in more than its switch.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_report_ablation.py -v
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

import fixtures
from test_report import PLOTS, claim_rows, run_report, table_rows

sys.path.insert(0, str(PLOTS))
import claims  # noqa: E402
import dmbench_results as dr  # noqa: E402
import report_ablation  # noqa: E402


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
        # Without seed replicates nothing can be beyond their range.
        self.assertEqual(same[3:], [ran, f"{within} / {within}", tally, tally, "0",
                                    report_ablation.NO_SEEDS])
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

    def test_each_moved_claim_is_shown_under_every_ablation(self):
        rows = {row[0]: row for row in table_rows(self.report, report_ablation.ACROSS_HEADING)}
        self.assertEqual(list(rows), ["fig16.on-chip.throughput",
                                      "fig16.hierarchical.throughput"])
        header = ["ID", "Paper", "Full model", "Seeds' range", "`no-on-chip-speedup`",
                  "`no-op`", "Moved by"]
        on_chip = dict(zip(header, rows["fig16.on-chip.throughput"]))
        self.assertEqual(on_chip["`no-on-chip-speedup`"], "**1.02× (Zipfian 0.99)**")
        self.assertEqual(on_chip["`no-op`"], on_chip["Full model"])  # ran, did not move
        self.assertEqual(on_chip["Moved by"], "1 of 2")

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

    def test_an_ablation_may_differ_from_the_root_in_its_switch_alone(self):
        root = Path(self.tmp.name) / "switched"
        shutil.copytree(self.root / "fig14", root / "fig14")
        for label, change in (("units-off", lambda config: config["backend"].update(
                                  nic_overrides={"units-off": False})),
                              ("longer-window", lambda config: config["run"].update(
                                  measure_ms=99))):
            directory = write_ablation(root, label, label)
            for result in fixtures.fig14(directory)[0].glob("*.json"):
                document = json.loads(result.read_text(encoding="utf-8"))
                if "config" in document:
                    change(document["config"])
                    fixtures.write_json(result, document)
        run = run_report(root, Path(self.tmp.name) / "switched-report")
        self.assertEqual(run.returncode, 1)
        # Its switch, backend.nic_overrides.units-off, is all units-off changes.
        self.assertNotIn("units-off/", run.stderr)
        self.assertRegex(run.stderr, r"longer-window/fig14/\S+\.json: field "
                                     r"'config\.run\.measure_ms' differs from \S+/switched/"
                                     r"fig14/\S+\.json: an ablation may differ from the main "
                                     r"results only in what it switches")
        self.assertEqual(run.stderr.count("error:"), 1, run.stderr)

    def test_discover_skips_the_ablation_directory(self):
        root = Path(self.tmp.name) / "stray"
        fixtures.fig16(root)
        # A sweep written into the ablations' directory itself by mistake.
        shutil.copytree(self.root / "fig14", root / report_ablation.ABLATION_DIR)
        self.assertEqual(dr.discover(root), {"fig16-hocl": root / "fig16"})


if __name__ == "__main__":
    unittest.main()


if __name__ == "__main__":
    unittest.main()
