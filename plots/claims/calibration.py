"""The calibration set: claims on the hardware-level targets the NIC profile was
tuned on, and the public ConnectX-5 figures among them."""

from __future__ import annotations

from typing import Callable

import dmbench_results as dr
import micro_results

from .access import *  # noqa: F401,F403  (the helpers claims are written with)
from .judging import *  # noqa: F401,F403
from .paper_fig02_03 import FIG02, FIG03_INBOUND, FIG03_OUTBOUND
from .paper_fig16 import FIG16
from .smart_calibration import SMART_EXPERIMENTS
from .smart_calibration import TARGETS as SMART_TARGETS


# ------------------------------------------- calibration and prediction
#
# The NIC profile (configs/nic/) was tuned until the microbenchmarks matched
# hardware-level targets: the paper's Figs. 2, 3 and 16 and public ConnectX-5
# figures. Claims on those are the calibration set: agreement there is by
# construction. Every other claim (the index results) is the model's
# prediction.

CALIBRATION_BASICS = "calibration-basics"  # the public figures' micro experiment
CALIBRATION_EXPERIMENTS = frozenset({FIG02, FIG03_INBOUND, FIG03_OUTBOUND, FIG16,
                                     CALIBRATION_BASICS}) | SMART_EXPERIMENTS


def is_calibration(claim: Claim) -> bool:
    """A claim on calibration targets: it needs calibration experiments only."""
    return bool(claim.needs) and set(claim.needs) <= CALIBRATION_EXPERIMENTS


def basics_points(results: Results, benchmark: str,
                  test: Callable[[micro_results.MicroBenchmark, int], bool],
                  what: str) -> list[tuple[micro_results.MicroBenchmark, int]]:
    """(benchmark, point number) of every `benchmark` point of
    calibration-basics that passes `test`; an error saying `what` was looked
    for when there is none. A point without a field the test reads is an
    error naming the file, the point and the field."""
    exp = experiment(results, CALIBRATION_BASICS)
    found = [(entry, number) for entry in micro_results.benchmarks([exp], benchmark)
             for number, _ in enumerate(entry.points()) if test(entry, number)]
    if not found:
        raise dr.ResultsError(f"{exp.directory}: no '{benchmark}' point for {what} in "
                              f"experiment '{exp.name}'")
    return found


def verb_test(verb: str, test: Callable[[int], bool] = lambda size: True):
    """Points of `verb` ("READ", "WRITE") whose IO size passes `test`."""
    return lambda entry, number: (entry.point_field(number, "verb", dr.STRING) == verb
                                  and test(entry.point_field(number, "io_bytes", dr.INTEGER)))


def unloaded_read(results: Results) -> Measured:
    """p50 of 8 B READs, one per batch, at the fewest clients run (ideally
    one: no queueing anywhere)."""
    found = basics_points(results, "verbs", lambda entry, number: (
        verb_test("READ", lambda size: size == 8)(entry, number)
        and entry.point_field(number, "depth", dr.INTEGER) == 1), "8 B READs at depth 1")
    clients = min(entry.point_field(number, "clients", dr.INTEGER) for entry, number in found)
    p50 = min(entry.point_field(number, "p50_us") for entry, number in found
              if entry.point_field(number, "clients", dr.INTEGER) == clients)
    return Measured(p50, f"{clients} client{'s' if clients > 1 else ''}")


def small_message_rate(verb: str) -> Callable[[Results], Measured]:
    """The highest rate of `verb` at the smallest IO size run: a NIC's
    message rate shows where the clients saturate it."""
    def compute(results):
        found = basics_points(results, "verbs", verb_test(verb), f"{verb}s")
        size = min(entry.point_field(number, "io_bytes", dr.INTEGER) for entry, number in found)
        mops, clients = max((entry.point_field(number, "mops"),
                             entry.point_field(number, "clients", dr.INTEGER))
                            for entry, number in found
                            if entry.point_field(number, "io_bytes", dr.INTEGER) == size)
        return Measured(mops, f"{size} B, {clients} clients")
    return compute


