"""Figure 13 (§5.4): scalability with client threads.

Reads the index runs of scalability experiments, in one or several result
directories (e.g. uniform and skewed halves). x: client threads, i.e.
compute servers x threads per compute server x coroutines per thread from
each result's config (the paper counts each coroutine as a client thread);
y: throughput (Mops). One line per series (the index, FG+ or Sherman, or the
variant when the index is ambiguous) and key distribution (from the config):
colour by series, line style and marker by distribution. The paper's values,
where its text states them (paper_marks.py), in the series' colour: a hollow
marker where the paper names the client count, a dotted level labelled with
its value where it does not (a peak). With seed replicates (--seed-results,
or the report's seeds/), each line is shaded over its range across the seeds.

    python3 plots/fig13.py --results DIR [DIR ...] --out STEM [--seed-results DIR ...]
"""

import sys

import dmbench_results as dr
import figure_drawing as fd
import paper_marks


def skew_order(skew: str) -> tuple:
    # uniform first, then increasing skew
    return (skew != "uniform", skew)


def draw(experiments, args):
    points = dr.run_points(experiments)
    series_of = dr.series_by_index(points, lambda p: (p.skew_label, p.clients))
    def key(point):
        return series_of(point), point.skew_label, point.clients
    what = "series, key distribution and client count"
    cells = dr.unique_points(points, key, what)
    replicates = fd.replicate_cells(args, key, what)
    series = dr.ordered(series_of(p) for p in points)
    skews = sorted(dr.ordered(p.skew_label for p in points), key=skew_order)
    colors = fd.series_colors(series)

    plt = fd.pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for skew_number, skew in enumerate(skews):
        for label in series:
            counts = sorted(c for (l, s, c) in cells if l == label and s == skew)
            if not counts:
                continue
            ax.plot(counts, [cells[(label, skew, c)].field("throughput_mops") for c in counts],
                    color=colors[label], marker=fd.MARKERS[skew_number % len(fd.MARKERS)],
                    linestyle=fd.LINESTYLES[skew_number % len(fd.LINESTYLES)],
                    label=f"{label}, {skew}")
            fd.shade_seed_range(ax, counts, [
                fd.seed_values(cells[(label, skew, c)], replicates, (label, skew, c),
                               "throughput_mops") for c in counts], colors[label])
    marks = paper_marks.resolve(paper_marks.marks_for(experiments), lambda *_: None)
    drawn = False
    for mark in marks:
        skew = mark.at.get("skew")
        if mark.metric != "throughput" or mark.series not in colors or skew not in skews:
            continue
        drawn = True
        marker = fd.MARKERS[skews.index(skew) % len(fd.MARKERS)]
        if "clients" in mark.at:
            ax.plot([mark.at["clients"]], [mark.value], linestyle="none", marker=marker,
                    fillstyle="none", markersize=10, markeredgewidth=1.4,
                    color=colors[mark.series], zorder=4)
        else:
            ax.axhline(mark.value, color=colors[mark.series], linestyle=":", linewidth=1.1)
            # Labels alternate sides by series, so that close levels stay legible.
            side = series.index(mark.series) % 2
            ax.annotate(f"paper: {mark.series} peak, {skew}: {mark.value:.3g}",
                        (0.01 if side == 0 else 0.99, mark.value),
                        xycoords=("axes fraction", "data"), ha="left" if side == 0 else "right",
                        va="bottom", fontsize=6.5, color=colors[mark.series])
    clients = sorted({count for (_, _, count) in cells})
    if clients and clients[-1] > 8 * clients[0]:
        # Counts from a few to hundreds: on a log axis the few stay apart.
        ax.set_xscale("log", base=2)
        ax.minorticks_off()
    ax.set_xticks(clients, [str(c) for c in clients])
    ax.set_xlabel("Client threads")
    ax.set_ylabel("Throughput (Mops)")
    ax.set_ylim(bottom=0)
    mixes = ", ".join(dr.mix_label(m) for m in dr.ordered(p.mix for p in points))
    # Below the panel, where it cannot hide a line.
    handles = ax.get_legend_handles_labels()[0]
    seeds = fd.seed_count(cells, replicates)
    if seeds > 1:
        handles += fd.seed_band_legend(seeds)
    if drawn:
        from matplotlib.lines import Line2D
        handles.append(Line2D([], [], color="gray", marker="o", fillstyle="none", linestyle=":",
                              markersize=8, label="paper (hollow: at its clients; dotted: "
                                                  "a peak)"))
    fd.finish(fig, fd.figure_title(experiments, "Figure 13", f"Scalability ({mixes})"),
              fd.drawn_from(experiments, args), legend=handles)
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
