"""The paper's values in the figures (plots/paper_marks.py): the marks come
from the claims (one place for the paper's numbers), a stated number beats a
factor at the same point, a factor is applied to our base, and the figures
draw exactly the marks they are given, in the paper's colour.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_paper_marks.py -v
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import unittest
from pathlib import Path

import fixtures

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
import claims  # noqa: E402  (needs the path above)
import dmbench_results as dr  # noqa: E402
import fig10  # noqa: E402
import fig13  # noqa: E402
import table1  # noqa: E402
import figure_drawing as fd  # noqa: E402
import paper_marks  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

CRIMSON = to_rgba(paper_marks.COLOR)


def crimson_artists(figure) -> int:
    """Bars outlined and markers edged in the paper's colour."""
    count = 0
    for ax in figure.axes:
        count += sum(1 for patch in ax.patches if to_rgba(patch.get_edgecolor()) == CRIMSON)
        count += sum(1 for line in ax.lines
                     if line.get_marker() not in (None, "None", "")
                     and to_rgba(line.get_markeredgecolor()) == CRIMSON)
    return count


class PaperMarks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dmbench-marks-")
        root = Path(cls.tmp.name)
        cls.experiments = {name: dr.load_experiment(directory) for name, directory in
                           fixtures.paper_experiments(
                               root, ["fig10-breakdown-skewed", "fig13-scalability",
                                      "table1-fg"]).items()}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_marks_draw_the_claims_numbers(self):
        for claim in claims.CLAIMS:
            for mark in claim.marks:
                self.assertIn(mark.metric, ("throughput", "p50", "p90", "p99",
                                            "write_round_trips_p99", "throughput_floor"),
                              claim.id)
                if mark.value is None:
                    # A plain number of the claim's, never a relation without one.
                    self.assertIsNotNone(claim.paper, claim.id)
                    self.assertEqual(claim.paper_text, "", claim.id)
                if mark.relative_to is not None:
                    self.assertIn(claim.kind, (claims.FACTOR, claims.PARITY), claim.id)

    def test_stated_numbers_beat_factors_at_the_same_point(self):
        pairs = paper_marks.marks_for([self.experiments["fig10-breakdown-skewed"]])
        keys = [(m.series, m.metric, m.at) for _, m in pairs]
        self.assertEqual(len(keys), len(set(keys)), "one mark per series, metric and point")
        hierarchical_p50 = [m for _, m in pairs if m.series == "+Hierarchical"
                            and m.metric == "p50" and m.coordinate("mix") == "write-intensive"]
        self.assertEqual([(m.value, m.relative_to) for m in hierarchical_p50], [(7.3, None)])

    def test_a_factor_lands_on_our_base(self):
        pairs = [(c, m) for c, m in paper_marks.marks_for(
            [self.experiments["fig10-breakdown-skewed"]])
                 if c.id == "fig10.write-intensive.sherman-vs-fgplus.throughput"
                 or c.id == "fig10.write-intensive.sherman-vs-fgplus.p99"]
        ours = {("FG+", "throughput"): 2.0, ("FG+", "p99"): 906.0}
        marks = paper_marks.resolve(pairs, lambda series, metric, at: ours.get((series, metric)))
        values = {m.metric: m.value for m in marks}
        self.assertAlmostEqual(values["throughput"], 2.0 * 23.6)
        self.assertAlmostEqual(values["p99"], 906.0 / 30.2)
        self.assertEqual(paper_marks.resolve(pairs, lambda *_: None), [],
                         "without our base, a factor draws nothing")

    def test_figure_10_draws_every_mark_of_its_panels(self):
        experiment = self.experiments["fig10-breakdown-skewed"]
        mixes = {p.mix for p in experiment.points}
        expected = [m for _, m in paper_marks.marks_for([experiment])
                    if m.coordinate("mix") in mixes]
        self.assertGreaterEqual(len(expected), 10)
        figure = fig10.draw([experiment], argparse.Namespace(figure=10))
        try:
            self.assertEqual(crimson_artists(figure), len(expected))
        finally:
            fd.pyplot().close(figure)

    def test_figure_13_draws_points_and_levels(self):
        experiment = self.experiments["fig13-scalability"]
        figure = fig13.draw([experiment], argparse.Namespace())
        try:
            ax = figure.axes[0]
            levels = [text.get_text() for text in ax.texts if text.get_text().startswith("paper")]
            self.assertEqual(sorted(levels), sorted([
                "paper: FG+ peak, skew 0.9: 14.6", "paper: FG+ peak, skew 0.99: 6.43",
                "paper: Sherman peak, skew 0.9: 21", "paper: Sherman peak, skew 0.99: 9"]))
            hollow = [line for line in ax.lines if line.get_fillstyle() == "none"
                      and list(line.get_xdata()) == [528]]
            self.assertEqual([list(line.get_ydata()) for line in hollow], [[44]])
        finally:
            fd.pyplot().close(figure)

    def test_table_1_has_the_papers_rows_from_the_claims(self):
        figure = table1.draw([self.experiments["table1-fg"]], argparse.Namespace())
        try:
            cells = figure.axes[0].tables[0].get_celld()
            texts = {(row, column): cell.get_text().get_text()
                     for (row, column), cell in cells.items()}
            paper_rows = {texts[(row, -1)]: row for (row, column) in texts
                          if column == -1 and texts[(row, -1)].startswith("Paper:")}
            self.assertEqual(len(paper_rows), 4)
            columns = {texts[(0, column)].replace("\n", " "): column
                       for (row, column) in texts if row == 0}
            throughput = paper_rows["Paper: Throughput (Mops)"]
            self.assertEqual(texts[(throughput, columns["Write-intensive skew 0.99"])], "0.34")
            self.assertEqual(texts[(paper_rows["Paper: 99th latency (µs)"],
                                    columns["Read-intensive uniform"])], "14.9")
        finally:
            fd.pyplot().close(figure)

    def test_no_marks_for_experiments_without_claims(self):
        self.assertEqual(paper_marks.marks_for([]), [])


if __name__ == "__main__":
    unittest.main()
