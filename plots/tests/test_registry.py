"""The figure registry is the experiment files: each registers an ae name
and (but the calibration) the plot script that draws it; the scripts exist
and draw; every experiment a claim needs is a registered experiment; and
ae/run.sh accepts exactly the registered names.

    /usr/bin/python3 -m unittest discover -s plots/tests -p test_registry.py -v
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import unittest
from pathlib import Path

PLOTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PLOTS))
import claims  # noqa: E402  (needs the path above)
import experiment_registry as registry  # noqa: E402

ROOT = PLOTS.parent


def definitions() -> dict[str, dict]:
    return {path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(registry.EXPERIMENTS_DIR.glob("*.json"))}


class Registry(unittest.TestCase):
    def test_every_experiment_registers_a_name_and_its_plot(self):
        for stem, definition in definitions().items():
            self.assertIn("ae", definition, stem)
            if stem == "calibration-basics":  # judged in the claims table, not drawn
                self.assertNotIn("plot", definition)
                continue
            script = definition["plot"]["script"]
            module = importlib.import_module(script)
            self.assertTrue(callable(getattr(module, "draw", None)), f"{stem}: {script}.draw")

    def test_claims_need_only_registered_experiments(self):
        names = {name for _, name in registry.registry()}
        for claim in claims.CLAIMS + claims.CALIBRATION_TARGETS:
            for needed in claim.needs:
                self.assertIn(needed, names, claim.id)

    def test_ae_run_knows_exactly_the_registered_names(self):
        result = subprocess.run([str(ROOT / "ae" / "run.sh"), "no-such-figure"],
                                capture_output=True, text=True, timeout=60, cwd=ROOT)
        self.assertEqual(result.returncode, 2)
        expected = []
        for ae_name, _ in registry.registry():
            if ae_name not in expected:
                expected.append(ae_name)
        self.assertIn(f"(allowed: {' '.join(expected)} all)", result.stderr)

    def test_results_older_than_the_registry_find_their_plot_by_name(self):
        self.assertEqual(registry.registered_plot("fig11-breakdown-uniform"),
                         {"script": "fig10", "output": "fig11", "options": {"figure": 11}})
        self.assertIsNone(registry.registered_plot("calibration-basics"))
        self.assertIsNone(registry.registered_plot("no-such-experiment"))

    def test_order_is_the_papers(self):
        names = [ae_name for ae_name, _ in registry.registry()]
        self.assertEqual(names[0], "calibration")
        self.assertLess(names.index("table1"), names.index("fig2"))
        self.assertLess(names.index("fig3"), names.index("fig10"))
        # The paper's figures end with Figure 16; experiments beyond the paper
        # (ours, and other papers' microbenchmarks) follow, by name.
        beyond = names[names.index("fig16") + 1:]
        self.assertEqual(beyond, sorted(beyond))
        self.assertTrue({"openloop", "smart"} <= set(beyond), beyond)
        self.assertFalse(any(name.startswith(("fig", "table")) for name in beyond), beyond)


if __name__ == "__main__":
    unittest.main()
