"""Drawing for the dmbench plot scripts: the shared style and colours,
bar and line helpers, figure titles with their provenance, saving, and the
command line every script shares. Reading results is dmbench_results.py's
job; this module only draws what was read."""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable, Sequence

import dmbench_results as dr
import provenance

# One colour per series the paper names, so that a technique keeps its colour
# across figures; Sherman is the last step of the breakdown (+2-Level Ver).
SERIES_COLORS = {
    "FG": "#7f7f7f",
    "FG+": "#1f77b4",
    "+Combine": "#ff7f0e",
    "+On-Chip": "#2ca02c",
    "+Hierarchical": "#9467bd",
    "+Handover": "#8c564b",
    "+2-Level Ver": "#d62728",
    "Sherman": "#d62728",
    "RDMA lock": "#1f77b4",
}


# Colours for series the paper does not name, handed out in order.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


LINESTYLES = ("-", "--", ":", "-.")


STYLE = {
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.axisbelow": True,
    "pdf.fonttype": 42,  # embed TrueType, so the PDF text stays editable
    "savefig.dpi": 150,
}


def pyplot():
    """matplotlib.pyplot on the Agg backend, with the shared style. Imported
    on first use, so that a missing or malformed result is reported before
    paying for the matplotlib import."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update(STYLE)
    return plt


def series_colors(labels: Sequence[str]) -> dict[str, str]:
    """A colour per series: the paper's series keep theirs, the others take
    the palette's unused colours in order."""
    taken = {SERIES_COLORS[label] for label in labels if label in SERIES_COLORS}
    free = itertools.cycle([c for c in PALETTE if c not in taken] or PALETTE)
    return {label: SERIES_COLORS.get(label) or next(free) for label in dr.ordered(labels)}


def grouped_bar_at(category: int, number: int, series_count: int) -> tuple[float, float]:
    """Centre and width of series `number`'s bar at `category` in grouped_bars()."""
    width = 0.8 / max(1, series_count)
    return category - 0.4 + width * (number + 0.5), width


def grouped_bars(ax, categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]],
                 colors: dict[str, str], annotate: bool = True,
                 ranges: Sequence[Sequence[tuple[float, float] | None]] = ()) -> None:
    """Bars of each series side by side at each category; NaN values leave a
    gap (a series that has no point at that category). `ranges`, when given,
    a (low, high) whisker per bar of each series (None: none), the range of
    its value over seeds."""
    width = grouped_bar_at(0, 0, len(series))[1]
    for number, (label, values) in enumerate(series):
        offsets = [grouped_bar_at(i, number, len(series))[0] for i in range(len(categories))]
        bars = ax.bar(offsets, values, width, label=label, color=colors[label],
                      edgecolor="black", linewidth=0.4)
        spreads = list(ranges[number]) if ranges else []
        whiskers(ax, offsets, spreads)
        if annotate and any(spreads):
            annotate_above(ax, offsets, values, spreads)
        elif annotate:
            ax.bar_label(bars, labels=[_short(v) for v in values], fontsize=6, padding=1)
    ax.set_xticks(range(len(categories)), categories)
    ax.set_xlim(-0.6, len(categories) - 0.4)
    ax.margins(y=0.12)


def whiskers(ax, positions: Sequence[float],
             spreads: Sequence[tuple[float, float] | None]) -> None:
    """A capped vertical line from low to high at each position that has a
    (low, high) spread."""
    drawn = [(position, spread) for position, spread in zip(positions, spreads) if spread]
    if not drawn:
        return
    xs = [position for position, _ in drawn]
    ax.vlines(xs, [low for _, (low, _) in drawn], [high for _, (_, high) in drawn],
              color="black", linewidth=1)
    for end in (0, 1):
        ax.plot(xs, [spread[end] for _, spread in drawn], "_", color="black", markersize=7)


def annotate_above(ax, positions: Sequence[float], values: Sequence[float],
                   spreads: Sequence[tuple[float, float] | None]) -> None:
    """Each bar's value above the bar or its whisker, whichever reaches higher."""
    for position, value, spread in itertools.zip_longest(positions, values, spreads):
        if value is None or (isinstance(value, float) and math.isnan(value)):
            continue
        top = max(value, spread[1]) if spread else value
        ax.annotate(_short(value), (position, top), xytext=(0, 2),
                    textcoords="offset points", ha="center", va="bottom", fontsize=6)


