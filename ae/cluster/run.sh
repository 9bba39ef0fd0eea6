#!/usr/bin/env bash
# Runs ONE benchmark config across a real RDMA cluster: a `dmbench serve` per
# memory server, a `dmbench run` per compute server, then `dmbench merge` here.
#
# usage: ae/cluster/run.sh --hosts FILE --config CONFIG [--set path=value]...
#          --out DIR [--verify] [--dmbench PATH] [--ssh "CMD"] [--remote-dir DIR]
#
#   --hosts FILE       the cluster (format below)
#   --config CONFIG    a run config (configs/runs/*.json, or a point's config
#                      from `dmbench sweep --configs-only`); one written for
#                      the simulated fabric runs as is (`dmbench run
#                      --memory-servers` drops its NIC profile)
#   --set path=value   a field override, passed to every `dmbench run`
#   --out DIR          receives result.json (merged), cs-<i>.json (compute
#                      server i's own result, with cs-<i>.json.history under
#                      --verify) and logs/serve-<i>.log, logs/compute-<i>.log
#   --verify           check every operation (dmbench run --verify)
#   --dmbench PATH     dmbench on every host, and here for the merge (default:
#                      this checkout's build/release/harness/cli/dmbench, so the
#                      same path must hold the same build on every host)
#   --ssh "CMD"        how to run a command on a host: CMD HOST "COMMAND"
#                      (default "ssh -o BatchMode=yes"; split at spaces, no
#                      quoting; the hosts' login shell must be POSIX-like);
#                      ae/cluster/local-ssh runs everything on this machine
#   --remote-dir DIR   working directory on the hosts (default
#                      /tmp/dmbench-cluster-<pid of this script>, removed at the
#                      end; a given one is kept)
#
# Hosts file: one entry per line; blank lines and `#` comments are ignored.
#   memory HOST ADDR:PORT [MEMORY_MIB]
#       memory server i is the i-th memory line: `dmbench serve` runs on HOST
#       (the name ssh reaches), listening on ADDR:PORT, an address of an RDMA
#       device (what compute servers connect to), registering MEMORY_MIB MiB
#       (default 1024)
#   compute HOST
#       compute server i is the i-th compute line
# At least one of each. See ae/cluster/hosts.example.
#
# The hosts file decides the cluster's shape: topology.memory_servers and
# topology.compute_servers are set to its counts, after the --set's, and
# topology.colocated to whether memory server i and compute server i share a
# HOST for every i (which needs as many of each); dmbench's simulated fabric
# models a colocated machine's one NIC, on a real cluster it is just recorded.
#
# Exit status: 0; 1 when a server fails (the failing one is named, with the
# end of its log); 2 for bad usage or a bad hosts file; 3 when the merged
# histories have consistency violations; otherwise dmbench merge's.
set -euo pipefail

prog=ae/cluster/run.sh
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
listen_timeout_s=30  # for each memory server to say "listening"
exit_timeout_s=60    # for the memory servers to exit once the runs are done

die() {  # die STATUS MESSAGE...
  local status=$1
  shift
  echo "$prog: error: $*" >&2
  exit "$status"
}
usage() {
  sed -n '/^# usage:/,/^set -euo/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" | grep -v '^set -euo' >&2
  exit "${1:-2}"
}
# Quotes a word for the remote POSIX shell.
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

hosts_file=
config=
out=
verify=
dmbench=$root/build/release/harness/cli/dmbench
ssh_command="ssh -o BatchMode=yes"
remote_dir=
sets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help) usage 0 ;;
    --verify) verify=--verify; shift; continue ;;
  esac
  [[ $# -ge 2 ]] || die 2 "$1 needs a value (see --help)"
  case "$1" in
    --hosts) hosts_file=$2 ;;
    --config) config=$2 ;;
    --set) sets+=("$2") ;;
    --out) out=$2 ;;
    --dmbench) dmbench=$2 ;;
    --ssh) ssh_command=$2 ;;
    --remote-dir) remote_dir=$2 ;;
    *) die 2 "unknown option '$1' (allowed: --hosts --config --set --out --verify --dmbench" \
              "--ssh --remote-dir --help)" ;;
  esac
  shift 2
done
[[ -n $hosts_file ]] || die 2 "--hosts FILE is required (see --help)"
[[ -n $config ]] || die 2 "--config CONFIG is required (see --help)"
[[ -n $out ]] || die 2 "--out DIR is required (see --help)"
[[ -f $hosts_file && -r $hosts_file ]] || die 2 "--hosts $hosts_file: no such readable file"
[[ -f $config && -r $config ]] || die 2 "--config $config: no such readable file"
[[ -x $dmbench ]] ||
  die 2 "--dmbench $dmbench: not an executable here (it also runs 'dmbench merge' on this" \
        "machine; build it, or name another with --dmbench PATH)"
