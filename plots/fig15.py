"""Figure 15 (§5.6): sensitivity to key size and index cache size.

Reads the index runs of the sensitivity experiments, in one or several
result directories, and sorts each experiment into its panels by what its
points vary (index.key_bytes or index.cache_mib, in the settings or else in
the configs):
  (a) key size, uniform workloads: throughput (Mops) per key size (bytes),
      one bar per series (FG+, Sherman, ...);
  (b) key size, skewed workloads: the same;
  (c) index cache size per compute server (MiB): throughput bars per series
      and the cache hit ratio (%) on the right axis.
Panels without results are left out (the command says which). The paper's
Sherman/FG+ factors at the key sizes it names (paper_marks.py) are dashed
crimson outlines: the factor applied to our FG+ bar. With seed replicates
(--seed-results, or the report's seeds/), each throughput bar and each point
of a hit-ratio line gets a whisker over its range across the seeds.

    python3 plots/fig15.py --results KEY_SIZE_DIR CACHE_DIR --out STEM [--seed-results DIR ...]
"""

import sys

import dmbench_results as dr
import figure_drawing as fd
import paper_marks

KEY, CACHE = "index.key_bytes", "index.cache_mib"
HIT_RATIO = "operations.overall.index.cache_hit_ratio"


def swept(experiment) -> str:
    """Which of key size and cache size the experiment varies."""
    found = {path for point in experiment.points for path in point.settings
             if path in (KEY, CACHE)}
    if not found:  # e.g. variants that each set a key size
        found = {path for path in (KEY, CACHE)
                 if len({p.config(path) for p in experiment.points}) > 1}
    if len(found) != 1:
        raise dr.ResultsError(
            f"{experiment.directory}: cannot tell which Figure 15 panel '{experiment.name}' is: "
            f"its points vary {' and '.join(sorted(found)) or f'neither {KEY} nor {CACHE}'} "
            f"(expected exactly one)")
    return found.pop()


def panel_key(sweep: str, series_of):
    """How a panel's points are told apart: by series and x value, and on the
    key-size panels by key distribution too, which an experiment may sweep
    beside the key size (the replicates of both panels are read alike)."""
    if sweep == KEY:
        return lambda p: (series_of(p), p.skew_label, p.config(KEY))
    return lambda p: (series_of(p), p.config(CACHE))


def key_panel(ax, points, cells, replicates, colors, marks=(), drawn=None):
    """`cells`: the panel's points by panel_key(); `replicates`: the seed
    replicates' points alike. `marks`: the paper's (paper_marks.marks_for),
    resolved against these points; the ones drawn are added to `drawn`."""
    series = dr.ordered(label for label, _, _ in cells)
    [skew] = dr.ordered(skew for _, skew, _ in cells)
    sizes = sorted({size for _, _, size in cells})
    bars, ranges = fd.bars_over_seeds(cells, replicates, series, sizes,
                                      lambda label, size: (label, skew, size),
                                      lambda point: "throughput_mops")
    fd.grouped_bars(ax, [dr.size_label(s) for s in sizes], bars, colors, ranges=ranges)
    distributions = {p.config("workload.distribution", dr.STRING) for p in points}

    def ours(label, metric, at):
        point = cells.get((label, skew, at.get("key_bytes")))
        return None if point is None else point.field("throughput_mops")

    panel_marks = [m for m in paper_marks.resolve(marks, ours)
                   if m.at.get("distribution") in distributions]
    shown = paper_marks.draw_on_grouped_bars(ax, sizes, series, panel_marks, "key_bytes")
    if drawn is not None:
        drawn.extend(shown)
    ax.set_xlabel("Key size (bytes)")
    ax.set_ylabel("Throughput (Mops)")
    return []  # the bars' series are in the figure's legend


