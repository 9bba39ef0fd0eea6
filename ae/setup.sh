#!/usr/bin/env bash
# Installs from Debian's packages what one job of dmbench needs, and nothing
# more.
#
#   ae/setup.sh [PROFILE...]     PROFILE: main (default), test, cluster, bench,
#                                         aarch64
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
#   aarch64  main, plus what ae/check-aarch64.sh needs to build dmbench for
#            64-bit Arm and run it under emulation: Debian's cross compiler,
#            qemu-user, and the arm64 builds of main's libraries; on an amd64
#            machine only, and it adds arm64 to dpkg's architectures
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

# ae/check-aarch64.sh: the cross compiler, the emulator, and main's libraries
# for arm64 (Debian's multiarch installs them beside the amd64 ones).
aarch64=(
  g++-aarch64-linux-gnu qemu-user
  libboost-context-dev:arm64 libboost-program-options-dev:arm64 libxxhash-dev:arm64
  libibverbs-dev:arm64 librdmacm-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64
)

profiles=("$@")
[[ ${#profiles[@]} -gt 0 ]] || profiles=(main)
packages=("${main[@]}")
kernel=false
foreign=false
for profile in "${profiles[@]}"; do
  case "$profile" in
    main) ;;
    test) packages+=("${test[@]}" "${bench[@]}"); kernel=true ;;
    cluster) packages+=("${cluster[@]}") ;;
    bench) packages+=("${bench[@]}") ;;
    aarch64) packages+=("${aarch64[@]}"); foreign=true ;;
    -h | --help)
      sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0"
      exit 0 ;;
    *)
      echo "ae/setup.sh: unknown profile '$profile' (allowed: main, test, cluster, bench, aarch64)" >&2
      exit 2 ;;
  esac
done

# arm64's packages install beside amd64's once dpkg knows the architecture
# (until then dpkg-query finds none of them, so they count as missing).
native=$(dpkg --print-architecture)
add_architecture=()
if $foreign; then
  if [[ "$native" != amd64 ]]; then
    echo "ae/setup.sh: the aarch64 profile cross-builds on an amd64 machine; this one is $native" >&2
    exit 2
  fi
  dpkg --print-foreign-architectures | grep -qx arm64 || add_architecture=(dpkg --add-architecture arm64)
fi

# A package counts as installed in the architecture it names (libxxhash-dev:arm64)
# or else in this machine's, or in none (arch: all). Asked without one,
# dpkg-query answers for every architecture installed: with arm64's packages
# beside amd64's, that is two answers.
missing=()
for package in "${packages[@]}"; do
  [[ " ${missing[*]} " == *" $package "* ]] && continue
  architecture=$native
  [[ "$package" == *:* ]] && architecture=${package##*:}
  statuses=$(dpkg-query -W -f='${Status} ${Architecture}\n' "$package" 2>/dev/null || true)
  grep -qxE "install ok installed ($architecture|all)" <<<"$statuses" || missing+=("$package")
done

if [[ ${#missing[@]} -gt 0 ]]; then
  install_line="apt-get install -y --no-install-recommends ${missing[*]}"
  update_line="${add_architecture[*]}${add_architecture[*]:+ && }apt-get update"
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    {
      echo "ae/setup.sh: ${profiles[*]} needs Debian packages that are missing, and there is"
      echo "neither root nor sudo here to install them. As root, run:"
      echo
      echo "  $update_line && $install_line"
      echo
      echo "(or prefix each command with sudo where you have it), then run ae/setup.sh ${profiles[*]} again."
    } >&2
    exit 1
  fi
  echo "ae/setup.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if [[ ${#add_architecture[@]} -gt 0 ]] && ! "${as_root[@]}" "${add_architecture[@]}"; then
    echo "ae/setup.sh: adding arm64 failed; the command was: ${as_root[*]}${as_root[*]:+ }${add_architecture[*]}" >&2
    exit 1
  fi
  if ! "${as_root[@]}" apt-get update -qq ||
    ! "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    echo "ae/setup.sh: installing failed; the command was: ${as_root[*]}${as_root[*]:+ }$install_line" >&2
    exit 1
  fi
fi

if $kernel; then
  "$here/softroce/kernel.sh" >/dev/null
fi
