"""The figures of the reproduction report (report.py): each drawn by the
plot script its experiment file registers."""

from __future__ import annotations

import argparse
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import dmbench_results as dr
import experiment_registry as registry
import figure_drawing as fd


def figure_of(experiment: dr.Experiment) -> str | None:
    """"Figure 10" for "Figure 10 (§5.2.1)", else from a name like fig10-..."""
    match = re.match(r"\s*(Figure|Table)\s*(\d+)", experiment.figure)
    if match:
        return f"{match.group(1)} {int(match.group(2))}"
    match = re.match(r"(fig|table)0*(\d+)", experiment.name)
    if match:
        return f"{'Figure' if match.group(1) == 'fig' else 'Table'} {int(match.group(2))}"
    return None


@dataclass
class Drawn:
    key: str                      # "Figure 10"
    experiments: list[dr.Experiment]
    png: Path | None = None
    error: str = ""


@dataclass(frozen=True)
class Plot:
    script: str    # plots/SCRIPT.py, whose draw() makes the figure
    output: str    # figures/OUTPUT.png; experiments with one output share a figure
    options: dict  # the script's options that are not about inputs and outputs


def plot_of(experiment: dr.Experiment) -> Plot | None:
    """The plot an experiment file registers, None when it has none."""
    spec = experiment.definition.get("plot")
    if spec is None:
        # Results older than the registry: the experiment file's plot today.
        spec = registry.registered_plot(experiment.name)
    if spec is None:
        return None
    where = f"{experiment.directory / 'experiment.json'} experiment.plot"
    if not isinstance(spec, dict):
        raise dr.ResultsError(f"{where}: should be an object {{script, output, options}}")
    script = dr.require(spec, "script", where, dr.STRING)
    output = spec.get("output", script)
    options = spec.get("options", {})
    if not isinstance(output, str) or not isinstance(options, dict):
        raise dr.ResultsError(f"{where}: 'output' should be a string, 'options' an object")
    if not (Path(__file__).parent / f"{script}.py").is_file():
        raise dr.ResultsError(f"{where}: no plot script plots/{script}.py")
    return Plot(script, output, options)


def draw_figures(experiments: dict[str, dr.Experiment], directory: Path, errors: list[str],
                 replicates: Sequence[dict[str, dr.Experiment]] = ()) -> list[Drawn]:
    """One figure per plot output, from all experiments that register it,
    drawn by the script they name (the report adds no drawing of its own);
    `replicates`, each seed replicate's experiments by name, go to the
    scripts as the --seed-results of the experiments they replicate."""
    groups: dict[str, tuple[Plot, list[dr.Experiment]]] = {}
    for experiment in experiments.values():
        try:
            plot = plot_of(experiment)
        except dr.ResultsError as error:
            errors.append(str(error))
            continue
        if plot is not None:
            groups.setdefault(plot.output, (plot, []))[1].append(experiment)
    drawn = []
    for output in sorted(groups, key=lambda o: min(
            registry.ae_order(str(e.definition.get("ae", e.name))) for e in groups[o][1])):
        plot, group = groups[output]
        group = sorted(group, key=lambda e: e.name)
        result = Drawn(figure_of(group[0]) or output, group)
        module = importlib.import_module(plot.script)
        seeded = [seed[e.name] for seed in replicates for e in group if e.name in seed]
        args = argparse.Namespace(results=[str(e.directory) for e in group],
                                  seed_results=[str(e.directory) for e in seeded],
                                  replicates=seeded, out=str(directory / output),
                                  **plot.options)
        try:
            figure = module.draw(group, args)
            written = fd.save(figure, str(directory / output))
            result.png = written[0]
            for path in written:
                print(f"wrote {path}")
        except dr.ResultsError as error:
            result.error = str(error)
        drawn.append(result)
    return drawn
