#!/usr/bin/env bash
# Installs every build, test and plot dependency of dmbench from Debian's
# packages. Idempotent: installs only what is missing and prints nothing when
# everything is present. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  cmake g++ make git pkg-config clang-format
  libboost-context-dev libboost-program-options-dev
  nlohmann-json3-dev libgtest-dev libgmock-dev libxxhash-dev
  libibverbs-dev librdmacm-dev
  python3 python3-matplotlib
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

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
