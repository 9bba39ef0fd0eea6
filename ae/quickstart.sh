#!/usr/bin/env bash
# The main job: sets up what is missing (ae/setup.sh main, through ae/run.sh:
# the build and plot dependencies only, not the tests' Soft-RoCE VM), builds,
# checks the NIC profile's calibration set (the public hardware figures and
# the paper's Fig. 16 lock microbenchmark), and reproduces on the simulated
# fabric the paper's Table 1 (FG's collapse under skewed writes), Fig. 10
# (the breakdown FG+ -> Sherman) and Fig. 14 (round trips, retries, write
# sizes); draws the figures and writes
# results/quick/report/REPORT.md with the claims table, which it also prints.
# Resumable: run it again to finish an interrupted run. Further arguments go
# to ae/run.sh after these (--out DIR writes elsewhere, --jobs N).
set -euo pipefail
cd "$(dirname "$0")/.."
out=results/quick
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  [[ "${args[i]}" == --out ]] && out=${args[i + 1]}
done
ae/run.sh calibration table1 fig10 fig14 fig16 --full --out results/quick "$@"
echo
echo "Figures: $out/report/figures/   Report: $out/report/REPORT.md"
