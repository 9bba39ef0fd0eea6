#!/usr/bin/env bash
# Smoke test of ae/softroce/vm.sh: boots the Soft-RoCE VM twice (about 12 s
# each under TCG) and checks that
#   - ibv_devinfo sees rxe0 with an active port, and collected files come
#     back with the right content;
#   - the guest script's exit status (7) becomes vm.sh's.
# usage: ae/softroce/smoke_test.sh   (needs ae/setup.sh test; exits 0 when it passes)
#        (prints "softroce smoke test: passed")
set -euo pipefail

# shellcheck source=ae/tests/preamble.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/preamble.sh" "softroce smoke"
here=$root/ae/softroce

ibv_devinfo=$(command -v ibv_devinfo) || fail "ibv_devinfo not found (ibverbs-utils; run ae/setup.sh test)"

cat >"$tmp/guest-ok.sh" <<'EOF'
ibv_devinfo -d rxe0 >"$COLLECT/devinfo.txt"
echo hello >"$COLLECT/hello.txt"
mkdir -p "$COLLECT/sub dir" && printf 'x\ny\r\n' >"$COLLECT/sub dir/two lines.txt"
echo "pwd=$(pwd) gid=$DMBENCH_GID_INDEX gid2=$DMBENCH_GID_INDEX2" >"$COLLECT/env.txt"
exit 0
EOF
status=0
"$here/vm.sh" --guest-script "$tmp/guest-ok.sh" --binary "$ibv_devinfo" \
  --collect "$tmp/out" --timeout 300 || status=$?
[[ $status -eq 0 ]] || fail "vm.sh exited $status for a guest script exiting 0"
grep -q 'hca_id:[[:space:]]*rxe0' "$tmp/out/devinfo.txt" || fail "devinfo.txt names no rxe0"
grep -q 'PORT_ACTIVE' "$tmp/out/devinfo.txt" || fail "devinfo.txt shows no PORT_ACTIVE"
[[ "$(cat "$tmp/out/hello.txt")" == hello ]] || fail "hello.txt is not 'hello'"
[[ "$(od -An -c "$tmp/out/sub dir/two lines.txt" | tr -s ' ')" == " x \n y \r \n" ]] ||
  fail "'sub dir/two lines.txt' did not arrive byte for byte"
[[ "$(cat "$tmp/out/env.txt")" == "pwd=/work-guest gid=1 gid2=2" ]] ||
  fail "unexpected guest environment: $(cat "$tmp/out/env.txt")"
[[ -s "$tmp/out/softroce-console.log" ]] || fail "no console log"

printf 'echo "exiting with 7"\nexit 7\n' >"$tmp/guest-7.sh"
status=0
"$here/vm.sh" --guest-script "$tmp/guest-7.sh" --timeout 300 || status=$?
[[ $status -eq 7 ]] || fail "vm.sh exited $status for a guest script exiting 7"

echo "softroce smoke test: passed"
