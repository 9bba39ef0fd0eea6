"""How tests/fuzz_results.py damages the files of a result directory:
values of the wrong type or out of range (edge values and values near the
original), missing and unknown fields, NaN and infinities, truncated or
invalid JSON, an experiment index pointing nowhere. Each damage is drawn
from the caller's random.Random, so a case replays from its seed."""

from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path

EDGE_VALUES = (None, True, False, 0, -1, 1, 2**63, -2**63, 2**64, 0.5, -0.0, 1e-300, 1e308,
               -1e308, math.nan, math.inf, -math.inf, "", "x", "fgplus", "sherman", "1e3",
               [], [0], [[0, 0, 1]], {}, {"p50": 1})


def nodes(document, path=()):
    """(path, value) of every node, the root first."""
    yield path, document
    if isinstance(document, dict):
        for key, value in document.items():
            yield from nodes(value, path + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from nodes(value, path + (index,))


def set_at(document, path, value):
    if not path:
        return value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return document


def near(rng: random.Random, value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return rng.choice((0, -value, value * 1000, value + 1, value - 1, value / 3,
                           math.nan, math.inf))
    if isinstance(value, str):
        return rng.choice(("", value[:-1], value + "_", value.upper(), 7))
    if isinstance(value, list):
        return rng.choice(([], value + value[:1], value[::-1], value[:1]))
    if isinstance(value, dict):
        return rng.choice(({}, [], None))
    return rng.choice(EDGE_VALUES)


def mutate(rng: random.Random, document, edits: int):
    document = copy.deepcopy(document)
    for _ in range(edits):
        every = list(nodes(document))
        path, value = rng.choice(every[1:] or every)
        action = rng.randrange(6)
        if action == 0:
            document = set_at(document, path, copy.deepcopy(rng.choice(EDGE_VALUES)))
        elif action in (1, 2):
            document = set_at(document, path, near(rng, value))
        elif action == 3 and path:
            parent = document
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
        elif action == 4:
            _, other = rng.choice(every)
            if other is not value:
                document = set_at(document, path, copy.deepcopy(other))
        elif isinstance(value, dict):
            value[rng.choice(("bogus", "", "count"))] = rng.choice(EDGE_VALUES)
        elif isinstance(value, list):
            value.append(copy.deepcopy(rng.choice(value or [None])))
    return document


def damage_bytes(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    choice = rng.randrange(4)
    if choice == 0:
        return data[:at]  # truncated
    if choice == 1:
        return data[:at] + rng.choice(b'{}[]",:0e-').to_bytes(1, "little") + data[at:]
    if choice == 2:
        return data[:at] + b"[" * rng.randrange(1000, 5000) + data[at:]
    return data[:at] + b"\x00\xff" + data[at:]  # not UTF-8


def damage_directory(rng: random.Random, directory: Path) -> str:
    """Damages the result files of one sweep directory; says how."""
    files = sorted(directory.glob("*.json"))
    how = []
    for _ in range(1 + rng.randrange(3)):
        victim = rng.choice(files)
        if not victim.exists():
            continue
        choice = rng.randrange(10)
        if choice == 0:
            victim.write_bytes(damage_bytes(rng, victim.read_bytes()))
            how.append(f"{victim.name}: text damaged")
        elif choice == 1 and victim.name != "experiment.json":
            victim.unlink()
            how.append(f"{victim.name}: removed")
        else:
            try:
                document = json.loads(victim.read_bytes())
            except (ValueError, RecursionError):
                continue  # its text is damaged already
            damaged = mutate(rng, document, 1 + rng.randrange(3))
            victim.write_text(json.dumps(damaged), encoding="utf-8")
            how.append(f"{victim.name}: {json.dumps(damaged)[:3000]}")
    return "\n".join(how)
