"""Builds result directories as `dmbench sweep` writes them (results/SCHEMA.md),
with plausible numbers, for the plot tests.

Index runs come from a toy model of FG+ and Sherman (throughput and latency
react to the techniques, the workload mix, skew, clients, key and cache size,
in the directions the paper reports), so that the figures look like figures;
the numbers mean nothing. Histograms are bucketed like
harness/stats/log_linear_histogram.cc (exact below 128, then 64 buckets per
power of two), and every field of the schema is present with its type.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import random
import re
import zlib
from collections import Counter
from pathlib import Path

SAMPLES = 1500  # distinct samples per histogram; each stands for several operations

# The resolved config of `dmbench run` (RunConfig::ToJson) with its defaults.
DEFAULT_CONFIG = {
    "name": "run",
    "index": {"engine": "blink", "preset": "sherman", "consistency": "two_level", "combine": True, "onchip": True,
              "hierarchical": True, "handover": 4, "masked_locks": False, "faa_release": False,
              "wrap_window_us": 8.0, "wrap_retry": "none", "key_bytes": 8, "value_bytes": 8, "node_bytes": 1024,
              "cache_mib": 64, "cache_prewarm": False, "fill_factor": 0.8},
    "topology": {"memory_servers": 8, "compute_servers": 8, "threads_per_compute_server": 22,
                 "coroutines_per_thread": 1, "colocated": True, "host_memory_mib": 1024,
                 "chunk_mib": 8},
    "backend": {"type": "sim", "nic": "cx5-100g"},
    "substrate": {"per_thread_doorbells": False, "work_request_throttling": "off",
                  "work_request_credits": 8, "throttle_sample_us": 8000.0,
                  "throttle_stable_samples": 60, "cas_backoff": False,
                  "coroutine_throttling": False, "backoff_unit_ns": 1707.0,
                  "backoff_epoch_us": 1000.0},
    "workload": {"mix": "write-intensive", "insert": 0.5, "update": 0.0, "lookup": 0.5,
                 "delete": 0.0, "range": 0.0, "distribution": "zipfian", "theta": 0.99,
                 "keys": 1000000, "zipf_population": 0, "bulkload_fraction": 0.8, "range_size": 100,
                 "scan_max": 100, "split_clients": False, "trace": "", "trace_load": "",
                 "trace_split": "round-robin"},
    "run": {"warmup_ms": 1.0, "measure_ms": 10.0, "seed": 1, "verify": False, "target_mops": 0},
}
FGPLUS_INDEX = {"preset": "fgplus", "consistency": "crc", "combine": False, "onchip": False,
                "hierarchical": False, "handover": 0}
MIXES = {  # insert, lookup, range fractions (workloads/workload_spec.cc)
    "write-only": (1.0, 0.0, 0.0), "write-intensive": (0.5, 0.5, 0.0),
    "read-intensive": (0.05, 0.95, 0.0), "range-only": (0.0, 0.0, 1.0),
    "range-write": (0.5, 0.0, 0.5),
    # YCSB's updates priced as the toy model's writes.
    "ycsb-a": (0.5, 0.5, 0.0), "ycsb-b": (0.05, 0.95, 0.0), "ycsb-c": (0.0, 1.0, 0.0),
}
NIC_PROFILE = {
    "name": "cx5-100g", "atomic_buckets": 4096, "atomic_on_chip_ns": 120.0,
    "cacheline_bytes": 64, "cpu_doorbell_ns": 80.0, "cpu_poll_completion_ns": 40.0,
    "cpu_post_request_ns": 40.0, "cpu_wakeup_ns": 200.0, "dma_read_order": "ascending",
    "link_bandwidth_gbps": 100.0, "link_latency_ns": 350.0, "link_mtu_bytes": 4096,
    "link_packet_overhead_bytes": 30, "nic_inbound_mops": 110.0, "nic_latency_ns": 150.0,
    "nic_outbound_mops": 110.0, "on_chip_access_ns": 50.0, "on_chip_memory_kib": 256,
    "pcie_bandwidth_gbps": 110.0, "pcie_read_latency_ns": 450.0,
    "pcie_write_latency_ns": 100.0,
}
TOOL = {"name": "dmbench", "git_revision": "0123456789abcdef0123456789abcdef01234567",
        "git_dirty": False}

# The breakdown of Figs. 10 and 11: each variant adds one technique to FG+.
BREAKDOWN = [
    {"name": "FG+", "set": {"index.preset": "fgplus"}},
    {"name": "+Combine", "set": {"index.preset": "fgplus", "index.combine": True}},
    {"name": "+On-Chip", "set": {"index.preset": "fgplus", "index.combine": True,
                                 "index.onchip": True}},
    {"name": "+Hierarchical", "set": {"index.preset": "fgplus", "index.combine": True,
                                      "index.onchip": True, "index.hierarchical": True,
                                      "index.handover": 4}},
    {"name": "+2-Level Ver", "set": {"index.preset": "sherman"}},
]
FG_AND_SHERMAN = [{"name": "FG+", "set": {"index.preset": "fgplus"}},
                  {"name": "Sherman", "set": {"index.preset": "sherman"}}]


# ------------------------------------------------------------- histograms

def bucket_of(value: int) -> tuple[int, int]:
    """The (low, high) bucket of LogLinearHistogram with kSubBits = 7."""
    if value < 128:
        return value, value
    shift = value.bit_length() - 1 - 6
    low = (value >> shift) << shift
    return low, low + (1 << shift) - 1


def histogram(samples: Counter, scale: float = 1.0) -> dict:
    """A schema histogram of integer samples (value -> count), reported in
    `scale` units (latencies are recorded in ns and reported in us)."""
    buckets: dict[tuple[int, int], int] = {}
    for value, count in samples.items():
        key = bucket_of(int(value))
        buckets[key] = buckets.get(key, 0) + count
    total = sum(samples.values())
    lowest, highest = (min(samples), max(samples)) if total else (0, 0)

    def percentile(percent: float) -> float:
        if not total:
            return 0.0
        running = 0
        for (low, high), count in sorted(buckets.items()):
            running += count
            if running * 100 >= percent * total:
                return min(max((low + high) // 2, lowest), highest) * scale
        return highest * scale

    return {
        "count": total,
        "mean": sum(v * c for v, c in samples.items()) / total * scale if total else 0.0,
        "min": lowest * scale, "max": highest * scale,
        "p50": percentile(50), "p90": percentile(90), "p99": percentile(99),
        "p999": percentile(99.9),
        "buckets": [[low * scale, high * scale, count]
                    for (low, high), count in sorted(buckets.items())],
    }


def scaled_histogram(histogram: dict, factor: float) -> dict:
    """A histogram's values times `factor` (counts kept)."""
    scaled = copy.deepcopy(histogram)
    for key in ("mean", "min", "max", "p50", "p90", "p99", "p999"):
        scaled[key] = histogram[key] * factor
    scaled["buckets"] = [[low * factor, high * factor, count]
                         for low, high, count in histogram["buckets"]]
    return scaled


