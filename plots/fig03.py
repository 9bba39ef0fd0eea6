"""Figure 3 (§3.2.3): RDMA_WRITE prefers small IO sizes.

Reads the micro documents of `dmbench micro verbs` experiments, typically two
(configs/experiments/fig03-verbs.json, inbound, and fig03-verbs-outbound.json):
throughput (Mops) against IO size (bytes, log scale), one line per direction
(and per verb when several verbs ran). The paper's stated floor (more than
50 Mops up to 128 B, paper_marks.py) is a dashed crimson line over those sizes.

    python3 plots/fig03.py --results INBOUND_DIR OUTBOUND_DIR --out STEM
"""

import sys

import dmbench_results as dr
import micro_results
import figure_drawing as fd
import paper_marks


def draw(experiments, args):
    series: dict[str, dict[int, float]] = {}  # label -> io size -> Mops
    runs = []
    for benchmark in micro_results.benchmarks(experiments, "verbs"):
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
    # The paper's floor (paper_marks.py): more than its value up to the IO size it names;
    # one line for the directions that share it.
    floors: dict[tuple, list[str]] = {}
    for mark in paper_marks.resolve(paper_marks.marks_for(experiments), lambda *_: None):
        covered = [s for s in sizes if s <= mark.at.get("max_io_bytes", 0)]
        if mark.metric == "throughput_floor" and covered and any(
                label.startswith(mark.series) for label in series):
            floors.setdefault((mark.value, covered[0], covered[-1]), []).append(mark.series)
    for (value, low, high), directions in floors.items():
        ax.plot([low, high], [value] * 2, color=paper_marks.COLOR, linestyle="--", linewidth=1.2,
                label=f"paper: > {value:g} Mops at ≤ {dr.size_label(high)} B "
                      f"({', '.join(d.lower() for d in directions)})")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [dr.size_label(s) for s in sizes])
    ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel("IO size (bytes)")
    ax.set_ylabel("Throughput (Mops)")
    ax.legend(loc="upper right")
    verb_text = "/".join(verbs)
    fd.finish(fig, fd.figure_title(experiments, "Figure 3", f"RDMA_{verb_text} throughput"),
              experiments)
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
