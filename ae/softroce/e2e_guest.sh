# shellcheck shell=sh
# The guest half of ae/softroce/e2e_test.sh (busybox sh inside the Soft-RoCE
# VM). DMBENCH, VERBS_DEVICE_TESTS, BASH and CONFIG are set by the host half; results and logs go to
# $COLLECT. Every step runs even when an earlier one fails; the host checks.
# shellcheck disable=SC3045  # busybox sh has ulimit -l
ulimit -l unlimited 2>/dev/null || true
export DMBENCH_TEST_RDMA_ADDRESSES="$DMBENCH_ADDR,$DMBENCH_ADDR2"

step() { echo "== $*"; }
# Every step is bounded, so that one that hangs is reported with its logs and
# the later steps still run; a step takes seconds, the VM's budget minutes.
step_limit_s=180
bounded() { timeout "$step_limit_s" "$@"; }
elapsed() { echo $(( $(date +%s) - $1 )); }

step "verbs device tests"
"$VERBS_DEVICE_TESTS" > "$COLLECT/verbs_device_tests.log" 2>&1
echo "verbs_device_tests exit=$?" | tee -a "$COLLECT/status.txt"
tail -3 "$COLLECT/verbs_device_tests.log"

# One dmbench serve, two dmbench run (compute servers 0 and 1) and dmbench
# merge, for index preset $1 on port $2.
# shellcheck disable=SC2154  # run0 and run1 are set by its eval
serve_run_merge() {
  index=$1
  port=$2
  step "$index: one dmbench serve, two dmbench run, dmbench merge"
  bounded "$DMBENCH" serve --listen "$DMBENCH_ADDR:$port" --memory-mib 64 --exit-when-idle \
    > "$COLLECT/$index-serve.log" 2>&1 &
  serve=$!
  sleep 1
  started=$(date +%s)
  for cs in 0 1; do
    bounded "$DMBENCH" run --config "$CONFIG" --set index.preset="$index" \
      --memory-servers "$DMBENCH_ADDR:$port" --compute-server $cs --verify \
      --set backend.gid_index="$DMBENCH_GID_INDEX" --out "$index-cs$cs.json" \
      > "$COLLECT/$index-cs$cs.log" 2>&1 &
    eval "run$cs=\$!"
  done
  wait "$run0"; echo "$index cs0 exit=$?" | tee -a "$COLLECT/status.txt"
  wait "$run1"; echo "$index cs1 exit=$?" | tee -a "$COLLECT/status.txt"
  echo "$index runs took $(elapsed "$started") s"
  wait "$serve"; echo "$index serve exit=$?" | tee -a "$COLLECT/status.txt"
  "$DMBENCH" merge --out "$COLLECT/$index-merged.json" "$index-cs0.json" "$index-cs1.json" \
    > "$COLLECT/$index-merge.log" 2>&1
  echo "$index merge exit=$?" | tee -a "$COLLECT/status.txt"
  cat "$COLLECT/$index-merge.log"
}

port=7471
serve_run_merge sherman $port
# SMART-BT: its substrate techniques on the verbs backend; rxe has no thread
# domains, so its per-thread doorbells must fall back on record.
port=$((port + 1))
serve_run_merge smartbt $port

port=$((port + 1))
index=fgplus
step "$index: the same through ae/cluster/run.sh (ssh replaced by ae/cluster/local-ssh)"
printf 'memory node1 %s:%s 64\ncompute node1\ncompute node2\n' "$DMBENCH_ADDR" "$port" > hosts
bounded "$BASH" ae/cluster/run.sh --hosts hosts --config "$CONFIG" --set index.preset=$index --verify \
  --dmbench "$DMBENCH" --ssh "sh ae/cluster/local-ssh" --out "$index-cluster" \
  > "$COLLECT/$index-cluster.log" 2>&1
echo "$index cluster exit=$?" | tee -a "$COLLECT/status.txt"
tail -8 "$COLLECT/$index-cluster.log"
for log in "$index-cluster"/logs/*.log; do cp "$log" "$COLLECT/$index-cluster-${log##*/}"; done
cp "$index-cluster/result.json" "$COLLECT/$index-merged.json" 2>/dev/null || true

port=$((port + 1))
step "a memory server killed mid-run"
"$DMBENCH" serve --listen "$DMBENCH_ADDR:$port" --memory-mib 64 > "$COLLECT/killed-serve.log" 2>&1 &
serve=$!
sleep 1
"$DMBENCH" run --config "$CONFIG" --set topology.compute_servers=1 --set run.measure_ms=60000 \
  --set run.verify=false --memory-servers "$DMBENCH_ADDR:$port" --compute-server 0 \
  > "$COLLECT/killed-run.log" 2>&1 &
run=$!
sleep 4
kill -9 "$serve"
started=$(date +%s)
wait "$run"; status=$?
echo "killed run exit=$status after $(elapsed "$started") s" | tee -a "$COLLECT/status.txt"
tail -2 "$COLLECT/killed-run.log"

step "nothing listening"
"$DMBENCH" run --config "$CONFIG" --set topology.compute_servers=1 \
  --memory-servers "$DMBENCH_ADDR:7999" --compute-server 0 > "$COLLECT/refused-run.log" 2>&1
echo "refused run exit=$?" | tee -a "$COLLECT/status.txt"
cat "$COLLECT/refused-run.log"
dmesg > "$COLLECT/dmesg.log" 2>&1
# Soft-RoCE counts its retransmissions, duplicates and sequence errors here
# and nowhere else.
for counter in /sys/class/infiniband/*/ports/*/hw_counters/*; do
  echo "${counter##*/} $(cat "$counter")"
done > "$COLLECT/rxe-counters.txt" 2>&1
exit 0
