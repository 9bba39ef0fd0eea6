#!/usr/bin/env bash
# Runs the experiments behind the paper's figures, resumably, then draws the
# figures and writes the report (DIR/report/REPORT.md) and the tidy tables of
# every point (DIR/report/results.csv, micro.csv; plots/results_csv.py).
#
#   ae/run.sh FIG... | all [--quick | --full | --paper-scale] [--out DIR] [--jobs N]
#             [--sshlogin LOGINS] [--index-only]
#             [--backend sim | verbs --hosts FILE [--ssh "CMD"]] [--set path=value]...
#
# FIG is the "ae" name an experiment file of configs/experiments/ gives
# (today: calibration table1 fig2 fig3 fig10 fig11 fig12 fig13 fig14 fig15
# fig16; calibration: the public hardware figures the NIC profile is
# calibrated on); experiments sharing a name run together.
# --full (default) runs each experiment as configs/experiments/ defines it
# (scaled to a laptop); --quick shortens keys and windows for a first look;
# --paper-scale runs the index experiments at the paper's setup (each file's
# paper_scale.set and .sweep: 1 billion keys, 200 million for the key-size
# figures, a 500 MB index cache per compute server), the microbenchmarks as
# they are. A second run with the same --out skips the points already done
# with the same config (a point whose config changed, e.g. of another mode,
# runs again). At the end, the wall time of each figure.
# --set passes a field override to every index experiment (tests use it).
# --index-only skips the figures' microbenchmarks (ae/seeds.sh passes it: a
# microbenchmark takes no seed, so another seed would only repeat it).
# Set DMBENCH to a dmbench binary to skip set-up and build.
#
# --backend sim (default) runs on the simulated fabric, --jobs points at a
# time. With --sshlogin, GNU parallel (Debian's `parallel`) spreads the
# index-run points over the machines LOGINS names in its --sshlogin syntax
# (comma-separated [N/]host, ":" for this machine), --jobs points at a time
# on each; every host needs this checkout at the same path and DMBENCH there.
# Point configs go to the hosts and results come back to DIR, where the
# figures and the report read them (README, "Sweeps on many machines").
# --backend verbs runs each point, one after another, on the real RDMA
# cluster of the hosts file (ae/cluster/run.sh: format, --ssh, and DMBENCH's
# path, which must hold the same build on every host); the hosts file sets
# the number of memory and compute servers. The microbenchmarks (fig2, fig3,
# fig16, calibration) measure the simulated fabric and are skipped there.
set -euo pipefail
invoked_from=$PWD
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

usage() {
  sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0" >&2
  exit 2
}

# The figures are what the experiment files register ("ae" names,
# plots/experiment_registry.py); no list of them is kept here.
declare -A experiments=()
order=()
while read -r ae_name experiment; do
  [[ -n "${experiments[$ae_name]+x}" ]] || order+=("$ae_name")
  experiments[$ae_name]+="${experiments[$ae_name]:+ }$experiment"
