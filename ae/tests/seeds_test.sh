#!/usr/bin/env bash
# Tests ae/seeds.sh end to end on a tiny configuration: a root run by
# ae/run.sh (and ae/run.sh --index-only skipping a microbenchmark), a
# replicate at seed 2 with the same mode and overrides, and the
# report on the root then checks the claims at both seeds (its "Seed
# variation" section, the line it prints) and the tidy table holds both
# seeds' points. A replicate run without the root's overrides is refused by
# the report, naming the field that differs.
# usage: DMBENCH=BINARY ae/tests/seeds_test.sh   (prints "seeds test: passed")
set -euo pipefail

# shellcheck source=ae/tests/preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "seeds"
: "${DMBENCH:?set DMBENCH to a dmbench binary}"

small=(--set workload.keys=20000 --set topology.threads_per_compute_server=2
       --set run.measure_ms=0.5 --set run.warmup_ms=0.2)
"$root/ae/run.sh" fig14 --quick --jobs 2 --out "$tmp/root" "${small[@]}" >"$tmp/run.out" 2>&1 ||
  fail "ae/run.sh failed: $(tail -n 5 "$tmp/run.out")"
# --index-only (what ae/seeds.sh runs with) leaves out a figure's
# microbenchmarks: here all of fig16, while fig14's points, done, are kept.
"$root/ae/run.sh" fig16 fig14 --quick --index-only --jobs 2 --out "$tmp/root" "${small[@]}" \
  >"$tmp/index-only.out" 2>&1 || fail "ae/run.sh --index-only failed: $(tail -n 5 "$tmp/index-only.out")"
grep -q "== fig16: fig16-hocl: skipped, a microbenchmark (--index-only)" "$tmp/index-only.out" ||
  fail "--index-only did not say it skipped fig16: $(grep '^==' "$tmp/index-only.out")"
[[ ! -e "$tmp/root/fig16-hocl" ]] || fail "--index-only ran fig16's microbenchmark"
"$root/ae/seeds.sh" --seeds 2 --quick --jobs 2 --out "$tmp/root" "${small[@]}" fig14 \
  >"$tmp/seeds.out" 2>&1 || fail "ae/seeds.sh failed: $(tail -n 5 "$tmp/seeds.out")"
seed=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["config"]["run"]["seed"])' \
  "$tmp/root/seeds/2/fig14-in-depth/Sherman.json")
[[ "$seed" == 2 ]] || fail "the replicate's point ran with seed $seed, not 2"

/usr/bin/python3 "$root/plots/report.py" --results-root "$tmp/root" --out "$tmp/report" \
  >"$tmp/report.out" 2>&1 || fail "the report failed: $(tail -n 5 "$tmp/report.out")"
grep -q "^seed replicates 2: [1-9][0-9]* claims computed at every seed" "$tmp/report.out" ||
  fail "no seed line in the report's output: $(tail -n 3 "$tmp/report.out")"
grep -q '^| seed 2 | `.*seeds/2` | [0-9a-f]\{12\}\( (dirty)\)\{0,1\} | [1-9][0-9]* |' "$tmp/report/REPORT.md" ||
  fail "no row for seed 2 in: $(sed -n '/^## Seed variation/,$p' "$tmp/report/REPORT.md")"

/usr/bin/python3 "$root/plots/results_csv.py" "$tmp/root" --out "$tmp/results.csv" 2>/dev/null ||
  fail "results_csv.py failed"
seeds=$(/usr/bin/python3 -c 'import csv, sys; print(" ".join(sorted({r["config.run.seed"] for r in csv.DictReader(open(sys.argv[1]))})))' \
  "$tmp/results.csv")
[[ "$seeds" == "1 2" ]] || fail "the tidy table holds seeds '$seeds', not '1 2'"

# Seed 3 without one of the root's overrides: another window, refused.
"$root/ae/seeds.sh" --seeds 3 --quick --jobs 2 --out "$tmp/root" "${small[@]:0:4}" \
  --set run.warmup_ms=0.2 fig14 >"$tmp/bad.out" 2>&1 ||
  fail "ae/seeds.sh (seed 3) failed: $(tail -n 5 "$tmp/bad.out")"
if /usr/bin/python3 "$root/plots/report.py" --results-root "$tmp/root" --out "$tmp/report3" \
    >"$tmp/report3.out" 2>&1; then
  fail "the report took a replicate that differs in more than its seed"
fi
grep -q "seeds/3/fig14-in-depth/.*: field 'config.run.measure_ms' differs from" \
  "$tmp/report3.out" || fail "the refusal does not name the field: $(tail -n 3 "$tmp/report3.out")"
echo "seeds test: passed"
