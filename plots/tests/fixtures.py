"""Builds result directories as `dmbench sweep` writes them (results/SCHEMA.md),
with plausible numbers, for the plot tests: each figure's sweep, its
experiment file and its points, whose results come from the toy model in
fixture_model.py.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from pathlib import Path

from fixture_model import MIXES, NIC_PROFILE, TOOL, model_run

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


def reseed(directory: Path, seed: int) -> None:
    """Makes an index experiment's results those of a seed replicate
    (report_seeds.py): every point's config names `seed`, nothing else
    changes."""
    for result in directory.glob("*.json"):
        if result.name != "experiment.json":
            document = json.loads(result.read_text(encoding="utf-8"))
            document["config"]["run"]["seed"] = seed
            write_json(result, document)


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
