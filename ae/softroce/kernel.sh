#!/usr/bin/env bash
# Ensures a Debian kernel with Soft-RoCE (rdma_rxe) exists for
# ae/softroce/vm.sh and prints its directory on stdout:
#   ${DMBENCH_CACHE_DIR:-$HOME/.cache/dmbench}/softroce/<KVER>/
# holding boot/vmlinuz-<KVER> and, under lib/modules/<KVER>/ (with depmod's
# index), only the modules vm.sh loads (modules.txt) and those they depend on.
#
# The kernel is the package linux-image-amd64 depends on (the -cloud- flavour
# lacks rdma_rxe). It is fetched with `apt-get download` and unpacked with
# `dpkg -x` into a staging directory, of which the cache keeps only the files
# above (about 15 MB of the package's 400 MB); nothing is installed on the
# host. Prints the kept size when it builds the cache; idempotent and silent
# when the kernel is already cached. A cache of the whole package, as earlier
# versions kept it, is pruned in place; a cache pruned for another module list
# is fetched again. Without apt's package lists it falls back to the newest
# kernel already in the cache.
set -euo pipefail

die() {
  echo "ae/softroce/kernel.sh: $*" >&2
  exit 1
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${DMBENCH_CACHE_DIR:-${HOME:?neither DMBENCH_CACHE_DIR nor HOME is set}/.cache/dmbench}/softroce
modules=$(sed 's/#.*//' "$here/modules.txt" | xargs)
[[ -n "$modules" ]] || die "no modules in $here/modules.txt"

# .complete marks a usable kernel directory; .pruned, holding the module list,
# one pruned to that list (a directory without it holds the whole package).
pruned_for_us() { [[ -f "$1/.complete" && -f "$1/.pruned" && "$(cat "$1/.pruned")" == "$modules" ]]; }
newest_cached() {
  local marker
  marker=$(find "$cache" -mindepth 2 -maxdepth 2 -name .complete 2>/dev/null | sort -V | tail -n 1)
  [[ -n "$marker" ]] && dirname "$marker"
}

# prune FULL KVER DEST: copies from the unpacked package FULL into DEST the
# kernel image and the modules of modules.txt with their dependencies (as
# vm.sh resolves them), and indexes them with depmod.
prune() {
  local full=$1 kver=$2 dest=$3 m deps path
  local mdir=lib/modules/$kver
  [[ -f "$full/boot/vmlinuz-$kver" ]] || die "$full has no boot/vmlinuz-$kver"
  [[ -f "$full/$mdir/modules.dep" ]] || depmod -b "$full" "$kver" || die "depmod failed for $kver"
  mkdir -p "$dest/boot" "$dest/$mdir"
  cp -p "$full/boot/vmlinuz-$kver" "$dest/boot/"
  for m in $modules; do
    deps=$(modprobe -d "$full" -S "$kver" --show-depends "$m" 2>&1) || die "module $m: $deps"
    while read -r path; do
      mkdir -p "$dest/$(dirname "${path#"$full"/}")"
      cp -p "$path" "$dest/${path#"$full"/}"
    done < <(awk '$1 == "insmod" { print $2 }' <<<"$deps")
  done
  for f in modules.order modules.builtin modules.builtin.modinfo; do
    [[ ! -f "$full/$mdir/$f" ]] || cp -p "$full/$mdir/$f" "$dest/$mdir/"
  done
  depmod -b "$dest" "$kver" || die "depmod failed for the pruned $kver"
  modinfo -b "$dest" -k "$kver" -n rdma_rxe >/dev/null 2>&1 || die "$kver has no rdma_rxe module"
  echo "$modules" >"$dest/.pruned"
  touch "$dest/.complete"
}

kpkg=
if command -v apt-cache >/dev/null; then
  kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9]/ { print $2; exit }' || true)
fi
if [[ -n "$kpkg" ]]; then
  kver=${kpkg#linux-image-}
elif cached=$(newest_cached); then
  kver=$(basename "$cached")
else
  die "cannot resolve the kernel package linux-image-amd64 depends on" \
    "(no apt-cache, or no package lists: run 'apt-get update' on a Debian/Ubuntu machine)"
fi
dir=$cache/$kver
if pruned_for_us "$dir"; then
  echo "$dir"
  exit 0
fi

for tool in depmod modprobe modinfo flock; do
  command -v "$tool" >/dev/null || die "needs '$tool' to prepare the kernel (run ae/setup.sh test)"
done
mkdir -p "$cache" || die "cannot create the cache directory $cache"
# One run at a time builds the cache; the others wait, then find it built.
exec 9>"$cache/.lock"
flock 9
if pruned_for_us "$dir"; then
  echo "$dir"
  exit 0
fi
staging=$(mktemp -d "$cache/.staging.XXXXXX")
trap 'rm -rf "$staging"' EXIT

if [[ -f "$dir/.complete" && ! -f "$dir/.pruned" ]]; then
  before="the cache held $(du -sh "$dir" | cut -f1), the whole package"
  echo "ae/softroce/kernel.sh: pruning the cached $kver to what vm.sh loads" >&2
  prune "$dir" "$kver" "$staging/pruned"
else
  [[ -n "$kpkg" ]] || die "the cached $kver lacks modules of modules.txt, and without apt's" \
    "package lists it cannot be fetched again (run 'apt-get update')"
  for tool in apt-get dpkg; do
    command -v "$tool" >/dev/null || die "needs '$tool' to unpack $kpkg (run ae/setup.sh test)"
  done
  echo "ae/softroce/kernel.sh: downloading $kpkg into $dir" >&2
  if ! log=$(cd "$staging" && apt-get download -q "$kpkg" 2>&1); then
    echo "$log" >&2
    die "'apt-get download $kpkg' failed (no network, or stale package lists: run 'apt-get update')"
  fi
  deb=$(find "$staging" -maxdepth 1 -name "${kpkg}_*.deb" -print -quit)
  [[ -n "$deb" ]] || die "'apt-get download $kpkg' produced no .deb file"
  dpkg -x "$deb" "$staging/full" || die "cannot unpack $deb"
  before="the package: $(du -sh "$deb" | cut -f1) downloaded, $(du -sh "$staging/full" | cut -f1) unpacked"
  rm -f "$deb"
  prune "$staging/full" "$kver" "$staging/pruned"
  rm -rf "$staging/full"
fi

# Every user of $dir comes through this script, which waits for the lock
# while $dir is not pruned for it: nobody reads $dir while it is replaced.
if [[ -e "$dir" ]]; then
  mv -T "$dir" "$staging/old" || die "cannot move the old $dir aside"
fi
mv -T "$staging/pruned" "$dir" || die "cannot move the pruned kernel to $dir"
echo "ae/softroce/kernel.sh: kept $(du -sh "$dir" | cut -f1) in $dir" \
  "(vmlinuz and $(find "$dir/lib" -name '*.ko*' | wc -l) modules; $before)" >&2
echo "$dir"
