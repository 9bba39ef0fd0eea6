"""Figures 10 and 11 (§5.2): performance breakdown, FG+ to Sherman.

Reads the index runs of a breakdown experiment (Figure 10: skewed workloads,
Figure 11: uniform ones): each variant adds one technique to FG+ (+Combine,
+On-Chip, +Hierarchical, +2-Level Ver, i.e. Sherman), run under several
workload mixes. One panel per mix (write-only, write-intensive,
read-intensive, ...): throughput bars (Mops) per technique, in the
experiment's variant order, with 50p and 99p latency (us) on a log right axis.
The paper's values, where its text states them (paper_marks.py), are drawn
in crimson outline: a latency it quotes as is, and each factor it quotes
(Sherman over FG+, or one technique over the one before) applied to our bar
of the base, i.e. where the bar would stand if the paper's step held on ours.
With seed replicates (--seed-results, or the report's seeds/), each bar gets a
whisker from the lowest to the highest throughput over the seeds.

    python3 plots/fig10.py --results DIR --out STEM [--figure 10|11] [--caption TEXT]
        [--seed-results DIR ...]

Other breakdowns of the same shape (SMART-BT's techniques one at a time)
draw with it too, under their own caption.
"""

import sys

import dmbench_results as dr
import figure_drawing as fd
import paper_marks

METRICS = {"throughput": "throughput_mops", "p50": "latency_us.p50", "p99": "latency_us.p99"}
CAPTIONS = {10: "Performance breakdown, skewed workloads",
            11: "Performance breakdown, uniform workloads"}


def add_arguments(parser):
    parser.add_argument("--figure", type=int, choices=sorted(CAPTIONS), default=10,
                        help="which figure this is (10: skewed, 11: uniform): the title, "
                             "and a warning when the results' key distribution differs")
    parser.add_argument("--caption", help="the caption, for a breakdown other than the "
                                          "paper's (default: the figure's)")


def draw(experiments, args):
    points = dr.run_points(experiments)
    def key(point):
        return point.mix, point.label
    cells = dr.unique_points(points, key, "workload mix and variant")
    replicates = fd.replicate_cells(args, key, "workload mix and variant")
    mixes = sorted(dr.ordered(p.mix for p in points), key=dr.mix_sort_key)
    series = dr.ordered(p.label for p in points)
    colors = fd.series_colors(series)
    skews = dr.ordered(p.skew_label for p in points)
    expected = "uniform" if args.figure == 11 else "skew"
    if any(not skew.startswith(expected) for skew in skews):
        print(f"warning: Figure {args.figure} shows "
              f"{'uniform' if args.figure == 11 else 'skewed'} workloads, these results are "
              f"{', '.join(skews)}", file=sys.stderr)

    def ours(label, metric, at):
        point = cells.get((at.get("mix"), label))
        return None if point is None else point.field(METRICS[metric])

    marks = paper_marks.resolve(paper_marks.marks_for(experiments), ours)
    plt = fd.pyplot()
    fig, axes = plt.subplots(1, len(mixes), figsize=(3.6 * len(mixes) + 0.6, 4.2),
                             squeeze=False)
    for number, (ax, mix) in enumerate(zip(axes[0], mixes)):
        present = [label for label in series if (mix, label) in cells]
        figures = [cells[(mix, label)] for label in present]
        p50 = [p.field("latency_us.p50") for p in figures]
        p99 = [p.field("latency_us.p99") for p in figures]
        seeds = [fd.seed_values(p, replicates, key(p), "throughput_mops") for p in figures]
        right = fd.bars_with_latency(ax, present, [p.field("throughput_mops") for p in figures],
                                     p50, p99, [colors[label] for label in present],
                                     [fd.seed_range(v) for v in seeds])
        panel_marks = [m for m in marks if m.at.get("mix") == mix]
        paper_marks.draw_on_bars(ax, right, {label: i for i, label in enumerate(present)},
                                 panel_marks, p50 + p99)
        ax.set_title(f"({chr(ord('a') + number)}) {dr.mix_label(mix)}")
    caption = (getattr(args, "caption", None) or CAPTIONS[args.figure]) + (
        "" if skews == ["uniform"] else f" ({', '.join(skews)})")
    seeds = fd.seed_count(cells, replicates)
    fd.finish(fig, fd.figure_title(experiments, f"Figure {args.figure}", caption),
              fd.drawn_from(experiments, args),
              legend=fd.bars_with_latency_legend() + paper_marks.bars_legend(marks)
              + (fd.seed_range_legend(seeds) if seeds > 1 else []))
    return fig


def run(argv=None, figure=None):
    """Entry point; fig11.py calls it with figure=11."""
    if figure is not None:
        argv = list(sys.argv[1:] if argv is None else argv) + ["--figure", str(figure)]
    return fd.main(draw, __doc__.split("\n\n")[0], add_arguments, argv)


if __name__ == "__main__":
    sys.exit(run())
