#!/bin/sh
# An output file that cannot be written whole fails the command, naming the
# file and the reason, and leaves no partial file; a pipe given as --out is
# written through, and stays a pipe; --out /dev/stdout carries the JSON
# alone, the printed table going to standard error.
#   output_failure_test.sh DMBENCH EXPERIMENT RUN_CONFIG DIR
set -eu
dmbench=$1 experiment=$2 run_config=$3 out=$4
rm -rf "$out"
mkdir -p "$out"
fail() { echo "output failure test: FAILED: $*"; exit 1; }

# Files of at most 1 KiB, as a full disk would allow: writes past that fail
# with EFBIG instead of the signal that would end the process.
status=0
(trap '' XFSZ && ulimit -f 1 &&
  exec "$dmbench" sweep --configs-only --out "$out/limited" --experiment "$experiment") \
  >/dev/null 2>"$out/limited.err" || status=$?
[ "$status" -ne 0 ] || fail "sweep --configs-only exited 0 with files cut at 1 KiB"
grep -q "cannot write $out/limited/.*: File too large" "$out/limited.err" ||
  fail "the message names no file and reason: $(cat "$out/limited.err")"
"$dmbench" sweep --configs-only --out "$out/whole" --experiment "$experiment" >/dev/null ||
  fail "sweep --configs-only without a limit"
for file in "$out"/limited/*; do
  [ -e "$file" ] || continue
  case "$file" in *.partial) fail "left behind: $file" ;; esac
  cmp -s "$file" "$out/whole/$(basename "$file")" || fail "cut short: $file"
done

mkfifo "$out/pipe"
cat "$out/pipe" >"$out/from-pipe" &
reader=$!
"$dmbench" micro verbs --sizes 8 --warmup-us 5 --measure-us 20 --compute-servers 2 --threads 2 \
  --out "$out/pipe" >/dev/null || fail "micro --out a pipe"
wait "$reader"
[ -p "$out/pipe" ] || fail "the pipe was replaced"
grep -q '"verbs"' "$out/from-pipe" || fail "the result did not come through the pipe"
json_alone() {
  /usr/bin/python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" ||
    fail "$2 --out /dev/stdout: standard output is not the JSON alone: $(head -c 300 "$1")"
}
"$dmbench" micro verbs --sizes 8 --warmup-us 5 --measure-us 20 --compute-servers 2 --threads 2 \
  --out /dev/stdout >"$out/micro.stdout" 2>"$out/micro.stderr" || fail "micro --out /dev/stdout"
json_alone "$out/micro.stdout" micro
grep -q "READ" "$out/micro.stderr" || fail "micro's table is not on standard error"
"$dmbench" run --config "$run_config" --quiet --set workload.keys=100000 \
  --set run.warmup_ms=0.1 --set run.measure_ms=0.2 --out /dev/stdout \
  >"$out/run.stdout" 2>"$out/run.stderr" || fail "run --out /dev/stdout"
json_alone "$out/run.stdout" run
grep -q "Mops" "$out/run.stderr" || fail "run's table is not on standard error"
echo "output failure test: passed"
