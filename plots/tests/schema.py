"""Checks a run result against the tables of results/SCHEMA.md in both
directions, as harness/driver/tests/result_schema_test.cc does for real
results: every listed field is present with its type (optional ones only when
present), and every field present is listed. Keeps the test fixtures honest.
"""

from __future__ import annotations

import re
from pathlib import Path

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "results" / "SCHEMA.md"
ROW = re.compile(r"^\| `([^`]+)` \| ([a-z-]+) \|(.*)\|$")
# Fields the schema lists as conditional.
OPTIONAL = re.compile(r"present when|only when")
HISTOGRAM_FIELDS = {"count", "mean", "min", "max", "p50", "p90", "p99", "p999", "buckets"}


def read_tables(schema_file: Path = SCHEMA_FILE) -> tuple[list, list]:
    """(result rows, op-stats rows), each (path, type, optional): the first
    two field tables (later ones describe sections of other kinds of run)."""
    result, op_stats, current, tables = [], [], None, 0
    for line in schema_file.read_text(encoding="utf-8").splitlines():
        if line.startswith("| path |"):
            tables += 1
            current = {1: result, 2: op_stats}.get(tables)
        match = ROW.match(line)
        if match and current is not None:
            path, kind, meaning = match.groups()
            current.append((path, kind, bool(OPTIONAL.search(meaning))))
    if not result or not op_stats:
        raise AssertionError(f"{schema_file}: cannot find the two field tables")
    return result, op_stats


def _type_ok(value, kind: str) -> bool:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return {
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": number,
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
        "histogram": isinstance(value, dict) and set(value) == HISTOGRAM_FIELDS,
        "op-stats": isinstance(value, dict),
    }[kind]


def _leaves(document: dict, prefix: str, stop: set[str]):
    """Dotted paths of `document`, not descending into the paths in `stop`."""
    for key, value in document.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and path not in stop:
            yield from _leaves(value, path + ".", stop)
        else:
            yield path


def _get(document, path: str):
    for key in path.split("."):
        if not isinstance(document, dict) or key not in document:
            return KeyError
        document = document[key]
    return document


def _check(document: dict, rows: list, prefix: str, errors: list[str]) -> None:
    listed, stop = set(), set()
    for path, kind, optional in rows:
        paths = [path]
        if "<op>" in path:
            by_op = _get(document, path.split(".<op>")[0])
            paths = [path.replace("<op>", op) for op in (by_op if isinstance(by_op, dict)
                                                          else [])]
        for concrete in paths:
            listed.add(concrete)
            value = _get(document, concrete)
            if value is KeyError:
                if not optional:
                    errors.append(f"missing {prefix}{concrete}")
                continue
            if not _type_ok(value, kind):
                errors.append(f"{prefix}{concrete} is not {kind}")
            if kind in ("object", "histogram", "op-stats", "array"):
                stop.add(concrete)
    for path in _leaves(document, "", stop):
        if path not in listed and not any(path.startswith(s + ".") for s in stop):
            errors.append(f"{prefix}{path} is not in the schema")


def check_result(document: dict) -> list[str]:
    """Schema violations of a run result (empty when it conforms)."""
    result_rows, op_rows = read_tables()
    errors: list[str] = []
    _check(document, result_rows, "", errors)
    operations = document.get("operations", {})
    stats = [("operations.overall", operations.get("overall"))]
    stats += [(f"operations.by_op.{op}", value)
              for op, value in operations.get("by_op", {}).items()]
    for prefix, value in stats:
        if isinstance(value, dict):
            _check(value, op_rows, prefix + ".", errors)
    return errors
