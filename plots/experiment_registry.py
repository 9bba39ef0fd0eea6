"""The figure registry: every experiment file of configs/experiments/ says
which figure it feeds ("ae": the name ae/run.sh knows it by; experiments
sharing one run together) and which script draws it ("plot"). Nothing else
lists experiments: ae/run.sh, the report and the tests read them from here.

    /usr/bin/python3 plots/experiment_registry.py [DIR]

prints one line per experiment file of DIR (default configs/experiments):
its ae name and its experiment name, in ae_order.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

EXPERIMENTS_DIR = Path(__file__).resolve().parents[1] / "configs" / "experiments"


def ae_order(ae_name: str) -> tuple:
    """The calibration first, then the paper's tables and figures, each by
    number (the paper's order), then experiments of ours beyond the paper."""
    match = re.match(r"(table|fig)(\d+)", ae_name)
    if not match:
        return (0 if ae_name == "calibration" else 3, 0, ae_name)
    return (1 if match.group(1) == "table" else 2, int(match.group(2)), ae_name)


def registry(directory: Path = EXPERIMENTS_DIR) -> list[tuple[str, str]]:
    """(ae name, experiment name) of every experiment file, in ae_order."""
    entries = []
    for path in sorted(directory.glob("*.json")):
        definition = json.loads(path.read_text(encoding="utf-8"))
        name = definition["name"]
        entries.append((str(definition.get("ae", name)), name))
    return sorted(entries, key=lambda entry: (ae_order(entry[0]), entry[1]))


def registered_plot(name: str, directory: Path = EXPERIMENTS_DIR) -> dict | None:
    """The "plot" the experiment file named NAME registers today, for results
    written before experiment files registered their plots."""
    for path in sorted(directory.glob("*.json")):
        definition = json.loads(path.read_text(encoding="utf-8"))
        if definition.get("name") == name:
            return definition.get("plot")
    return None


def main(argv: list[str]) -> int:
    directory = Path(argv[1]) if len(argv) > 1 else EXPERIMENTS_DIR
    for ae_name, name in registry(directory):
        print(ae_name, name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
