"""Checks the rules of claims.py on hand-picked values (verdicts, the strict
±25% rule, well-formed claims) and which claims form the calibration set,
with the public figures' targets read from the micro experiment
calibration-basics.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_claims.py -v
"""

from __future__ import annotations

import json
import sys
import tempfile
import unittest
from pathlib import Path

import fixtures

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
import claims  # noqa: E402  (needs the path above)
import dmbench_results as dr  # noqa: E402


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

    def test_a_zero_denominator_is_an_error_not_a_crash(self):
        # ratio() named math without importing it: a run with no throughput
        # in a denominator stopped the whole report with a NameError.
        claim = claims.Claim(id="t", figure="", section="§5", text="", paper=2.0, unit="x",
                             kind=claims.FACTOR, needs=(),
                             compute=lambda r: claims.access.ratio(1.0, 0.0, "FG+ / none"))
        [outcome] = claims.evaluate({}, claims=[claim])
        self.assertEqual(outcome.verdict, claims.ERROR)
        self.assertIn("our value is nan (FG+ / none)", outcome.error)

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


if __name__ == "__main__":
    unittest.main()
