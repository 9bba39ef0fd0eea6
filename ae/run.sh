#!/usr/bin/env bash
# Runs the experiments behind the paper's figures on the simulated fabric,
# resumably, then draws the figures and writes the report.
#
#   ae/run.sh FIG... | all [--quick | --full] [--out DIR] [--jobs N]
#             [--backend sim | verbs --hosts FILE] [--set path=value]...
#
# FIG is one of: table1 fig2 fig3 fig10 fig11 fig12 fig13 fig14 fig15 fig16.
# --full (default) runs each experiment as configs/experiments/ defines it
# (scaled to a laptop); --quick shortens keys and windows for a first look.
# A second run with the same --out skips the points already done.
# --set passes a field override to every index experiment (tests use it).
# Set DMBENCH to a dmbench binary to skip set-up and build.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

declare -A experiments=(
  [table1]="table1-fg"
  [fig2]="fig02-rdma-locks"
  [fig3]="fig03-verbs fig03-verbs-outbound"
  [fig10]="fig10-breakdown-skewed"
  [fig11]="fig11-breakdown-uniform"
  [fig12]="fig12a-range-only fig12b-range-write"
  [fig13]="fig13-scalability"
  [fig14]="fig14-in-depth"
  [fig15]="fig15a-key-size-uniform fig15b-key-size-skewed fig15c-cache-size"
  [fig16]="fig16-hocl"
)
order=(table1 fig2 fig3 fig10 fig11 fig12 fig13 fig14 fig15 fig16)

figures=()
mode=full
out=results/ae
jobs=$(nproc)
backend=sim
sets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    all) figures+=("${order[@]}") ;;
    --quick) mode=quick ;;
    --full) mode=full ;;
    --out) out=${2:?--out needs a directory}; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --backend) backend=${2:?--backend needs sim or verbs}; shift ;;
    --hosts) shift ;;  # only meaningful with --backend verbs
    --set) sets+=(--set "${2:?--set needs path=value}"); shift ;;
    -h|--help) usage ;;
    *)
      if [[ -z "${experiments[$1]+x}" ]]; then
        echo "ae/run.sh: unknown figure '$1' (allowed: ${order[*]} all)" >&2
        exit 2
      fi
      figures+=("$1") ;;
  esac
  shift
done
[[ ${#figures[@]} -gt 0 ]] || usage
if [[ "$backend" != sim ]]; then
  echo "ae/run.sh: --backend $backend: only the simulated fabric (sim) is in this build;" \
       "the rdma-core backend is not implemented yet" >&2
  exit 2
fi

if [[ -z "${DMBENCH:-}" ]]; then
  ae/setup.sh
  echo "== build (release)" >&2
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$(nproc)" --target dmbench >/dev/null
  DMBENCH=build/release/harness/cli/dmbench
fi

quick=()
if [[ "$mode" == quick ]]; then
  quick=(--set workload.keys=2000000 --set run.warmup_ms=2 --set run.measure_ms=5)
fi

mkdir -p "$out"
started=$(date +%s)
for figure in "${figures[@]}"; do
  for name in ${experiments[$figure]}; do
    file=configs/experiments/$name.json
    echo "== $figure: $name ($mode)" >&2
    if grep -q '"micro"' "$file"; then
      "$DMBENCH" sweep --experiment "$file" --out "$out/$name" --resume --jobs "$jobs"
    else
      "$DMBENCH" sweep --experiment "$file" --out "$out/$name" --resume --jobs "$jobs" \
        "${quick[@]}" "${sets[@]}"
    fi
  done
done
echo "== experiments done in $(( $(date +%s) - started )) s; results in $out" >&2

echo "== figures and report" >&2
/usr/bin/python3 plots/report.py --results-root "$out" --out "$out/report" \
  --command "ae/run.sh ${figures[*]} --$mode"