def bars_with_latency(ax, categories: Sequence[str], mops: Sequence[float],
                      p50: Sequence[float], p99: Sequence[float], colors: Sequence[str],
                      mops_ranges: Sequence[tuple[float, float] | None] = ()):
    """The paper's throughput-and-latency panel (Figs. 10, 16): throughput
    bars on the left axis, 50p and 99p latency on a log right axis;
    `mops_ranges`, when given, a (low, high) whisker per bar (None: none),
    the range of its throughput over seeds. Returns the right axis."""
    positions = range(len(categories))
    bars = ax.bar(positions, mops, 0.6, color=colors, edgecolor="black", linewidth=0.4,
                  label="Throughput")
    whiskers(ax, positions, mops_ranges)
    if any(mops_ranges):
        annotate_above(ax, positions, mops, mops_ranges)
    else:
        ax.bar_label(bars, labels=[_short(v) for v in mops], fontsize=6, padding=1)
    ax.set_xticks(positions, categories, rotation=30, ha="right")
    ax.set_ylabel("Throughput (Mops)")
    ax.margins(y=0.12)
    right = ax.twinx()
    right.grid(False)
    right.plot(positions, _positive(p50), "o--", color="black", markersize=4, linewidth=1,
               label="50p latency")
    right.plot(positions, _positive(p99), "^-", color="dimgray", markersize=5, linewidth=1,
               label="99p latency")
    right.set_yscale("log")
    log_axis_plain(right.yaxis, p50 + p99)
    right.set_ylabel("Latency (µs)")
    return right


def log_axis_plain(axis, values: Sequence[float]) -> None:
    """A log axis spanning at least two decades, labelled with plain numbers
    at the decades (1, 10, 100 rather than 10^0 or 6x10^0)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    shown = [v for v in values if v and v > 0 and math.isfinite(v)]
    if shown:
        low, high = min(shown) / 2, max(shown) * 2
        if high / low < 100:  # widen around the geometric centre
            centre = math.sqrt(low * high)
            low, high = centre / 10, centre * 10
        (axis.axes.set_ylim if axis.axis_name == "y" else axis.axes.set_xlim)(low, high)
    axis.set_major_locator(LogLocator(base=10))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def series_patches(colors: dict[str, str]) -> list:
    """Legend entries for bar series, one per colour."""
    from matplotlib.patches import Patch
    return [Patch(facecolor=color, edgecolor="black", linewidth=0.4, label=label)
            for label, color in colors.items()]


def seed_range_legend(seeds: int) -> list:
    """The legend entry of seed-range whiskers (bars_with_latency,
    grouped_bars)."""
    from matplotlib.lines import Line2D
    return [Line2D([], [], marker="|", linestyle="none", color="black", markersize=9,
                   label=f"range over {seeds} seeds")]


def seed_band_legend(seeds: int) -> list:
    """The legend entry of the shading of shade_seed_range() and of Fig.
    14's CDF bands."""
    from matplotlib.patches import Patch
    return [Patch(facecolor="gray", alpha=0.3, label=f"shaded: range over {seeds} seeds")]


def shade_seed_range(ax, xs: Sequence[float], seeds: Sequence[Sequence[float]],
                     color: str) -> None:
    """Shades a line's range over the seeds: `seeds` holds, at each x, the
    line's value at every seed (seed_values()); nothing where every seed
    gave the same values (or there is one)."""
    if any(min(values) != max(values) for values in seeds):
        ax.fill_between(xs, [min(v) for v in seeds], [max(v) for v in seeds], color=color,
                        alpha=0.18, linewidth=0)


def replicate_cells(args, key: Callable[[dr.Point], Any], what: str,
                    keep: Callable[[dr.Experiment], bool] = lambda experiment: True
                    ) -> list[dict]:
    """The points of each seed replicate the script was given (args.replicates:
    --seed-results, or the report's seeds/), by `key` as the script keys its
    own; one dictionary per replicate experiment. `keep`: the replicate
    experiments to read, for a figure whose panels key different experiments'
    points differently."""
    return [dr.unique_points(dr.run_points([experiment]), key, what)
            for experiment in getattr(args, "replicates", []) if keep(experiment)]


def seed_values(point: dr.Point, replicates: Sequence[dict], key, metric: str) -> list[float]:
    """`metric` of `point` and of the point with its key in each replicate's
    points by key (a seed replicate that lacks it is skipped)."""
    return [point.field(metric)] + [cells[key].field(metric) for cells in replicates
                                    if key in cells]


def seed_range(values: Sequence[float]) -> tuple[float, float] | None:
    """(lowest, highest) of a value over the seeds, None for one seed."""
    return (min(values), max(values)) if len(values) > 1 else None


def bars_over_seeds(cells: dict, replicates: Sequence[dict], series: Sequence[str],
                    positions: Sequence[Any], key: Callable[[str, Any], Any],
                    metric: Callable[[dr.Point], str]) -> tuple[list, list]:
    """grouped_bars()' series and ranges: for each series label, the value of
    metric(point) of the point at key(label, position) of each position, and
    its range over the seeds (NaN and None where the series has no point)."""
    bars, ranges = [], []
    for label in series:
        values, spreads = [], []
        for position in positions:
            point = cells.get(key(label, position))
            if point is None:
                values.append(math.nan)
                spreads.append(None)
                continue
            seeds = seed_values(point, replicates, key(label, position), metric(point))
            values.append(seeds[0])
            spreads.append(seed_range(seeds))
        bars.append((label, values))
        ranges.append(spreads)
    return bars, ranges


def seed_count(cells: dict, replicates: Sequence[dict]) -> int:
    """Over how many seeds the figure's values range: the main results' and
    each seed of a replicate point that has a point of the figure's."""
    return 1 + len({point.config("run.seed", dr.INTEGER) for replicate in replicates
                    for key, point in replicate.items() if key in cells})


