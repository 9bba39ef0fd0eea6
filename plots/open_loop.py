"""Latency under offered load (open-loop runs, run.target_mops; not a figure
of the paper).

Reads the index runs of an open-loop experiment: one point per series (FG+,
Sherman, ...) and offered load. (a) p99 latency (us, log) against the offered
load (Mops): solid from each operation's actual start, as a closed-loop
benchmark measures it; dashed from its intended start, its arrival
(intended_latency_us). Where the dashed line leaves the solid one, the index
is past its capacity and operations queue behind their client's earlier ones:
the latency a closed loop hides. A triangle marks a dashed point whose p99 is
only a lower bound: more than 1% of its arrivals had not completed when the
window ended (censored_arrivals), and their latencies are known only to be
at least how long they had waited. (b) the throughput achieved against the
load offered, with the line where they are equal.

    python3 plots/open_loop.py --results DIR --out STEM
"""

import sys

import dmbench_results as dr
import figure_drawing as fd

# Above this share of censored arrivals, they can hold the 99th percentile.
CENSORED_SHARE_OF_A_BOUND = 0.01


def p99_is_a_bound(point):
    # Results written before arrivals were censored have no such field: none were.
    overall = point.field("operations.overall", dr.OBJECT)
    censored = point.field("operations.overall.censored_arrivals") if (
        "censored_arrivals" in overall) else 0
    arrivals = point.field("operations.overall.count") + censored
    return arrivals > 0 and censored > CENSORED_SHARE_OF_A_BOUND * arrivals


def draw(experiments, args):
    points = dr.run_points(experiments)
    closed = [p for p in points if not p.config("run.target_mops", dr.NUMBER)]
    if closed:
        raise dr.ResultsError(f"{closed[0].source}: a closed-loop point (run.target_mops 0); "
                              "this figure plots open-loop runs only")
    series_of = dr.series_by_index(points, lambda p: p.config("run.target_mops"))
    cells = dr.unique_points(points, lambda p: (series_of(p), p.config("run.target_mops")),
                             "series and offered load")
    series = dr.ordered(series_of(p) for p in points)
    colors = fd.series_colors(series)
    plt = fd.pyplot()
    fig, (latency, throughput) = plt.subplots(1, 2, figsize=(10, 4))
    any_bound = False
    for label in series:
        loads = sorted(load for (name, load) in cells if name == label)
        chosen = [cells[(label, load)] for load in loads]
        latency.plot(loads, [p.field("operations.overall.latency_us.p99") for p in chosen],
                     color=colors[label], marker="o", linestyle="-",
                     label=f"{label}, actual start")
        latency.plot(loads,
                     [p.field("operations.overall.intended_latency_us.p99") for p in chosen],
                     color=colors[label], marker="s", fillstyle="none", linestyle="--",
                     label=f"{label}, intended start")
        bounds = [(load, p) for load, p in zip(loads, chosen) if p99_is_a_bound(p)]
        any_bound = any_bound or bool(bounds)
        latency.plot([load for load, _ in bounds],
                     [p.field("operations.overall.intended_latency_us.p99") for _, p in bounds],
                     color=colors[label], marker="^", markersize=9, linestyle="none")
        throughput.plot(loads, [p.field("throughput_mops") for p in chosen], color=colors[label],
                        marker="o", label=label)
    latency.set_yscale("log")
    fd.log_axis_plain(latency.yaxis, [
        v for line in latency.get_lines() for v in line.get_ydata()])
    latency.set_xlabel("Offered load (Mops)")
    latency.set_ylabel("99th percentile latency (µs)")
    latency.set_title("(a) Tail latency")
    offered = sorted({load for (_, load) in cells})
    throughput.plot(offered, offered, color="gray", linestyle=":", linewidth=1,
                    label="achieved = offered")
    throughput.set_xlabel("Offered load (Mops)")
    throughput.set_ylabel("Achieved throughput (Mops)")
    throughput.set_ylim(bottom=0)
    throughput.set_title("(b) Throughput")
    workloads = ", ".join(dr.ordered(f"{dr.mix_label(p.mix)}, {p.skew_label}" for p in points))
    handles = latency.get_legend_handles_labels()[0] + throughput.get_legend_handles_labels()[0][-1:]
    if any_bound:
        # One entry for every series' triangles, which take the series' color.
        from matplotlib.lines import Line2D
        handles.append(Line2D([], [], color="gray", marker="^", markersize=9, linestyle="none",
                              label="p99 at least (backlog)"))
    fd.finish(fig, fd.figure_title(experiments, "Open loop", f"latency under offered load "
                                                            f"({workloads})"),
              experiments, legend=handles)
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
