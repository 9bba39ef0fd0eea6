"""The result documents of the plot tests' fixtures (fixtures.py): index runs
come from a toy model of FG+ and Sherman (throughput and latency
react to the techniques, the workload mix, skew, clients, key and cache size,
in the directions the paper reports), so that the figures look like figures;
the numbers mean nothing. Histograms are bucketed like
harness/stats/log_linear_histogram.cc (exact below 128, then 64 buckets per
power of two), and every field of the schema is present with its type.
"""

from __future__ import annotations

import copy
import json
import math
import random
import zlib
from collections import Counter

SAMPLES = 1500  # distinct samples per histogram; each stands for several operations

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
        "git_dirty": False, "build_id": "89abcdef0123456789abcdef0123456789abcdef"}

# The breakdown of Figs. 10 and 11: each variant adds one technique to FG+.


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
        # Past it, the arrivals still waiting at the window's end are censored
        # into the intended latencies, above everything that completed.
        backlog = 1 + 50 * max(0.0, offered / max(mops, 1e-9) - 0.8) ** 2
        overload = max(0.0, offered / max(mops, 1e-9) - 1)
        for stats in [operations["overall"], *operations["by_op"].values()]:
            intended = scaled_histogram(stats["latency_us"], backlog)
            censored = round(stats["count"] * overload)
            stats["censored_arrivals"] = censored
            if censored:
                top = intended["buckets"][-1][1]
                intended["buckets"].append([top, top * 1.1, censored])
                intended["count"] += censored
                intended["max"] = intended["p99"] = intended["p999"] = top * 1.1
            stats["intended_latency_us"] = intended
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
                       "simulation_wall_seconds": 2.0, "simulation_cpu_seconds": 1.8,
                       "index_operations_per_wall_second": count * 1.1 / 2.0,
                       "events_per_wall_second": count * 5 / 2.0},
    }
