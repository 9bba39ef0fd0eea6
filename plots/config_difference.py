"""Where the configs of two results differ: the first field, as a dotted
path, apart from the fields a comparison lets differ. The report uses it to
refuse a seed replicate or a model ablation whose points ran with another
config than the main results' in anything but their seed or their switch
(a --quick ablation beside --full results, say, would otherwise pass for a
mechanism's effect)."""

from __future__ import annotations

import copy
from typing import Iterable

import dmbench_results as dr


def first_difference(ours, theirs, path: str = "") -> str | None:
    """The first field (a dotted path) where two configs differ, or None."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            below = f"{path}.{key}" if path else key
            if key not in ours or key not in theirs:
                return below
            found = first_difference(ours[key], theirs[key], below)
            if found is not None:
                return found
        return None
    return None if ours == theirs else path


def without(config: dict, paths: Iterable[str]) -> dict:
    """A copy of `config` without the fields at `paths` (dotted; absent
    ones are left alone). An object the removal empties goes too: a
    resolved config leaves out an empty one (no backend.nic_overrides
    without overrides), so the two compare alike."""
    trimmed = copy.deepcopy(config)
    for path in paths:
        remove(trimmed, path.split("."))
    return trimmed


def remove(node: dict, keys: list[str]) -> None:
    if len(keys) == 1:
        node.pop(keys[0], None)
        return
    child = node.get(keys[0])
    if isinstance(child, dict):
        remove(child, keys[1:])
        if not child:
            del node[keys[0]]


def require_same_config(point: dr.Point, other: dr.Point, allowed: Iterable[str],
                        rule: str) -> None:
    """Raises ResultsError naming the first config field, outside `allowed`,
    in which `point` ran with another value than `other`; `rule` says what
    may differ and how to comply."""
    allowed = list(allowed)
    differs = first_difference(without(point.field("config", dr.OBJECT), allowed),
                               without(other.field("config", dr.OBJECT), allowed))
    if differs is not None:
        raise dr.ResultsError(f"{point.source}: field 'config.{differs}' differs from "
                              f"{other.source}: {rule}")
