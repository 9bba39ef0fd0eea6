"""Table 1 (§3.1.1): index performance of the one-sided approach (FG).

Reads the index runs of a Table 1 experiment (configs/experiments/table1-*.json)
and draws the paper's table as an image: one column per workload (read- and
write-intensive, each uniform and skewed), rows throughput (Mops) and 50th /
90th / 99th percentile latency (us) per series (variant, else index preset).
The paper's numbers (the Table 1 claims' marks, paper_marks.py) are shown in
grey rows below for comparison, in the columns whose workload and skew the
paper ran (its skewed columns are Zipfian 0.99). With seed replicates
(--seed-results, or the report's seeds/), each value is followed by its
range over the seeds in parentheses, where the seeds differ.

    python3 plots/table1.py --results DIR --out STEM [--seed-results DIR ...]
"""

import sys

import dmbench_results as dr
import figure_drawing as fd
import paper_marks

# The paper's column order: read-intensive first.
MIX_ORDER = ("read-intensive", "write-intensive")
ROWS = (("Throughput (Mops)", "throughput_mops", "throughput"),
        ("50th latency (µs)", "latency_us.p50", "p50"),
        ("90th latency (µs)", "latency_us.p90", "p90"),
        ("99th latency (µs)", "latency_us.p99", "p99"))
PAPER_COLOR = "#777777"


def number(value: float) -> str:
    # Three significant digits without scientific notation (FG's skewed tail
    # is about 20000 us).
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def column_key(point):
    mix = point.mix
    order = MIX_ORDER.index(mix) if mix in MIX_ORDER else len(MIX_ORDER)
    distribution = point.config("workload.distribution", dr.STRING)
    theta = 0.0 if distribution == "uniform" else point.config("workload.theta", dr.NUMBER)
    return (order, dr.mix_sort_key(mix), distribution != "uniform", theta)


def draw(experiments, args):
    points = dr.run_points(experiments)
    series = dr.ordered(point.label for point in points)
    columns = sorted({column_key(p): p for p in points}.values(), key=column_key)
    column_ids = [(p.mix, p.skew_label) for p in columns]
    def key(point):
        return point.label, point.mix, point.skew_label
    what = "series, workload and skew"
    cells = dr.unique_points(points, key, what)
    replicates = fd.replicate_cells(args, key, what)

    def shown(point, field: str) -> str:
        values = fd.seed_values(point, replicates, key(point), field)
        low, high = fd.seed_range(values) or (values[0], values[0])
        text = number(values[0])
        return text if number(low) == number(high) else f"{text} ({number(low)}–{number(high)})"

    row_labels, rows, colors = [], [], []
    for label in series:
        for row_label, field, _ in ROWS:
            row_labels.append(row_label if len(series) == 1 else f"{label}: {row_label}")
            values = []
            for mix, skew in column_ids:
                point = cells.get((label, mix, skew))
                values.append(shown(point, field) if point else "–")
            rows.append(values)
            colors.append("black")
    paper = {(m.metric, m.at.get("mix"), m.at.get("skew")): m.value for m in
             paper_marks.resolve(paper_marks.marks_for(experiments), lambda *_: None)}
    if any((metric, mix, skew) in paper for _, _, metric in ROWS for mix, skew in column_ids):
        for row_label, _, metric in ROWS:
            row_labels.append(f"Paper: {row_label}")
            rows.append([number(paper[(metric, mix, skew)]) if (metric, mix, skew) in paper
                         else "–" for mix, skew in column_ids])
            colors.append(PAPER_COLOR)

    plt = fd.pyplot()
    column_inches = 2.4 if replicates else 1.5  # a range beside each value
    fig, ax = plt.subplots(figsize=(max(6.5, 2 + column_inches * len(columns)),
                                    1.4 + 0.3 * len(rows)))
    ax.axis("off")
    table = ax.table(cellText=rows, rowLabels=row_labels, loc="center", cellLoc="center",
                     colLabels=[f"{dr.mix_label(mix)}\n{skew}" for mix, skew in column_ids])
    table.auto_set_font_size(False)
    table.set_fontsize(9)
    table.scale(1, 1.6)
    for (row, _), cell in table.get_celld().items():
        if row == 0:
            cell.set_height(cell.get_height() * 1.6)  # two-line headers
            cell.set_facecolor("#eeeeee")
        elif colors[row - 1] != "black":
            cell.get_text().set_color(colors[row - 1])
    setup = ", ".join(dr.ordered(f"{p.clients} client threads, {p.config('workload.keys'):,} "
                                 f"keys" for p in points))
    count = fd.seed_count(cells, replicates)
    seeds = f"; in parentheses, the range over {count} seeds" if count > 1 else ""
    fd.finish(fig, fd.figure_title(experiments, "Table 1",
                                   f"Index performance in one-sided approach ({setup}{seeds})"),
              fd.drawn_from(experiments, args))
    return fig


if __name__ == "__main__":
    sys.exit(fd.main(draw, __doc__.split("\n\n")[0]))
