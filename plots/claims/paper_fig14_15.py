"""Figures 14 and 15 (§5.5, §5.6): in depth, key size and cache size."""

from __future__ import annotations

from typing import Callable

import dmbench_results as dr

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403

CLAIMS = ClaimList()


# Figure 14 (§5.5): in-depth, write-intensive, Zipfian 0.99.
FIG14 = "fig14-in-depth"


def fig14_point(results: Results, index: str) -> dr.Point:
    return pick(experiment(results, FIG14), index, lambda p: p.index_label == index)


def lookups_without_retry(index: str) -> Callable[[Results], Measured]:
    def compute(results):
        point = fig14_point(results, index)
        return Measured(share(point.histogram(point.op_stats("lookup") + ".read_retries"),
                              lambda low, high: high == 0))
    return compute


def writes_with_round_trips(index: str, trips: int) -> Callable[[Results], Measured]:
    return lambda r: Measured(share(dr.write_ops_histogram(fig14_point(r, index), "round_trips"),
                                    lambda low, high: low == high == trips))


def write_round_trips_p99(index: str) -> Callable[[Results], Measured]:
    return lambda r: Measured(percentile(
        dr.write_ops_histogram(fig14_point(r, index), "round_trips"), 0.99))


def sherman_common_write_size(results: Results) -> Measured:
    histogram = dr.write_ops_histogram(fig14_point(results, "Sherman"), "write_bytes")
    low, high, count = max(histogram.buckets, key=lambda bucket: bucket[2])
    return Measured((low + high) / 2, f"most common, {100 * count / histogram.count:.1f}% of writes")


def sherman_split_writes(results: Results) -> Measured:
    point = fig14_point(results, "Sherman")
    node = point.config("index.node_bytes", dr.NUMBER)
    # A split writes back more than one node; a write without one, an entry.
    return Measured(share(dr.write_ops_histogram(point, "write_bytes"),
                          lambda low, high: low > node), f"> {node:g} B")


for _index, _id in (("FG+", "fgplus"), ("Sherman", "sherman")):
    CLAIMS.add(id=f"fig14a.{_id}.lookups-without-retry",
          figure="Figure 14(a)", section="§5.5.1",
          text=f"\"for FG+ and Sherman, 99.98% of lookup operations do not requires retries\" "
               f"({_index})",
          paper=99.98, unit="%", kind=PERCENT, needs=(FIG14,), at_least=True,
          compute=lookups_without_retry(_index))
CLAIMS.add(id="fig14b.fgplus.writes-4-round-trips", figure="Figure 14(b)", section="§5.5.2",
      text="\"94% of write operations need 4 round trips in FG+\"",
      paper=94, unit="%", kind=PERCENT, needs=(FIG14,),
      compute=writes_with_round_trips("FG+", 4))
CLAIMS.add(id="fig14b.sherman.writes-3-round-trips", figure="Figure 14(b)", section="§5.5.2",
      text="\"while 93.6% need 3 round trips in Sherman\"",
      paper=93.6, unit="%", kind=PERCENT, needs=(FIG14,),
      compute=writes_with_round_trips("Sherman", 3))
CLAIMS.add(id="fig14b.sherman.writes-2-round-trips", figure="Figure 14(b)", section="§5.5.2",
      text="\"3.6% of write operations in Sherman only need 2 round trips\" (handover)",
      paper=3.6, unit="%", kind=PERCENT, needs=(FIG14,),
      compute=writes_with_round_trips("Sherman", 2))
CLAIMS.add(id="fig14b.fgplus.round-trips-p99", figure="Figure 14(b)", section="§5.5.2",
      text="\"for FG+, the 99th percentile of round trips is 453\"",
      paper=453, unit="round trips", kind=ABSOLUTE, needs=(FIG14,),
      compute=write_round_trips_p99("FG+"),
      marks=(PaperMark("FG+", "write_round_trips_p99"),))
CLAIMS.add(id="fig14b.sherman.round-trips-p99", figure="Figure 14(b)", section="§5.5.2",
      text="\"its [Sherman's] 99th percentile of round trips is 11\"",
      paper=11, unit="round trips", kind=ABSOLUTE, needs=(FIG14,),
      compute=write_round_trips_p99("Sherman"),
      marks=(PaperMark("Sherman", "write_round_trips_p99"),))
