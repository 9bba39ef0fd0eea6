#!/usr/bin/env bash
# The simulator's own benchmark: how many index operations and events it
# simulates per wall-clock second, and how much memory it holds, for the
# read-intensive and write-intensive skewed runs at several key counts. Each
# point runs in its own dmbench process, so its peak resident memory is its
# own; then one table (printed, and OUT/sim-speed.md) and one JSON
# (OUT/sim-speed.json) from plots/sim_speed_table.py.
#
#   ae/bench-sim.sh [--keys N,...] [--indexes PRESET,...] [--measure-ms MS]
#                   [--paper-settings] [--repeat N] [--profile] [--count]
#                   [--count-llc MIB] [--against DMBENCH] [--out DIR]
#                   [--set PATH=VALUE ...]
#
# Defaults: keys 10000000,100000000,1000000000 (the paper's 1 B last),
# indexes sherman, a 5 ms window after the config's 2 ms warm-up, one run
# per point, DIR results/bench-sim. --repeat N runs every point N times, in
# rounds over all points so that a slow spell of the machine spreads over
# them, and the table gives medians and the speeds' ranges: on a shared or
# virtual machine one run can be 15% off the next. The base is
# configs/runs/write-intensive-skewed.json (the paper's 8 x 22 clients);
# --set overrides go to every point. The base config starts its index caches
# cold, and a 5 ms window leaves much of a run a cold start (internal nodes
# read and cached, leaves built on first touch); the experiments that
# regenerate the paper's figures start them warm. --paper-settings measures
# the simulator as they run: the settings of the paper's skewed breakdown
# (configs/experiments/fig10-breakdown-skewed.json), namely its base run's
# warm-up and window and warm caches, and the cache of its paper-scale setup
# (500 MB per compute server) at every key count; --measure-ms and --set
# still override them. A point this machine cannot hold is refused by
# dmbench before it builds anything, and the table shows the refusal; when
# dmbench refuses every point (a bad argument), the script exits 2 after
# the table, having measured nothing. --profile also samples each point's
# simulation (warm-up and window, not set-up) with perf record (Debian's
# linux-perf: ae/setup.sh bench), 1999 times a second of CPU time, into
# points/NAME.perf.data and its report NAME.perf.txt, and prints
# plots/sim_profile_table.py's split of the time into the simulator's parts
# (DIR/sim-profile.md, .json); the speeds are then measured under perf.
# Without root, a kernel.perf_event_paranoid above 1 lets perf sample user
# space only. --count runs each point once more,
# under callgrind (Debian's valgrind: ae/setup.sh bench), and prints
# plots/sim_count_table.py's instructions, cache misses and branch
# mispredictions per simulated index operation, in all and per part
# (DIR/sim-count.md, .json): counted over the measured run alone (warm-up
# and window, not set-up or bulkload), with callgrind's models of a 32 KiB L1
# data cache, a 32 MiB last-level cache and a branch predictor rather than
# this machine's. Two counted passes of a build agree to a millionth,
# whatever else the machine is doing: wall time cannot tell apart changes of
# a few percent on a shared machine, counts can. That pass takes
# 1-2 minutes per point at 10 M keys and 6-8 at 1 B, whose set-up callgrind
# slows too (points/callgrind/NAME.out is callgrind's file, for
# callgrind_annotate or KCachegrind); plots/sim_count_change.py BEFORE AFTER
# compares the counts of two builds' passes. --count-llc MIB models a
# last-level cache of MIB MiB instead of 32 (a power of two, 1-1024; the
# count table records it): a machine whose effective last cache is smaller
# (a virtual machine sharing it, a laptop) misses to DRAM on lines the
# default model holds, and the smaller model counts those misses.
# --against B times another build, the dmbench binary B (the one before a
# change), beside this one: every round runs each point with both, the
# build that goes first alternating from round to round, B's results in
# DIR/against/points; then
# B's table (DIR/against/sim-speed.md) and plots/sim_speed_change.py's
# comparison, point by point (DIR/sim-speed-change.md, .json): the CPU
# time per operation of each build, the round-by-round ratio of the two
# with a 95% interval (6 rounds or more) and a verdict, in how many rounds
# this build took less with the sign test's p, and whether the two
# simulated the same. Two passes run one after the other cannot tell a few
# percent apart on a machine whose speed drifts; use --repeat 15 or more,
# and expect 21 rounds to show no change under 5-8% on a 2-vCPU VM. Not
# with --profile or --count. Run it alone: a second busy core slows every
# figure. Set DMBENCH to a dmbench binary to skip set-up and build.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