for set in "${sets[@]}"; do
  [[ $set == ?*=* ]] || die 2 "--set $set: expected path=value, e.g. run.measure_ms=1000"
done
read -r -a ssh_argv <<<"$ssh_command"
[[ ${#ssh_argv[@]} -gt 0 ]] || die 2 "--ssh: empty command"
default_remote_dir=
if [[ -z $remote_dir ]]; then
  remote_dir=/tmp/dmbench-cluster-$$
  default_remote_dir=1
fi

# ---- the hosts file
memory_hosts=() memory_addresses=() memory_mib=() compute_hosts=()
errors=()
number=0
while IFS= read -r line || [[ -n $line ]]; do
  number=$((number + 1))
  line=${line%%#*}
  line=${line//$'\r'/}  # a file written on Windows
  read -r -a words <<<"$line"
  [[ ${#words[@]} -gt 0 ]] || continue
  where="$hosts_file:$number"
  case "${words[0]}" in
    memory)
      if [[ ${#words[@]} -lt 3 || ${#words[@]} -gt 4 ]]; then
        errors+=("$where: expected 'memory HOST ADDR:PORT [MEMORY_MIB]', got '${words[*]}'")
        continue
      fi
      address=${words[2]} mib=${words[3]:-1024}
      port=${address##*:}
      if [[ $address != ?*:* || ! $port =~ ^[0-9]{1,5}$ ]] || ((10#$port < 1 || 10#$port > 65535)); then
        error="'$address' is not ADDR:PORT with a port in [1, 65535]"
        errors+=("$where: $error (an RDMA device's address for dmbench serve, e.g. 10.0.0.1:7471)")
        continue
      fi
      if [[ ! $mib =~ ^[0-9]{1,9}$ ]] || ((10#$mib < 2)); then
        errors+=("$where: MEMORY_MIB '$mib' is not an integer >= 2 (MiB of memory to register)")
        continue
      fi
      for known in "${memory_addresses[@]}"; do
        [[ $known != "$address" ]] ||
          errors+=("$where: $address is listed twice; each memory server needs its own ADDR:PORT")
      done
      memory_hosts+=("${words[1]}") memory_addresses+=("$address") memory_mib+=("$((10#$mib))")
      ;;
    compute)
      if [[ ${#words[@]} -ne 2 ]]; then
        errors+=("$where: expected 'compute HOST', got '${words[*]}'")
        continue
      fi
      compute_hosts+=("${words[1]}")
      ;;
    *) errors+=("$where: unknown entry '${words[0]}' (allowed: memory, compute)") ;;
  esac
done <"$hosts_file"
[[ ${#memory_hosts[@]} -gt 0 ]] ||
  errors+=("$hosts_file: no 'memory HOST ADDR:PORT [MEMORY_MIB]' line (at least one is needed)")
[[ ${#compute_hosts[@]} -gt 0 ]] ||
  errors+=("$hosts_file: no 'compute HOST' line (at least one is needed)")
if [[ ${#errors[@]} -gt 0 ]]; then
  for error in "${errors[@]}"; do echo "$prog: error: $error" >&2; done
  exit 2
fi
memory_count=${#memory_hosts[@]}
compute_count=${#compute_hosts[@]}
colocated=false
if [[ $memory_count -eq $compute_count ]]; then
  colocated=true
  for ((i = 0; i < memory_count; i++)); do
    [[ ${memory_hosts[i]} == "${compute_hosts[i]}" ]] || colocated=false
  done
fi
# After the user's --set's: the hosts file, not the config, says what ran.
sets+=("topology.memory_servers=$memory_count" "topology.compute_servers=$compute_count"
       "topology.colocated=$colocated")
memory_list=$(IFS=,; echo "${memory_addresses[*]}")

# ---- running things on hosts
remote() {  # remote HOST COMMAND: stdin, stdout and stderr are the caller's
  "${ssh_argv[@]}" "$1" "$2"
}
tail_of() {  # the end of a log, indented, for error messages
  if [[ -s $1 ]]; then
    tail -n 15 "$1" | sed 's/^/    | /' >&2 || true
  else
    echo "    | (empty)" >&2
  fi
}

# Everything started in the background: its local ssh process, the host, and
# the file on that host holding the remote process's pid.
started_pids=() started_hosts=() started_pidfiles=()
start() {  # start HOST PIDFILE LOG COMMAND: runs COMMAND on HOST in the background
  # The remote shell records its pid, then exec's dmbench in its place, so
  # the pid file names the dmbench process.
  remote "$1" "echo \$\$ > $(q "$remote_dir/$2") && exec $4" </dev/null >"$3" 2>&1 &
  started_pids+=("$!") started_hosts+=("$1") started_pidfiles+=("$remote_dir/$2")
}
alive() { kill -0 "$1" 2>/dev/null; }
declare -A reaped=()  # pids whose exit status was collected: known to be done
reap() {  # reap PID: waits for it; its exit status
  local status=0
  wait "$1" || status=$?
  reaped[$1]=1
  return "$status"
}
# Stops whatever may still run. Killing the local ssh alone is not enough:
# sshd sends no SIGHUP to a command run without a tty, so the remote dmbench
# would live on until it next writes to its closed stderr (SIGPIPE) or its
# peers vanish. So the remote process is killed by its recorded pid first
# (best effort: a host that does not answer within 15 s is left alone), then
# the local ssh. The remote kill is tried even when the local ssh is gone:
# Ctrl-C reaches the ssh processes too, and not what they started.
stop_all() {
  local i bounded=() killers=()
  command -v timeout >/dev/null && bounded=(timeout 15)
  for i in "${!started_pids[@]}"; do
    [[ -z ${reaped[${started_pids[i]}]+x} ]] || continue
    "${bounded[@]}" "${ssh_argv[@]}" "${started_hosts[i]}" \
      "kill \$(cat $(q "${started_pidfiles[i]}") 2>/dev/null) 2>/dev/null" </dev/null \
      >/dev/null 2>&1 &
    killers+=("$!")
  done
  for i in "${killers[@]}"; do wait "$i" || true; done
  for i in "${!started_pids[@]}"; do
    [[ -z ${reaped[${started_pids[i]}]+x} ]] || continue
    kill "${started_pids[i]}" 2>/dev/null || true
    reap "${started_pids[i]}" 2>/dev/null || true
  done
}
declare -A prepared=()  # hosts given a working directory
finish() {
  stop_all
  [[ -n $default_remote_dir ]] || return 0
  local host bounded=()
  command -v timeout >/dev/null && bounded=(timeout 15)
  for host in "${!prepared[@]}"; do
    "${bounded[@]}" "${ssh_argv[@]}" "$host" "rm -rf $(q "$remote_dir")" </dev/null \
      >/dev/null 2>&1 || echo "$prog: warning: could not remove $remote_dir on $host" >&2
  done
}
trap finish EXIT
trap 'echo "$prog: interrupted; stopping the servers" >&2; exit 130' INT TERM

mkdir -p "$out/logs"
rm -f "$out/result.json" "$out"/cs-*.json "$out"/cs-*.json.history "$out"/logs/*.log
echo "$prog: $memory_count memory servers, $compute_count compute servers" \
     "(colocated=$colocated), remote directory $remote_dir" >&2

# ---- the working directory and the config on every host
for host in "${memory_hosts[@]}" "${compute_hosts[@]}"; do
  [[ -z ${prepared[$host]+x} ]] || continue
  prepared[$host]=1
  remote "$host" "mkdir -p $(q "$remote_dir") && cat > $(q "$remote_dir/config.json") &&
    { test -x $(q "$dmbench") || { echo $(q "no executable $dmbench on this host") >&2; exit 1; }; }" \
    <"$config" >"$out/logs/prepare-$host.log" 2>&1 ||
    { echo "$prog: error: cannot prepare host $host (its working directory, the config," \
           "dmbench) through '$ssh_command'; end of $out/logs/prepare-$host.log:" >&2
      tail_of "$out/logs/prepare-$host.log"
      exit 1; }
done

# ---- memory servers, each until it listens
for ((i = 0; i < memory_count; i++)); do
  start "${memory_hosts[i]}" "serve-$i.pid" "$out/logs/serve-$i.log" \
    "$(q "$dmbench") serve --listen $(q "${memory_addresses[i]}") --memory-mib ${memory_mib[i]} --exit-when-idle"
done
memory_pids=("${started_pids[@]}")
deadline=$((SECONDS + listen_timeout_s + 1))  # SECONDS counts whole seconds
for ((i = 0; i < memory_count; i++)); do
  log=$out/logs/serve-$i.log
  what="memory server $i (${memory_hosts[i]}, ${memory_addresses[i]})"
  until grep -q listening "$log" 2>/dev/null; do
    if ! alive "${memory_pids[i]}"; then
      status=0
      reap "${memory_pids[i]}" || status=$?
      echo "$prog: $what exited with status $status before listening; end of $log:" >&2
      tail_of "$log"
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      echo "$prog: $what did not say 'listening' within $listen_timeout_s s; end of $log:" >&2
      tail_of "$log"
      exit 1
    fi
    sleep 0.2
  done
done
echo "$prog: memory servers listening: $memory_list" >&2

# ---- compute servers, in parallel
set_arguments=
for set in "${sets[@]}"; do set_arguments+=" --set $(q "$set")"; done
compute_pids=()
for ((i = 0; i < compute_count; i++)); do
  start "${compute_hosts[i]}" "compute-$i.pid" "$out/logs/compute-$i.log" \
    "$(q "$dmbench") run --config $(q "$remote_dir/config.json")$set_arguments $verify --memory-servers $(q "$memory_list") --compute-server $i --out $(q "$remote_dir/cs-$i.json")"
  compute_pids+=("$!")
done
# Waits for all of them; the first failure stops the others, which would
# otherwise wait at the cluster's barriers for the failed one until their
# barrier timeout.
declare -A compute_status=()
while [[ ${#compute_status[@]} -lt $compute_count ]]; do
  for ((i = 0; i < compute_count; i++)); do
    if [[ -n ${compute_status[$i]+x} ]] || alive "${compute_pids[i]}"; then continue; fi
    status=0
    reap "${compute_pids[i]}" || status=$?
    compute_status[$i]=$status
    # A lone compute server checks its own history: 3 is violations found,
    # with the result written, which merge then reports.
    [[ $status -eq 3 && $compute_count -eq 1 && -n $verify ]] && continue
    [[ $status -eq 0 ]] && continue
    log=$out/logs/compute-$i.log
    echo "$prog: compute server $i (${compute_hosts[i]}) failed with exit status $status;" \
         "end of $log:" >&2
    tail_of "$log"
    # A memory server that failed is the likelier cause: say so. (One that
    # exited cleanly did so because its compute servers had disconnected.)
    for ((m = 0; m < memory_count; m++)); do
      alive "${memory_pids[m]}" && continue
      status=0
      reap "${memory_pids[m]}" || status=$?
      [[ $status -ne 0 ]] || continue
      echo "$prog: memory server $m (${memory_hosts[m]}) failed during the run with exit" \
           "status $status; end of $out/logs/serve-$m.log:" >&2
      tail_of "$out/logs/serve-$m.log"
    done
    echo "$prog: stopping the other servers" >&2
    exit 1
  done
  sleep 0.2
done
echo "$prog: all $compute_count compute servers finished" >&2

# ---- results back here, merged
results=()
for ((i = 0; i < compute_count; i++)); do
  files=("cs-$i.json")
  [[ -z $verify || $compute_count -eq 1 ]] || files+=("cs-$i.json.history")
  for file in "${files[@]}"; do
    remote "${compute_hosts[i]}" "cat $(q "$remote_dir/$file")" </dev/null >"$out/$file.partial" ||
      die 1 "cannot fetch $remote_dir/$file from ${compute_hosts[i]} (compute server $i)"
    mv "$out/$file.partial" "$out/$file"
  done
  results+=("$out/cs-$i.json")
done
status=0
# A lone compute server checked its own history; merge passes its verdict on.
"$dmbench" merge --out "$out/result.json" "${results[@]}" >"$out/logs/merge.log" 2>&1 ||
  status=$?
cat "$out/logs/merge.log" >&2

# ---- the memory servers exit once their compute servers have disconnected
deadline=$((SECONDS + exit_timeout_s))
for ((i = 0; i < memory_count; i++)); do
  while alive "${memory_pids[i]}" && ((SECONDS < deadline)); do sleep 0.2; done
  if alive "${memory_pids[i]}"; then
    echo "$prog: warning: memory server $i (${memory_hosts[i]}) still runs $exit_timeout_s s" \
         "after the compute servers finished; stopping it" >&2
    continue
  fi
  serve_status=0
  reap "${memory_pids[i]}" || serve_status=$?
  [[ $serve_status -eq 0 ]] ||
    echo "$prog: warning: memory server $i (${memory_hosts[i]}) exited with status" \
         "$serve_status; see $out/logs/serve-$i.log" >&2
done
case $status in
  0) echo "$prog: merged result in $out/result.json" >&2 ;;
  3) echo "$prog: the consistency checker found violations (see $out/result.json)" >&2 ;;
  *) echo "$prog: dmbench merge failed with exit status $status; see $out/logs/merge.log" >&2 ;;
esac
exit "$status"
