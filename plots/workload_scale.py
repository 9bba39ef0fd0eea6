"""The key-popularity scale of index results, for figure titles.

The experiments run a scaled-down key space (10 M keys where the paper has
1 B), and the hottest key's share of accesses depends on it: 5.5% at 10 M
keys, 4.2% at 1 B (Zipfian 0.99). Points near a collapse threshold flip on
that, so every index figure states its scale, e.g. "10 M keys (paper 1 B),
hottest key 5.5%", from the results' `workload_scale` section
(results/SCHEMA.md) and the experiment files' `paper_scale.key_count`.
"""

from __future__ import annotations

from typing import Sequence

from dmbench_results import INTEGER, NUMBER, STRING, ordered

_UNITS = ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "k"))


def count_text(count: int) -> str:
    """10000000 -> "10 M", 1500000 -> "1.5 M", 200 -> "200"."""
    for size, unit in _UNITS:
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return str(count)


def _share_text(shares: Sequence[float]) -> str:
    low, high = f"{100 * min(shares):.2g}", f"{100 * max(shares):.2g}"
    return f"{low}%" if low == high else f"{low}-{high}%"


def caption(experiments) -> str:
    """"10 M keys (paper 1 B), hottest key 5.5%" for the index points of
    `experiments`, with "Zipf ranks over 1 B" when a rank population
    (workload.zipf_population) was set; "" for microbenchmarks. Results
    written before `workload_scale` existed give the key count alone."""
    keys, populations, shares, paper = [], [], [], []
    for experiment in experiments:
        if experiment.is_micro:
            continue
        key_count = experiment.paper_scale.get("key_count")
        if isinstance(key_count, int):
            paper.append(count_text(key_count))
        for point in experiment.points:
            if "workload_scale" not in point.result:
                keys.append(count_text(point.config("workload.keys", INTEGER)))
                continue
            count = point.field("workload_scale.keys", INTEGER)
            population = point.field("workload_scale.zipf_population", INTEGER)
            keys.append(count_text(count))
            if population != count:
                populations.append(count_text(population))
            # A uniform run's hottest key is any key, 1/keys: no skew to state.
            if point.config("workload.distribution", STRING) != "uniform":
                shares.append(point.field("workload_scale.hottest_key_share", NUMBER))
    if not keys:
        return ""
    text = f"{' / '.join(ordered(keys))} keys"
    if paper:
        text += f" (paper {' / '.join(ordered(paper))})"
    if populations:
        text += f", Zipf ranks over {' / '.join(ordered(populations))}"
    if shares:
        text += f", hottest key {_share_text(shares)}"
    return text
