#!/usr/bin/env bash
# A long fuzz campaign over every input dmbench reads: `dmbench fuzz` (run
# configs, --set overrides, experiment files, NIC profiles, result files and
# histories for merge, the memory server's connection data, and the command
# line end to end) and plots/tests/fuzz_results.py (result directories read
# by the plot scripts and the report). Prints the cases per input kind and
# exits 1 if either found anything. Each finding is printed with the
# command that replays it; dmbench's also saves its input under
# OUT/findings/.
#
#   ae/fuzz.sh [--cases N] [--seed S] [--out DIR]
#
# N (default 20000) cases per in-process kind of dmbench; N/20 command-line
# cases; N/100 plot cases and as many with a damaged seed replicate, N/1000
# report cases, as many with a damaged seed replicate and as many with a
# damaged model ablation, and N/2000 plot-script processes (each of those
# draws a figure). Set DMBENCH to a dmbench binary
# to skip the build; build an ASan+UBSan one (cmake --preset asan) to run
# the campaign under the sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

cases=20000
seed=1
out=results/fuzz
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cases) option_value cases "a count" "$@"; shift 2 ;;
    --seed) option_value seed "a number" "$@"; shift 2 ;;
    --out) option_value out "a directory" "$@"; shift 2 ;;
    *) echo "ae/fuzz.sh: unknown option '$1' (allowed: --cases N, --seed S, --out DIR)" >&2
       exit 2 ;;
  esac
done
if ! [[ "$cases" =~ ^[0-9]+$ && "$seed" =~ ^[0-9]+$ ]]; then
  echo "ae/fuzz.sh: --cases and --seed take non-negative integers" >&2
  exit 2
fi

# shellcheck source=ae/dmbench-release.sh
source ae/dmbench-release.sh
mkdir -p "$out"

status=0
echo "== dmbench fuzz: $cases cases per in-process kind, seed $seed" >&2
"$DMBENCH" fuzz --cases "$cases" --cli-cases $((cases / 20)) --seed "$seed" \
  --findings "$out/findings" || status=1
echo "== plot scripts and report" >&2
/usr/bin/python3 plots/tests/fuzz_results.py --cases $((cases / 100)) \
  --report-cases $((cases / 1000)) --cli-cases $((cases / 2000)) \
  --seeds-cases $((cases / 1000)) --seed-figure-cases $((cases / 100)) \
  --ablation-cases $((cases / 1000)) --seed "$seed" || status=1
exit "$status"
