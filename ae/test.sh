#!/usr/bin/env bash
# The project's test command: sets up its dependencies (ae/setup.sh test: the
# main job's plus the Soft-RoCE VM's packages and the kernel it boots), then
# builds and runs the whole test suite in a Release build (with the verbs
# backend end to end on Soft-RoCE in a qemu VM, CTest softroce.e2e) and in an
# ASan+UBSan build, and the local backend's tests (real threads) under
# ThreadSanitizer. The simulated fabric runs coroutines on one thread, which
# TSan cannot follow, so only the local backend goes through TSan.
set -euo pipefail
cd "$(dirname "$0")/.."

ae/setup.sh test
jobs=$(nproc)
for preset in release asan; do
  echo "== $preset: build" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== $preset: test" >&2
  # Tests that run no binary of ours (label no-binary) gain nothing from a
  # sanitizer build: the release pass runs them.
  skip=()
  [[ $preset == release ]] || skip=(-LE no-binary)
  ctest --preset "$preset" -j "$jobs" "${skip[@]}"
done
echo "== tsan: build (local backend)" >&2
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs" --target local_index_tests
echo "== tsan: test" >&2
ctest --preset tsan -j "$jobs" -R '^Local\.'