def weighted(rng: random.Random, choices: list[tuple[int, float]], n: int) -> Counter:
    values, weights = zip(*choices)
    return Counter(rng.choices(values, weights, k=n))


# ------------------------------------------------------------ result model

class OpModel:
    """Samples of one operation type, before they become op-stats."""

    def __init__(self, weight: int, latency_ns: Counter, round_trips: Counter,
                 read_retries: Counter, lock_retries: Counter, handovers: Counter,
                 write_bytes: Counter | None):
        self.weight = weight  # operations each sample stands for
        self.latency_ns, self.round_trips = latency_ns, round_trips
        self.read_retries, self.lock_retries = read_retries, lock_retries
        self.handovers, self.write_bytes = handovers, write_bytes

    def scaled(self, samples: Counter) -> Counter:
        return Counter({v: c * self.weight for v, c in samples.items()})

    def merged(self, other: "OpModel") -> "OpModel":
        def add(a, b):
            return self.scaled(a) + other.scaled(b)
        writes = None
        if self.write_bytes is not None or other.write_bytes is not None:
            writes = add(self.write_bytes or Counter(), other.write_bytes or Counter())
        return OpModel(1, add(self.latency_ns, other.latency_ns),
                       add(self.round_trips, other.round_trips),
                       add(self.read_retries, other.read_retries),
                       add(self.lock_retries, other.lock_retries),
                       add(self.handovers, other.handovers), writes)

    def to_json(self, measured_seconds: float, cache_hit_ratio: float) -> dict:
        latency = self.scaled(self.latency_ns)
        count = sum(latency.values())
        trips = self.scaled(self.round_trips)
        total_trips = sum(v * c for v, c in trips.items())
        written = self.scaled(self.write_bytes) if self.write_bytes is not None else Counter()
        bytes_written = sum(v * c for v, c in written.items())
        lock_retries = sum(v * c for v, c in self.scaled(self.lock_retries).items())
        read_retries = sum(v * c for v, c in self.scaled(self.read_retries).items())
        handovers = sum(v * c for v, c in self.scaled(self.handovers).items())
        writes_count = sum(written.values())
        reads = count + read_retries
        cas = writes_count - handovers + lock_retries
        verbs = {"round_trips": total_trips, "reads": reads, "writes": 2 * writes_count,
                 "compare_and_swaps": max(cas, 0), "failed_compare_and_swaps": lock_retries,
                 "fetch_and_adds": 0, "bytes_read": reads * 1024,
                 "bytes_written": bytes_written + 8 * writes_count}
        hits = round(count * cache_hit_ratio)
        stats = {
            "count": count,
            "throughput_mops": count / measured_seconds / 1e6,
            "latency_us": histogram(latency, 1e-3),
            "round_trips": histogram(trips),
            "read_retries": histogram(self.scaled(self.read_retries)),
            "lock_retries": histogram(self.scaled(self.lock_retries)),
            "handovers": histogram(self.scaled(self.handovers)),
            "verbs": verbs,
            "verbs_per_op": {
                "round_trips": total_trips / max(count, 1), "reads": reads / max(count, 1),
                "writes": verbs["writes"] / max(count, 1),
                "atomics": verbs["compare_and_swaps"] / max(count, 1),
                "bytes_read": verbs["bytes_read"] / max(count, 1),
                "bytes_written": verbs["bytes_written"] / max(count, 1)},
            "index": {"cache_hits": hits, "cache_misses": count - hits,
                      "cache_hit_ratio": hits / count if count else 0.0,
                      "splits": writes_count // 250, "handovers": handovers,
                      "read_retries": read_retries, "slow_read_retries": 0,
                      "slow_reads_trusted": 0, "lock_retries": lock_retries, "wrong_turns": 0, "sibling_chases": 0,
                      "torn_entries_returned": 0, "speculative_hits": 0,
                      "speculative_misses": 0, "write_back_bytes": bytes_written},
        }
        if self.write_bytes is not None and writes_count:
            stats["write_bytes"] = histogram(written)
        return stats


