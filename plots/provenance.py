"""Where a result's numbers come from: the source revision that ran and the
backend it ran on, read the same way for a figure's caption (`caption`)
and the report's provenance section (report.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import dmbench_results as dr


def revision_of(point: dr.Point) -> tuple[str, bool]:
    """The commit the point's dmbench was built from, and whether its tree
    had uncommitted changes."""
    return (point.field("tool.git_revision", dr.STRING),
            point.field("tool.git_dirty", dr.BOOLEAN))


def revision_text(point: dr.Point) -> str:
    """The commit the point's dmbench was built from, " (dirty)" after it
    when its tree had uncommitted changes, as the report shows it."""
    revision, dirty = revision_of(point)
    return revision + (" (dirty)" if dirty else "")


def build_id_of(result: dict) -> str | None:
    """The build ID of the binary that wrote a result (tool.build_id); None
    for results written before the field, or by a binary that had none."""
    tool = result.get("tool")
    build_id = tool.get("build_id") if isinstance(tool, dict) else None
    return build_id if isinstance(build_id, str) and build_id != "unknown" else None


def binaries_text(binaries: Iterable[tuple[str, str]]) -> str | None:
    """The report's line on the binaries behind the results, from the
    (revision_text, build ID) of each point that names its binary; None when
    none does. A revision with more than one binary is marked: its results
    came from builds that differ (uncommitted changes that differ, or a
    rebuild with other flags), which the revision alone hides."""
    by_revision: dict[str, set[str]] = {}
    for revision, build_id in binaries:
        by_revision.setdefault(revision, set()).add(build_id)
    if not by_revision:
        return None
    count = len(set().union(*by_revision.values()))
    mixed = sorted(short_revision(r) for r, ids in by_revision.items() if len(ids) > 1)
    return (f"* dmbench binaries (tool.build_id): {count}"
            + (f" — **revision {', '.join(mixed)} ran as more than one binary**" if mixed
               else ""))


def short_revision(text: str) -> str:
    """A revision_text() cut to the commit's first 12 characters, keeping
    its "(dirty)" mark."""
    commit, _, mark = text.partition(" ")
    return commit[:12] + (f" {mark}" if mark else "")


def backend_of(result: dict, source: Path | str) -> tuple[str, str]:
    """What a result ran on: ("sim", its NIC profile's name) on the simulated
    fabric, ("verbs", its RDMA devices) on a real cluster. A real cluster's
    result has no NIC profile: `dmbench merge` lists each compute server's
    backend under backend.compute_servers, one compute server's own result
    names its device (results/SCHEMA.md)."""
    backend = dr.require(result, "backend", source, dr.OBJECT)
    if backend.get("type", "sim") != "verbs":
        return "sim", dr.require(result, "backend.nic_profile.name", source, dr.STRING)
    if "compute_servers" in backend:
        servers = dr.require(result, "backend.compute_servers", source, dr.LIST)
        devices = [dr.require(server, "device", f"{source} backend.compute_servers[{number}]",
                              dr.STRING) for number, server in enumerate(servers)]
    else:
        devices = [dr.require(result, "backend.device", source, dr.STRING)]
    return "verbs", ", ".join(dr.ordered(devices))


def backend_text(backends: Iterable[tuple[str, str]]) -> str:
    """"simulated fabric, NIC profile cx5-100g", "real RDMA cluster (verbs),
    device mlx5_0", or both joined by " + " when the results mix them."""
    backends = list(backends)
    nics = dr.ordered(name for kind, name in backends if kind == "sim")
    devices = dr.ordered(name for kind, name in backends if kind == "verbs")
    parts = []
    if nics:
        parts.append(f"simulated fabric, NIC profile {', '.join(nics)}")
    if devices:
        parts.append(f"real RDMA cluster (verbs), device {', '.join(devices)}")
    return " + ".join(parts) or "backend unknown"


def caption(experiments: Sequence[dr.Experiment]) -> str:
    """A figure's provenance line: its experiments, source revisions (short,
    "+dirty" when built from a changed tree) and backends."""
    revisions, backends = [], []
    for experiment in experiments:
        for point in experiment.points:
            revision, dirty = revision_of(point)
            revisions.append(revision[:10] + ("+dirty" if dirty else ""))
            backends.append(backend_of(point.result, point.source))
    names = ", ".join(dr.ordered(e.name for e in experiments))
    return f"dmbench {', '.join(dr.ordered(revisions))} · {backend_text(backends)} · {names}"