def drawn_from(experiments: Sequence[dr.Experiment], args) -> list[dr.Experiment]:
    """The experiments a figure's provenance caption names (finish): its own
    and the seed replicates it was given."""
    return list(experiments) + list(getattr(args, "replicates", []))


def bars_with_latency_legend() -> list:
    """Legend entries of bars_with_latency(): the bars have one colour per
    category (named on the x axis), so their entry is neutral."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    return [Patch(facecolor="lightgray", edgecolor="black", linewidth=0.4,
                  label="Throughput"),
            Line2D([], [], marker="o", linestyle="--", color="black", markersize=4,
                   label="50p latency"),
            Line2D([], [], marker="^", linestyle="-", color="dimgray", markersize=5,
                   label="99p latency")]


def finish(fig, title: str, experiments: Sequence[dr.Experiment],
           legend: Sequence | None = None) -> None:
    """Title on top, provenance at the bottom, a legend shared by all panels
    between them and the provenance (outside the panels, where it cannot
    hide data), then lays the panels out."""
    # Wrapped to the figure's width (about 11 characters per inch at 11 pt).
    fig.suptitle(textwrap.fill(title, int(fig.get_figwidth() * 11)), fontsize=11)
    fig.text(0.005, 0.005, provenance.caption(experiments), fontsize=6, color="gray",
             ha="left", va="bottom")
    bottom = 0.03
    if legend:
        # Entries take about 1.8 inch each, rows about 0.25 inch.
        columns = max(1, min(len(legend), int(fig.get_figwidth() / 1.8)))
        rows = -(-len(legend) // columns)
        bottom += (0.08 + 0.22 * rows) / fig.get_figheight()
        fig.legend(handles=list(legend), loc="lower center", ncol=columns,
                   frameon=False, bbox_to_anchor=(0.5, 0.03))
    fig.tight_layout(rect=(0, bottom, 1, 0.97))


def figure_title(experiments: Sequence[dr.Experiment], default: str, caption: str) -> str:
    """"Figure 10 (§5.2.1): caption · 10 M keys (paper 1 B), hottest key
    5.5%", from the experiment files when they say which figure they
    reproduce, and the results' key-popularity scale (workload_scale.py)."""
    # "Figure 3 (§3.2.3), inbound" and "Figure 3 (§3.2.3), outbound" are one
    # figure, and so are "Figure 15 (§5.6.1)" and "Figure 15 (§5.6.2)", which
    # become "Figure 15".
    texts: dict[str, set[str]] = {}
    for experiment in experiments:
        if experiment.figure:
            text = experiment.figure.split(",")[0].strip()
            number = re.match(r"(Figure|Table)\s*\d+", text)
            texts.setdefault(number.group(0) if number else text, set()).add(text)
    figures = [next(iter(t)) if len(t) == 1 else key for key, t in texts.items()]
    # Imported here: workload_scale reads results through this module. The
    # scale goes into every index figure's title because the hottest key's
    # share, and so where a point sits near a collapse, depends on it.
    import workload_scale
    scale = workload_scale.caption(experiments)
    return f"{'; '.join(figures) if figures else default}: {caption}" + (
        f" · {scale}" if scale else "")


def save(fig, stem: str) -> list[Path]:
    """Writes STEM.png and STEM.pdf (the stem may contain dots)."""
    plt = pyplot()
    Path(stem).parent.mkdir(parents=True, exist_ok=True)
    written = [Path(f"{stem}.png"), Path(f"{stem}.pdf")]
    for path in written:
        fig.savefig(path)
    plt.close(fig)
    return written


def _short(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{value:.3g}"


def _positive(values: Sequence[float]) -> list[float]:
    # A log axis cannot show 0 (no operation completed): leave a gap instead.
    return [v if v and v > 0 else math.nan for v in values]


def main(draw: Callable[[list[dr.Experiment], argparse.Namespace], Any], description: str,
         add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
         argv: Sequence[str] | None = None) -> int:
    """The command line every plot script shares:
    --results DIR [DIR ...] --out STEM. `draw` returns the figure."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--results", nargs="+", required=True, metavar="DIR",
                        help="result directories of `dmbench sweep --out DIR` (experiment.json "
                             "and one result per point); several are combined")
    parser.add_argument("--out", required=True, metavar="STEM",
                        help="output path without extension: writes STEM.png and STEM.pdf")
    parser.add_argument("--seed-results", nargs="+", default=[], metavar="DIR",
                        help="the same experiments run with other seeds (ae/seeds.sh: "
                             "ROOT/seeds/SEED/EXPERIMENT); the index figures (Table 1, Figs. 10 to "
                             "15, SMART's Fig. 12 and breakdown) draw the seeds' range from "
                             "these with --results")
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        experiments = [dr.load_experiment(directory) for directory in args.results]
        args.replicates = [dr.load_experiment(directory) for directory in args.seed_results]
        fig = draw(experiments, args)
        written = save(fig, args.out)
    except dr.ResultsError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the output cannot be written
        print(f"{parser.prog}: error: {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0
