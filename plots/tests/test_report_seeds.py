"""Runs report.py on a fixture root with seed replicates beside it
(DIR/seeds/SEED/) and checks the report's "Seed variation" section: every
seed's row, each claim's values, mean, spread and ±25% count, a claim that
moves with the seed marked so, and replicates that are not one (another
seed in the file than in the directory name, another config, a directory
named by no seed) refused naming the file and field. Also the tidy table's
rows of every seed.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_report_seeds.py -v
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

import fixtures
from test_report import PLOTS, run_report, table_rows
from test_report_ablation import write_ablation

sys.path.insert(0, str(PLOTS))
import dmbench_results as dr  # noqa: E402
import report_ablation  # noqa: E402
import report_seeds  # noqa: E402

WRITE_SIZE = "fig14c.sherman.write-size"
# What seed 3's writes of one size move: the common size and the share of
# writes that split (none, where the other seeds split a few).
MOVED = {WRITE_SIZE, "fig14c.split-writes"}
# The SMART-BT point a replicate scales, moving SMART's Fig. 12(a) claim.
SMART_MOVED_POINT = "SMART-BT__topology.threads_per_compute_server=94__workload.mix=ycsb-a.json"


def replicate(root: Path, seed: int, build=fixtures.fig14) -> Path:
    """A figure's fixture results (Fig. 14's unless `build` says) as run
    with `seed`: the root's, but for the seed in every point's config."""
    directory = root / dr.SEEDS_DIR / str(seed)
    for experiment in build(directory):
        fixtures.reseed(experiment, seed)
    return directory


def edit(path: Path, change) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    fixtures.write_json(path, document)


def write_size_of(document: dict, size: int) -> None:
    """Every write of the point wrote `size` bytes."""
    histogram = document["operations"]["by_op"]["insert"]["write_bytes"]
    count = histogram["count"]
    histogram.update(buckets=[[size, size, count]], min=size, max=size, mean=size, p50=size,
                     p90=size, p99=size, p999=size)


def scale_throughput(document: dict, factor: float) -> None:
    document["throughput_mops"] *= factor
    for stats in [document["operations"]["overall"], *document["operations"]["by_op"].values()]:
        stats["throughput_mops"] *= factor


def throughput_of(result: Path) -> float:
    return json.loads(result.read_text(encoding="utf-8"))["throughput_mops"]


def section_rows(report: str) -> dict[str, list[str]]:
    return {row[0]: row for row in table_rows(report, report_seeds.CLAIMS_HEADING)}


class SeedReplicates(unittest.TestCase):
    """Seed 2 gives the root's results again; seed 3 has Sherman write 34
    bytes per write, twice the paper's 17: its write-size claim leaves the
    ±25% band at that seed alone, and no write splits a node there."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-seeds-")
        cls.root = Path(cls.tmp.name) / "results"
        fixtures.fig14(cls.root)
        replicate(cls.root, 2)
        third = replicate(cls.root, 3)
        edit(third / "fig14" / "Sherman.json", lambda d: write_size_of(d, 34))
        # Two ablations whose Sherman writes 26 and 60 bytes: within the
        # seeds' 18 to 34, and beyond.
        for label, size in (("mid-writes", 26), ("huge-writes", 60)):
            ablated = write_ablation(cls.root, label, label)
            fixtures.fig14(ablated)
            edit(ablated / "fig14" / "Sherman.json", lambda d, size=size: write_size_of(d, size))
        cls.process = run_report(cls.root, Path(cls.tmp.name) / "report")
        cls.report = (Path(cls.tmp.name) / "report" / "REPORT.md").read_text(encoding="utf-8")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_seed_has_a_row(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        rows = table_rows(self.report, report_seeds.SECTION_HEADING)
        self.assertEqual([row[0] for row in rows],
                         ["seed 1", "seed 2", "seed 3", "mean over seeds"])
        computed = len(section_rows(self.report))
        self.assertGreater(computed, 0)
        self.assertEqual({row[3] for row in rows}, {str(computed)})
        # The fixtures' revision, the same for the root and its replicates.
        self.assertEqual({row[2] for row in rows[:3]}, {fixtures.TOOL["git_revision"][:12]})

    def test_a_claim_the_seed_moves_is_marked_and_averaged(self):
        row = section_rows(self.report)[WRITE_SIZE]
        header = ["ID", "Paper", "Seed 1", "Seed 2", "Seed 3"] + report_seeds.CLAIM_HEADER_END
        cells = dict(zip(header, row))
        base = float(cells["Seed 1"].removesuffix(" B"))
        self.assertEqual(cells["Seed 2"], cells["Seed 1"])
        self.assertEqual(cells["Seed 3"], "34 B")
        mean = (2 * base + 34) / 3
        self.assertAlmostEqual(float(cells["Mean"].removesuffix(" B")), mean, places=1)
        self.assertEqual(cells["Spread"], f"{(34 - base) / mean:.0%}")
        self.assertEqual(cells["Within ±25% at"], "2 of 3")
        self.assertEqual(cells["Seed-dependent?"], "yes")

    def test_claims_the_seed_leaves_alone_are_not_marked(self):
        rows = section_rows(self.report)
        self.assertEqual(rows["fig14c.split-writes"][-1], "yes")
        steady = [row for claim, row in rows.items() if claim not in MOVED]
        self.assertTrue(steady)
        for row in steady:
            self.assertEqual(row[-1], "no", row)
            self.assertEqual(row[2], row[3], row)

    def test_the_summary_line_counts_them(self):
        computed = len(section_rows(self.report))
        self.assertRegex(self.process.stdout,
                         rf"seed replicates 2, 3: {computed} claims computed at every seed; "
                         rf".* {computed - len(MOVED)} with the same verdict and status at "
                         rf"every seed")

    def test_an_ablation_is_judged_against_the_seeds_range(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        header = report_ablation.MOVED_HEADER
        for label, beyond in (("mid-writes", "no"), ("huge-writes", "yes")):
            moved = {row[0]: dict(zip(header, row))
                     for row in table_rows(self.report, f"### {label} off (`{label}`)")}
            size = moved[WRITE_SIZE]
            self.assertTrue(size["Seeds' range"].endswith(" to 34 B"), size)
            self.assertEqual(size["Beyond it?"], beyond, size)
            # No split at all is within the seeds' range: seed 3 splits none.
            self.assertEqual(moved["fig14c.split-writes"]["Beyond it?"], "no")
        rows = {row[1]: row for row in table_rows(self.report, "## Model ablation")}
        self.assertEqual(rows["`mid-writes`"][-1], "0 of 2")
        self.assertEqual(rows["`huge-writes`"][-1], "1 of 2")
        self.assertIn("ablation huge-writes (huge-writes off): ", self.process.stdout)
        self.assertIn("2 moved (1 of 2 beyond the seeds' range)", self.process.stdout)

    def test_the_tidy_table_holds_every_seed(self):
        out = Path(self.tmp.name) / "results.csv"
        subprocess.run([sys.executable, str(PLOTS / "results_csv.py"), str(self.root),
                        "--out", str(out)], check=True, capture_output=True, timeout=60)
        with out.open(encoding="utf-8") as table:
            seeds = sorted(row["config.run.seed"] for row in csv.DictReader(table)
                           if not row["ablation"])
        self.assertEqual(seeds, ["1", "1", "2", "2", "3", "3"])


class SmartClaimsAcrossSeeds(unittest.TestCase):
    """SMART's claims on SMART-BT get their own table in the section: seed 2
    doubles SMART-BT's YCSB-A throughput at 94 threads, which moves the
    Fig. 12(a) ratio beyond ±25% at that seed alone (the fixtures' other
    ratios are about 1, beyond it at every seed)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-seeds-smart-")
        root = Path(cls.tmp.name) / "results"
        def build(directory):
            return [fixtures.from_config(directory, "smart-fig12-btree")]
        build(root)
        seed = replicate(root, 2, build)
        edit(seed / "smart-fig12-btree" / SMART_MOVED_POINT, lambda d: scale_throughput(d, 2.0))
        cls.process = run_report(root, Path(cls.tmp.name) / "report")
        cls.report = (Path(cls.tmp.name) / "report" / "REPORT.md").read_text(encoding="utf-8")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_smart_claim_has_a_row_and_the_moved_one_is_marked(self):
        self.assertEqual(self.process.returncode, 0, self.process.stderr)
        rows = {row[0]: row for row in table_rows(self.report, report_seeds.SMART_HEADING)}
        self.assertEqual(list(rows), [claim.id for claim in report_seeds.claimlib.SMART_CLAIMS])
        header = ["ID", "Paper", "Seed 1", "Seed 2"] + report_seeds.CLAIM_HEADER_END
        moved = dict(zip(header, rows["smart.fig12a.smartbt-vs-shermanplus"]))
        self.assertEqual((moved["Within ±25% at"], moved["Seed-dependent?"]), ("1 of 2", "yes"))
        first, second = (float(moved[f"Seed {n}"].split("×")[0]) for n in (1, 2))
        self.assertAlmostEqual(second / first, 2.0, delta=0.02)  # both rounded to 3 digits
        for claim, row in rows.items():
            if claim != "smart.fig12a.smartbt-vs-shermanplus":
                self.assertEqual(row[-1], "no", row)

    def test_a_line_counts_them_apart_from_the_paper_claims(self):
        self.assertIn("seed replicates 2, SMART's claims on SMART-BT: 5 claims computed at "
                      "every seed; of 5 judged, 0 within ±25% at every seed, 4 at none, 1 at "
                      "some;", self.process.stdout)
        self.assertRegex(self.process.stdout, r"seed replicates 2: 0 claims computed")

    def test_without_smart_replicates_the_section_says_how_to_run_them(self):
        with tempfile.TemporaryDirectory(prefix="dmbench-seeds-nosmart-") as scratch:
            root = Path(scratch) / "results"
            fixtures.fig14(root)
            replicate(root, 2)
            run = run_report(root, Path(scratch) / "report")
            self.assertEqual(run.returncode, 0, run.stderr)
            report = (Path(scratch) / "report" / "REPORT.md").read_text(encoding="utf-8")
        self.assertNotIn(report_seeds.SMART_HEADING, report)
        self.assertIn("SMART's claims on SMART-BT are not computed at every seed", report)
        self.assertNotIn("SMART's claims on SMART-BT:", run.stdout)


class NotAReplicate(unittest.TestCase):
    """What looks like a replicate and is not one is refused, naming the
    file and field, and the rest of the report is still written."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-seeds-bad-")
        self.root = Path(self.tmp.name) / "results"
        fixtures.fig14(self.root)

    def tearDown(self):
        self.tmp.cleanup()

    def refusal(self) -> str:
        process = run_report(self.root, Path(self.tmp.name) / "report")
        self.assertEqual(process.returncode, 1, process.stdout)
        report = (Path(self.tmp.name) / "report" / "REPORT.md").read_text(encoding="utf-8")
        self.assertIn("**Not evaluated:**", report)
        return process.stderr

    def test_a_point_of_another_seed(self):
        directory = replicate(self.root, 2)
        edit(directory / "fig14" / "FG+.json", lambda d: d["config"]["run"].update(seed=1))
        self.assertIn(f"{directory / 'fig14' / 'FG+.json'}: field 'config.run.seed' is 1, not "
                      f"the seed 2 its directory seeds/2/ names", self.refusal())

    def test_a_point_of_another_config(self):
        directory = replicate(self.root, 2)
        edit(directory / "fig14" / "Sherman.json",
             lambda d: d["config"]["workload"].update(keys=2000000))
        self.assertIn(f"{directory / 'fig14' / 'Sherman.json'}: field 'config.workload.keys' "
                      f"differs from {self.root / 'fig14' / 'Sherman.json'}", self.refusal())

    def test_an_experiment_the_root_does_not_hold(self):
        directory = replicate(self.root, 2)
        fixtures.table1(directory)
        self.assertIn("experiment 'table1-fg' is not among the main results", self.refusal())

    def test_a_directory_named_by_no_seed(self):
        directory = replicate(self.root, 2)
        shutil.move(str(directory), str(directory.with_name("two")))
        self.assertIn("a seed replicate's directory is named by its seed (seeds/2/), not 'two'",
                      self.refusal())

    def test_without_replicates_the_section_says_so(self):
        process = run_report(self.root, Path(self.tmp.name) / "report")
        self.assertEqual(process.returncode, 0, process.stderr)
        report = (Path(self.tmp.name) / "report" / "REPORT.md").read_text(encoding="utf-8")
        section = report.split(f"\n{report_seeds.SECTION_HEADING}\n", 1)[1]
        self.assertTrue(section.lstrip().startswith(
            "No seed replicates: the results root has no `seeds/` directory"))
        self.assertNotIn("seed replicates", process.stdout)


if __name__ == "__main__":
    unittest.main()
