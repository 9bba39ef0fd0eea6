#!/usr/bin/env bash
# The consistency checker's soak: runs configs/soak/checked-soak.json (every
# lock and version variant of the engine, FG to Sherman, under inserts,
# updates, lookups, deletes and range queries, skewed and uniform, each point
# with --verify) round after round, each round with its own seed, until the
# checker has validated at least --operations operations; then one table
# (printed, and DIR/soak.md) and one JSON (DIR/soak.json) from
# plots/soak_table.py.
#
#   ae/soak.sh [--operations N] [--jobs N] [--out DIR] [--set PATH=VALUE ...]
#
# Defaults: 100000000 operations, 2 points at a time, DIR results/soak.
# Round R is `dmbench sweep` into DIR/round-R with run.seed R, so a second
# call with the same DIR resumes: finished points and rounds are kept. A
# point is one process whose window the experiment bounds, so the checker's
# memory (its history) is bounded by one point's, whatever the total; the
# table shows each point's peak resident memory. --set overrides go to every
# point (e.g. --set run.measure_ms=5 for a short try).
#
# Exit status: 0 when the total is reached with no violation; 3 when the
# checker found a violation (the table lists the examples); 1 when a point
# failed otherwise; 2 for bad usage. Set DMBENCH to a dmbench binary to skip
# set-up and build.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

operations=100000000
jobs=2
out=results/soak
sets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --operations) option_value operations "a number" "$@"; shift ;;
    --jobs) option_value jobs "a number" "$@"; shift ;;
    --out) option_value out "a directory" "$@"; shift ;;
    --set) option_set "$@"; shift ;;
    -h|--help) sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 0 ;;
    *) echo "ae/soak.sh: unknown argument '$1' (allowed: --operations, --jobs, --out," \
            "--set)" >&2; exit 2 ;;
  esac
  shift
done
option_positive --operations "$operations"
option_positive --jobs "$jobs"

# shellcheck source=ae/dmbench-release.sh
source ae/dmbench-release.sh

checked() { /usr/bin/python3 plots/soak_table.py "$out" --checked; }

mkdir -p "$out"
round=1
started=$SECONDS
total=$(checked)
while [[ $total -lt $operations ]]; do
  echo "== round $round: $total of $operations operations checked so far" >&2
  status=0
  "$DMBENCH" sweep --experiment configs/soak/checked-soak.json --out "$out/round-$round" \
    --jobs "$jobs" --resume --set run.seed="$round" "${sets[@]}" >/dev/null || status=$?
  if [[ $status -ne 0 ]]; then
    # A point with violations exits 3 and still writes its result: the
    # table below names them. Any other failure stops the soak.
    grep -l "the consistency checker found violations" "$out/round-$round"/*.log >/dev/null ||
      exit "$status"
    break
  fi
  total=$(checked)
  round=$((round + 1))
done
echo "== $((SECONDS - started)) s" >&2
/usr/bin/python3 plots/soak_table.py "$out"
