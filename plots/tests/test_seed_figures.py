"""Figures drawn with seed replicates beside their results (ae/seeds.sh:
DIR/seeds/SEED/): each value's range over the seeds as whiskers on bars,
ranges in Table 1's cells and bands around lines and CDFs, checked on
fixture replicates that move one point.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_seed_figures.py -v
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import fixtures
from test_report import PLOTS
from test_report_seeds import (SMART_MOVED_POINT, edit, replicate, scale_throughput,
                               throughput_of, write_size_of)

sys.path.insert(0, str(PLOTS))
import dmbench_results as dr  # noqa: E402


class SeedRangesInFigures(unittest.TestCase):
    """Figures draw each value's range over the seeds: whiskers on the bars of
    Figs. 10, 11, 12 and 15, ranges in Table 1's cells, bands around Fig.
    13's lines, Fig. 14's CDFs and SMART's Fig. 12 throughput lines. Here seed replicates scale one point's
    throughput, or change its writes' size."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="dmbench-whiskers-")
        self.root = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_each_bar_has_its_seeds_range(self):
        import fig10
        root = self.root
        [main] = fixtures.fig10(root)
        name = "+Combine__workload.mix=write-intensive.json"
        base = throughput_of(main / name)
        for seed, factor in ((2, 2.0), (3, 0.5)):
            replicated = replicate(root, seed, fixtures.fig10) / main.name
            edit(replicated / name, lambda d, f=factor: d.update(
                throughput_mops=d["throughput_mops"] * f))
        seeds = [dr.load_experiment(root / dr.SEEDS_DIR / s / main.name) for s in "23"]
        args = argparse.Namespace(figure=10, caption=None, replicates=seeds)
        figure = fig10.draw([dr.load_experiment(main)], args)
        panel = next(ax for ax in figure.axes if ax.get_title() == "(b) Write-intensive")
        [whiskers] = panel.collections
        spans = [tuple(segment[:, 1]) for segment in whiskers.get_segments()]
        self.assertEqual(len(spans), 5)  # a whisker per bar
        labels = [tick.get_text() for tick in panel.get_xticklabels()]
        self.assertEqual(spans[labels.index("+Combine")], (base * 0.5, base * 2.0))
        # The others are the same at every seed: no length.
        self.assertEqual([low == high for low, high in spans].count(False), 1)
        legend = [text.get_text() for text in figure.legends[0].get_texts()]
        self.assertIn("range over 3 seeds", legend)

    def replicated(self, root: Path, build, name: str, factor: float) -> list[dr.Experiment]:
        """Seed 2 of `build`'s experiments, with point file `name` (in each
        of them that has it) at `factor` times its throughput."""
        seed_root = replicate(root, 2, build)
        experiments = []
        for directory in sorted(p for p in seed_root.iterdir()):
            if (directory / name).is_file():
                edit(directory / name, lambda d: scale_throughput(d, factor))
            experiments.append(dr.load_experiment(directory))
        return experiments

    def test_table_1_shows_each_value_with_its_range(self):
        import table1
        root = self.root
        [main] = fixtures.table1(root)
        name = "workload.distribution=zipfian__workload.mix=read-intensive.json"
        base = throughput_of(main / name)
        seeds = self.replicated(root, fixtures.table1, name, 0.5)
        figure = table1.draw([dr.load_experiment(main)],
                             argparse.Namespace(replicates=seeds))
        texts = [cell.get_text().get_text()
                 for cell in figure.axes[0].tables[0].get_celld().values()]
        low, high = table1.number(base * 0.5), table1.number(base)
        self.assertIn(f"{table1.number(base)} ({low}–{high})", texts)
        from matplotlib.text import Text
        titles = [" ".join(text.get_text().split()) for text in figure.findobj(Text)]
        self.assertTrue(any("in parentheses, the range over 2 seeds" in t for t in titles))

    def test_figure_13_shades_each_line_over_its_range(self):
        import fig13
        root = self.root
        mains = fixtures.fig13(root)
        name = "Sherman__topology.coroutines_per_thread=2.json"
        seeds = self.replicated(root, fixtures.fig13, name, 3.0)
        figure = fig13.draw([dr.load_experiment(m) for m in mains],
                            argparse.Namespace(replicates=seeds))
        bands = figure.axes[0].collections
        self.assertTrue(bands)
        highest = max(band.get_paths()[0].vertices[:, 1].max() for band in bands)
        tripled = max(3 * throughput_of(m / name) for m in mains if (m / name).is_file())
        self.assertAlmostEqual(highest, tripled)

    def test_smart_figure_12_shades_each_throughput_line_over_its_range(self):
        import smart_btree
        root = self.root
        def build(directory):
            return [fixtures.from_config(directory, "smart-fig12-btree")]
        [main] = build(root)
        name = SMART_MOVED_POINT
        seeds = self.replicated(root, build, name, 3.0)
        figure = smart_btree.draw([dr.load_experiment(main)],
                                  argparse.Namespace(replicates=seeds))
        panels = [ax for ax in figure.axes if ax.collections]
        self.assertEqual([ax.get_title() for ax in panels], ["YCSB A (SMART Fig. 12)"])
        [band] = panels[0].collections
        self.assertAlmostEqual(band.get_paths()[0].vertices[:, 1].max(),
                               3 * throughput_of(main / name))

    def test_figure_12_draws_a_whisker_per_bar(self):
        import fig12
        root = self.root
        mains = fixtures.fig12(root)
        seeds = self.replicated(root, fixtures.fig12, "Sherman__workload.range_size=100.json",
                                2.0)
        figure = fig12.draw([dr.load_experiment(m) for m in mains],
                            argparse.Namespace(replicates=seeds))
        for panel in figure.axes:
            lines = [c for c in panel.collections if c.get_segments()]
            self.assertEqual(sum(len(c.get_segments()) for c in lines), 6, panel.get_title())
            moved = [seg for c in lines for seg in c.get_segments()
                     if seg[0, 1] != seg[1, 1]]
            self.assertEqual(len(moved), 1, panel.get_title())

    def test_figure_14_shades_a_curve_whose_seeds_differ(self):
        import fig14
        root = self.root
        [main] = fixtures.fig14(root)
        edit(replicate(root, 2) / main.name / "Sherman.json", lambda d: write_size_of(d, 34))
        replicate(root, 3)
        seeds = [dr.load_experiment(root / dr.SEEDS_DIR / s / main.name) for s in "23"]
        figure = fig14.draw([dr.load_experiment(main)], argparse.Namespace(replicates=seeds))
        panel = next(ax for ax in figure.axes if ax.get_title().startswith("(c)"))
        # Sherman's alone: FG+ and the other panels' curves agree at every seed.
        [band] = panel.collections
        self.assertEqual([len(ax.collections) for ax in figure.axes[:2]], [0, 0])
        corners = band.get_paths()[0].vertices
        # At the main results' common size the seed that wrote 34 bytes has
        # no write yet: the band spans the whole height there.
        below = corners[corners[:, 0] < 34]
        main_cdf = dr.write_ops_histogram(dr.run_points([dr.load_experiment(main)])[1],
                                          "write_bytes").cdf()
        self.assertEqual((below[:, 1].min(), below[:, 1].max()),
                         (0.0, fig14.cdf_at(main_cdf, 33)))
        # From 34 bytes on, that seed's writes are all done.
        self.assertEqual(corners[corners[:, 0] >= 34][:, 1].max(), 1.0)
        legend = [text.get_text() for text in panel.get_legend().get_texts()]
        self.assertIn("shaded: range over 3 seeds", legend)

    def test_figure_15_draws_a_whisker_per_bar_of_each_panel(self):
        import fig15
        root = self.root
        mains = fixtures.fig15(root)
        seed_root = replicate(root, 2, fixtures.fig15)
        edit(seed_root / "fig15-key-size"
             / "Sherman__index.key_bytes=64__workload.distribution=zipfian.json",
             lambda d: scale_throughput(d, 2.0))
        def halve_and_hit_less(document):
            scale_throughput(document, 0.5)
            document["operations"]["overall"]["index"]["cache_hit_ratio"] = 0.25
        edit(seed_root / "fig15-cache" / "Sherman__index.cache_mib=16.json", halve_and_hit_less)
        seeds = [dr.load_experiment(seed_root / m.name) for m in mains]
        figure = fig15.draw([dr.load_experiment(m) for m in mains],
                            argparse.Namespace(replicates=seeds))
        panels = {ax.get_title().split(",")[0]: ax for ax in figure.axes if ax.get_title()}
        skewed = throughput_of(
            mains[0] / "Sherman__index.key_bytes=64__workload.distribution=zipfian.json")
        cached = throughput_of(mains[1] / "Sherman__index.cache_mib=16.json")
        expected = {"(a) Key size": (8, None), "(b) Key size": (8, (skewed, 2 * skewed)),
                    "(c) Index cache size": (4, (cached / 2, cached))}
        for title, (bars, moved) in expected.items():
            segments = [tuple(segment[:, 1]) for c in panels[title].collections
                        for segment in c.get_segments()]
            self.assertEqual(len(segments), bars, title)
            spans = [span for span in segments if span[0] != span[1]]
            self.assertEqual(spans, [moved] if moved else [], title)
        # The hit-ratio line: a whisker where the seeds differ, none elsewhere.
        [ratios] = [ax for ax in figure.axes if ax.get_ylabel() == "Cache hit ratio (%)"]
        hit = json.loads((mains[1] / "Sherman__index.cache_mib=16.json").read_text(
            encoding="utf-8"))["operations"]["overall"]["index"]["cache_hit_ratio"]
        self.assertEqual([tuple(segment[:, 1]) for c in ratios.collections
                          for segment in c.get_segments()],
                         [tuple(sorted((25.0, 100 * hit)))])

    def test_the_script_takes_them_from_the_command_line(self):
        root = self.root
        [main] = fixtures.fig10(root)
        replicated = replicate(root, 2, fixtures.fig10) / main.name
        run = subprocess.run(
            [sys.executable, str(PLOTS / "fig10.py"), "--results", str(main),
             "--seed-results", str(replicated), "--out", str(root / "fig10")],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertTrue((root / "fig10.png").read_bytes().startswith(b"\x89PNG"))


if __name__ == "__main__":
    unittest.main()