keys=10000000,100000000,1000000000
indexes=sherman
measure_ms=  # 5, or the experiment's window under --paper-settings
paper_settings=0
repeat=1
profile=0
counting=0
count_llc_mib=  # 32 unless given
against=
out=results/bench-sim
sets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --keys) option_value keys "a comma-separated list" "$@"; shift ;;
    --indexes) option_value indexes "a comma-separated list" "$@"; shift ;;
    --measure-ms) option_value measure_ms "a number" "$@"; shift ;;
    --paper-settings) paper_settings=1 ;;
    --repeat) option_value repeat "a count" "$@"; shift ;;
    --profile) profile=1 ;;
    --count) counting=1 ;;
    --count-llc) option_value count_llc_mib "a size in MiB" "$@"; shift ;;
    --against) option_value against "a dmbench binary" "$@"; shift ;;
    --out) option_value out "a directory" "$@"; shift ;;
    --set) option_set "$@"; shift ;;
    -h|--help) sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 0 ;;
    *) echo "ae/bench-sim.sh: unknown argument '$1' (allowed: --keys, --indexes," \
            "--measure-ms, --paper-settings, --repeat, --profile, --count, --count-llc," \
            "--against, --out, --set)" >&2
       exit 2 ;;
  esac
  shift
done
if ! [[ "$keys" =~ ^[0-9]+(,[0-9]+)*$ ]]; then
  echo "ae/bench-sim.sh: --keys takes positive integers separated by commas, got '$keys'" >&2
  exit 2
fi
option_positive --repeat "$repeat"
if [[ -n "$count_llc_mib" ]] && (( ! counting )); then
  echo "ae/bench-sim.sh: --count-llc sets the cache --count models; give --count too" >&2
  exit 2
fi
count_llc_mib=${count_llc_mib:-32}
if ! [[ "$count_llc_mib" =~ ^[1-9][0-9]{0,3}$ ]] || (( count_llc_mib > 1024 ||
                                                      (count_llc_mib & (count_llc_mib - 1)) )); then
  echo "ae/bench-sim.sh: --count-llc takes a power of two of MiB from 1 to 1024 (callgrind's" \
       "cache model needs a power of two of sets), got '$count_llc_mib'" >&2
  exit 2
fi
if [[ -n "$against" ]]; then
  if (( profile || counting )); then
    echo "ae/bench-sim.sh: --against times two builds; it does not combine with --profile" \
         "or --count" >&2
    exit 2
  fi
  if [[ ! -x "$against" || -d "$against" ]]; then
    echo "ae/bench-sim.sh: --against takes a dmbench binary to run, got '$against'" >&2
    exit 2
  fi
  # Any program runs; only a dmbench answers this (every revision that can
  # run these points does), so a wrong path fails here, not at the first point.
  answer=$("$against" config --describe 2>/dev/null | head -n 1) || true
  if [[ "$answer" != "# Run config reference" ]]; then
    echo "ae/bench-sim.sh: --against takes a dmbench binary, and '$against' does not answer" \
         "'config --describe' as one does" >&2
    exit 2
  fi
