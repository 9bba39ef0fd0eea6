#!/bin/sh
# dmbench sweep --resume keeps a finished point only when its result was made
# from the config the point resolves to now; --paper-scale gives the points
# the experiment's paper_scale.set.
#   sweep_resume_test.sh DMBENCH EXPERIMENT DIR
set -eu
dmbench=$1 experiment=$2 out=$3
tiny="--set workload.keys=20000 --set topology.threads_per_compute_server=2 --set run.measure_ms=0.2 --set run.warmup_ms=0.1"
rm -rf "$out"
fail() { echo "sweep resume test: FAILED: $*"; exit 1; }

# shellcheck disable=SC2086
"$dmbench" sweep --experiment "$experiment" --out "$out" --resume $tiny >/dev/null 2>"$out.first" ||
  fail "first sweep"
grep -q "0 already done, 2 to run" "$out.first" || fail "first sweep: $(cat "$out.first")"
# shellcheck disable=SC2086
"$dmbench" sweep --experiment "$experiment" --out "$out" --resume $tiny >/dev/null 2>"$out.same"
grep -q "2 already done, 0 to run" "$out.same" || fail "same config: $(cat "$out.same")"
# --configs-only --resume lists what a sweep --resume would run: nothing yet,
# then both points once a field changes.
# shellcheck disable=SC2086
pending=$("$dmbench" sweep --experiment "$experiment" --out "$out" --configs-only --resume $tiny \
  2>/dev/null | wc -l)
[ "$pending" -eq 0 ] || fail "configs-only --resume listed $pending done points"
# shellcheck disable=SC2086
pending=$("$dmbench" sweep --experiment "$experiment" --out "$out" --configs-only --resume $tiny \
  --set run.measure_ms=0.3 2>/dev/null | wc -l)
[ "$pending" -eq 2 ] || fail "configs-only --resume listed $pending of 2 changed points"
# shellcheck disable=SC2086
"$dmbench" sweep --experiment "$experiment" --out "$out" --resume $tiny \
  --set run.measure_ms=0.3 >/dev/null 2>"$out.changed"
grep -q "Sherman: its result was made from another config (first difference: run.measure_ms); running it again" \
  "$out.changed" || fail "changed config: $(cat "$out.changed")"
grep -q "0 already done, 2 to run" "$out.changed" || fail "changed config: $(cat "$out.changed")"

"$dmbench" sweep --experiment "$experiment" --out "$out.paper" --paper-scale --configs-only \
  >/dev/null 2>&1 || fail "--paper-scale --configs-only"
grep -q '"keys": 1000000000' "$out.paper/Sherman.config.json" || fail "paper-scale keys"
grep -q '"cache_mib": 477' "$out.paper/Sherman.config.json" || fail "paper-scale cache"
grep -q '"scale": "paper"' "$out.paper/experiment.json" || fail "paper-scale marker"
echo "sweep resume test: passed"
