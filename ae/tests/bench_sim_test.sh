#!/usr/bin/env bash
# Tests ae/bench-sim.sh end to end on a small key space: by default every
# point runs the base config's settings (cold caches, its 2 ms warm-up), and
# --paper-settings runs the settings fig10-breakdown-skewed.json declares
# (warm caches, its warm-up, its paper-scale cache), as each row of the table
# says; --measure-ms still sets the window; --against times a second build
# in alternation and compares the two (here the same binary, which must
# simulate the same, and is said to be one binary); a bad argument exits 2.
# usage: DMBENCH=BINARY ae/tests/bench_sim_test.sh   (prints "bench-sim test: passed")
set -euo pipefail

# shellcheck source=ae/tests/preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "bench-sim"
: "${DMBENCH:?set DMBENCH to a dmbench binary}"

expected=$(/usr/bin/python3 - "$root/configs/experiments/fig10-breakdown-skewed.json" <<'PY'
import json, sys
experiment = json.load(open(sys.argv[1], encoding="utf-8"))
base = experiment["base"]
caches = "warm" if base["index"]["cache_prewarm"] else "cold"
cache = experiment["paper_scale"]["set"]["index.cache_mib"]
print(f"{caches} {cache:g} MiB; {base['run']['warmup_ms']:g} + 0.5 ms")
PY
)

"$root/ae/bench-sim.sh" --keys 100000 --measure-ms 0.5 --out "$tmp/base" >"$tmp/base.out" 2>&1 ||
  fail "the default run failed: $(tail -n 5 "$tmp/base.out")"
for mix in read-intensive write-intensive; do
  grep -q "^| $mix skewed | sherman | 100,000 | .* | cold 64 MiB; 2 + 0.5 ms |\$" \
    "$tmp/base/sim-speed.md" || fail "no $mix row with the base settings in: $(cat "$tmp/base/sim-speed.md")"
done

"$root/ae/bench-sim.sh" --paper-settings --keys 100000 --measure-ms 0.5 --out "$tmp/paper" \
  >"$tmp/paper.out" 2>&1 || fail "the --paper-settings run failed: $(tail -n 5 "$tmp/paper.out")"
for mix in read-intensive write-intensive; do
  # The row is read whole before the second grep, as in
  # bench_sim_count_test.sh: a pipe into grep -q under pipefail can fail.
  row=$(grep -F "| $mix skewed | sherman | 100,000 |" "$tmp/paper/sim-speed.md" || true)
  grep -qF "| $expected |" <<<"$row" ||
    fail "no $mix row with '$expected' in: $(cat "$tmp/paper/sim-speed.md")"
done

"$root/ae/bench-sim.sh" --keys 100000 --measure-ms 0.5 --repeat 2 --against "$DMBENCH" \
  --out "$tmp/against" >"$tmp/against.out" 2>&1 ||
  fail "the --against run failed: $(tail -n 5 "$tmp/against.out")"
for round in 1 2; do
  [[ -s "$tmp/against/against/points/read-intensive-sherman-100000.r$round.json" ]] ||
    fail "no result of the other build for round $round"
done
for mix in read-intensive write-intensive; do
  grep -q "^| $mix skewed | sherman | 100,000 | .*, cpu | [0-9.]* (too few rounds for one): not shown | in [0-2] of 2 rounds (p = [0-9.]*) | .* | yes |\$" \
    "$tmp/against/sim-speed-change.md" ||
    fail "no $mix comparison in: $(cat "$tmp/against/sim-speed-change.md")"
done
# One binary against itself: said before the rounds and under the table.
grep -qF "warning: --against $DMBENCH is the same binary as" "$tmp/against.out" ||
  fail "no warning that both builds are one binary: $(head -n 5 "$tmp/against.out")"
grep -qxF "Both builds are one binary (equal tool.build_id) at read-intensive skewed, sherman, \
100,000; write-intensive skewed, sherman, 100,000: the ratios there measure noise alone." \
  "$tmp/against/sim-speed-change.md" ||
  fail "no line naming one binary in: $(cat "$tmp/against/sim-speed-change.md")"
for bad in "--against $tmp/no-such-binary" "--against $DMBENCH --count" "--against /bin/true"; do
  status=0
  # shellcheck disable=SC2086  # $bad is two or three words on purpose
  "$root/ae/bench-sim.sh" --keys 100000 $bad --out "$tmp/bad-against" >"$tmp/bad.out" 2>&1 ||
    status=$?
  [[ $status -eq 2 ]] || fail "'$bad' exited $status, not 2"
  grep -q -- "--against" "$tmp/bad.out" || fail "the error for '$bad' does not name --against"
done

status=0
"$root/ae/bench-sim.sh" --paper >"$tmp/bad.out" 2>&1 || status=$?
[[ $status -eq 2 ]] || fail "an unknown argument exited $status, not 2"
grep -q -- "--paper-settings" "$tmp/bad.out" || fail "the error does not list --paper-settings"

echo "bench-sim test: passed"