fi
if ! [[ "$indexes" =~ ^[a-z0-9+-]+(,[a-z0-9+-]+)*$ ]]; then
  echo "ae/bench-sim.sh: --indexes takes index presets separated by commas, got '$indexes'" >&2
  exit 2
fi

if (( paper_settings )); then
  # Read from the experiment, not restated here, so that the two cannot drift.
  experiment=configs/experiments/fig10-breakdown-skewed.json
  mapfile -t paper < <(/usr/bin/python3 - "$experiment" <<'PY'
import json, sys
experiment = json.load(open(sys.argv[1], encoding="utf-8"))
base = experiment["base"]
print(f"index.cache_prewarm={str(base['index']['cache_prewarm']).lower()}")
print(f"index.cache_mib={experiment['paper_scale']['set']['index.cache_mib']}")
print(f"run.warmup_ms={base['run']['warmup_ms']}")
print(base["run"]["measure_ms"])
PY
  )
  if (( ${#paper[@]} != 4 )); then
    echo "ae/bench-sim.sh: --paper-settings: could not read the settings from $experiment" >&2
    exit 1
  fi
  measure_ms=${measure_ms:-${paper[3]}}
  sets=(--set "${paper[0]}" --set "${paper[1]}" --set "${paper[2]}" "${sets[@]}")
  echo "ae/bench-sim.sh: the settings of $experiment: ${paper[*]:0:3}, run.measure_ms=$measure_ms" >&2
fi

measure_ms=${measure_ms:-5}

# Exits 2 unless command $2, which option $1 needs, is installed; Debian's
# package $3 has it.
require() {
  command -v "$2" >/dev/null && return
  echo "ae/bench-sim.sh: $1 needs $2 (Debian's $3; ae/setup.sh bench installs it)" >&2
  exit 2
}

sampler=()
if (( profile )); then
  require --profile perf linux-perf
  fifos=$(mktemp -d)
  trap 'rm -rf "$fifos"' EXIT
  mkfifo "$fifos/control" "$fifos/acknowledge"
  # Starts disabled; dmbench enables it for the simulation alone.
  sampler=(perf record -D -1 --control "fifo:$fifos/control,$fifos/acknowledge" -e cpu-clock
           -F 1999 --quiet)
fi

counter=()
if (( counting )); then
  require --count valgrind valgrind
  # Collects inside the function that runs the measured simulation only.
  # The caches are fixed (the last level by --count-llc), not this
  # machine's, so that counts compare across machines. A
  # glibc.malloc.hugetlb tunable keeps dmbench from re-executing itself to
  # ask for huge pages (harness/util/huge_page_heap.h), which would leave
  # callgrind; under valgrind its malloc is valgrind's anyway.
  # shellcheck disable=SC2054  # the commas are valgrind's cache geometry
  counter=(env "GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=0"
           valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64
           "--LL=$((count_llc_mib << 20)),16,64" --branch-sim=yes
           "--toggle-collect=*SimulateMeasuredRun*")
fi

# shellcheck source=ae/dmbench-release.sh
source ae/dmbench-release.sh

# The same binary on both sides measures the machine's noise alone: worth
# doing on purpose, and rounds wasted when a copy was taken before a rebuild.
if [[ -n "$against" ]] && cmp -s "$DMBENCH" "$against"; then
  echo "ae/bench-sim.sh: warning: --against $against is the same binary as $DMBENCH:" \
       "the comparison measures noise alone" >&2
fi

# Runs the point's command line ($point, this build's) with the --against
# build into DIR/against/points/$name.json; a refusal (exit 2) leaves its log
# for that build's table, anything else fails the benchmark.
time_against() {
  local status=0
  "$against" "${point[@]:1}" --out "$out/against/points/$name.json" \
    >"$out/against/points/$name.log" 2>&1 || status=$?
  if (( status != 0 && status != 2 )); then
    tail -n 3 "$out/against/points/$name.log" >&2
    exit "$status"
  fi
}

mkdir -p "$out/points"
(( ! counting )) || mkdir -p "$out/points/callgrind"
[[ -z "$against" ]] || mkdir -p "$out/against/points"
IFS=, read -r -a key_list <<<"$keys"
IFS=, read -r -a index_list <<<"$indexes"
measured=0
for ((round = 1; round <= repeat; round++)); do
  for mix in read-intensive write-intensive; do
    for index in "${index_list[@]}"; do
      for count in "${key_list[@]}"; do
        name="$mix-$index-$count"
        (( repeat == 1 )) || name+=".r$round"
        # The memory servers must hold the bulkload: the base config's 16-byte
        # entries in leaves 80% full over 8 servers take 2 bytes per key on
        # each; twice that leaves room for the rest (1 B keys: 4096 MiB).
        host_mib=1024
        while (( host_mib * 1048576 < 4 * count )); do host_mib=$((host_mib * 2)); done
        echo "== $name" >&2
        status=0
        point=("$DMBENCH" run --config configs/runs/write-intensive-skewed.json
               --set workload.mix="$mix" --set index.preset="$index" --set workload.keys="$count"
               --set run.measure_ms="$measure_ms" --set topology.host_memory_mib="$host_mib"
               "${sets[@]}")
        run=("${point[@]}" --out "$out/points/$name.json")
        # The build that goes first alternates, so that a machine that slows
        # over minutes weighs on both alike.
        if [[ -n "$against" ]] && (( round % 2 == 1 )); then time_against; fi
        if (( profile )); then
          run=("${sampler[@]}" -o "$out/points/$name.perf.data" -- "${run[@]}"
               --perf-control "$fifos/control,$fifos/acknowledge")
        fi
        "${run[@]}" >"$out/points/$name.log" 2>&1 || status=$?
        if [[ -n "$against" ]] && (( round % 2 == 0 )); then time_against; fi
        (( status != 0 )) || measured=$((measured + 1))
        if [[ $status -ne 0 ]]; then
          # Exit 2 is a refused config (e.g. more memory than this machine
          # has): the table shows why. Anything else is a failure.
          tail -n 3 "$out/points/$name.log" >&2
          [[ $status -eq 2 ]] || exit "$status"
          rm -f "$out/points/$name".{json,perf.data,perf.txt}
        elif (( profile )); then
          perf report -i "$out/points/$name.perf.data" --stdio --no-children -q \
            --sort dso,sym >"$out/points/$name.perf.txt" 2>>"$out/points/$name.log"
        fi
        if (( counting && status == 0 && round == 1 )); then
          # Counts do not vary from run to run: the first round's are enough.
          # Files of their own folder, so that the speed table sees the
          # timed runs alone.
          counted="$out/points/callgrind/$name"
          echo "== $name (counted)" >&2
          "${counter[@]}" --callgrind-out-file="$counted.out" "${point[@]}" --out "$counted.json" \
            >"$counted.log" 2>&1 || { tail -n 3 "$counted.log" >&2; exit 1; }
        fi
      done
    done
  done
done
/usr/bin/python3 plots/sim_speed_table.py "$out"
# A point refused for what this machine cannot hold is a row of the table;
# every point refused is a bad argument (an unknown preset, a window out of
# range), and a benchmark that measured nothing.
if (( measured == 0 )); then
  echo "ae/bench-sim.sh: dmbench refused every point (the table says why): nothing was measured" >&2
  exit 2
fi
if [[ -n "$against" ]]; then
  echo "== $against's table ($out/against/sim-speed.md), then the comparison" >&2
  /usr/bin/python3 plots/sim_speed_table.py "$out/against" >&2
  /usr/bin/python3 plots/sim_speed_change.py "$out/against" "$out"
fi
(( ! profile )) || /usr/bin/python3 plots/sim_profile_table.py "$out"
(( ! counting )) || /usr/bin/python3 plots/sim_count_table.py "$out"
