"""The paper's values in our figures: hollow outlines and markers beside
ours, from the marks the claims carry (claims/judging.py, PaperMark), so that
the figures and the claims table read the paper's numbers from one place. A
figure draws only what a claim states; where the paper gives no number for
a point, nothing is drawn there.

Every mark is crimson and hollow: a dashed outline bar for a throughput, a
hollow circle (50p) or triangle (99p) for a latency, a hollow marker or a
dotted level for a line figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import claims
import dmbench_results as dr
import figure_drawing as fd

COLOR = "crimson"
LATENCY_MARKERS = {"p50": "o", "p99": "^"}


@dataclass(frozen=True)
class Mark:
    """A mark to draw: where, and the value (resolved)."""

    series: str
    metric: str
    at: dict
    value: float
    relative_to: str | None  # the series of ours the paper's factor was applied to
    claim: str               # the claim's id, for whoever reads the code


def marks_for(experiments: Sequence[dr.Experiment]) -> list[tuple[claims.Claim,
                                                                  claims.PaperMark]]:
    """Each mark, with its claim, of every claim that needs one of these
    experiments; where the paper states a number for a point and a factor
    also lands there, the stated number wins (one mark per series, metric
    and point)."""
    names = {experiment.name for experiment in experiments}
    found = [(claim, mark) for claim in claims.CLAIMS if names & set(claim.needs)
             for mark in claim.marks]
    stated = {(m.series, m.metric, m.at) for _, m in found if m.relative_to is None}
    kept, seen = [], set()
    for claim, mark in found:
        key = (mark.series, mark.metric, mark.at)
        if (mark.relative_to is not None and key in stated) or (key, mark.relative_to) in seen:
            continue
        seen.add((key, mark.relative_to))
        kept.append((claim, mark))
    return kept


def resolve(pairs: Iterable, ours: Callable[[str, str, dict], float | None]) -> list[Mark]:
    """Values of the marks. `ours(series, metric, at)` is our value at that
    point, None when we have none (the mark is then left out, since a factor
    needs our base)."""
    resolved = []
    for claim, mark in pairs:
        at = dict(mark.at)
        if mark.value is not None:
            value = mark.value
        elif mark.relative_to is None:
            value = claim.paper
        else:
            base = ours(mark.relative_to, mark.metric, at)
            if base is None or claim.paper is None:
                continue
            value = base * claim.paper if mark.metric == "throughput" else base / claim.paper
        if value is None:
            continue
        resolved.append(Mark(mark.series, mark.metric, at, float(value), mark.relative_to,
                             claim.id))
    return resolved


def outline_bar(ax, position: float, width: float, value: float) -> None:
    """A throughput mark: a dashed outline bar over ours (a little wider)."""
    ax.bar(position, value, width * 1.2, fill=False, edgecolor=COLOR, linestyle="--",
           linewidth=1.1, zorder=3)


def draw_on_bars(ax, right, positions: dict[str, int], marks: Sequence[Mark],
                 our_latencies: Sequence[float]) -> None:
    """Marks on a bars_with_latency() panel: `positions` maps a series to its
    bar; the latency axis is re-ranged over `our_latencies` and the marks'."""
    latencies = []
    for mark in marks:
        if mark.series not in positions:
            continue
        position = positions[mark.series]
        if mark.metric == "throughput":
            outline_bar(ax, position, 0.6, mark.value)
        else:
            right.plot([position], [mark.value], linestyle="none", color=COLOR,
                       marker=LATENCY_MARKERS[mark.metric], fillstyle="none", markersize=8,
                       markeredgewidth=1.2, zorder=4)
            latencies.append(mark.value)
    if latencies:
        fd.log_axis_plain(right.yaxis, list(our_latencies) + latencies)


def draw_on_grouped_bars(ax, categories: Sequence, series: Sequence[str], marks: Sequence[Mark],
                         coordinate: str) -> list[Mark]:
    """Throughput marks on a grouped_bars() panel whose categories are the
    values of the marks' `coordinate` (e.g. "key_bytes"); returns those drawn."""
    drawn = []
    for mark in marks:
        category = mark.at.get(coordinate)
        if mark.metric != "throughput" or category not in categories or mark.series not in series:
            continue
        x, width = fd.grouped_bar_at(list(categories).index(category),
                                     list(series).index(mark.series), len(series))
        outline_bar(ax, x, width, mark.value)
        drawn.append(mark)
    return drawn


def bars_legend(marks: Sequence[Mark]) -> list:
    """Legend entries for draw_on_bars(), only for the kinds drawn."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    entries = []
    if any(m.metric == "throughput" for m in marks):
        relative = any(m.metric == "throughput" and m.relative_to for m in marks)
        entries.append(Patch(fill=False, edgecolor=COLOR, linestyle="--", linewidth=1.1,
                             label="paper" + (" (its factor × our base bar)" if relative else "")))
    for metric, marker in LATENCY_MARKERS.items():
        if any(m.metric == metric for m in marks):
            entries.append(Line2D([], [], linestyle="none", color=COLOR, marker=marker,
                                  fillstyle="none", markersize=7, label=f"paper {metric}"))
    return entries
