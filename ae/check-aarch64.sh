#!/usr/bin/env bash
# Same config and seed, same result, on another instruction set: builds
# dmbench for 64-bit Arm (aarch64) with Debian's cross compiler, runs it
# under qemu-user's emulation, and reruns results of results/reference/
# from the configs they record, comparing field by field
# (harness/driver/tests/reference_results_test.py). The build fuses no
# multiply-add (-ffp-contract=off), but aarch64's libm is its own: glibc's
# pow, exp and log there use fused multiply-adds throughout, as the x86-64
# FMA variants do and the plain ones do not.
#
#   ae/check-aarch64.sh [--all] [--jobs N]
#
# Default: the ten points of the test driver.reference_results (under a
# minute of emulation, after a build of about 3 minutes on 2 cores); --all
# reruns every result of results/reference/ (1,107; emulated, some 3
# hours with --jobs 2). Sets up ae/setup.sh aarch64 first, which adds arm64
# to dpkg's architectures and installs the cross compiler, qemu-user and
# main's libraries for arm64; builds into build/aarch64 (cmake --preset
# aarch64).
#
# Exit status: 0 when every result is the reference's; 1 when one differs
# or a run fails; 2 for bad usage or a machine that is not amd64.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ae/option-value.sh
source ae/option-value.sh

jobs=2
scope=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --all) scope=(--all) ;;
    --jobs) option_value jobs "a number" "$@"; shift ;;
    -h|--help) sed -n '2,/^set -euo pipefail/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 0 ;;
    *) echo "ae/check-aarch64.sh: unknown argument '$1' (allowed: --all, --jobs)" >&2; exit 2 ;;
  esac
  shift
done
option_positive --jobs "$jobs"

ae/setup.sh aarch64
echo "== build (aarch64)" >&2
cmake --preset aarch64 >/dev/null
cmake --build --preset aarch64 -j "$(nproc)" --target dmbench >/dev/null
echo "== rerun results/reference/ under qemu-aarch64" >&2
# glibc's huge-page tunable set here: dmbench would otherwise re-execute
# itself to set it, and an Arm binary's exec fails under qemu-user unless
# binfmt_misc hands it to the emulator (dmbench then runs on without it).
# The tunable changes no result.
GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1} \
  /usr/bin/python3 harness/driver/tests/reference_results_test.py "${scope[@]}" --jobs "$jobs" \
  --launcher qemu-aarch64 build/aarch64/harness/cli/dmbench .
