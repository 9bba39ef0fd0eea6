"""Reading results for the dmbench plot scripts: loading sweep results,
histogram helpers and labels (microbenchmark documents are micro_results.py's,
revisions and backends provenance.py's, drawing figure_drawing.py's).

A plot script reads one or more result directories written by
`dmbench sweep --experiment FILE --out DIR` (see results/SCHEMA.md):
DIR/experiment.json lists the points, each with its `variant`, `settings` and
result file. Index runs are full result documents; microbenchmark experiments
have a single point whose result is a micro document (`kind` "micro").

Every accessor names the file and the dotted field when something is missing
or has the wrong type, so that a malformed or unfinished sweep fails loudly
instead of producing an empty or misleading plot.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

SCHEMA_VERSION = 1
ABLATION_DIR = "ablation"  # DIR/ablation/LABEL/: DIR run with one mechanism off
SEEDS_DIR = "seeds"        # DIR/seeds/SEED/: DIR's experiments run again with another seed

# Series names of the paper (§5.1.2, §5.2): index presets as the configs spell them.
INDEX_LABELS = {"fgplus": "FG+", "sherman": "Sherman", "shermanplus": "Sherman+",
                "smartbt": "SMART-BT"}

# Workloads of the paper's Table 3 first (in its order), then YCSB's.
MIX_LABELS = {
    "write-only": "Write-only",
    "write-intensive": "Write-intensive",
    "read-intensive": "Read-intensive",
    "range-only": "Range-only",
    "range-write": "Range-write",
    "ycsb-a": "YCSB A",
    "ycsb-b": "YCSB B",
    "ycsb-c": "YCSB C",
    "ycsb-d": "YCSB D",
    "ycsb-e": "YCSB E",
    "custom": "Custom mix",
}
MIX_ORDER = tuple(MIX_LABELS)

WRITE_OPS = ("insert", "update", "delete")


# Field kinds for require().
NUMBER, INTEGER, STRING, OBJECT, LIST, BOOLEAN = (
    "a number", "an integer", "a string", "an object", "a list", "a boolean")
_KIND_TESTS = {
    NUMBER: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    and math.isfinite(v),
    INTEGER: lambda v: isinstance(v, int) and not isinstance(v, bool),
    STRING: lambda v: isinstance(v, str),
    OBJECT: lambda v: isinstance(v, dict),
    LIST: lambda v: isinstance(v, list),
    BOOLEAN: lambda v: isinstance(v, bool),
}


class ResultsError(Exception):
    """Results missing or malformed; the message names the file and field."""


# ---------------------------------------------------------------- loading

def read_json(path: Path, what: str) -> Any:
    if not path.is_file():
        raise ResultsError(f"{path}: {what} not found")
    try:
        with path.open(encoding="utf-8") as stream:
            return json.load(stream)
    except json.JSONDecodeError as error:
        raise ResultsError(f"{path}: {what} is not valid JSON ({error})") from None
    except UnicodeDecodeError as error:
        raise ResultsError(f"{path}: {what} is not UTF-8 text (byte {error.start})") from None
    except RecursionError:
        raise ResultsError(f"{path}: {what} is nested too deeply to be a result") from None
    except OSError as error:
        raise ResultsError(f"{path}: cannot read {what} ({error.strerror})") from None


def write_table(directory: Path, stem: str, document: Any, text: str) -> None:
    """A summary table's two forms, DIRECTORY/STEM.json (`document`) and
    DIRECTORY/STEM.md (`text`, also printed), as the ae/ scripts' tables
    (ae/bench-sim.sh, ae/soak.sh) leave them."""
    (directory / f"{stem}.json").write_text(json.dumps(document, indent=2) + "\n",
                                            encoding="utf-8")
    (directory / f"{stem}.md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)


def require(document: Any, path: str, source: Path | str, kind: str | None = None) -> Any:
    """The field at dotted `path` of `document`; ResultsError naming `source`
    and the field when it is absent or not of `kind`."""
    node = document
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise ResultsError(f"{source}: missing field '{path}'")
        node = node[key]
    if kind is not None:
        check_kind(node, kind, source, path)
    return node


def check_kind(value: Any, kind: str, source: Path | str, path: str) -> None:
    """ResultsError naming `source` and the field at `path` when `value` is
    not of `kind`, worded as require() words it."""
    if not _KIND_TESTS[kind](value):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise ResultsError(f"{source}: field '{path}' should be {kind}, got {shown}")


@dataclass(frozen=True)
class Point:
    """One point of a sweep: its entry in experiment.json and its result."""

    name: str
    variant: str
    settings: dict
    result: dict
    source: Path  # the result file, for messages

    def field(self, path: str, kind: str | None = NUMBER) -> Any:
        return require(self.result, path, self.source, kind)

    def config(self, path: str, kind: str | None = None) -> Any:
        return self.field("config." + path, kind)

    def histogram(self, path: str) -> "Histogram":
        return Histogram.parse(self.result, path, self.source)

    @property
    def index_label(self) -> str:
        # Results written before engines and presets were told apart name
        # the preset index.type.
        index = self.config("index", OBJECT)
        key = "preset" if "preset" in index or "type" not in index else "type"
        preset = self.config("index." + key, STRING)
        # FG+ is FG with the index cache and a WRITE lock release (§5.1.2);
        # with the FAA release back it is the paper's FG (Table 1).
        if preset == "fgplus" and self.config("index.faa_release", BOOLEAN):
            return "FG"
        return INDEX_LABELS.get(preset, preset)

    @property
    def label(self) -> str:
        """The series the point belongs to: its variant's name (the
        experiment names variants after the paper's series), else its index."""
        return self.variant or self.index_label

    @property
    def clients(self) -> int:
        """Client threads (coroutines count as threads, as in §5.4)."""
        return (self.config("topology.compute_servers", INTEGER)
                * self.config("topology.threads_per_compute_server", INTEGER)
                * self.config("topology.coroutines_per_thread", INTEGER))

    @property
    def mix(self) -> str:
        return self.config("workload.mix", STRING)

    @property
    def skew_label(self) -> str:
        distribution = self.config("workload.distribution", STRING)
        if distribution == "uniform":
            return "uniform"
        return f"skew {self.config('workload.theta', NUMBER):g}"

    def op_stats(self, op: str) -> str:
        """Path of the op-stats of `op`; names the ops that ran when absent."""
        ran = require(self.result, "operations.by_op", self.source, OBJECT)
        if op not in ran:
            raise ResultsError(
                f"{self.source}: missing field 'operations.by_op.{op}' (no {op} operations "
                f"completed; ran: {', '.join(sorted(ran)) or 'none'})")
        return f"operations.by_op.{op}"


