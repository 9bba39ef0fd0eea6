#!/usr/bin/env bash
# Tests ae/setup.sh without installing anything: dpkg, dpkg-query, apt-get,
# id and sudo are fakes on a PATH of their own, so it checks which packages
# each profile asks for, that nothing is done when all are present, the exact
# apt-get line printed without root or sudo, that only the aarch64 profile
# adds an architecture, and the errors for an unknown profile or host.
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
# dpkg-query -W -f='${Status} ${Architecture}\n' PACKAGE: a line per
# installed architecture of PACKAGE, as listed in $tmp/installed (NAME for
# amd64, NAME:ARCH for another); a name without an architecture, as the real
# one does, answers for every architecture listed.
cat >"$bin/dpkg-query" <<FAKE
#!$bash
name=\${!#}
found=false
while read -r entry; do
  if [[ "\$entry" == "\$name" || ( "\$name" != *:* && "\$entry" == "\$name":* ) ]]; then
    architecture=amd64
    [[ "\$entry" == *:* ]] && architecture=\${entry##*:}
    printf 'install ok installed %s\n' "\$architecture"
    found=true
  fi
done <"$tmp/installed"
\$found || { echo "dpkg-query: no packages found matching \$name" >&2; exit 1; }
FAKE
# dpkg: this machine's architecture ($tmp/architecture), the foreign ones
# ($tmp/foreign), and --add-architecture logged with apt-get's calls.
cat >"$bin/dpkg" <<FAKE
#!$bash
case "\$1" in
  --print-architecture) cat "$tmp/architecture" ;;
  --print-foreign-architectures) cat "$tmp/foreign" ;;
  --add-architecture) echo "dpkg \$*" >>"$tmp/apt.log" ;;
  *) exit 2 ;;
esac
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
echo amd64 >"$tmp/architecture"
: >"$tmp/foreign"

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

# aarch64: main's plus the cross compiler, the emulator and the arm64
# libraries, after arm64 is added to dpkg's architectures; no other profile
# adds one, and with arm64 there already neither does aarch64.
rm -f "$tmp/apt-fails"
: >"$tmp/installed"
run aarch64
[[ $status -eq 0 ]] || fail "setup.sh aarch64 exited $status: $out"
[[ "$(head -n 2 <<<"$apt")" == $'dpkg --add-architecture arm64\napt-get update -qq' ]] ||
  fail "setup.sh aarch64 did not add arm64 before apt-get update: $apt"
aarch64=$(packages "$(grep install <<<"$apt")")
[[ -z "$(comm -23 <(echo "$main") <(echo "$aarch64"))" ]] || fail "aarch64 lacks some of main's packages"
for p in g++-aarch64-linux-gnu qemu-user libboost-context-dev:arm64 libxxhash-dev:arm64 \
         libgtest-dev:arm64; do
  has "$aarch64" "$p" aarch64
done
for args in main bench test cluster; do
  run $args
  ! grep -q add-architecture <<<"$apt" || fail "setup.sh $args added an architecture: $apt"
done
echo arm64 >"$tmp/foreign"
run aarch64
! grep -q add-architecture <<<"$apt" || fail "with arm64 there, setup.sh aarch64 added it again: $apt"
# Without root: the line to run adds the architecture first.
: >"$tmp/foreign"
echo 1000 >"$tmp/uid"
run aarch64
[[ $status -eq 1 ]] || fail "without root, setup.sh aarch64 exited $status (expected 1): $out"
grep -q "^  dpkg --add-architecture arm64 && apt-get update && apt-get install -y " <<<"$out" ||
  fail "without root, the aarch64 line does not add arm64 first: $out"
echo 0 >"$tmp/uid"
# Both architectures of a library installed (two answers from dpkg-query):
# nothing to do. The arm64 one alone does not stand for amd64's.
{ echo "$aarch64"; echo "${aarch64//:arm64/}"; } | sort -u >"$tmp/installed"
echo arm64 >"$tmp/foreign"
for args in main aarch64; do
  run $args
  [[ $status -eq 0 && -z "$out" && -z "$apt" ]] ||
    fail "with both architectures present, setup.sh $args exited $status, printed '$out', ran '$apt'"
done
grep -vxF libxxhash-dev "$tmp/installed" >"$tmp/installed.new"
mv "$tmp/installed.new" "$tmp/installed"
run main
[[ "$(packages "$(grep install <<<"$apt")")" == libxxhash-dev ]] ||
  fail "with only libxxhash-dev:arm64 installed, main asked for: $(packages "$apt")"
# On a machine that is not amd64: exit 2, saying so.
echo arm64 >"$tmp/architecture"
run aarch64
[[ $status -eq 2 ]] || fail "on arm64, setup.sh aarch64 exited $status (expected 2): $out"
grep -q "cross-builds on an amd64 machine; this one is arm64" <<<"$out" ||
  fail "on arm64, unexpected message: $out"
echo amd64 >"$tmp/architecture"

# An unknown profile: exit 2, naming the allowed ones.
run laptop
[[ $status -eq 2 ]] || fail "setup.sh laptop exited $status (expected 2)"
grep -q "unknown profile 'laptop' (allowed: main, test, cluster, bench, aarch64)" <<<"$out" ||
  fail "unexpected message for an unknown profile: $out"

echo "setup test: passed"
