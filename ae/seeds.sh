#!/usr/bin/env bash
# Runs the index experiments again with other seeds, each into
# ROOT/seeds/SEED/, so that plots/report.py on ROOT shows how far each claim
# moves with the seed alone (its "Seed variation" section), and
# plots/results_csv.py gives every seed's points as rows.
#
#   ae/seeds.sh [--seeds LIST] [--quick | --full | --paper-scale] [--out ROOT]
#               [--jobs N] [--set path=value]... [FIG...]
#
# LIST: comma-separated seeds (default 2,3; ROOT's own results are seed 1).
# A replicate must differ from ROOT's results in run.seed alone, so give the
# mode and --set overrides ROOT was run with (the report refuses a replicate
# whose points differ in any other config field). ROOT defaults to
# results/ae, FIG to the figures with claims on index runs: the Sherman
# paper's (table1 fig10 fig11 fig12 fig13 fig14 fig15) and SMART's
# (smart). Only index experiments run (ae/run.sh --index-only): a
# microbenchmark takes no seed, and a figure made of microbenchmarks alone
# (fig2, fig3, fig16, calibration) is refused. Resumable
# like ae/run.sh. Then run plots/report.py on ROOT. Set DMBENCH to a dmbench
# binary to skip set-up and build.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

out=results/ae
jobs=$(nproc)
seeds=2,3
mode=
figures=()
sets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seeds) option_value seeds "a comma-separated list of seeds" "$@"; shift ;;
    --out) option_value out "a directory" "$@"; shift ;;
    --jobs) option_value jobs "a number" "$@"; shift ;;
    --set) option_set "$@"; shift ;;
    --quick|--full|--paper-scale) option_mode "$1" ;;
    -h|--help) sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 0 ;;
    -*) echo "ae/seeds.sh: unknown option '$1' (allowed: --seeds, --quick, --full," \
             "--paper-scale, --out, --jobs, --set)" >&2; exit 2 ;;
    *) figures+=("$1") ;;
  esac
  shift
done
[[ ${#figures[@]} -gt 0 ]] || figures=(table1 fig10 fig11 fig12 fig13 fig14 fig15 smart)
mode=${mode:---full}

IFS=, read -r -a seed_list <<<"$seeds"
declare -A seen=()
for seed in "${seed_list[@]}"; do
  if [[ ! "$seed" =~ ^[0-9]+$ ]] || (( ${#seed} > 19 )); then
    echo "ae/seeds.sh: --seeds takes comma-separated seeds (integers from 0), got '$seeds'" >&2
    exit 2
  fi
  if [[ -n "${seen[$seed]+x}" ]]; then
    echo "ae/seeds.sh: --seeds names seed $seed twice" >&2
    exit 2
  fi
  seen[$seed]=1
done
[[ ${#seed_list[@]} -gt 0 ]] || { echo "ae/seeds.sh: --seeds names no seed" >&2; exit 2; }

# The figures are what the experiment files register; one made only of
# microbenchmarks would be the same at every seed.
declare -A index_runs=()
while read -r ae_name experiment; do
  grep -q '"micro"' "configs/experiments/$experiment.json" || index_runs[$ae_name]=1
done < <(/usr/bin/python3 plots/experiment_registry.py configs/experiments)
for figure in "${figures[@]}"; do
  if [[ -z "${index_runs[$figure]+x}" ]]; then
    allowed=$(printf '%s\n' "${!index_runs[@]}" | sort | paste -sd ' ')
    echo "ae/seeds.sh: '$figure' has no index experiment to run with another seed (allowed:" \
         "$allowed)" >&2
    exit 2
  fi
done

for seed in "${seed_list[@]}"; do
  echo "== seed $seed" >&2
  ae/run.sh "${figures[@]}" "$mode" --index-only --jobs "$jobs" --out "$out/seeds/$seed" \
    "${sets[@]}" --set "run.seed=$seed"
done
echo "== seed replicates in $out/seeds; the report on $out shows them:" \
     "/usr/bin/python3 plots/report.py --results-root $out --out $out/report" >&2