done < <(/usr/bin/python3 plots/experiment_registry.py configs/experiments)
if [[ ${#order[@]} -eq 0 ]]; then
  echo "ae/run.sh: no experiment registered under configs/experiments (see the error above)" >&2
  exit 1
fi

figures=()
mode=
out=results/ae
jobs=$(nproc)
backend=sim
hosts=
ssh_command=
sshlogin=
index_only=
sets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    all) figures+=("${order[@]}") ;;
    --quick|--full|--paper-scale) option_mode "$1" ;;
    --out) option_value out "a directory" "$@"; shift ;;
    --jobs) option_value jobs "a number" "$@"; shift ;;
    --backend) option_value backend "sim or verbs" "$@"; shift ;;
    --hosts) option_value hosts "a hosts file" "$@"; shift ;;
    --ssh) option_value ssh_command "a command" "$@"; shift ;;
    --sshlogin) option_value sshlogin 'GNU parallel logins, e.g. ":,4/node2"' "$@"; shift ;;
    --set) option_set "$@"; shift ;;
    --index-only) index_only=1 ;;
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
mode=${mode:---full}
mode=${mode#--}  # full, quick or paper-scale: names of result files and of the report's command
# Checked here, not by the first sweep after minutes of set-up and build.
option_positive --jobs "$jobs"
case "$backend" in
  sim)
    if [[ -n "$hosts" || -n "$ssh_command" ]]; then
      echo "ae/run.sh: --hosts and --ssh are for --backend verbs (a real cluster);" \
           "--backend sim runs on this machine, or on --sshlogin's" >&2
      exit 2
    fi
    if [[ -n "$sshlogin" ]] && ! command -v parallel >/dev/null; then
      echo "ae/run.sh: --sshlogin needs GNU parallel (Debian package parallel:" \
           "ae/setup.sh cluster installs it)" >&2
      exit 2
    fi ;;
  verbs)
    if [[ -n "$sshlogin" ]]; then
      echo "ae/run.sh: --sshlogin spreads simulated points over machines;" \
           "--backend verbs runs each point on the whole cluster of --hosts" >&2
      exit 2
    fi
    if [[ -z "$hosts" ]]; then
      echo "ae/run.sh: --backend verbs needs --hosts FILE, the cluster's machines" \
           "(format: ae/cluster/run.sh --help, example: ae/cluster/hosts.example)" >&2
      exit 2
    fi
    # Relative to where ae/run.sh was started, not to the checkout it cd's to.
    [[ "$hosts" == /* ]] || hosts=$invoked_from/$hosts
    if [[ ! -f "$hosts" || ! -r "$hosts" ]]; then
      echo "ae/run.sh: --hosts $hosts: no such readable file" >&2
      exit 2
    fi ;;
  *)
    echo "ae/run.sh: --backend $backend: not a backend (allowed: sim, verbs)" >&2
    exit 2 ;;
esac

# The simulated fabric needs the build and plot dependencies only; a
# cluster node also needs rdma-core (never the Soft-RoCE VM of the tests).
setup_profile=main
[[ "$backend" != verbs ]] || setup_profile=cluster
# shellcheck source=ae/dmbench-release.sh
source ae/dmbench-release.sh

scale=()
case "$mode" in
  quick) scale=(--set workload.keys=2000000 --set run.warmup_ms=2 --set run.measure_ms=5) ;;
  paper-scale) scale=(--paper-scale) ;;
esac

# Runs the points of experiment NAME (FILE) that have no result yet, one
# after another, each on the whole cluster; the results go where the sweep
# puts them (DIR/POINT.json beside DIR/experiment.json), so the plots and the
# report read them alike.
run_on_cluster() {  # run_on_cluster NAME FILE
  local name=$1 file=$2 directory=$out/$1 listing config point result status
  local done_before=0 failed=() cluster=(ae/cluster/run.sh --hosts "$hosts" --dmbench "$dmbench_path")
  [[ -z "$ssh_command" ]] || cluster+=(--ssh "$ssh_command")
  # Checked before the sweep rewrites the point configs beside them.
  for result in "$directory"/*.json; do
    case "$result" in */experiment.json | *.config.json) continue ;; esac
    if [[ -s "$result" ]] && ! grep -q '"type": "verbs"' "$result"; then
      echo "ae/run.sh: $result is not a real-cluster result (another backend's?);" \
           "keep each backend's results under its own --out" >&2
      exit 1
    fi
  done
  # The experiments are written for the simulated fabric: their backend
  # section (NIC profile) is replaced before the --set's, which may then set
  # verbs options (backend.gid_index=...).
  listing=$("$DMBENCH" sweep --experiment "$file" --out "$directory" --configs-only \
    --set 'backend={"type":"verbs"}' "${scale[@]}" "${sets[@]}")
  local configs=()
  mapfile -t configs <<<"$listing"
  for config in "${configs[@]}"; do
    point=$(basename "$config" .config.json)
    result=$directory/$point.json
    if [[ -s "$result" ]]; then
      done_before=$((done_before + 1))
      continue
    fi
    echo "[$name] $point on the cluster (log: $directory/$point.log)" >&2
    rm -rf "$directory/$point.cluster"
    status=0
    "${cluster[@]}" --config "$config" --out "$directory/$point.cluster" \
      >"$directory/$point.log" 2>&1 || status=$?
    # A run with consistency violations (3) still has its result, as in a
    # simulated sweep; the point counts as failed either way.
    if [[ -f "$directory/$point.cluster/result.json" && ( $status -eq 0 || $status -eq 3 ) ]]; then
      cp "$directory/$point.cluster/result.json" "$result.partial"
      mv "$result.partial" "$result"
    fi
    if [[ $status -ne 0 ]]; then
      echo "[$name] FAILED $point (exit status $status): see $directory/$point.log" >&2
      failed+=("$point")
    fi
  done
  echo "[$name] ${#configs[@]} points, $done_before already done, ${#failed[@]} failed;" \
       "results in $directory" >&2
  if [[ ${#failed[@]} -gt 0 ]]; then
    echo "ae/run.sh: $name: ${#failed[@]} points failed (${failed[*]}); run again with the" \
         "same --out to retry only those" >&2
    exit 1
  fi
}

# Runs the points of experiment NAME (FILE) not yet done (as sweep --resume) through
# GNU parallel on the --sshlogin machines, each point's config sent to its
# host and its result and log brought back beside experiment.json, as a
# sweep leaves them.
run_with_parallel() {  # run_with_parallel NAME FILE
  local name=$1 file=$2 directory=$out/$1 listing total pending=() status=0
  total=$("$DMBENCH" sweep --experiment "$file" --list "${scale[@]}" "${sets[@]}" | wc -l)
  # The points a sweep --resume would run: none whose result was made from
  # the config it has now.
  listing=$("$DMBENCH" sweep --experiment "$file" --out "$directory" --configs-only --resume \
    "${scale[@]}" "${sets[@]}")
  [[ -z "$listing" ]] || mapfile -t pending <<<"$listing"
  echo "[$name] $total points, $(( total - ${#pending[@]} )) already done," \
       "${#pending[@]} to run through GNU parallel on $sshlogin, $jobs per host" >&2
  [[ ${#pending[@]} -gt 0 ]] || return 0
  # The result is written under a temporary name and renamed, so that a
  # point cut short never looks finished.
  printf '%s\n' "${pending[@]}" | parallel --will-cite --sshlogin "$sshlogin" --jobs "$jobs" \
    --workdir "$PWD" --transferfile {} \
    --return '{= s/\.config\.json$/.json/ =}' --return '{= s/\.config\.json$/.log/ =}' \
    --joblog "$directory/parallel.joblog" \
    "$dmbench_path run --config {} --out {= s/\.config\.json\$/.json.partial/ =}" \
    "> {= s/\.config\.json\$/.log/ =} 2>&1" \
    "&& mv {= s/\.config\.json\$/.json.partial/ =} {= s/\.config\.json\$/.json/ =}" \
    || status=$?
  # GNU parallel's exit status: the number of failed jobs up to 100, 101 for
  # more, 255 when it could not run them (its message says why).
  if [[ $status -ge 1 && $status -le 101 ]]; then
    echo "ae/run.sh: $name: $( [[ $status -le 100 ]] && echo "$status" || echo "more than 100")" \
         "points failed through GNU parallel (their logs: $directory/POINT.log; the job log:" \
         "$directory/parallel.joblog); run again with the same --out to retry only those" >&2
    exit 1
  elif [[ $status -ne 0 ]]; then
    echo "ae/run.sh: $name: GNU parallel could not run the points (exit status $status;" \
         "its message is above)" >&2
    exit 1
  fi
}

if [[ "$backend" == verbs || -n "$sshlogin" ]]; then
  # ae/cluster/run.sh and GNU parallel run this path on every host, so it
  # must be absolute.
  dmbench_path=$DMBENCH
  [[ "$dmbench_path" == /* ]] || dmbench_path=$PWD/$dmbench_path
fi

mkdir -p "$out"
started=$(date +%s)
wall_times=()
for figure in "${figures[@]}"; do
  figure_started=$(date +%s)
  for name in ${experiments[$figure]}; do
    file=configs/experiments/$name.json
    if grep -q '"micro"' "$file"; then
      if [[ -n "$index_only" ]]; then
        echo "== $figure: $name: skipped, a microbenchmark (--index-only)" >&2
        continue
      elif [[ "$backend" == verbs ]]; then
        echo "== $figure: $name: skipped, a microbenchmark of the simulated fabric" \
             "(--backend sim runs it)" >&2
        continue
      fi
      echo "== $figure: $name ($mode)" >&2
      "$DMBENCH" sweep --experiment "$file" --out "$out/$name" --resume --jobs "$jobs"
    elif [[ "$backend" == verbs ]]; then
      echo "== $figure: $name ($mode, on the cluster of $hosts)" >&2
      run_on_cluster "$name" "$file"
    elif [[ -n "$sshlogin" ]]; then
      echo "== $figure: $name ($mode, through GNU parallel on $sshlogin)" >&2
      run_with_parallel "$name" "$file"
    else
      echo "== $figure: $name ($mode)" >&2
      "$DMBENCH" sweep --experiment "$file" --out "$out/$name" --resume --jobs "$jobs" \
        "${scale[@]}" "${sets[@]}"
    fi
  done
  wall_times+=("$figure $(( $(date +%s) - figure_started ))")
done
echo "== experiments done in $(( $(date +%s) - started )) s; results in $out" >&2
# Points already done count for nothing: a resumed run shows what it ran.
{
  echo "| figure | wall s ($mode) |"
  echo "|---|---|"
  for entry in "${wall_times[@]}"; do echo "| ${entry% *} | ${entry##* } |"; done
  echo "| all | $(( $(date +%s) - started )) |"
} | tee "$out/wall-times-$mode.md" >&2

echo "== figures and report" >&2
command="ae/run.sh ${figures[*]} --$mode${index_only:+ --index-only}"
[[ "$backend" == sim ]] || command+=" --backend $backend --hosts $hosts"
/usr/bin/python3 plots/report.py --results-root "$out" --out "$out/report" \
  --command "$command"
/usr/bin/python3 plots/results_csv.py "$out" --out "$out/report/results.csv" \
  --micro-out "$out/report/micro.csv"
