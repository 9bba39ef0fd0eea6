#!/usr/bin/env bash
# Tests ae/setup.sh without installing anything: dpkg-query, apt-get, id and
# sudo are fakes on a PATH of their own, so it checks which packages each
# profile asks for, that nothing is done when all are present, the exact
# apt-get line printed without root or sudo, and the unknown-profile error.
# The kernel download of the `test` profile is never reached (the fake
# apt-get fails when a run would go on to it).
# usage: ae/tests/setup_test.sh   (prints "setup test: passed")
set -euo pipefail

# shellcheck source=ae/tests/preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "setup"
setup=$root/ae/setup.sh
bash=$(command -v bash)

bin=$tmp/bin
mkdir -p "$bin"
for tool in dirname sed cat grep; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
# dpkg-query -W -f='${Status}' PACKAGE: installed iff listed in $tmp/installed.
cat >"$bin/dpkg-query" <<FAKE
#!$bash
grep -qxF -- "\${!#}" "$tmp/installed" && { printf 'install ok installed'; exit 0; }
echo "dpkg-query: no packages found matching \${!#}" >&2; exit 1
FAKE
# apt-get: logs its arguments; fails when $tmp/apt-fails exists.
cat >"$bin/apt-get" <<FAKE
#!$bash
echo "apt-get \$*" >>"$tmp/apt.log"
[[ ! -e "$tmp/apt-fails" ]]
FAKE
# id -u: the uid in $tmp/uid.
printf '#!%s\ncat "%s/uid"\n' "$bash" "$tmp" >"$bin/id"
chmod +x "$bin"/*

# run [ARGS...]: runs ae/setup.sh, leaving its status, stdout+stderr and the
# apt-get calls in $status, $out and $apt.
run() {
  rm -f "$tmp/apt.log"
  status=0
  out=$(PATH=$bin "$bash" "$setup" "$@" 2>&1) || status=$?
  apt=$(cat "$tmp/apt.log" 2>/dev/null || true)
}
# the install line's packages, one per line, sorted
packages() { sed -n 's/.*apt-get install \(-[^ ]* \)*//p' <<<"$1" | tr ' ' '\n' | sort; }
has() { grep -qxF -- "$2" <<<"$1" || fail "$3: '$2' missing from: $(tr '\n' ' ' <<<"$1")"; }
lacks() { ! grep -qxF -- "$2" <<<"$1" || fail "$3: '$2' should not be in: $(tr '\n' ' ' <<<"$1")"; }

echo 0 >"$tmp/uid"
: >"$tmp/installed"

# As root, nothing installed: main installs the build and plot dependencies
# and nothing of the Soft-RoCE VM; so does no argument.
for args in main ""; do
  run $args
  [[ $status -eq 0 ]] || fail "setup.sh $args exited $status: $out"
  main=$(packages "$(grep install <<<"$apt")")
  grep -q '^apt-get update' <<<"$apt" || fail "setup.sh $args ran no apt-get update"
  for p in cmake g++ libboost-context-dev libibverbs-dev librdmacm-dev python3-matplotlib; do
    has "$main" "$p" "main"
  done
  for p in qemu-system-x86 busybox-static rdmacm-utils cpio rdma-core openssh-client clang-format \
           python3-pyflakes shellcheck; do
    lacks "$main" "$p" "main"
  done
done

# cluster: main's plus rdma-core and ssh, no qemu.
run cluster
[[ $status -eq 0 ]] || fail "setup.sh cluster exited $status: $out"
cluster=$(packages "$apt")
[[ -z "$(comm -23 <(echo "$main") <(echo "$cluster"))" ]] || fail "cluster lacks some of main's packages"
for p in rdma-core ibverbs-providers openssh-client parallel; do has "$cluster" "$p" cluster; done
for p in qemu-system-x86 busybox-static; do lacks "$cluster" "$p" cluster; done

# bench: main's plus perf and valgrind, nothing of the VM or the cluster.
run bench
[[ $status -eq 0 ]] || fail "setup.sh bench exited $status: $out"
bench=$(packages "$apt")
[[ -z "$(comm -23 <(echo "$main") <(echo "$bench"))" ]] || fail "bench lacks some of main's packages"
has "$bench" linux-perf bench
has "$bench" valgrind bench
for p in qemu-system-x86 rdma-core parallel; do lacks "$bench" "$p" bench; done
lacks "$main" linux-perf main
lacks "$main" valgrind main

# Without root or sudo: the exact line to run, exit 1, apt-get never called.
# (test profile: the line names the VM's packages; with cluster too, each once)
echo 1000 >"$tmp/uid"
run test cluster
[[ $status -eq 1 ]] || fail "without root, setup.sh test exited $status (expected 1): $out"
[[ -z "$apt" ]] || fail "without root, apt-get was called: $apt"
grep -q "^  apt-get update && apt-get install -y --no-install-recommends " <<<"$out" ||
  fail "without root, no apt-get line to run: $out"
test=$(packages "$out")
[[ -z "$(comm -23 <(echo "$main") <(echo "$test"))" ]] || fail "test lacks some of main's packages"
for p in qemu-system-x86 busybox-static ibverbs-utils rdmacm-utils iproute2 kmod cpio rdma-core linux-perf \
         valgrind python3-pyflakes shellcheck; do
  has "$test" "$p" "test cluster"
done
[[ -z "$(uniq -d <<<"$test")" ]] || fail "a package is listed twice: $(uniq -d <<<"$test")"

# Only what is missing is asked for.
echo "$main" | grep -v '^cmake$' >"$tmp/installed"
run main
[[ $status -eq 1 ]] || fail "setup.sh main exited $status with cmake missing: $out"
[[ "$(packages "$out")" == cmake ]] || fail "with only cmake missing, the line names: $(packages "$out")"

# Everything present: silent, exit 0, no apt-get.
echo "$cluster" >"$tmp/installed"
for args in main cluster; do
  run $args
  [[ $status -eq 0 && -z "$out" && -z "$apt" ]] ||
    fail "with everything present, setup.sh $args exited $status, printed '$out', ran '$apt'"
done

# As root, a failing apt-get: the command is named, exit 1, no kernel fetched.
echo 0 >"$tmp/uid"
touch "$tmp/apt-fails"
run test
[[ $status -eq 1 ]] || fail "with apt-get failing, setup.sh test exited $status: $out"
grep -q "the command was: apt-get install -y --no-install-recommends .*qemu-system-x86" <<<"$out" ||
  fail "with apt-get failing, the command is not named: $out"

# An unknown profile: exit 2, naming the allowed ones.
run laptop
[[ $status -eq 2 ]] || fail "setup.sh laptop exited $status (expected 2)"
grep -q "unknown profile 'laptop' (allowed: main, test, cluster, bench)" <<<"$out" ||
  fail "unexpected message for an unknown profile: $out"

echo "setup test: passed"
