#!/usr/bin/env bash
# Installs every build, test and plot dependency of dmbench from Debian's
# packages, and the kernel ae/softroce/vm.sh boots (ae/softroce/kernel.sh).
# Idempotent: installs only what is missing and prints nothing when
# everything is present. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  cmake g++ make git pkg-config clang-format
  libboost-context-dev libboost-program-options-dev
  nlohmann-json3-dev libgtest-dev libgmock-dev libxxhash-dev
  libibverbs-dev librdmacm-dev
  python3 python3-matplotlib
  # Soft-RoCE VM (ae/softroce/vm.sh)
  qemu-system-x86 busybox-static ibverbs-providers ibverbs-utils rdmacm-utils
  iproute2 kmod cpio
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
softroce_kernel() { "$(dirname "${BASH_SOURCE[0]}")/softroce/kernel.sh" >/dev/null; }
if [[ ${#missing[@]} -eq 0 ]]; then
  softroce_kernel
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "ae/setup.sh: missing packages (${missing[*]}) and neither root nor sudo to install them" >&2
  exit 1
fi

echo "ae/setup.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
softroce_kernel