def zeta(n: int, theta: float) -> float:
    """sum_{i=1}^{n} i^-theta: the first terms exactly, the rest by the
    Euler-Maclaurin formula, as workloads/zipf_zeta.cc computes it."""
    m = 1000
    if n <= m:
        return sum(i ** -theta for i in range(1, n + 1))
    s = 1.0 - theta
    integral = m ** s * math.expm1(s * math.log(n / m)) / s
    d1 = lambda x: -theta * x ** (-theta - 1)  # noqa: E731
    d3 = lambda x: -theta * (theta + 1) * (theta + 2) * x ** (-theta - 3)  # noqa: E731
    return (sum(i ** -theta for i in range(1, m)) + integral + (m ** -theta + n ** -theta) / 2
            + (d1(n) - d1(m)) / 12 - (d3(n) - d3(m)) / 720)


def workload_scale(workload: dict) -> dict:
    """The result's workload_scale section (shares of the ideal Zipf law; the
    harness reports Gray's sampler, within a few percent for the top 10)."""
    keys = workload["keys"]
    if workload["distribution"] == "uniform":
        return {"keys": keys, "zipf_population": keys, "hottest_key_share": 1 / keys,
                "top10_keys_share": 10 / keys, "folded_share": 0.0}
    population = workload.get("zipf_population") or keys
    total = zeta(population, workload["theta"])
    return {"keys": keys, "zipf_population": population, "hottest_key_share": 1 / total,
            "top10_keys_share": zeta(10, workload["theta"]) / total,
            "folded_share": 1 - zeta(keys, workload["theta"]) / total}


