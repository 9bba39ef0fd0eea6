# shellcheck shell=bash
# Sourced by the ae/ shell tests, after `set -euo pipefail`, with the name
# their output lines start with:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "bench-sim count"
#
# Sets root (the repository) and tmp (a directory of the test's own, removed
# when the test exits), and defines fail, which prints
# "NAME test: FAIL: MESSAGE" to stderr and exits 1, and skip, which prints
# "NAME test: skipped: MESSAGE" and exits 77 (CTest's SKIP_RETURN_CODE).
test_name=$1
# shellcheck disable=SC2034  # read by the tests that source this
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmbench-${test_name// /-}-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "$test_name test: FAIL: $*" >&2
  exit 1
}
skip() {
  echo "$test_name test: skipped: $*"
  exit 77
}
