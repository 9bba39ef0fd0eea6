"""SMART (ASPLOS'24) Figs. 3 and 4: how one compute server's small verbs
scale, on the cx6-200g profile.

Reads the micro documents of `dmbench micro scaleup` experiments
(configs/experiments/smart-*.json). Left: Mops of 8 B verbs against threads
at the depth run (SMART Fig. 3: per-thread QP, whose threads share the
driver's doorbells, and per-thread doorbell). Right, when the run swept
depths: Mops against the depth per thread for each thread count (SMART
Fig. 4a). SMART's own measurements (smart_reference.py, its artifact's raw
data) are crosses on dotted lines in the colour of our series at the same
points.

    python3 plots/smart_scaleup.py --results DIR [DIR] --out STEM
"""

import sys

import dmbench_results as dr
import micro_results
import figure_drawing as fd
import smart_reference


def collect(experiments):
    """({(policy, verb): {threads: Mops}} of the runs at one depth (Fig. 3),
    {threads: {depth: Mops}} of per-thread-doorbell READs of the runs over
    several depths (Fig. 4a), the depth of the first)."""
    fig3: dict[tuple[str, str], dict[int, float]] = {}
    fig4: dict[int, dict[int, float]] = {}
    fig3_depths = set()
    for benchmark in micro_results.benchmarks(experiments, "scale-up"):
        points = []
        for number, _ in enumerate(benchmark.points()):
            points.append((benchmark.point_field(number, "doorbells", dr.STRING),
                           benchmark.point_field(number, "verb", dr.STRING),
                           benchmark.point_field(number, "depth", dr.INTEGER),
                           benchmark.point_field(number, "threads", dr.INTEGER),
                           benchmark.point_field(number, "mops")))
        depths = {depth for _, _, depth, _, _ in points}
        for policy, verb, depth, threads, mops in points:
            if len(depths) == 1:
                fig3_depths.add(depth)
                target, key = fig3.setdefault((policy, verb), {}), threads
            elif policy == "per-thread doorbell" and verb == "READ":
                target, key = fig4.setdefault(threads, {}), depth
            else:
                continue
            if key in target:
                raise dr.ResultsError(f"{benchmark.source}: two {policy} {verb} points at "
                                      f"{threads} threads, depth {depth}")
            target[key] = mops
    if not fig3 and not fig4:
        raise dr.ResultsError("no scale-up points in the results")
    if len(fig3_depths) > 1:
        raise dr.ResultsError(f"scale-up runs at one depth each, but at different depths: "
                              f"{sorted(fig3_depths)}")
    return fig3, fig4, next(iter(fig3_depths), None)


def draw(experiments, args):
    fig3, fig4, fig3_depth = collect(experiments)
    panels = [panel for panel, data in (("fig3", fig3), ("fig4", fig4)) if data]

    plt = fd.pyplot()
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4), squeeze=False)
    panel_axes = dict(zip(panels, axes[0]))
    if fig3:
        draw_fig3(panel_axes["fig3"], fig3, fig3_depth)
    if fig4:
        draw_fig4(panel_axes["fig4"], fig4)
    fd.finish(fig, fd.figure_title(experiments, "SMART Figs. 3 and 4",
                                   "One compute server's verbs vs threads and depth"),
              experiments, legend=reference_legend())
    return fig


def draw_reference(ax, xs, reference, color):
    """SMART's values at the points we ran, in the series' colour: crosses
    on a thin dotted line."""
    marked = [x for x in xs if x in reference]
    if marked:
        ax.plot(marked, [reference[x] for x in marked], ":", marker="x", color=color,
                linewidth=0.8, markersize=6)


def reference_legend():
    from matplotlib.lines import Line2D
    return [Line2D([], [], linestyle=":", marker="x", color="dimgray", linewidth=0.8,
                   label="SMART's measurement (its artifact's raw data), same colour")]


def draw_fig3(ax, fig3, depth):
    labels = [f"{policy}, {verb}" for policy, verb in fig3]
    colors = fd.series_colors(labels)
    for number, ((policy, verb), by_threads) in enumerate(fig3.items()):
        label = f"{policy}, {verb}"
        threads = sorted(by_threads)
        style = "-" if verb == "READ" else ":"
        ax.plot(threads, [by_threads[t] for t in threads], style,
                marker=fd.MARKERS[number % len(fd.MARKERS)], color=colors[label], label=label)
        if depth == 8:
            draw_reference(ax, threads, smart_reference.FIG3.get((verb, policy), {}),
                           colors[label])
    ax.set_xlabel("Client threads")
    ax.set_ylabel("Throughput (Mops)")
    ax.set_ylim(bottom=0)
    ax.set_title(f"8 B verbs, depth {depth} (SMART Fig. 3)")
    ax.legend(loc="upper left", fontsize="small")


def draw_fig4(ax, fig4):
    counts = sorted(fig4)
    colors = fd.series_colors([str(t) for t in counts])
    for number, threads in enumerate(counts):
        shown = sorted(fig4[threads])
        ax.plot(shown, [fig4[threads][d] for d in shown],
                marker=fd.MARKERS[number % len(fd.MARKERS)], color=colors[str(threads)],
                label=f"{threads} threads")
        draw_reference(ax, shown, smart_reference.FIG4_READ.get(threads, {}),
                       colors[str(threads)])
    ax.set_xlabel("Work requests per thread (depth)")
    ax.set_ylabel("Throughput (Mops)")
    ax.set_ylim(bottom=0)
    ax.set_title("8 B READ, per-thread doorbell (SMART Fig. 4a)")
    ax.legend(loc="lower right", fontsize="x-small", ncol=2)


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