def model_run(config: dict) -> dict:
    """A plausible result document for a resolved config."""
    rng = random.Random(zlib.crc32(json.dumps(config, sort_keys=True).encode()))
    index, workload, topology = config["index"], config["workload"], config["topology"]
    insert, lookup, range_fraction = MIXES[workload["mix"]]
    skew = workload["theta"] if workload["distribution"] == "zipfian" else 0.0
    hot = skew ** 8  # contention: ~0.92 at 0.99, ~0.43 at 0.9, 0 uniform
    clients = (topology["compute_servers"] * topology["threads_per_compute_server"]
               * topology["coroutines_per_thread"])
    two_level = index["consistency"] == "two_level"
    # Lock efficiency under contention: each technique helps (§5.2.1).
    locks = 0.02 * (3.4 if index["combine"] else 1) * (3 if index["onchip"] else 1) * (
        2.2 if index["hierarchical"] else 1) * (1.03 if two_level else 1)
    write_rtt = 2 if index["combine"] else 3
    node = index["node_bytes"] * max(1, index["key_bytes"] // 8) ** 0.5
    cache_hit = min(0.99, 0.6 + 0.4 * index["cache_mib"] / 64)

    def latency(base_us: float, tail: float, n: int) -> Counter:
        return Counter(int(base_us * 1000 * rng.lognormvariate(0, 0.15)
                           * (1 + (rng.paretovariate(1.2) - 1) * tail)) for _ in range(n))

    ops, mops = {}, 0.0
    per_client = 0.15 * (1 + 0.5 * (1 - cache_hit)) ** -1 * (1024 / node) ** 0.3
    capacity = min(clients * per_client, 60.0 * (1024 / node) ** 0.5)
    if insert:
        efficiency = hot * locks + (1 - hot) * (1.1 if two_level else 1.0)
        tail = hot * (40 if not index["hierarchical"] else 3)
        handover = hot * 0.04 if index["hierarchical"] else 0.0
        trips = [(write_rtt + 1, 1 - handover - 0.02), (write_rtt, handover),
                 (write_rtt + 2, 0.015), (write_rtt + 10, 0.004 + 0.01 * tail / 40),
                 (write_rtt + 450, 0.001 * tail / 40 + 1e-6)]
        entry = index["key_bytes"] + index["value_bytes"] + 2
        size = entry if two_level else int(node)
        ops["insert"] = OpModel(
            10, latency(2.5 * (write_rtt + 1) / 3 + 4 * hot, tail, SAMPLES),
            weighted(rng, trips, SAMPLES), Counter({0: SAMPLES}),
            weighted(rng, [(0, 1 - hot * 0.3), (1, hot * 0.2), (int(8 + tail * 5), hot * 0.1)],
                     SAMPLES),
            weighted(rng, [(0, 1 - handover), (1, handover + 1e-9)], SAMPLES),
            weighted(rng, [(size, 0.996), (2 * int(node), 0.004)], SAMPLES))
        mops += insert * capacity * efficiency
    if lookup:
        # Rare events are placed, not sampled, so that every fixture has some.
        retries = Counter({0: SAMPLES - 3, 1: 2, 9 if not two_level else 2: 1})
        ops["lookup"] = OpModel(
            10, latency(2.0 + 1.5 * (1 - cache_hit), 0.3, SAMPLES),
            weighted(rng, [(1, cache_hit), (3, 1 - cache_hit)], SAMPLES),
            retries, Counter({0: SAMPLES}), Counter({0: SAMPLES}),
            None)
        mops += lookup * capacity * (1 if not insert else 0.5 + 0.5 * (hot * locks + 1 - hot))
    if range_fraction:
        leaves = max(1, workload["range_size"] // 25)
        ops["range"] = OpModel(
            10, latency(3.0 + 0.2 * leaves, 0.5, SAMPLES),
            weighted(rng, [(1 + leaves // 8, 0.9), (2 + leaves // 8, 0.1)], SAMPLES),
            Counter({0: SAMPLES}), Counter({0: SAMPLES}), Counter({0: SAMPLES}), None)
        mops += range_fraction * min(capacity, 900.0 / leaves) * (1.0 if two_level else 0.8)

    measured = config["run"]["measure_ms"] / 1e3
    # Scale each op's weight so that its count matches its share of `mops`.
    fractions = {"insert": insert, "lookup": lookup, "range": range_fraction}
    for op, model in ops.items():
        model.weight = max(1, round(mops * fractions[op] * 1e6 * measured / SAMPLES))
    overall = None
    for model in ops.values():
        overall = model if overall is None else overall.merged(model)
    operations = {"overall": overall.to_json(measured, cache_hit),
                  "by_op": {op: m.to_json(measured, cache_hit) for op, m in ops.items()}}
    offered = config["run"].get("target_mops", 0)
    if offered:
        # Open loop: past the capacity, operations queue behind their client's earlier ones.
        backlog = 1 + 50 * max(0.0, offered / max(mops, 1e-9) - 0.8) ** 2
        for stats in [operations["overall"], *operations["by_op"].values()]:
            stats["intended_latency_us"] = scaled_histogram(stats["latency_us"], backlog)
    count = operations["overall"]["count"]
    return {
        "schema_version": 1,
        "tool": dict(TOOL),
        "config": config,
        "backend": {"type": "sim", "nic_profile": dict(NIC_PROFILE), "fallbacks": []},
        "seed": config["run"]["seed"],
        "bulkload": {"keys": round(workload["keys"] * workload["bulkload_fraction"]),
                     "fill_factor": index["fill_factor"]},
        "workload_scale": workload_scale(workload),
        "measured_seconds": measured,
        "throughput_mops": operations["overall"]["throughput_mops"],
        "latency_us": operations["overall"]["latency_us"],
        "operations": operations,
        "verify": {"enabled": False},
        "simulator": {"simulated_seconds": measured + config["run"]["warmup_ms"] / 1e3,
                      "events": count * 5, "verbs": count * 3,
                      "index_operations": int(count * 1.1), "torn_reads": 0},
        "wall_clock": {"started_at": "2026-01-01T00:00:00Z", "wall_seconds": 2.5,
                       "peak_rss_bytes": 1 << 30, "huge_page_bytes": 1 << 26,
                       "simulation_wall_seconds": 2.0,
                       "index_operations_per_wall_second": count * 1.1 / 2.0,
                       "events_per_wall_second": count * 5 / 2.0},
    }


# ------------------------------------------------------------ sweep output

def set_path(document: dict, path: str, value) -> None:
    node = document
    *parents, last = path.split(".")
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value


def resolve(config: dict) -> dict:
    """Fills in the defaults and the index preset, as RunConfig does."""
    resolved = copy.deepcopy(DEFAULT_CONFIG)
    if config.get("index", {}).get("type") == "fgplus":
        resolved["index"].update(FGPLUS_INDEX)
    for section, fields in config.items():
        if isinstance(fields, dict):
            resolved[section].update(fields)
        else:
            resolved[section] = fields
    mix = resolved["workload"]["mix"]
    if mix in MIXES:
        insert, lookup, range_fraction = MIXES[mix]
        resolved["workload"].update(insert=insert, lookup=lookup, range=range_fraction,
                                    split_clients=mix == "range-write")
    return resolved


def file_safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=+-]", "-", text)


def value_text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def write_json(path: Path, document) -> None:
    path.write_text(json.dumps(document, indent=2, sort_keys=True), encoding="utf-8")


def write_sweep(directory: Path, definition: dict) -> Path:
    """Writes experiment.json and a result per point of an index-run
    experiment, named and ordered as harness/driver/experiment.cc does."""
    directory.mkdir(parents=True, exist_ok=True)
    variants = definition.get("variants") or [{"name": "", "set": {}}]
    axes = definition.get("sweep", {})
    combinations = []
    for values in itertools.product(*axes.values()):
        combination = {}
        for axis, value in zip(axes, values):
            # Paths joined by a comma take their values together.
            paths = axis.split(",")
            combination.update({axis: value} if len(paths) == 1 else dict(zip(paths, value)))
        # Keys in order, as the JSON object that holds them in the C++ driver.
        combinations.append(dict(sorted(combination.items())))
    points = []
    for variant in variants:
        for combination in combinations:
            config = copy.deepcopy(definition.get("base", {}))
            for path, value in list(variant.get("set", {}).items()) + list(combination.items()):
                set_path(config, path, value)
            name = variant["name"]
            for path, value in combination.items():
                name += ("__" if name else "") + f"{path}={value_text(value)}"
            name = file_safe(name or "base")
            config["name"] = f"{definition['name']}/{name}"
            write_json(directory / f"{name}.json", model_run(resolve(config)))
            points.append({"name": name, "variant": variant["name"], "settings": combination,
                           "result": f"{name}.json"})
    write_json(directory / "experiment.json", {"experiment": definition, "points": points})
    return directory


def micro_point(mops: float, p50: float, p99: float, measure_us: float, payload: int,
                **parameters) -> dict:
    """A point of a micro benchmark, as PointRow (harness/micro) writes it."""
    operations = int(mops * measure_us)
    point = {
        "operations": operations, "mops": mops,
        "gigabytes_per_second": operations * payload / (measure_us / 1e6) / 1e9,
        "latency_us": {"p50": p50, "p90": p50 + (p99 - p50) * 0.4, "p99": p99,
                       "p999": p99 * 1.5, "mean": p50 * 1.1},
        "simulator": {"wall_seconds": 0.5, "simulated_seconds": measure_us / 1e6,
                      "verbs": operations * 2, "events": operations * 5,
                      "verbs_per_wall_second": operations * 4.0},
        "p50_us": p50, "p99_us": p99,
    }
    point.update(parameters)
    return point


def write_micro(directory: Path, definition: dict, *benchmarks: dict) -> Path:
    """Writes a microbenchmark experiment: one point "micro" (settings null)
    whose document holds the benchmarks."""
    directory.mkdir(parents=True, exist_ok=True)
    for benchmark in benchmarks:
        benchmark.setdefault("simulator", {"wall_seconds": 1.0, "verbs": 1000, "events": 5000,
                                           "verbs_per_wall_second": 1000.0,
                                           "events_per_wall_second": 5000.0})
    document = {"schema_version": 1, "kind": "micro", "tool": dict(TOOL),
                "backend": {"type": "sim", "nic_profile": dict(NIC_PROFILE)}, "seed": 1,
                "benchmarks": list(benchmarks)}
    write_json(directory / "micro.json", document)
    write_json(directory / "experiment.json", {
        "experiment": definition,
        "points": [{"name": "micro", "variant": "", "settings": None, "result": "micro.json"}]})
    return directory


# ------------------------------------------------------ one per figure

def index_base(**workload) -> dict:
    return {"workload": dict({"mix": "write-intensive", "distribution": "zipfian",
                              "theta": 0.99, "keys": 1000000}, **workload),
            "run": {"warmup_ms": 1, "measure_ms": 10}}


def table1(root: Path) -> list[Path]:
    base = index_base()
    base["index"] = {"preset": "fgplus", "faa_release": True}
    return [write_sweep(root / "table1", {
        "name": "table1-fg", "figure": "Table 1 (§3.1.1)", "ae": "table1",
        "plot": {"script": "table1"}, "base": base,
        "sweep": {"workload.mix": ["read-intensive", "write-intensive"],
                  "workload.distribution": ["uniform", "zipfian"]}})]


def fig10(root: Path, distribution: str = "zipfian") -> list[Path]:
    figure = "Figure 10 (§5.2.1)" if distribution == "zipfian" else "Figure 11 (§5.2.2)"
    stem = "fig10" if distribution == "zipfian" else "fig11"
    return [write_sweep(root / f"fig10-{distribution}", {
        "name": f"breakdown-{distribution}", "figure": figure, "ae": stem,
        "plot": {"script": "fig10", "output": stem, "options": {"figure": int(stem[3:])}},
        "base": index_base(distribution=distribution), "variants": BREAKDOWN,
        "sweep": {"workload.mix": ["write-only", "write-intensive", "read-intensive"]}})]


def fig12(root: Path) -> list[Path]:
    return [write_sweep(root / f"fig12-{mix}", {
        "name": f"fig12-{mix}", "figure": "Figure 12 (§5.3)", "ae": "fig12",
        "plot": {"script": "fig12"},
        "base": index_base(mix=mix), "variants": FG_AND_SHERMAN,
        "sweep": {"workload.range_size": [100, 1000, 10000]}})
        for mix in ("range-only", "range-write")]


def fig13(root: Path) -> list[Path]:
    coroutines = {"topology.coroutines_per_thread": [1, 2, 3]}
    return [
        write_sweep(root / "fig13-uniform", {
            "name": "fig13-uniform", "figure": "Figure 13 (§5.4)", "ae": "fig13",
            "plot": {"script": "fig13"},
            "base": index_base(distribution="uniform"), "variants": FG_AND_SHERMAN,
            "sweep": coroutines}),
        write_sweep(root / "fig13-skew", {
            "name": "fig13-skew", "figure": "Figure 13 (§5.4)", "ae": "fig13",
            "plot": {"script": "fig13"}, "base": index_base(),
            "variants": FG_AND_SHERMAN,
            "sweep": dict({"workload.theta": [0.9, 0.99]}, **coroutines)}),
    ]


def fig14(root: Path) -> list[Path]:
    return [write_sweep(root / "fig14", {
        "name": "fig14-in-depth", "figure": "Figure 14 (§5.5)", "ae": "fig14",
        "plot": {"script": "fig14"}, "base": index_base(),
        "variants": FG_AND_SHERMAN})]


def fig15(root: Path) -> list[Path]:
    return [
        write_sweep(root / "fig15-key-size", {
            "name": "fig15-key-size", "figure": "Figure 15 (§5.6)", "ae": "fig15",
            "plot": {"script": "fig15"}, "base": index_base(),
            "variants": FG_AND_SHERMAN,
            "sweep": {"index.key_bytes": [16, 64, 256, 1024],
                      "workload.distribution": ["uniform", "zipfian"]}}),
        write_sweep(root / "fig15-cache", {
            "name": "fig15-cache", "figure": "Figure 15 (§5.6.2)", "ae": "fig15",
            "plot": {"script": "fig15"},
            "base": index_base(distribution="uniform"),
            "variants": [{"name": "Sherman", "set": {"index.preset": "sherman"}}],
            "sweep": {"index.cache_mib": [4, 16, 32, 64]}}),
    ]


def fig02(root: Path) -> list[Path]:
    points = []
    for release, collapse in (("FAA (FG)", 0.01), ("WRITE (FG+)", 0.1)):
        for theta in (0, 0.8, 0.9, 0.95, 0.99):
            factor = 1 if theta == 0 else collapse / theta
            points.append(micro_point(40 * factor, 3.9, 4.7 / factor, 50000, 0,
                                      release=release, theta=float(theta)))
    return [write_micro(root / "fig02", {"name": "fig02-rdma-locks",
                                         "figure": "Figure 2 (§3.2.2)", "ae": "fig2",
                                         "plot": {"script": "fig02"},
                                         "micro": {"arguments": ["spinlock"]}},
                        {"benchmark": "spinlock", "clients": 154, "locks": 10240,
                         "warmup_us": 5000.0, "measure_us": 50000.0, "points": points})]


def fig03(root: Path) -> list[Path]:
    directories = []
    for direction, peak in (("inbound", 110.0), ("outbound", 107.0)):
        points = [micro_point(min(peak, 12.5e3 / (size + 30)), 1.6 + size / 4000,
                              2.5 + size / 2000, 500, size, verb="WRITE", io_bytes=size,
                              clients=176, depth=1)
                  for size in (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)]
        directories.append(write_micro(
            root / f"fig03-{direction}",
            {"name": f"fig03-verbs-{direction}", "figure": f"Figure 3 (§3.2.3), {direction}",
             "ae": "fig3", "plot": {"script": "fig03"},
             "micro": {"arguments": ["verbs"]}},
            {"benchmark": "verbs", "direction": direction, "clients": 176, "depth": 1,
             "warmup_us": 50.0, "measure_us": 500.0, "points": points}))
    return directories


def smart_scaleup(root: Path) -> list[Path]:
    fig3 = [micro_point(mops * (1 if verb == "READ" else 0.9), 4.2, 6.9, 200, 8, doorbells=policy,
                        verb=verb, threads=threads, depth=8, io_bytes=8)
            for policy, per_thread in (("per-thread QP", 1.2), ("per-thread doorbell", 1.8))
            for verb in ("READ", "WRITE")
            for threads, mops in ((1, per_thread), (32, 32 * per_thread),
                                  (96, min(110.0, 96 * per_thread) / (3 if per_thread < 1.5
                                                                       else 1)))]
    fig4 = [micro_point(min(110.0, threads * depth * 0.4) * (0.6 if threads * depth > 1500 else 1),
                        4.2, 6.9, 200, 8, doorbells="per-thread doorbell", verb="READ",
                        threads=threads, depth=depth, io_bytes=8)
            for threads in (12, 36, 96) for depth in (1, 8, 32)]
    scaleup = {"benchmark": "scale-up", "io_bytes": 8, "warmup_us": 20.0, "measure_us": 200.0}
    return [write_micro(root / "smart-fig03", {"name": "smart-fig03-doorbells",
                                               "figure": "SMART Figure 3 (ASPLOS'24 §3.1)",
                                               "ae": "smart", "plot": {"script": "smart_scaleup"},
                                               "micro": {"arguments": ["scaleup"]}},
                        dict(scaleup, points=fig3)),
            write_micro(root / "smart-fig04", {"name": "smart-fig04-depth",
                                               "figure": "SMART Figure 4(a) (ASPLOS'24 §3.2)",
                                               "ae": "smart", "plot": {"script": "smart_scaleup"},
                                               "micro": {"arguments": ["scaleup"]}},
                        dict(scaleup, points=fig4))]


def fig16(root: Path) -> list[Path]:
    points = [micro_point(mops, p50, p99, 50000, 0, variant=variant, theta=0.99)
              for variant, mops, p50, p99 in (("RDMA lock", 4.4, 3.5, 823),
                                              ("+On-Chip", 6.1, 3.2, 586),
                                              ("+Local (no queues)", 6.2, 3.2, 190),
                                              ("+Hierarchical", 6.2, 3.2, 167),
                                              ("+Handover", 20.0, 3.2, 88))]
    return [write_micro(root / "fig16", {"name": "fig16-hocl", "figure": "Figure 16 (§5.7)",
                                         "ae": "fig16", "plot": {"script": "fig16"},
                                         "micro": {"arguments": ["hocl"]}},
                        {"benchmark": "hocl", "clients": 176, "locks": 10240,
                         "warmup_us": 5000.0, "measure_us": 50000.0, "points": points})]


def open_loop(root: Path) -> list[Path]:
    return [write_sweep(root / "open-loop", {
        "name": "open-loop-latency", "figure": "Open loop (not in the paper)", "ae": "openloop",
        "plot": {"script": "open_loop"}, "base": index_base(), "variants": FG_AND_SHERMAN,
        "sweep": {"run.target_mops": [0.5, 2, 8, 20]}})]


# The public ConnectX-5 figures of the calibration set (claims.CALIBRATION_TARGETS).
CALIBRATION_VALUES = {"unloaded_read_p50_us": 2.1, "small_mops": 108.0, "cas_host_mops": 2.1,
                      "cas_on_chip_mops": 7.9}


def calibration_basics(root: Path) -> list[Path]:
    """The micro experiment `calibration-basics`: an unloaded READ, loaded
    READs and WRITEs over IO sizes (as `dmbench micro verbs`), and CAS on
    one, several and many addresses in each memory (as `dmbench micro atomics`)."""
    values = CALIBRATION_VALUES
    unloaded = {"benchmark": "verbs", "direction": "inbound", "clients": 1, "depth": 1,
                "warmup_us": 5.0, "measure_us": 50.0,
                "points": [micro_point(0.47, values["unloaded_read_p50_us"], 2.3, 50, 8,
                                       verb="READ", io_bytes=8, clients=1, depth=1)]}
    sizes = (8, 64, 128, 256, 1024, 4096)
    loaded = {"benchmark": "verbs", "direction": "inbound", "clients": 176, "depth": 4,
              "warmup_us": 10.0, "measure_us": 50.0,
              "points": [micro_point(min(values["small_mops"], 12.5e3 / (size + 30)),
                                     6.5, 7.5, 50, size, verb=verb, io_bytes=size,
                                     clients=176, depth=4)
                         for verb in ("READ", "WRITE") for size in sizes]}
    atomics = {"benchmark": "atomics", "clients": 176, "warmup_us": 10.0, "measure_us": 100.0,
               "points": [micro_point(mops[addresses], 80, 120, 100, 8,
                                      memory=memory, addresses=addresses)
                          for memory, mops in (
                              ("host", {1: values["cas_host_mops"], 8: 15.0, 1024: 49.0}),
                              ("on-chip", {1: values["cas_on_chip_mops"], 8: 56.0, 1024: 106.0}))
                          for addresses in (1, 8, 1024)]}
    return [write_micro(root / "calibration-basics",
                        {"name": "calibration-basics",
                         "micro": {"arguments": ["verbs"]}}, unloaded, loaded, atomics)]


# script -> (fixture builder, extra arguments)
FIGURES = {
    "table1.py": (table1, []),
    "fig02.py": (fig02, []),
    "fig03.py": (fig03, []),
    "fig10.py": (fig10, []),
    "fig11.py": (lambda root: fig10(root, "uniform"), []),
    "fig12.py": (fig12, []),
    "fig13.py": (fig13, []),
    "fig14.py": (fig14, []),
    "fig15.py": (fig15, []),
    "fig16.py": (fig16, []),
    "smart_scaleup.py": (smart_scaleup, []),
    "smart_btree.py": (lambda root: [from_config(root, "smart-fig12-btree")], []),
    "open_loop.py": (open_loop, []),
}


# ------------------------------------- the experiment files of configs/

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "experiments"
# Micro experiment file -> the builder above that writes its kind of results,
# and which of the builder's directories it is.
MICRO_BUILDERS = {"fig02-rdma-locks": (fig02, 0), "fig03-verbs": (fig03, 0),
                  "fig03-verbs-outbound": (fig03, 1), "fig16-hocl": (fig16, 0),
                  "smart-fig03-doorbells": (smart_scaleup, 0),
                  "smart-fig04-depth": (smart_scaleup, 1),
                  "calibration-basics": (calibration_basics, 0)}


def from_config(root: Path, name: str) -> Path:
    """Fixture results of configs/experiments/NAME.json in ROOT/NAME, as
    `dmbench sweep --out ROOT/NAME` would lay them out: an index experiment
    is swept as the file defines it (variants, sweep, point names) over the
    toy model; a microbenchmark comes from its builder above, under the
    file's name and figure (the report keys experiments by name)."""
    definition = json.loads((CONFIG_DIR / f"{name}.json").read_text(encoding="utf-8"))
    if "micro" not in definition:
        return write_sweep(root / name, definition)
    build, which = MICRO_BUILDERS[name]
    scratch = root / f".build-{name}"
    built = build(scratch)[which]
    directory = root / name
    built.rename(directory)
    for leftover in sorted(scratch.rglob("*"), reverse=True):  # the builder's other directories
        leftover.unlink() if leftover.is_file() else leftover.rmdir()
    scratch.rmdir()
    index_file = directory / "experiment.json"
    index = json.loads(index_file.read_text(encoding="utf-8"))
    index["experiment"].update({key: definition[key] for key in ("name", "figure")
                                if key in definition})
    write_json(index_file, index)
    return directory


def paper_experiments(root: Path, names=None) -> dict[str, Path]:
    """from_config() for NAMES (default: every experiment file)."""
    if names is None:
        names = sorted(path.stem for path in CONFIG_DIR.glob("*.json"))
    return {name: from_config(root, name) for name in names}
