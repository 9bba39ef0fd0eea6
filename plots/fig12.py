"""Figure 12 (§5.3): range query performance.

Reads the index runs of range experiments, in one or several result
directories: points with mix range-only go to panel (a), range-write to
panel (b). Each panel: range query throughput (Mops; in range-write only the
range queries of the half of the clients that issue them) against the range
size (keys per query), one bar per series (FG+, Sherman, ...: the index of each point, or its variant
when the index alone is ambiguous). With seed replicates (--seed-results, or
the report's seeds/), each bar gets a whisker over its range across the seeds.

    python3 plots/fig12.py --results DIR [DIR ...] --out STEM [--seed-results DIR ...]
"""

import sys

import dmbench_results as dr
import figure_drawing as fd
import paper_marks

PANELS = ("range-only", "range-write")


def draw(experiments, args):
    points = dr.run_points(experiments)
    others = dr.ordered(p.mix for p in points if p.mix not in PANELS)
    if others:
        raise dr.ResultsError(f"{', '.join(str(e.directory) for e in experiments)}: Figure 12 "
                              f"plots mixes range-only and range-write, found {others}")
    mixes = [mix for mix in PANELS if any(p.mix == mix for p in points)]
    position = lambda p: (p.mix, p.config("workload.range_size"))  # noqa: E731
    series_of = dr.series_by_index(points, position)
    def key(point):
        return position(point) + (series_of(point),)
    what = "mix, range size and series"
    cells = dr.unique_points(points, key, what)
    replicates = fd.replicate_cells(args, key, what)
    series = dr.ordered(series_of(p) for p in points)
    colors = fd.series_colors(series)

    def ours(label, metric, at):
        point = cells.get((at.get("mix"), at.get("range_size"), label))
        return None if point is None else point.field(point.op_stats("range") + ".throughput_mops")

    marks = paper_marks.resolve(paper_marks.marks_for(experiments), ours)
    plt = fd.pyplot()
    fig, axes = plt.subplots(1, len(mixes), figsize=(4.2 * len(mixes), 3.6), squeeze=False)
    for number, (ax, mix) in enumerate(zip(axes[0], mixes)):
        sizes = sorted({p.config("workload.range_size") for p in points if p.mix == mix})
        bars, ranges = fd.bars_over_seeds(
            cells, replicates, series, sizes, lambda label, size: (mix, size, label),
            lambda point: point.op_stats("range") + ".throughput_mops")
        fd.grouped_bars(ax, [f"{size:,}" for size in sizes], bars, colors, ranges=ranges)
        paper_marks.draw_on_grouped_bars(ax, sizes, series,
                                         [m for m in marks if m.at.get("mix") == mix],
                                         "range_size")
        ax.set_xlabel("Range size")
        ax.set_ylabel("Range query throughput (Mops)")
        ax.set_title(f"({chr(ord('a') + number)}) {dr.mix_label(mix)}")
    skews = ", ".join(dr.ordered(p.skew_label for p in points))
    seeds = fd.seed_count(cells, replicates)
    fd.finish(fig, fd.figure_title(experiments, "Figure 12",
                                   f"Performance of range query ({skews})"),
              fd.drawn_from(experiments, args),
              legend=fd.series_patches(colors) + paper_marks.bars_legend(marks)
              + (fd.seed_range_legend(seeds) if seeds > 1 else []))
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