CLAIMS.add(id="fig14c.sherman.write-size", figure="Figure 14(c)", section="§5.5.3",
      text="\"for write operations without node splits, Sherman only needs to write back 17 "
           "bytes\"",
      paper=17, unit="B", kind=ABSOLUTE, needs=(FIG14,), compute=sherman_common_write_size,
      note="dmbench stores each 4-bit version in its own byte: an entry is 18 B")
CLAIMS.add(id="fig14c.split-writes", figure="Figure 14(c)", section="§5.5.3",
      text="\"only about 0.4% of write operations trigger node splits, inducing large than "
           "1KB writes\"",
      paper=0.4, unit="%", kind=PERCENT, needs=(FIG14,), compute=sherman_split_writes,
      note="ours: Sherman's writes that write back more than one node")

# Figure 15 (§5.6): key size and cache size.
FIG15A, FIG15B, FIG15C = "fig15a-key-size-uniform", "fig15b-key-size-skewed", "fig15c-cache-size"


def by_key_size(results: Results, name: str, index: str, size: int) -> dr.Point:
    return pick(experiment(results, name), f"{index}, {size}-byte keys",
                lambda p: p.index_label == index and p.config("index.key_bytes") == size)


def key_ratio(name: str, size: int) -> Callable[[Results], Measured]:
    return lambda r: ratio(throughput(by_key_size(r, name, "Sherman", size)),
                           throughput(by_key_size(r, name, "FG+", size)))


CLAIMS.add(id="fig15a.key16.sherman-vs-fgplus", figure="Figure 15(a)", section="§5.6.1",
      text="\"as the key size grows from 16B to 1KB, the performance advantage of Sherman over "
           "FG+ increases from 1.17× to 1.47×\" (16 B, uniform)",
      paper=1.17, unit="x", kind=FACTOR, needs=(FIG15A,), compute=key_ratio(FIG15A, 16),
      marks=(PaperMark("Sherman", "throughput", (("distribution", "uniform"), ("key_bytes", 16)),
                       relative_to="FG+"),))
CLAIMS.add(id="fig15a.key1024.sherman-vs-fgplus", figure="Figure 15(a)", section="§5.6.1",
      text="(same sentence) 1 KB keys, uniform",
      paper=1.47, unit="x", kind=FACTOR, needs=(FIG15A,), compute=key_ratio(FIG15A, 1024),
      marks=(PaperMark("Sherman", "throughput",
                       (("distribution", "uniform"), ("key_bytes", 1024)), relative_to="FG+"),))
CLAIMS.add(id="fig15b.key1024.sherman-vs-fgplus", figure="Figure 15(b)", section="§5.6.1",
      text="\"When the key size is 1KB, Sherman still outperforms FG+ by 1.4×\" (skewed)",
      paper=1.4, unit="x", kind=FACTOR, needs=(FIG15B,), compute=key_ratio(FIG15B, 1024),
      marks=(PaperMark("Sherman", "throughput",
                       (("distribution", "zipfian"), ("key_bytes", 1024)), relative_to="FG+"),))
CLAIMS.add(id="fig15b.fgplus.key-size-insensitive", figure="Figure 15(b)", section="§5.6.1",
      text="\"Since FG+ suffers from low throughput in high-contention scenarios, the "
           "increasing key size does not affect its throughput\" (FG+ at 1 KB / at 16 B)",
      paper=1.0, unit="x", kind=PARITY, needs=(FIG15B,), paper_text="≈1× (not affected)",
      compute=lambda r: ratio(throughput(by_key_size(r, FIG15B, "FG+", 1024)),
                              throughput(by_key_size(r, FIG15B, "FG+", 16))))


def largest_cache_hit_ratio(results: Results) -> Measured:
    exp = experiment(results, FIG15C)
    largest = max(exp.points, key=lambda p: p.config("index.cache_mib", dr.NUMBER))
    return Measured(100 * largest.field("operations.overall.index.cache_hit_ratio"),
                    f"{largest.config('index.cache_mib'):g} MiB")


CLAIMS.add(id="fig15c.cache-hit-ratio", figure="Figure 15(c)", section="§5.6.2",
      text="\"a 400MB index cache can bring a cache hit rate close to 98%\"",
      paper=98, unit="%", kind=PERCENT, needs=(FIG15C,), compute=largest_cache_hit_ratio,
      note="ours at the largest cache swept; the cache is scaled with the tree (the "
           "experiment file puts 1 MiB here near 100 MB at 1 billion keys)")
