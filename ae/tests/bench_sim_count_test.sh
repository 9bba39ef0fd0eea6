#!/usr/bin/env bash
# Tests ae/bench-sim.sh --count end to end on a small key space: callgrind
# counts each point's measured run, and only it (no set-up function has a
# count), plots/sim_count_table.py splits the counts per operation into the
# simulator's parts, and a second pass gives the same counts to a ten
# thousandth; that pass models an 8 MiB last-level cache (--count-llc),
# which callgrind and the count table record. Exits 77 (skipped) where
# valgrind is missing or dmbench was built with a sanitizer, whose binaries
# valgrind cannot run.
# usage: DMBENCH=BINARY ae/tests/bench_sim_count_test.sh
#        (prints "bench-sim count test: passed")
set -euo pipefail

# shellcheck source=ae/tests/preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "bench-sim count"
: "${DMBENCH:?set DMBENCH to a dmbench binary}"

command -v valgrind >/dev/null || skip "no valgrind (ae/setup.sh bench installs it)"
# ldd's output is read whole before grep: under pipefail, grep -q leaving
# at its first match can kill ldd with SIGPIPE, which fails the pipeline and
# lets a sanitizer binary through to valgrind.
linked=$(ldd "$DMBENCH" 2>/dev/null || true)
if grep -qE 'lib(asan|tsan|ubsan)' <<<"$linked"; then
  skip "$DMBENCH is built with a sanitizer, which valgrind cannot run"
fi

llc_options=("" "--count-llc 8")
for pass in 1 2; do
  # shellcheck disable=SC2086  # the second pass's option is two words
  "$root/ae/bench-sim.sh" --count ${llc_options[pass - 1]} --keys 20000 --measure-ms 1 \
    --out "$tmp/out$pass" >"$tmp/run$pass.out" 2>&1 ||
    fail "the --count run failed: $(tail -n 5 "$tmp/run$pass.out")"
done
for counts in "$tmp"/out2/points/callgrind/*.out; do
  grep -q "^desc: LL cache: 8388608 B" "$counts" ||
    fail "$(basename "$counts") was not counted with an 8 MiB last-level cache"
done
grep -q "^| resource reservations | " "$tmp/out1/sim-count.md" ||
  fail "no part rows in: $(cat "$tmp/out1/sim-count.md")"
for counts in "$tmp"/out1/points/callgrind/*.out; do
  # Set-up builds the key space's bitmap in this constructor, and the
  # measured run never calls it.
  ! grep -q "KeySpaceBulkload::KeySpaceBulkload(" "$counts" ||
    fail "$(basename "$counts") counts set-up, not the measured run alone"
done
/usr/bin/python3 - "$tmp/out1/sim-count.json" "$tmp/out2/sim-count.json" <<'PY' ||
import json, sys
first, second = (json.load(open(path, encoding="utf-8")) for path in sys.argv[1:])
if len(first) != 2:
    sys.exit(f"expected the read- and write-intensive points, got {len(first)} rows")
for one, other in zip(first, second):
    per_operation = one["instructions_per_operation"]
    if not 1_000 < per_operation < 100_000:
        sys.exit(f"{one['point']}: {per_operation:.0f} instructions per operation")
    parts = {part["part"]: part["instructions_per_operation"] for part in one["parts"]}
    if parts["event queue"] <= 0 or parts["index logic"] <= 0:
        sys.exit(f"{one['point']}: the simulator's own parts counted nothing: {parts}")
    if (one["llc_bytes"], other["llc_bytes"]) != (32 << 20, 8 << 20):
        sys.exit(f"{one['point']}: last-level caches of {one['llc_bytes']} and "
                 f"{other['llc_bytes']} bytes recorded, not 32 and 8 MiB")
    if abs(one["instructions"] - other["instructions"]) > 1e-4 * one["instructions"]:
        sys.exit(f"{one['point']}: {one['instructions']} instructions, then "
                 f"{other['instructions']}")
PY
  fail "the counts are not those of the measured run, or do not repeat"

echo "bench-sim count test: passed"
