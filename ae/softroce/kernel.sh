#!/usr/bin/env bash
# Ensures an unpacked Debian kernel with Soft-RoCE (rdma_rxe) exists for
# ae/softroce/vm.sh and prints its directory on stdout:
#   ${DMBENCH_CACHE_DIR:-$HOME/.cache/dmbench}/softroce/<KVER>/
# holding boot/vmlinuz-<KVER> and lib/modules/<KVER>/ (with depmod's index).
#
# The kernel is the package linux-image-amd64 depends on (the -cloud- flavour
# lacks rdma_rxe). It is fetched with `apt-get download` and unpacked with
# `dpkg -x`; nothing is installed on the host. Idempotent and silent when the
# kernel is already cached. Without apt's package lists it falls back to the
# newest kernel already in the cache.
set -euo pipefail

die() {
  echo "ae/softroce/kernel.sh: $*" >&2
  exit 1
}

cache=${DMBENCH_CACHE_DIR:-${HOME:?neither DMBENCH_CACHE_DIR nor HOME is set}/.cache/dmbench}/softroce

newest_cached() {
  local marker
  marker=$(find "$cache" -mindepth 2 -maxdepth 2 -name .complete 2>/dev/null | sort -V | tail -n 1)
  [[ -n "$marker" ]] && dirname "$marker"
}

kpkg=
if command -v apt-cache >/dev/null; then
  kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }' || true)
fi
if [[ -z "$kpkg" ]]; then
  if cached=$(newest_cached); then
    echo "$cached"
    exit 0
  fi
  die "cannot resolve the kernel package linux-image-amd64 depends on" \
    "(no apt-cache, or no package lists: run 'apt-get update' on a Debian/Ubuntu machine)"
fi

kver=${kpkg#linux-image-}
dir=$cache/$kver
if [[ -f "$dir/.complete" ]]; then
  echo "$dir"
  exit 0
fi

for tool in apt-get dpkg depmod; do
  command -v "$tool" >/dev/null || die "needs '$tool' to unpack $kpkg (run ae/setup.sh)"
done

mkdir -p "$cache" || die "cannot create the cache directory $cache"
staging=$(mktemp -d "$cache/.staging.XXXXXX")
trap 'rm -rf "$staging"' EXIT

echo "ae/softroce/kernel.sh: downloading $kpkg into $dir" >&2
if ! log=$(cd "$staging" && apt-get download -q "$kpkg" 2>&1); then
  echo "$log" >&2
  die "'apt-get download $kpkg' failed (no network, or stale package lists: run 'apt-get update')"
fi
deb=$(find "$staging" -maxdepth 1 -name "${kpkg}_*.deb" | head -n 1)
[[ -n "$deb" ]] || die "'apt-get download $kpkg' produced no .deb file"

root=$staging/root
dpkg -x "$deb" "$root" || die "cannot unpack $deb"
rm -f "$deb"
[[ -f "$root/boot/vmlinuz-$kver" ]] || die "$kpkg has no boot/vmlinuz-$kver"
depmod -b "$root" "$kver" || die "depmod failed for $kver"
modinfo -b "$root" -k "$kver" -n rdma_rxe >/dev/null 2>&1 ||
  die "$kpkg has no rdma_rxe module"
touch "$root/.complete"

# Renaming is atomic, so a concurrent run either wins or finds ours complete.
if ! mv -T "$root" "$dir" 2>/dev/null; then
  [[ -f "$dir/.complete" ]] || die "cannot move the unpacked kernel to $dir"
fi
echo "$dir"
