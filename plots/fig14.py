"""Figure 14 (§5.5): in-depth analysis, as CDFs over operations.

Reads the index runs of an in-depth experiment (write-intensive, skewed; one
point per series, e.g. FG+ and Sherman) and draws the cumulative distribution
from the histograms' buckets: (a) read retries of lookups
(operations.by_op.lookup.read_retries), (b) round trips of write operations
(by_op.insert/update/delete.round_trips), (c) bytes written back per write
operation (by_op.*.write_bytes). Where nearly every operation has the same
value (no retries), the y axis zooms in on the top of the CDF so that the
tail shows. The paper's 99th percentiles of round trips (paper_marks.py) are
hollow markers at (p99, 0.99) on panel (b), in the series' colour. With seed
replicates (--seed-results, or the report's seeds/), each curve is shaded
between the lowest and the highest of its seeds' CDFs at every x.

    python3 plots/fig14.py --results DIR [DIR ...] --out STEM [--seed-results DIR ...]
"""

import bisect
import math
import sys

import dmbench_results as dr
import figure_drawing as fd
import paper_marks

# The panel of each mark metric (paper_marks.py), and the CDF height it sits at.
MARK_PANELS = {"write_round_trips_p99": (1, 0.99)}
# title, x label, metric, zoom (y axis on the top of the CDF)
PANELS = (
    ("(a) Read retries of lookups", "Read retries",
     lambda p: p.histogram(p.op_stats("lookup") + ".read_retries"), True),
    ("(b) Round trips of write operations", "Round trips",
     lambda p: dr.write_ops_histogram(p, "round_trips"), False),
    ("(c) Write size of write operations", "Write size (bytes)",
     lambda p: dr.write_ops_histogram(p, "write_bytes"), False),
)


def cdf_bottom(starts: list[float]) -> float:
    """The y axis' lower end when zooming: just below the lowest first step,
    at a round number, when all curves start above 0.9 (99.98% of lookups
    need no retry, §5.5.1); else 0."""
    lowest = min(starts)
    if lowest < 0.9 or lowest >= 1.0:
        return 0.0
    step = 10 ** math.floor(math.log10(1.0 - lowest))
    return max(0.0, math.floor((lowest - step) / step) * step)


def cdf_at(curve: tuple[list[float], list[float]], x: float) -> float:
    """The fraction of values <= x of a Histogram.cdf() curve (0 below its
    first point, 1 past its last)."""
    xs, ys = curve
    at = bisect.bisect_right(xs, x)
    return ys[at - 1] if at else 0.0


def seed_band(curves: list[tuple[list[float], list[float]]], left: float,
              right: float) -> tuple[list[float], list[float], list[float]] | None:
    """x, lowest and highest of the curves' CDFs at every step of any of them
    from `left` to `right`, as steps after each x; None where they all agree
    (one curve, or seeds that gave the same distribution)."""
    xs = sorted({left, right, *(x for curve_xs, _ in curves for x in curve_xs)})
    values = [[cdf_at(curve, x) for curve in curves] for x in xs]
    lows, highs = [min(v) for v in values], [max(v) for v in values]
    return None if lows == highs else (xs, lows, highs)


def log_ticks(ax, left: float, right: float) -> None:
    """Plain numbers rather than powers of ten: every integer up to 5 (2, 3
    and 4 round trips are what tell the indexes apart, §5.5.2), then 10, 20,
    50, 100, ..."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    ticks = [1, 2, 3, 4, 5] + [m * 10 ** e for e in range(1, 20) for m in (1, 2, 5)]
    ax.xaxis.set_major_locator(FixedLocator([t for t in ticks if left <= t <= right * 1.3]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def draw(experiments, args):
    points = dr.run_points(experiments)
    series_of = dr.series_by_index(points, lambda p: ())
    by_label = dr.unique_points(points, series_of, "series")
    replicates = fd.replicate_cells(args, series_of, "series")
    colors = fd.series_colors(list(by_label))

    marks = paper_marks.resolve(paper_marks.marks_for(experiments), lambda *_: None)
    seeds = fd.seed_count(by_label, replicates)
    plt = fd.pyplot()
    fig, axes = plt.subplots(1, len(PANELS), figsize=(12, 3.8))
    for panel, (ax, (title, xlabel, metric, zoom)) in enumerate(zip(axes, PANELS)):
        curves = {label: metric(point).cdf() for label, point in by_label.items()}
        # Each series' curves at every seed, its main results' first.
        seed_curves = {label: [curve] + [metric(cells[label]).cdf() for cells in replicates
                                         if label in cells]
                       for label, curve in curves.items()}
        every = [curve for drawn in seed_curves.values() for curve in drawn if curve[0]]
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("CDF")
        if not every:  # e.g. a window in which no lookup completed
            ax.text(0.5, 0.5, "no operations recorded", transform=ax.transAxes,
                    ha="center", va="center")
            continue
        left_end = min(xs[0] for xs, _ in every)
        right_end = max(xs[-1] for xs, _ in every)
        for mark in marks:
            where = MARK_PANELS.get(mark.metric)
            if where is None or where[0] != panel or mark.series not in colors:
                continue
            ax.plot([mark.value], [where[1]], linestyle="none", marker="o", fillstyle="none",
                    markersize=9, markeredgewidth=1.4, color=colors[mark.series], zorder=4,
                    label=f"paper {mark.series} p99")
            left_end, right_end = min(left_end, mark.value), max(right_end, mark.value)
        for number, (label, (xs, ys)) in enumerate(curves.items()):
            if not xs:  # a series with none of these operations: no curve to draw
                ax.plot([], [], color=colors[label], label=f"{label}: none recorded")
                continue
            # Every curve rises from 0 at the common left end and stays at 1
            # up to the common right end.
            ax.step([left_end] + xs + [right_end], [0.0] + ys + [1.0], where="post",
                    color=colors[label], linestyle=fd.LINESTYLES[number % len(fd.LINESTYLES)],
                    linewidth=1.5, label=label)
            band = seed_band(seed_curves[label], left_end, right_end)
            if band:
                ax.fill_between(*band, step="post", color=colors[label], alpha=0.18,
                                linewidth=0)
        if zoom:
            ax.set_xlim(left_end - 0.5, right_end + 0.5)
            ax.xaxis.get_major_locator().set_params(integer=True)
            bottom = cdf_bottom([ys[0] for _, ys in every])
            # Fractions such as 0.99995 in full: an offset ("1e-5+9.9999e-1")
            # leaves the reader to add it to every tick.
            ax.yaxis.get_major_formatter().set_useOffset(False)
        else:
            bottom = 0.0
            if left_end > 0:
                ax.set_xscale("log")
                ax.set_xlim(left_end / 1.3, right_end * 1.3)
            else:
                ax.set_xscale("symlog", linthresh=1)
                ax.set_xlim(-0.3, right_end * 1.3)
            log_ticks(ax, left_end, right_end)
        ax.set_ylim(bottom, 1 + (1 - bottom) * 0.03)
        handles = ax.get_legend_handles_labels()[0]
        if seeds > 1:
            handles += fd.seed_band_legend(seeds)
        ax.legend(handles=handles, loc="lower right")
    workloads = ", ".join(dr.ordered(f"{dr.mix_label(p.mix)}, {p.skew_label}" for p in points))
    fd.finish(fig, fd.figure_title(experiments, "Figure 14", f"In-depth analysis ({workloads})"),
              fd.drawn_from(experiments, args))
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
