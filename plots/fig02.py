"""Figure 2 (§3.2.2): RDMA exclusive spin locks collapse under skew.

Reads the micro document of a `dmbench micro spinlock` experiment
(configs/experiments/fig02-*.json): 154 clients acquire (RDMA_CAS) and release
Zipfian-chosen locks. Panel (a): throughput (Mops) against the Zipfian
parameter, one bar per release verb (FAA as FG, WRITE as FG+); panel (b): 50p
and 99p latency (us, log scale), one colour per release.

    python3 plots/fig02.py --results DIR --out STEM
"""

import sys

import dmbench_results as dr
import micro_results
import figure_drawing as fd


# Release verbs as harness/micro/spinlock_benchmark.cc names them -> index.
RELEASE_SERIES = {"FAA (FG)": "FG", "WRITE (FG+)": "FG+"}


def draw(experiments, args):
    benchmarks = micro_results.benchmarks(experiments, "spinlock")
    releases = micro_results.points_by(benchmarks, "release")  # release -> theta -> figures
    thetas = sorted({theta for by_theta in releases.values() for theta in by_theta})
    categories = [f"{theta:g}" for theta in thetas]
    # Colour a release like the index that uses it.
    colors = fd.series_colors([RELEASE_SERIES.get(r, r) for r in releases])
    color_of = {r: colors[RELEASE_SERIES.get(r, r)] for r in releases}

    def values(release, key):
        return [releases[release].get(theta, {}).get(key, float("nan")) for theta in thetas]

    plt = fd.pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    fd.grouped_bars(left, categories, [(r, values(r, "mops")) for r in releases], color_of)
    left.set_xlabel("Contention degree (Zipfian parameter)")
    left.set_ylabel("Throughput (Mops)")
    left.set_title("(a) Throughput")

    for release in releases:
        right.plot(categories, values(release, "p50"), "o--", color=color_of[release],
                   label=f"{release}, median")
        right.plot(categories, values(release, "p99"), "^-", color=color_of[release],
                   label=f"{release}, 99p")
    right.set_yscale("log")
    fd.log_axis_plain(right.yaxis, [v for r in releases for k in ("p50", "p99")
                                    for v in values(r, k)])
    right.set_xlabel("Contention degree (Zipfian parameter)")
    right.set_ylabel("Latency (µs)")
    right.set_title("(b) Median and 99th percentile latency")

    clients = ", ".join(dr.ordered(f"{b.field('clients', dr.INTEGER)} clients, "
                                   f"{b.field('locks', dr.INTEGER)} locks"
                                   for b in benchmarks))
    fd.finish(fig, fd.figure_title(experiments, "Figure 2",
                                   f"RDMA-based exclusive locks ({clients})"), experiments,
              legend=legend(color_of))
    return fig


def legend(color_of):
    """Below the panels, where no curve runs: a colour per lock release, a
    line style per percentile."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    return ([Patch(facecolor=color, edgecolor="black", linewidth=0.4,
                   label=f"{release} release") for release, color in color_of.items()]
            + [Line2D([], [], color="black", marker="o", linestyle="--", label="Median"),
               Line2D([], [], color="black", marker="^", linestyle="-", label="99p")])


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
