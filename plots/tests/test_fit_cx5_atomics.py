"""The Fig. 16 fit of the cx5-100g profile's processing units and parking
slots (plots/calibration/fit_cx5_atomics.py): its ranking rule and its
calibration-equivalent sets on made-up scores, and the committed fit
(configs/nic/calibration/cx5-100g-fig16.json, which ae/ablation.sh runs)
against the rule and against the profile, which must hold the fit's choice.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_fit_cx5_atomics.py -v
"""

from __future__ import annotations

import json
import math
import sys
import unittest

from test_report import PLOTS

sys.path.insert(0, str(PLOTS / "calibration"))
import fit_cx5_atomics as fit  # noqa: E402


def score(units: int, slots: int, *per_seed: float) -> fit.Score:
    """A pair whose every step is `per_seed[i]` times the paper's at seed i."""
    return fit.Score(fit.Pair(units, slots),
                     {seed: {claim.id: factor * claim.paper for claim in fit.STEPS}
                      for seed, factor in enumerate(per_seed, start=1)})


class Rule(unittest.TestCase):

    def test_the_steps_are_fig16s_eight_bars(self):
        self.assertEqual([claim.id for claim in fit.STEPS], [
            "fig16.on-chip.throughput", "fig16.on-chip.p50", "fig16.on-chip.p99",
            "fig16.hierarchical.throughput", "fig16.hierarchical.p50",
            "fig16.hierarchical.p99", "fig16.handover.throughput", "fig16.handover.p99"])

    def test_the_worst_seed_counts_then_the_error(self):
        exact = score(24, 80, 1.0, 1.0, 1.0)
        close = score(32, 80, 1.1, 1.1, 1.1)       # every step within 25%, off by 10%
        one_bad_seed = score(16, 88, 1.0, 1.0, 1.5)  # none within at seed 3
        self.assertEqual(exact.within_every_seed, 8)
        self.assertEqual(one_bad_seed.within_every_seed, 0)
        self.assertAlmostEqual(close.error, abs(math.log(1.1)))
        self.assertEqual(fit.ranked([one_bad_seed, close, exact]),
                         [exact, close, one_bad_seed])
        self.assertEqual(fit.equivalents([one_bad_seed, close, exact]), [exact, close])


class Arguments(unittest.TestCase):

    def test_a_grid_axis_is_distinct_positive_integers(self):
        self.assertEqual(fit.integers("16,24,32"), (16, 24, 32))
        for bad in ("24,24", "0,24", "-8", "24,x"):
            with self.assertRaises(fit.argparse.ArgumentTypeError, msg=bad):
                fit.integers(bad)


class CommittedFit(unittest.TestCase):
    """The fit file ae/ablation.sh reads, and the profile beside it."""

    @classmethod
    def setUpClass(cls):
        folder = fit.DEFAULT_OUT
        cls.document = json.loads((folder / f"{fit.STEM}.json").read_text(encoding="utf-8"))
        profile = json.loads((fit.ROOT / "configs" / "nic" / f"{fit.PROFILE}.json")
                             .read_text(encoding="utf-8"))
        cls.parameters = profile["parameters"]

    @staticmethod
    def key(entry: dict) -> tuple:
        return fit.rank_key(entry["steps_within_every_seed"], entry["error"],
                            fit.Pair(entry["processing_units"], entry["atomic_parking_slots"]))

    def test_its_grid_is_in_the_rules_order_and_its_choice_first(self):
        grid = self.document["grid"]
        self.assertEqual(grid, sorted(grid, key=self.key))
        self.assertEqual(self.document["chosen"], grid[0])
        best = grid[0]["steps_within_every_seed"]
        self.assertEqual(self.document["equivalents"],
                         [e for e in grid if e["steps_within_every_seed"] == best])

    def test_it_judged_fig16s_steps(self):
        for entry in self.document["grid"]:
            self.assertEqual(list(entry["steps"]), [claim.id for claim in fit.STEPS])

    def test_the_profile_holds_its_choice(self):
        for key in ("processing_units", "atomic_parking_slots"):
            self.assertEqual(self.parameters[key]["value"], self.document["chosen"][key], key)


if __name__ == "__main__":
    unittest.main()
