"""Reading microbenchmark results (`dmbench micro`) for the plots, the
report and the tidy tables.

A micro experiment's point holds a micro document (`kind` "micro") whose
`benchmarks` list one entry per benchmark run, each with its parameters and
a non-empty list of measured `points` (results/SCHEMA.md). Every reader of
those entries goes through `entries()`, and every reader of their points
through `MicroBenchmark.points()`, so a malformed document is refused the
same way wherever it is read.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

import dmbench_results as dr


@dataclass(frozen=True)
class MicroBenchmark:
    """One entry of a micro document's `benchmarks`."""

    document: dict
    source: Path | str  # the result file, with the entry's place, for messages

    def field(self, path: str, kind: str | None = dr.NUMBER) -> Any:
        return dr.require(self.document, path, self.source, kind)

    @property
    def name(self) -> str:
        """What ran: "verbs", "spinlock", "hocl", ..."""
        return self.field("benchmark", dr.STRING)

    def points(self) -> list[dict]:
        """The benchmark's points, each an object (its parameters and results)."""
        return self._points

    # Checked once: readers call point_field for every field of every point,
    # and each call reads the points.
    @cached_property
    def _points(self) -> list[dict]:
        points = self.field("points", dr.LIST)
        if not points:
            raise dr.ResultsError(f"{self.source}: benchmark "
                                  f"'{self.document.get('benchmark')}' has no points")
        for number, point in enumerate(points):
            dr.check_kind(point, dr.OBJECT, self.source, f"points[{number}]")
        return points

    def point_field(self, number: int, path: str, kind: str | None = dr.NUMBER) -> Any:
        return dr.require(self.points()[number], path, f"{self.source} points[{number}]", kind)


def entries(point: dr.Point) -> list[MicroBenchmark]:
    """The benchmarks of a micro point's document, in its order, each an
    object that names its benchmark."""
    if point.field("kind", dr.STRING) != "micro":
        raise dr.ResultsError(f"{point.source}: field 'kind' should be \"micro\"")
    found = []
    for number, entry in enumerate(point.field("benchmarks", dr.LIST)):
        where = f"benchmarks[{number}]"
        dr.check_kind(entry, dr.OBJECT, point.source, where)
        dr.require(entry, "benchmark", f"{point.source} {where}", dr.STRING)
        found.append(MicroBenchmark(entry, f"{point.source} {where}"))
    return found


def benchmarks(experiments: Sequence[dr.Experiment], benchmark: str) -> list[MicroBenchmark]:
    """Every `benchmark` run ("verbs", "spinlock", "hocl", ...) in the micro
    documents of the experiments; at least one."""
    found, seen = [], []
    for experiment in experiments:
        if not experiment.is_micro:
            raise dr.ResultsError(f"{experiment.directory}: '{experiment.name}' is not a "
                                  f"microbenchmark experiment; this figure plots 'dmbench "
                                  f"micro {benchmark}' results")
        for point in experiment.points:
            for entry in entries(point):
                seen.append(entry.name)
                if entry.name == benchmark:
                    found.append(entry)
    if not found:
        sources = ", ".join(str(e.directory) for e in experiments)
        raise dr.ResultsError(f"{sources}: no '{benchmark}' benchmark in the micro results "
                              f"(found: {', '.join(seen) or 'none'})")
    return found


def points_by(found: Sequence[MicroBenchmark], series_field: str) -> dict[str, dict[float, dict]]:
    """Throughput and latency of micro points: series -> theta -> figures.

    `series_field` names what tells the series apart ("release", "variant");
    two points of one series at one theta are an error, not an overwrite.
    """
    points: dict[str, dict[float, dict]] = {}
    for benchmark in found:
        for number, _ in enumerate(benchmark.points()):
            series = benchmark.point_field(number, series_field, dr.STRING)
            theta = benchmark.point_field(number, "theta")
            if theta in points.setdefault(series, {}):
                raise dr.ResultsError(f"{benchmark.source}: two '{series}' points for Zipfian "
                                      f"parameter {theta:g}")
            points[series][theta] = {
                "mops": benchmark.point_field(number, "mops"),
                "p50": benchmark.point_field(number, "latency_us.p50"),
                "p99": benchmark.point_field(number, "latency_us.p99"),
            }
    return points
