#!/usr/bin/env bash
# The project's test command: sets up dependencies, then builds and runs the
# whole test suite in a Release build and in an ASan+UBSan build.
set -euo pipefail
cd "$(dirname "$0")/.."

ae/setup.sh
jobs=$(nproc)
for preset in release asan; do
  echo "== $preset: build" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== $preset: test" >&2
  ctest --preset "$preset" -j "$jobs"
done
