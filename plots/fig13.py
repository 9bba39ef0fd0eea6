"""Figure 13 (§5.4): scalability with client threads.

Reads the index runs of scalability experiments, in one or several result
directories (e.g. uniform and skewed halves). x: client threads, i.e.
compute servers x threads per compute server x coroutines per thread from
each result's config (the paper counts each coroutine as a client thread);
y: throughput (Mops). One line per series (the index, FG+ or Sherman, or the
variant when the index is ambiguous) and key distribution (from the config):
colour by series, line style and marker by distribution.

    python3 plots/fig13.py --results DIR [DIR ...] --out STEM
"""

import sys

import dmbench_results as dr
import figure_drawing as fd


def skew_order(skew: str) -> tuple:
    # uniform first, then increasing skew
    return (skew != "uniform", skew)


def draw(experiments, args):
    points = dr.run_points(experiments)
    series_of = dr.series_by_index(points, lambda p: (p.skew_label, p.clients))
    cells = dr.unique_points(points, lambda p: (series_of(p), p.skew_label, p.clients),
                             "series, key distribution and client count")
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
    clients = sorted({count for (_, _, count) in cells})
    ax.set_xticks(clients, [str(c) for c in clients])
    ax.set_xlabel("Client threads")
    ax.set_ylabel("Throughput (Mops)")
    ax.set_ylim(bottom=0)
    mixes = ", ".join(dr.mix_label(m) for m in dr.ordered(p.mix for p in points))
    # Below the panel, where it cannot hide a line.
    handles = ax.get_legend_handles_labels()[0]
    fd.finish(fig, fd.figure_title(experiments, "Figure 13", f"Scalability ({mixes})"),
              experiments, legend=handles)
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