def write_bandwidth(results: Results) -> Measured:
    """The lowest, over the IO sizes from 256 B, of the highest WRITE
    bandwidth at that size: bandwidth-bound from 256 B means every such size
    reaches it."""
    found = basics_points(results, "verbs", verb_test("WRITE", lambda size: size >= 256),
                          "WRITEs of 256 B or more")
    by_size: dict[int, float] = {}
    for entry, number in found:
        size = entry.point_field(number, "io_bytes", dr.INTEGER)
        by_size[size] = max(by_size.get(size, 0.0),
                            entry.point_field(number, "gigabytes_per_second"))
    size = min(by_size, key=by_size.get)
    return Measured(by_size[size], f"at {size:,} B, the lowest of {len(by_size)} sizes ≥ 256 B")


def cas_rate(memory: str, many: bool = False) -> Callable[[Results], Measured]:
    """The highest CAS rate in `memory` ("host", "on-chip"): on one address,
    or (`many`) over the most addresses the run spread its CASes over."""
    def compute(results):
        found = basics_points(results, "atomics", lambda entry, number: (
            entry.point_field(number, "memory", dr.STRING) == memory
            and (many or entry.point_field(number, "addresses", dr.INTEGER) == 1)),
            f"CAS in {memory} memory")
        if many:
            most = max(entry.point_field(number, "addresses", dr.INTEGER)
                       for entry, number in found)
            found = [(entry, number) for entry, number in found
                     if entry.point_field(number, "addresses", dr.INTEGER) == most]
        addresses = found[0][0].point_field(found[0][1], "addresses", dr.INTEGER)
        return Measured(max(entry.point_field(number, "mops") for entry, number in found),
                        f"{addresses} address{'es' if addresses > 1 else ''}")
    return compute


# Public ConnectX-5 figures the NIC profile was calibrated on that are not
# claims of the paper (README "The simulated fabric"; configs/nic/cx5-100g.json).
# WRITE above 50 Mops up to 128 B is one, and also the paper's Fig. 3 claim.
CALIBRATION_TARGETS = [
    Claim(id="calibration.read.unloaded-p50", figure=PUBLIC, section="",
          text="unloaded 8 B READ round trip (DEX, VLDB'24 §2: ~2000 ns per READ on ConnectX-5 "
               "behind a switch)", paper=2, unit="µs", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=unloaded_read, paper_text="~2 µs"),
    Claim(id="calibration.read.small-mops", figure=PUBLIC, section="",
          text="small READs per NIC", paper=110, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=small_message_rate("READ"),
          paper_text="~110 Mops"),
    Claim(id="calibration.write.small-mops", figure=PUBLIC, section="",
          text="small WRITEs per NIC", paper=110, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=small_message_rate("WRITE"),
          paper_text="~110 Mops"),
    Claim(id="calibration.write.bandwidth", figure=PUBLIC, section="",
          text="WRITE bandwidth-bound from 256 B", paper=12, unit="GB/s", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=write_bandwidth, paper_text="~12 GB/s"),
    Claim(id="calibration.cas.host", figure=PUBLIC, section="",
          text="same-address CAS on host memory", paper=2, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=cas_rate("host"),
          paper_text="~2 Mops"),
    Claim(id="calibration.cas.host-many", figure=PUBLIC, section="",
          text="CAS spread over many host-memory words (Kalia et al., ATC'16 §5.4: 52 Mops "
               "on Connect-IB)", paper=52, unit="Mops", kind=ABSOLUTE,
          needs=(CALIBRATION_BASICS,), compute=cas_rate("host", many=True),
          paper_text="~52 Mops"),
    Claim(id="calibration.cas.on-chip-many", figure=PUBLIC, section="",
          text="CAS spread over many on-chip words (Sherman §4.3: ~110 Mops)", paper=110,
          unit="Mops", kind=ABSOLUTE, needs=(CALIBRATION_BASICS,),
          compute=cas_rate("on-chip", many=True), paper_text="~110 Mops"),
    # The cx6-200g profile's calibration set (smart_calibration.py).
    *SMART_TARGETS,
]
