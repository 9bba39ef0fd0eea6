#!/usr/bin/env bash
# Tests ae/bench-sim.sh --profile end to end on a small key space: perf
# record samples each point's simulation, switched on and off by dmbench run
# --perf-control, and plots/sim_profile_table.py splits the samples into the
# simulator's parts. Exits 77 (skipped) where perf is missing or may not
# sample this process (Debian's linux-perf: ae/setup.sh bench).
# usage: DMBENCH=BINARY ae/tests/bench_sim_profile_test.sh
#        (prints "bench-sim profile test: passed")
set -euo pipefail

# shellcheck source=ae/tests/preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "bench-sim profile"
: "${DMBENCH:?set DMBENCH to a dmbench binary}"

command -v perf >/dev/null || skip "no perf (ae/setup.sh bench installs it)"
if ! perf record -e cpu-clock -o "$tmp/probe.data" --quiet -- true >"$tmp/probe.out" 2>&1; then
  skip "perf record may not sample here: $(tail -n 2 "$tmp/probe.out")"
fi

"$root/ae/bench-sim.sh" --profile --keys 20000 --measure-ms 2 --out "$tmp/out" >"$tmp/run.out" 2>&1 ||
  fail "the --profile run failed: $(tail -n 5 "$tmp/run.out")"
grep -q "^| all of the fabric model | " "$tmp/out/sim-profile.md" ||
  fail "no fabric row in: $(cat "$tmp/out/sim-profile.md")"
# perf's count of cpu-clock nanoseconds is the CPU time it sampled: none
# before the simulation was switched on, none after it was switched off, so
# at most its wall time (and most of it, on an idle core).
for mix in read-intensive write-intensive; do
  point=$tmp/out/points/$mix-sherman-20000
  sampled=$(perf report -i "$point.perf.data" --stdio 2>/dev/null |
            sed -n 's/^# Event count (approx.): //p')
  /usr/bin/python3 - "$point.json" "$sampled" "$tmp/out/sim-profile.json" "$mix" <<'PY' ||
import json, sys
result = json.load(open(sys.argv[1], encoding="utf-8"))
simulation = result["wall_clock"]["simulation_wall_seconds"]
sampled = int(sys.argv[2] or 0) / 1e9
if not 0 < sampled <= 1.1 * simulation + 0.005:
    sys.exit(f"perf sampled {sampled:.4f} s of CPU time; the simulation took {simulation:.4f} s")
rows = [row for row in json.load(open(sys.argv[3], encoding="utf-8"))
        if row["mix"] == sys.argv[4]]
parts = {part["part"]: part["share_percent"] for part in rows[0]["parts"]}
if parts["resource reservations"] <= 0 or parts["event queue"] <= 0:
    sys.exit(f"the simulator's own parts got no samples: {parts}")
PY
    fail "$mix: the samples do not cover the simulation alone"
done

echo "bench-sim profile test: passed"
