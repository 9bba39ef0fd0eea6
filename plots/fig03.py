"""Figure 3 (§3.2.3): RDMA_WRITE prefers small IO sizes.

Reads the micro documents of `dmbench micro verbs` experiments, typically two
(configs/experiments/fig03-verbs.json, inbound, and fig03-verbs-outbound.json):
throughput (Mops) against IO size (bytes, log scale), one line per direction
(and per verb when several verbs ran).

    python3 plots/fig03.py --results INBOUND_DIR OUTBOUND_DIR --out STEM
"""

import sys

import dmbench_results as dr
import figure_drawing as fd


def draw(experiments, args):
    series: dict[str, dict[int, float]] = {}  # label -> io size -> Mops
    runs = []
    for benchmark in dr.micro_benchmarks(experiments, "verbs"):
        direction = benchmark.field("direction", dr.STRING)
        for number, _ in enumerate(benchmark.points()):
            verb = benchmark.point_field(number, "verb", dr.STRING)
            size = benchmark.point_field(number, "io_bytes", dr.INTEGER)
            runs.append((direction, verb, size, benchmark.point_field(number, "mops"),
                         benchmark))
    verbs = dr.ordered(verb for _, verb, _, _, _ in runs)
    for direction, verb, size, mops, benchmark in runs:
        label = direction.capitalize() + (f" {verb}" if len(verbs) > 1 else "")
        if size in series.setdefault(label, {}):
            raise dr.ResultsError(f"{benchmark.source}: two {label} points for IO size {size}")
        series[label][size] = mops

    plt = fd.pyplot()
    fig, ax = plt.subplots(figsize=(5, 3.6))
    colors = fd.series_colors(list(series))
    for number, (label, by_size) in enumerate(series.items()):
        sizes = sorted(by_size)
        ax.plot(sizes, [by_size[s] for s in sizes], marker=fd.MARKERS[number % len(fd.MARKERS)],
                color=colors[label], label=label)
    sizes = sorted({size for by_size in series.values() for size in by_size})
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [dr.size_label(s) for s in sizes])
    ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel("IO size (bytes)")
    ax.set_ylabel("Throughput (Mops)")
    ax.legend()
    verb_text = "/".join(verbs)
    fd.finish(fig, fd.figure_title(experiments, "Figure 3", f"RDMA_{verb_text} throughput"),
              experiments)
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
