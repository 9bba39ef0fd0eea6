"""SMART (ASPLOS'24) Fig. 12(a)-(c): SMART-BT against Sherman+ on one server.

Reads the index runs of smart-fig12-btree (configs/experiments/). One
panel per YCSB mix; x: client threads of the compute server (each runs its
coroutines, as SMART's axis counts threads); y: throughput (Mops) and, on
the panel below, p99 latency. One line per series (the experiment's
variants: Sherman+, Sherman+ w/ SL, SMART-BT): each step's gain is the gap
between two lines. SMART's own measurements (smart_reference.py, its
artifact's raw data) are crosses on dotted lines in the series' colour.
With seed replicates (--seed-results, or the report's seeds/), each
throughput line is shaded over its range across the seeds.

    python3 plots/smart_btree.py --results DIR [DIR] --out STEM [--seed-results DIR ...]
"""

import sys

import dmbench_results as dr
import figure_drawing as fd
import smart_reference
from smart_scaleup import draw_reference, reference_legend


WHAT = "mix, series and thread count"


def key(point: dr.Point) -> tuple[str, str, int]:
    return point.mix, point.label, point.config("topology.threads_per_compute_server",
                                                dr.INTEGER)


def collect(experiments):
    """{(mix, series): {threads: Point}}, the mixes in YCSB order."""
    cells = dr.unique_points(dr.run_points(experiments), key, WHAT)
    lines: dict[tuple[str, str], dict[int, dr.Point]] = {}
    for (mix, label, threads), point in cells.items():
        lines.setdefault((mix, label), {})[threads] = point
    mixes = sorted(dr.ordered(mix for mix, _ in lines), key=dr.mix_sort_key)
    return cells, lines, mixes


def draw(experiments, args):
    cells, lines, mixes = collect(experiments)
    replicates = fd.replicate_cells(args, key, WHAT)
    series = dr.ordered(label for _, label in lines)
    colors = fd.series_colors(series)
    plt = fd.pyplot()
    fig, axes = plt.subplots(2, len(mixes), figsize=(4.2 * len(mixes), 6), squeeze=False,
                             sharex="col", gridspec_kw={"height_ratios": [2, 1]})
    for column, mix in enumerate(mixes):
        top, bottom = axes[0][column], axes[1][column]
        p99s = []
        for number, label in enumerate(series):
            by_threads = lines.get((mix, label))
            if not by_threads:
                continue
            threads = sorted(by_threads)
            marker = fd.MARKERS[number % len(fd.MARKERS)]
            top.plot(threads, [by_threads[t].field("throughput_mops") for t in threads],
                     marker=marker, color=colors[label], label=label)
            fd.shade_seed_range(top, threads, [
                fd.seed_values(by_threads[t], replicates, (mix, label, t), "throughput_mops")
                for t in threads], colors[label])
            draw_reference(top, threads, smart_reference.FIG12.get((mix, label), {}),
                           colors[label])
            p99 = [by_threads[t].field("latency_us.p99") for t in threads]
            p99s += p99
            bottom.plot(threads, p99, marker=marker, color=colors[label], label=label)
        top.set_title(f"{dr.mix_label(mix)} (SMART Fig. 12)")
        top.set_ylabel("Throughput (Mops)")
        top.set_ylim(bottom=0)
        bottom.set_yscale("log")
        fd.log_axis_plain(bottom.yaxis, p99s)
        bottom.set_ylabel("p99 latency (µs)")
        bottom.set_xlabel("Client threads (8 coroutines each)")
    axes[0][0].legend(loc="upper left", fontsize="small")
    seeds = fd.seed_count(cells, replicates)
    fd.finish(fig, fd.figure_title(experiments, "SMART Fig. 12(a)-(c)",
                                   "SMART-BT vs Sherman+ on one server"),
              fd.drawn_from(experiments, args),
              legend=reference_legend() + (fd.seed_band_legend(seeds) if seeds > 1 else []))
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
