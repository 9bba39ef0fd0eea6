#!/usr/bin/env bash
# The verbs backend end to end on Soft-RoCE: boots a Debian kernel with
# rdma_rxe under qemu (ae/softroce/vm.sh), runs the verbs device tests, then
# for each index one `dmbench serve` and two `dmbench run` processes with
# --verify and `dmbench merge` (by hand for Sherman and SMART-BT, through
# ae/cluster/run.sh for FG+); kills a memory server mid-run; connects to
# nothing. Checks the merged results and the error messages on the host.
#
# usage: ae/softroce/e2e_test.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: e2e_test.sh BUILD_DIR [OUT_DIR]}" && pwd)
out=${2:-$build/softroce-e2e}
dmbench=$build/harness/cli/dmbench
device_tests=$build/harness/rdma/verbs/verbs_device_tests
for binary in "$dmbench" "$device_tests"; do
  [[ -x $binary ]] || { echo "e2e_test: $binary is not built" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out"
guest=$(mktemp)
trap 'rm -f "$guest"' EXIT
{
  echo "DMBENCH=$dmbench"
  echo "VERBS_DEVICE_TESTS=$device_tests"
  echo "CONFIG=/work-guest/softroce-small.json"
  echo "BASH=$(command -v bash)"
  cat "$here/e2e_guest.sh"
} > "$guest"
start=$(date +%s)
"$here/vm.sh" --guest-script "$guest" --binary "$dmbench" --binary "$device_tests" \
  --binary "$(command -v bash)" --file "$root/ae/cluster=ae/cluster" \
  --file "$root/configs/runs/softroce-small.json=softroce-small.json" --collect "$out" \
  --timeout 900
/usr/bin/python3 "$here/check_e2e.py" "$out"
echo "softroce e2e: passed in $(( $(date +%s) - start )) s"