def cache_panel(ax, points, cells, replicates, colors):
    """Returns the legend entries of the hit-ratio lines."""
    series = dr.ordered(label for label, _ in cells)
    sizes = sorted({size for _, size in cells})
    bars, ranges = fd.bars_over_seeds(cells, replicates, series, sizes,
                                      lambda label, size: (label, size),
                                      lambda point: "throughput_mops")
    fd.grouped_bars(ax, [f"{s:g}" for s in sizes], bars, colors, annotate=False,
                    ranges=ranges)  # no value labels: the ratio line crosses them
    ax.set_xlabel("Index cache size per compute server (MiB)")
    ax.set_ylabel("Throughput (Mops)")
    right = ax.twinx()
    right.grid(False)
    for number, label in enumerate(series):
        present = [i for i, s in enumerate(sizes) if (label, s) in cells]
        # In percent, at every seed (the main results' first).
        seeds = [[100 * value for value in fd.seed_values(
            cells[(label, sizes[i])], replicates, (label, sizes[i]), HIT_RATIO)]
            for i in present]
        # Black lines: a line in the series' colour would vanish over its bars.
        right.plot(present, [values[0] for values in seeds], color="black",
                   marker=fd.MARKERS[number % len(fd.MARKERS)], markerfacecolor=colors[label],
                   linestyle="--", linewidth=1, label=f"{label} hit ratio")
        # Only where the seeds differ: a cap of no length would cross the marker.
        fd.whiskers(right, present, [(min(values), max(values))
                                     if min(values) != max(values) else None
                                     for values in seeds])
    right.set_ylim(0, 105)
    right.set_ylabel("Cache hit ratio (%)")
    return right.get_legend_handles_labels()[0]


def draw(experiments, args):
    by_sweep = {KEY: [], CACHE: []}
    for experiment in experiments:
        by_sweep[swept(experiment)].extend(dr.run_points([experiment]))
    uniform = [p for p in by_sweep[KEY] if p.skew_label == "uniform"]
    skewed = [p for p in by_sweep[KEY] if p.skew_label != "uniform"]
    panels = [  # (title, draw function, points, x field)
        ("(a) Key size", key_panel, uniform, KEY),
        ("(b) Key size", key_panel, skewed, KEY),
        ("(c) Index cache size", cache_panel, by_sweep[CACHE], CACHE),
    ]
    missing = [title for title, _, points, _ in panels if not points]
    if missing:
        print(f"note: no results for panel {', '.join(missing)}; drawing the others",
              file=sys.stderr)
    panels = [panel for panel in panels if panel[2]]
    series_of = {title: dr.series_by_index(points, lambda p, x=x: p.config(x))
                 for title, _, points, x in panels}
    colors = fd.series_colors(dr.ordered(series_of[title](p)
                                         for title, _, points, _ in panels for p in points))

    what = {KEY: "series, key distribution and key size", CACHE: "series and cache size"}
    cells, replicates = {}, {}
    for title, _, points, sweep in panels:
        skews = dr.ordered(p.skew_label for p in points)
        if sweep == KEY and len(skews) > 1:
            raise dr.ResultsError(
                f"{', '.join(str(e.directory) for e in experiments)}: Figure 15's panel "
                f"{title} draws one skewed key distribution, found {', '.join(skews)} "
                f"(split them into experiments drawn apart)")
        key = panel_key(sweep, series_of[title])
        cells[title] = dr.unique_points(points, key, what[sweep])
        replicates[title] = fd.replicate_cells(args, key, what[sweep],
                                               lambda e, sweep=sweep: swept(e) == sweep)

    pairs = paper_marks.marks_for(experiments)
    plt = fd.pyplot()
    fig, axes = plt.subplots(1, len(panels), figsize=(4.4 * len(panels), 3.8), squeeze=False)
    lines, drawn = [], []
    for ax, (title, panel, points, _) in zip(axes[0], panels):
        if panel is key_panel:
            lines += panel(ax, points, cells[title], replicates[title], colors, pairs, drawn)
        else:
            lines += panel(ax, points, cells[title], replicates[title], colors)
        skews = ", ".join(dr.ordered(p.skew_label for p in points))
        mixes = ", ".join(dr.mix_label(m) for m in dr.ordered(p.mix for p in points))
        ax.set_title(f"{title}, {skews}\n{mixes}")
    seeds = max(fd.seed_count(cells[title], replicates[title]) for title in cells)
    fd.finish(fig, fd.figure_title(experiments, "Figure 15", "Sensitivity analysis"),
              fd.drawn_from(experiments, args),
              legend=fd.series_patches(colors) + lines + paper_marks.bars_legend(drawn)
              + (fd.seed_range_legend(seeds) if seeds > 1 else []))
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
