"""Figure 16 (§5.7): the hierarchical on-chip lock (HOCL) under skew.

Reads the micro document of a `dmbench micro hocl` experiment
(configs/experiments/fig16-*.json): 176 clients acquire and release
Zipfian-chosen locks with each lock variant in turn ("RDMA lock", "+On-Chip",
"+Local (no queues)", a point the paper's text states without a bar,
"+Hierarchical", "+Handover"). One panel per Zipfian parameter: throughput bars (Mops) per
variant, 50p and 99p latency (us) on a log right axis. The paper's steps
(paper_marks.py: each technique's factor over the one before, applied to our
bar of that one) in crimson outline.

    python3 plots/fig16.py --results DIR --out STEM
"""

import sys

import dmbench_results as dr
import micro_results
import figure_drawing as fd
import paper_marks


def draw(experiments, args):
    benchmarks = micro_results.benchmarks(experiments, "hocl")
    by_theta: dict[float, dict[str, dict]] = {}  # theta -> variant -> figures
    for variant, thetas in micro_results.points_by(benchmarks, "variant").items():
        for theta, figures in thetas.items():
            by_theta.setdefault(theta, {})[variant] = figures

    keys = {"throughput": "mops", "p50": "p50", "p99": "p99"}

    def ours(variant, metric, at):
        figures = by_theta.get(at.get("theta"), {}).get(variant)
        return None if figures is None else figures[keys[metric]]

    marks = paper_marks.resolve(paper_marks.marks_for(experiments), ours)
    plt = fd.pyplot()
    thetas = sorted(by_theta)
    fig, axes = plt.subplots(1, len(thetas), figsize=(max(5.5, 4.2 * len(thetas)), 4), squeeze=False)
    for ax, theta in zip(axes[0], thetas):
        variants = list(by_theta[theta])  # the benchmark's order: techniques added in turn
        colors = fd.series_colors(variants)
        figures = [by_theta[theta][v] for v in variants]
        p50, p99 = [f["p50"] for f in figures], [f["p99"] for f in figures]
        right = fd.bars_with_latency(ax, variants, [f["mops"] for f in figures], p50, p99,
                                     [colors[v] for v in variants])
        paper_marks.draw_on_bars(ax, right, {v: i for i, v in enumerate(variants)},
                                 [m for m in marks if m.at.get("theta") == theta], p50 + p99)
        ax.set_title(f"Zipfian {theta:g}")
    setup = ", ".join(dr.ordered(f"{b.field('clients', dr.INTEGER)} clients, "
                                 f"{b.field('locks', dr.INTEGER)} locks" for b in benchmarks))
    fd.finish(fig, fd.figure_title(experiments, "Figure 16",
                                   f"Performance of HOCL with skewed pattern ({setup})"),
              experiments, legend=fd.bars_with_latency_legend() + paper_marks.bars_legend(marks))
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