@dataclass(frozen=True)
class Experiment:
    directory: Path
    definition: dict  # the experiment file as the sweep read it
    points: tuple[Point, ...]

    @property
    def name(self) -> str:
        return experiment_name(self.definition, self.directory)

    @property
    def figure(self) -> str:
        return self.definition.get("figure", "")

    @property
    def is_micro(self) -> bool:
        return "micro" in self.definition

    @property
    def paper_scale(self) -> dict:
        """The experiment file's paper_scale (documentation: the paper's
        parameters and results), {} when absent."""
        if "paper_scale" not in self.definition:
            return {}
        return require(self.definition, "paper_scale",
                       f"{self.directory / 'experiment.json'} experiment", OBJECT)


def experiment_name(definition: dict, directory: Path) -> str:
    """The experiment's name, from its file (checked by load_experiment),
    else its directory's."""
    return definition.get("name") or directory.name


def load_experiment(directory: Path | str) -> Experiment:
    """Reads DIR/experiment.json and every point's result file."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ResultsError(f"{directory}: results directory not found (run `dmbench sweep "
                           f"--experiment configs/experiments/X.json --out {directory}` first)")
    index_file = directory / "experiment.json"
    index = read_json(index_file, "experiment index")
    definition = require(index, "experiment", index_file, OBJECT)
    for field in ("name", "figure", "description"):
        if field in definition:
            require(definition, field, f"{index_file} experiment", STRING)
    entries = require(index, "points", index_file, LIST)
    if not entries:
        raise ResultsError(f"{index_file}: field 'points' is empty")
    points = []
    for number, entry in enumerate(entries):
        where = f"{index_file} points[{number}]"
        name = require(entry, "name", where, STRING)
        result_file = directory / require(entry, "result", where, STRING)
        if not result_file.is_file():
            log = result_file.with_name(f"{name}.log")
            raise ResultsError(
                f"{result_file}: result of point '{name}' not found (the sweep has not "
                f"finished it{f': see {log}' if log.is_file() else ''}; `dmbench sweep "
                f"--resume` runs only the missing points)")
        result = read_json(result_file, f"result of point '{name}'")
        if not isinstance(result, dict):
            raise ResultsError(f"{result_file}: a result document must be a JSON object")
        version = require(result, "schema_version", result_file, INTEGER)
        if version != SCHEMA_VERSION:
            raise ResultsError(f"{result_file}: field 'schema_version' is {version}; these "
                               f"scripts read schema version {SCHEMA_VERSION}")
        # A micro point has no settings: the sweep writes null for them.
        settings = require(entry, "settings", where)
        if settings is not None and not isinstance(settings, dict):
            raise ResultsError(f"{where}: field 'settings' should be an object or null")
        points.append(Point(name=name,
                            variant=require(entry, "variant", where, STRING),
                            settings=settings or {}, result=result, source=result_file))
    return Experiment(directory, definition, tuple(points))


def load_experiments(found: dict[str, Path]) -> tuple[dict[str, Experiment], dict[str, str]]:
    """The experiments that load, and the error of each that does not."""
    experiments, broken = {}, {}
    for name, directory in found.items():
        try:
            experiments[name] = load_experiment(directory)
        except ResultsError as error:
            broken[name] = str(error)
    return experiments, broken


def seed_directories(root: Path) -> list[Path]:
    """ROOT/seeds/SEED/, in the order of their seeds; a directory whose name
    is not a seed comes last, for the caller to refuse."""
    parent = root / SEEDS_DIR
    if not parent.is_dir():
        return []
    return sorted((entry for entry in parent.iterdir() if entry.is_dir()),
                  key=lambda d: (not d.name.isdigit(), int(d.name) if d.name.isdigit() else 0,
                                 d.name))


def discover(root: Path, prefix: str = "") -> dict[str, Path]:
    """Experiment name -> result directory, for every directory under `root`
    (one level) holding an experiment.json, except the directories of model
    ablations and seed replicates (results roots of their own). Two directories with one
    experiment name are an error: which one the report shows would be a
    guess."""
    if not root.is_dir():
        raise ResultsError(f"{root}: results root not found")
    candidates = [root] if (root / "experiment.json").is_file() else []
    for entry in sorted(root.iterdir()):
        if entry.name in (ABLATION_DIR, SEEDS_DIR):
            continue
        try:
            if entry.name.startswith(prefix) and (entry / "experiment.json").is_file():
                candidates.append(entry)
        except OSError:  # a directory we may not enter (e.g. under /tmp) holds no results
            continue
    found: dict[str, Path] = {}
    for directory in candidates:
        index_file = directory / "experiment.json"
        index = read_json(index_file, "experiment index")
        definition = require(index, "experiment", index_file, OBJECT)
        if "name" in definition:
            require(definition, "name", f"{index_file} experiment", STRING)
        name = experiment_name(definition, directory)
        if name in found:
            raise ResultsError(
                f"{found[name]} and {directory}: both hold experiment '{name}'; keep one, or "
                f"select the directories to report with --prefix PREFIX")
        found[name] = directory
    return found


def run_points(experiments: Sequence[Experiment]) -> list[Point]:
    """The index-run points of all experiments, in their sweep order."""
    points = []
    for experiment in experiments:
        if experiment.is_micro:
            raise ResultsError(f"{experiment.directory}: '{experiment.name}' is a "
                               "microbenchmark experiment; this figure plots index runs")
        points.extend(experiment.points)
    return points


def series_by_index(points: Sequence[Point],
                    position: Callable[[Point], Any]) -> Callable[[Point], str]:
    """How to name the series of a figure that compares indexes (Figs. 12-15):
    by the index of each point's config (FG+, Sherman), since variants there
    often carry the x value as well ("Sherman_key64", "FG+_zipf0.9"); by the
    variant when the index alone does not tell apart the points at one
    `position` (panel and x value), e.g. two Sherman variants."""
    keys = [(point.index_label, position(point)) for point in points]
    if len(set(keys)) == len(keys):
        return lambda point: point.index_label
    return lambda point: point.label


def unique_points(points: Iterable[Point], key: Callable[[Point], Any],
                  what: str) -> dict[Any, Point]:
    """Points by `key`; two points with one key is an error, since the figure
    would otherwise silently show only one of them."""
    by_key: dict[Any, Point] = {}
    for point in points:
        k = key(point)
        if k in by_key:
            raise ResultsError(
                f"{by_key[k].source} and {point.source}: two points for the same {what} "
                f"{k!r}; this figure expects one point each (split the experiment, or give "
                f"the points distinct variants)")
        by_key[k] = point
    return by_key


def ordered(values: Iterable[Any]) -> list[Any]:
    """Distinct values in order of first appearance (the sweep's order)."""
    return list(dict.fromkeys(values))


def mix_sort_key(mix: str) -> tuple[int, str]:
    return (MIX_ORDER.index(mix) if mix in MIX_ORDER else len(MIX_ORDER), mix)


def mix_label(mix: str) -> str:
    return MIX_LABELS.get(mix, mix)


def size_label(size_bytes: float) -> str:
    """8 -> "8", 1024 -> "1K", 4096 -> "4K"."""
    size_bytes = int(size_bytes)
    if size_bytes >= 1024 and size_bytes % 1024 == 0:
        return f"{size_bytes // 1024}K"
    return str(size_bytes)


# ------------------------------------------------------------- histograms

@dataclass(frozen=True)
class Histogram:
    """A result histogram: `buckets` are (low, high, count), both ends
    inclusive, ascending, non-empty (results/SCHEMA.md)."""

    count: int
    buckets: tuple[tuple[float, float, int], ...]

    @classmethod
    def parse(cls, document: Any, path: str, source: Path | str) -> "Histogram":
        node = require(document, path, source, OBJECT)
        count = require(node, "count", f"{source} {path}", INTEGER)
        raw = require(node, "buckets", f"{source} {path}", LIST)
        buckets = []
        for number, bucket in enumerate(raw):
            ok = (isinstance(bucket, list) and len(bucket) == 3
                  and all(_KIND_TESTS[NUMBER](v) for v in bucket)
                  and bucket[0] <= bucket[1] and bucket[2] > 0)
            if not ok or (buckets and bucket[0] <= buckets[-1][1]):
                raise ResultsError(f"{source}: field '{path}.buckets[{number}]' should be "
                                   f"[low, high, count] in ascending order, got "
                                   f"{json.dumps(bucket)}")
            buckets.append((bucket[0], bucket[1], int(bucket[2])))
        total = sum(b[2] for b in buckets)
        if total != count:
            raise ResultsError(f"{source}: field '{path}': buckets hold {total} values but "
                               f"count is {count}")
        return cls(count, tuple(buckets))

    def merged(self, other: "Histogram") -> "Histogram":
        """Exact: histograms of one metric share bucket boundaries."""
        counts: dict[tuple[float, float], int] = {}
        for low, high, count in self.buckets + other.buckets:
            counts[(low, high)] = counts.get((low, high), 0) + count
        return Histogram(self.count + other.count,
                         tuple((low, high, c) for (low, high), c in sorted(counts.items())))

    def cdf(self) -> tuple[list[float], list[float]]:
        """Points (x, fraction of values <= x) at each bucket's upper end,
        where the cumulative fraction is exact (below 128 buckets are single
        values, so the CDF of small counts is exact everywhere)."""
        if self.count == 0:
            return [], []
        xs, ys, running = [], [], 0
        for _, high, count in self.buckets:
            running += count
            xs.append(high)
            ys.append(running / self.count)
        return xs, ys


def merge_histograms(histograms: Sequence[Histogram]) -> Histogram:
    merged = histograms[0]
    for histogram in histograms[1:]:
        merged = merged.merged(histogram)
    return merged


def write_ops_histogram(point: Point, metric: str) -> Histogram:
    """`metric` over every write operation type that ran (the paper's "write
    operations": insert, update, delete)."""
    ran = require(point.result, "operations.by_op", point.source, OBJECT)
    present = [op for op in WRITE_OPS if op in ran]
    if not present:
        raise ResultsError(f"{point.source}: missing field 'operations.by_op.insert' (no write "
                           f"operations completed; ran: {', '.join(sorted(ran)) or 'none'})")
    return merge_histograms([point.histogram(f"operations.by_op.{op}.{metric}")
                             for op in present])
