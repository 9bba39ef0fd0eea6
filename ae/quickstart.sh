#!/usr/bin/env bash
# The main job: sets up what is missing, builds, and runs the substrate
# microbenchmarks on the simulated fabric (Sherman Figs. 2 and 3), printing
# their tables and writing results/micro.json. The quick reproduction of the
# index experiments joins it once the indexes and driver land.
set -euo pipefail
cd "$(dirname "$0")/.."

ae/setup.sh
echo "== build (release)" >&2
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target dmbench >/dev/null
echo "== substrate microbenchmarks on the simulated fabric (cx5-100g)" >&2
build/release/harness/cli/dmbench micro all --out results/micro.json
