#!/usr/bin/env bash
# Installs from Debian's packages what one job of dmbench needs, and nothing
# more.
#
#   ae/setup.sh [PROFILE...]     PROFILE: main (default), test, cluster, bench
#
#   main     build and plot the paper's figures on the simulated fabric
#            (ae/quickstart.sh, ae/run.sh): compiler, libraries, matplotlib
#   test     main, plus what the test command (ae/test.sh) adds: the Soft-RoCE
#            VM (qemu, busybox, rdma-core's tools) and the Debian kernel it
#            boots (ae/softroce/kernel.sh: downloaded, pruned to what
#            ae/softroce/vm.sh loads, kept under ~/.cache/dmbench/softroce/),
#            and bench's perf and valgrind, for the tests of ae/bench-sim.sh
#            --profile and --count
#   cluster  main, plus what a node of a real RDMA cluster needs for
#            ae/run.sh --backend verbs and ae/cluster/run.sh: rdma-core and
#            its providers, ssh; and GNU parallel, for simulated sweeps
#            spread over machines (ae/run.sh --sshlogin); no qemu, no kernel
#   bench    main, plus perf and valgrind, for ae/bench-sim.sh --profile and
#            --count
#
# With no PROFILE it sets up `main`, the README's main job: the smallest set,
# and every other profile includes it. Idempotent: installs only what is
# missing and prints nothing when everything is present. Runs apt-get as root,
# or through sudo; without either it prints the exact apt-get line to run as
# root and exits 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Building (CMake finds libibverbs and librdmacm: the verbs backend is always
# compiled), git (results record the source revision), plotting.
main=(
  cmake g++ make git
  libboost-context-dev libboost-program-options-dev
  nlohmann-json3-dev libgtest-dev libgmock-dev libxxhash-dev
  libibverbs-dev librdmacm-dev
  python3 python3-matplotlib
)
# The Soft-RoCE VM of ae/softroce/vm.sh (and the kernel, below), GNU
# parallel for the test of ae/run.sh --sshlogin on this machine, and pyflakes
# and shellcheck for the static checks of the Python and the shell scripts
# (tests plots.pyflakes, ae.shellcheck). No profile
# installs clang-format (.clang-format's style): nothing run here uses it, and
# it would add 40 MB of LLVM to the tests' download.
test=(
  qemu-system-x86 busybox-static ibverbs-providers ibverbs-utils rdmacm-utils
  iproute2 kmod cpio parallel python3-pyflakes shellcheck
)
# A real cluster node: the RDMA userspace (providers for the NIC, udev rules,
# diagnostics) and ssh, ae/cluster/run.sh's default way to reach the hosts;
# GNU parallel spreads simulated points over machines through ssh, sending
# files with rsync.
cluster=(
  rdma-core ibverbs-providers ibverbs-utils openssh-client parallel rsync
)

# perf record samples the simulator for ae/bench-sim.sh --profile, and
# valgrind's callgrind counts its instructions for --count.
bench=(linux-perf valgrind)

profiles=("$@")
[[ ${#profiles[@]} -gt 0 ]] || profiles=(main)
packages=("${main[@]}")
kernel=false
for profile in "${profiles[@]}"; do
  case "$profile" in
    main) ;;
    test) packages+=("${test[@]}" "${bench[@]}"); kernel=true ;;
    cluster) packages+=("${cluster[@]}") ;;
    bench) packages+=("${bench[@]}") ;;
    -h | --help)
      sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0"
      exit 0 ;;
    *)
      echo "ae/setup.sh: unknown profile '$profile' (allowed: main, test, cluster, bench)" >&2
      exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  [[ " ${missing[*]} " == *" $package "* ]] && continue
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if [[ ${#missing[@]} -gt 0 ]]; then
  install_line="apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    {
      echo "ae/setup.sh: ${profiles[*]} needs Debian packages that are missing, and there is"
      echo "neither root nor sudo here to install them. As root, run:"
      echo
      echo "  apt-get update && $install_line"
      echo
      echo "(or prefix both apt-get with sudo where you have it), then run ae/setup.sh ${profiles[*]} again."
    } >&2
    exit 1
  fi
  echo "ae/setup.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! "${as_root[@]}" apt-get update -qq ||
    ! "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    echo "ae/setup.sh: installing failed; the command was: ${as_root[*]}${as_root[*]:+ }$install_line" >&2
    exit 1
  fi
fi

if $kernel; then
  "$here/softroce/kernel.sh" >/dev/null
fi
