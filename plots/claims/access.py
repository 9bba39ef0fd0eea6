"""Reading our values out of loaded results, for the claims' compute
functions: an experiment, the one point that matches, throughput, latency,
shares and percentiles of histograms."""

from __future__ import annotations

import math
from typing import Any, Callable

import dmbench_results as dr

from .judging import Measured, Results

def experiment(results: Results, name: str) -> dr.Experiment:
    return results[name]


def pick(exp: dr.Experiment, what: str, test: Callable[[dr.Point], bool]) -> dr.Point:
    """The one point of `exp` that passes `test`; an error naming the
    experiment index and what was looked for when there is none or several
    (a claim must not silently take one of two candidates)."""
    found = [point for point in exp.points if test(point)]
    if len(found) != 1:
        names = ", ".join(point.name for point in exp.points)
        raise dr.ResultsError(
            f"{exp.directory / 'experiment.json'}: {'no' if not found else len(found)} "
            f"points for {what} in experiment '{exp.name}' (points: {names})")
    return found[0]


def series_points(exp: dr.Experiment, what: str, test: Callable[[dr.Point], bool],
                  position: Callable[[dr.Point], Any], axis: str) -> dict[Any, dr.Point]:
    """The points of `exp` that pass `test` (one line of a figure, named
    `what`) by their `position` on its x axis (named `axis`); an error when
    there are none, or two at one position."""
    points = [point for point in exp.points if test(point)]
    if not points:
        raise dr.ResultsError(f"{exp.directory / 'experiment.json'}: no {what} points in "
                              f"experiment '{exp.name}'")
    return dr.unique_points(points, position, f"{what} {axis}")


def throughput(point: dr.Point) -> float:
    return point.field("throughput_mops")


def latency(percentile: str) -> Callable[[dr.Point], float]:
    return lambda point: point.field(f"latency_us.{percentile}")


p50, p90, p99 = latency("p50"), latency("p90"), latency("p99")


def range_throughput(point: dr.Point) -> float:
    """Range queries only: in range-write half the clients insert (§5.3)."""
    return point.field(point.op_stats("range") + ".throughput_mops")


def share(histogram: dr.Histogram, test: Callable[[float, float], bool]) -> float:
    """% of the values in buckets (low, high) that pass `test`."""
    return 100 * sum(c for low, high, c in histogram.buckets if test(low, high)) / histogram.count


def percentile(histogram: dr.Histogram, fraction: float) -> float:
    """As the harness reports it: the midpoint of the bucket holding the
    percentile (exact below 128, where buckets are single values)."""
    running = 0
    for low, high, count in histogram.buckets:
        running += count
        if running >= fraction * histogram.count:
            return (low + high) / 2
    return histogram.buckets[-1][1]


def ratio(numerator: float, denominator: float, where: str = "") -> Measured:
    return Measured(numerator / denominator if denominator else math.nan, where)
