#!/usr/bin/env bash
# Boots a Debian kernel with Soft-RoCE (rdma_rxe) under qemu (TCG) and runs a
# guest shell script there, so that real ibverbs/librdmacm programs can run on
# machines whose own kernel has no RDMA.
#
# usage: ae/softroce/vm.sh --guest-script FILE [--binary PATH]...
#          [--file SRC=DEST]... [--collect DIR] [--console-log FILE]
#          [--timeout SECONDS] [--memory-mib N]
#
#   --guest-script FILE  run with busybox `sh` in the guest, in /work-guest
#   --binary PATH        copied to the same (absolute) path in the guest, with
#                        the shared libraries ldd lists for it
#   --file SRC=DEST      file or directory copied to DEST in the guest (a
#                        relative DEST is relative to /work-guest)
#   --collect DIR        receives every regular file the guest script leaves
#                        under $COLLECT (subdirectories kept)
#   --console-log FILE   where the console log is kept (default
#                        DIR/softroce-console.log with --collect, else nowhere)
#   --timeout SECONDS    for the whole boot and script (default 600)
#   --memory-mib N       guest memory (default 1024)
#
# Guest environment: busybox plus the given binaries; device rxe0 on netdev
# dummy0 carrying 10.0.0.1/24 and 10.0.0.2/24; the script's environment has
# COLLECT=/collect, DMBENCH_RDMA_DEVICE=rxe0, DMBENCH_ADDR=10.0.0.1,
# DMBENCH_ADDR2=10.0.0.2 and DMBENCH_GID_INDEX / DMBENCH_GID_INDEX2, the
# (RoCE v2, IPv4-mapped) GID indices of those addresses. ibv_alloc_dm is not
# supported by rxe.
#
# Exit status: the guest script's; 124 on timeout; 125 when the harness fails
# (bad usage, boot or setup failure, missing exit marker, a collected file
# that did not arrive intact). Needs the packages of `ae/setup.sh test` and the
# kernel of ae/softroce/kernel.sh (fetched on first use).
set -euo pipefail
shopt -s extglob

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
start_us=${EPOCHREALTIME/./}

die() {
  echo "softroce vm: error: $*" >&2
  exit 125
}
usage() {
  sed -n '/^# usage:/,/^#   --memory-mib/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
  exit "${1:-125}"
}
elapsed() {  # seconds since start, one decimal
  local us=$((${EPOCHREALTIME/./} - start_us))
  printf '%d.%d' $((us / 1000000)) $((us / 100000 % 10))
}

guest_script=
binaries=()
files=()
collect=
console_log=
timeout_s=600
memory_mib=1024
while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || case "$1" in -h | --help) usage 0 ;; *) die "$1 needs a value (see --help)" ;; esac
  case "$1" in
    -h | --help) usage 0 ;;
    --guest-script) guest_script=$2 ;;
    --binary) binaries+=("$2") ;;
    --file) files+=("$2") ;;
    --collect) collect=$2 ;;
    --console-log) console_log=$2 ;;
    --timeout) timeout_s=$2 ;;
    --memory-mib) memory_mib=$2 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift 2
done
[[ -n "$guest_script" ]] || die "--guest-script is required (see --help)"
[[ -f "$guest_script" ]] || die "guest script '$guest_script' not found"
[[ "$timeout_s" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer"
[[ "$memory_mib" =~ ^[1-9][0-9]*$ ]] || die "--memory-mib must be a positive integer"
if [[ -n "$collect" ]]; then
  mkdir -p "$collect" || die "cannot create --collect directory '$collect'"
  [[ -n "$console_log" ]] || console_log=$collect/softroce-console.log
fi
for tool in qemu-system-x86_64 ldd cpio gzip base64 sha256sum timeout depmod modprobe; do
  command -v "$tool" >/dev/null || die "'$tool' not found (run ae/setup.sh test)"
done
trap 'echo "softroce vm: $(elapsed) s" >&2' EXIT

kdir=$("$here/kernel.sh") || die "no kernel (ae/softroce/kernel.sh failed)"
kver=$(basename "$kdir")
kernel=$kdir/boot/vmlinuz-$kver
[[ -f "$kernel" ]] || die "$kernel missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmbench-softroce.XXXXXX")
trap 'rm -rf "$tmp"; echo "softroce vm: $(elapsed) s" >&2' EXIT
root=$tmp/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,collect,work-guest,dmbench}

# --- initramfs ---------------------------------------------------------------
put() {  # put SRC DEST: copy SRC (symlinks followed) to DEST inside the root
  local dest=$root$2
  mkdir -p "$(dirname "$dest")"
  rm -f "$dest"  # never write through a busybox applet link
  cp -L "$1" "$dest" || die "cannot copy '$1' into the guest"
}
put_libs() {  # put every shared library ldd lists for ELF file $1, same paths
  local out lib
  out=$(LC_ALL=C ldd "$1" 2>&1) || return 0  # static, or not an ELF file
  if grep -q 'not found' <<<"$out"; then
    die "'$1' needs libraries not found on this machine:"$'\n'"$(grep 'not found' <<<"$out")"
  fi
  while read -r lib; do
    [[ -e "$root$lib" ]] || put "$lib" "$lib"
  done < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$out")
}
put_binary() {  # put_binary PATH: at the same absolute path, with its libraries
  local path=$1
  [[ "$path" == /* ]] || path=$(cd "$(dirname "$path")" && pwd)/$(basename "$path")
  [[ -f "$path" ]] || die "binary '$1' not found"
  put "$path" "$path"
  put_libs "$path"
}

busybox=$(command -v busybox) || die "busybox not found (run ae/setup.sh test)"
put "$busybox" /bin/busybox
put_libs "$busybox"
for applet in $("$busybox" --list); do
  [[ -e "$root/bin/$applet" ]] || ln -s busybox "$root/bin/$applet"
done

# iproute2's ip and rdma for the network and the rxe link.
PATH=$PATH:/usr/sbin:/sbin
for tool in ip rdma; do
  path=$(command -v "$tool") || die "'$tool' not found (iproute2; run ae/setup.sh test)"
  put_binary "$path"
done

# The rxe provider of libibverbs and its driver file.
provider=$(dpkg -L ibverbs-providers 2>/dev/null | grep -E '/libibverbs/librxe-rdmav[0-9]+\.so$' | head -n 1 || true)
if [[ -z "$provider" ]]; then
  provider=$(compgen -G '/usr/lib/*/libibverbs/librxe-rdmav*.so' | head -n 1 || true)
fi
[[ -n "$provider" && -f "$provider" ]] || die "rxe provider librxe-rdmav*.so not found (ibverbs-providers)"
put_binary "$provider"
[[ -f /etc/libibverbs.d/rxe.driver ]] || die "/etc/libibverbs.d/rxe.driver not found (ibverbs-providers)"
put /etc/libibverbs.d/rxe.driver /etc/libibverbs.d/rxe.driver

# glibc dlopen()s libgcc_s at pthread_exit/cancellation.
libgcc=$(compgen -G '/lib/*-linux-gnu/libgcc_s.so.1' | head -n 1 || true)
[[ -n "$libgcc" ]] || libgcc=$(compgen -G '/usr/lib/*-linux-gnu/libgcc_s.so.1' | head -n 1 || true)
[[ -n "$libgcc" ]] || die "libgcc_s.so.1 not found"
put "$libgcc" "$libgcc"

for b in "${binaries[@]}"; do put_binary "$b"; done
for spec in "${files[@]}"; do
  [[ "$spec" == *=* ]] || die "--file needs SRC=DEST, got '$spec'"
  src=${spec%%=*} dest=${spec#*=}
  [[ -n "$src" && -n "$dest" ]] || die "--file needs SRC=DEST, got '$spec'"
  [[ "$dest" == /* ]] || dest=/work-guest/$dest
  [[ "$dest" == */ ]] && dest=$dest$(basename "$src")
  if [[ -d "$src" ]]; then
    mkdir -p "$(dirname "$root$dest")"
    rm -rf "$root$dest"
    cp -rL "$src" "$root$dest" || die "cannot copy directory '$src' into the guest"
  elif [[ -f "$src" ]]; then
    put "$src" "$dest"
  else
    die "--file source '$src' not found"
  fi
done

cat >"$root/etc/hosts" <<'EOF'
127.0.0.1 localhost
10.0.0.1 node1
10.0.0.2 node2
EOF
echo 'hosts: files' >"$root/etc/nsswitch.conf"
echo 'root:x:0:0:root:/work-guest:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"

# Kernel modules: those of modules.txt (the rxe stack, rdma_ucm for librdmacm,
# dummy for the netdev), with whatever they depend on.
modules=$(sed 's/#.*//' "$here/modules.txt" | xargs)
[[ -n "$modules" ]] || die "no modules in $here/modules.txt"
for m in $modules; do
  deps=$(modprobe -d "$kdir" -S "$kver" --show-depends "$m" 2>&1) || die "module $m: $deps"
  while read -r path; do
    put "$path" "/lib/modules/$kver/${path#"$kdir"/lib/modules/"$kver"/}"
  done < <(awk '$1 == "insmod" { print $2 }' <<<"$deps")
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
  [[ -f "$kdir/lib/modules/$kver/$f" ]] && put "$kdir/lib/modules/$kver/$f" "/lib/modules/$kver/$f"
done
depmod -b "$root" "$kver" || die "depmod failed"

# A fresh nonce makes the markers impossible to produce by accident, e.g. by
# the guest script's own output.
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
mark=DMBENCH_$nonce
cp "$guest_script" "$root/dmbench/guest.sh"
cat >"$root/dmbench/config" <<EOF
MARK=$mark
MODULES="$modules"
EOF

cat >"$root/init" <<'EOF'
#!/bin/sh
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
. /dmbench/config
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
uptime() { cut -d' ' -f1 /proc/uptime; }
fail() {
  echo "${MARK}_SETUP_FAILED $*"
  dmesg | tail -n 40
  poweroff -f
  sleep 10
}
echo "${MARK}_INIT uptime=$(uptime)"

for m in $MODULES; do modprobe "$m" || fail "modprobe $m"; done
ip link set lo up || fail "lo up"
[ -e /sys/class/net/dummy0 ] || ip link add dummy0 type dummy || fail "ip link add dummy0"
ip addr add 10.0.0.1/24 dev dummy0 || fail "address 10.0.0.1"
ip addr add 10.0.0.2/24 dev dummy0 || fail "address 10.0.0.2"
ip link set dummy0 up || fail "dummy0 up"
rdma link add rxe0 type rxe netdev dummy0 || fail "rdma link add rxe0"

# Ready when port 1 is ACTIVE and both IPv4-mapped GIDs are in the table.
port=/sys/class/infiniband/rxe0/ports/1
gid_index() {  # gid_index GID: its index in rxe0's table, or nothing
  i=0
  while [ $i -lt 16 ]; do
    if [ "$(cat $port/gids/$i 2>/dev/null)" = "$1" ]; then echo $i; return; fi
    i=$((i + 1))
  done
}
tries=0
while :; do
  gid1=$(gid_index 0000:0000:0000:0000:0000:ffff:0a00:0001)
  gid2=$(gid_index 0000:0000:0000:0000:0000:ffff:0a00:0002)
  case "$(cat $port/state 2>/dev/null)" in
    *ACTIVE*) [ -n "$gid1" ] && [ -n "$gid2" ] && break ;;
  esac
  tries=$((tries + 1))
  [ $tries -lt 200 ] || fail "rxe0 not ready: state '$(cat $port/state 2>/dev/null)', GID indices '$gid1' '$gid2'"
  sleep 0.1
done
echo "${MARK}_READY uptime=$(uptime) device=rxe0 gid_index=$gid1 gid_index2=$gid2"

mkdir -p /collect /work-guest
cd /work-guest
export HOME=/work-guest COLLECT=/collect DMBENCH_RDMA_DEVICE=rxe0 \
  DMBENCH_ADDR=10.0.0.1 DMBENCH_ADDR2=10.0.0.2 \
  DMBENCH_GID_INDEX=$gid1 DMBENCH_GID_INDEX2=$gid2
echo "${MARK}_SCRIPT_START"
sh /dmbench/guest.sh </dev/null
status=$?
echo "${MARK}_SCRIPT_END status=$status uptime=$(uptime)"

# Quiet kernel messages so they cannot interleave with the file dump.
dmesg -n 1
cd /collect
find . -type f | sed 's|^\./||' | sort >/dmbench/collect-list
n=0
while IFS= read -r f; do
  size=$(wc -c <"$f")
  sum=$(sha256sum <"$f")
  name=$(printf '%s' "$f" | base64 -w 0)
  echo "${MARK}_FILE_BEGIN $size ${sum%% *} $name"
  base64 -w 76 <"$f"
  echo
  echo "${MARK}_FILE_END"
  n=$((n + 1))
done </dmbench/collect-list
echo "${MARK}_DONE files=$n status=$status"
echo "DMBENCH_GUEST_EXIT=$status"
poweroff -f
sleep 10
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1 >"$tmp/initrd.gz") ||
  die "cannot build the initramfs"

# --- boot --------------------------------------------------------------------
log=$tmp/console.log
show() {  # clean the console stream, keep it in $log, show it readably
  local line in_file=0 rest
  exec 3>"$log"
  while IFS= read -r line || [[ -n "$line" ]]; do
    line=${line//$'\r'/}
    line=${line//$'\e'\[+([0-9;?])[a-zA-Z]/}
    line=${line//$'\e'[a-zA-Z]/}
    printf '%s\n' "$line" >&3
    if [[ $in_file -eq 0 && "$line" == ?*"${mark}_"* ]]; then
      # Output without a final newline, glued to a marker: show it apart.
      printf '%s\n' "${line%%"${mark}_"*}"
      line=${mark}_${line#*"${mark}_"}
    fi
    case "$line" in
      *"${mark}_FILE_BEGIN "*)
        in_file=1
        rest=${line#*"${mark}_FILE_BEGIN "}
        read -r size _ name <<<"$rest"
        echo "[softroce vm +$(elapsed)] sending back $(base64 -d <<<"$name" 2>/dev/null) ($size bytes)"
        ;;
      *"${mark}_FILE_END"*) in_file=0 ;;
      *"${mark}_SCRIPT_START"*) echo "[softroce vm +$(elapsed)] guest ready, running the guest script" ;;
      *"${mark}_"*) echo "[softroce vm +$(elapsed)] ${line#*"${mark}_"}" ;;
      *) [[ $in_file -eq 1 ]] || printf '%s\n' "$line" ;;
    esac
  done
  exec 3>&-
}
echo "[softroce vm +$(elapsed)] booting $kver (qemu TCG, ${memory_mib} MiB, timeout ${timeout_s} s)"
set +e
timeout -k 10 "$timeout_s" qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m "$memory_mib" \
  -nographic -net none -no-reboot -kernel "$kernel" -initrd "$tmp/initrd.gz" \
  -append "console=ttyS0 quiet panic=-1 loglevel=4" </dev/null 2>&1 | show
statuses=("${PIPESTATUS[@]}")
set -e
qemu_status=${statuses[0]}
if [[ -n "$console_log" ]]; then
  mkdir -p "$(dirname "$console_log")"
  cp "$log" "$console_log"
fi
where=${console_log:+ (console log: $console_log)}
if [[ $qemu_status -eq 124 || $qemu_status -eq 137 ]]; then
  echo "softroce vm: error: timed out after $timeout_s s$where" >&2
  exit 124
fi

# --- results -----------------------------------------------------------------
setup_failed=$(grep -m1 -F "${mark}_SETUP_FAILED" "$log" || true)
[[ -z "$setup_failed" ]] || die "guest setup failed: ${setup_failed#*"${mark}_SETUP_FAILED "}$where"
done_line=$(grep -m1 -F "${mark}_DONE " "$log" || true)
[[ -n "$done_line" ]] ||
  die "no exit marker in the console output (qemu status $qemu_status; guest crashed?)$where"
[[ "$done_line" =~ ${mark}_DONE\ files=([0-9]+)\ status=([0-9]+)$ ]] ||
  die "garbled exit marker '$done_line'$where"
nfiles=${BASH_REMATCH[1]} status=${BASH_REMATCH[2]}
awk -v m="$mark" 'f && $0 == "DMBENCH_GUEST_EXIT=" s { ok = 1; exit }
  index($0, m "_DONE ") { f = 1; s = $0; sub(/.*status=/, "", s) }
  END { exit !ok }' "$log" || die "missing DMBENCH_GUEST_EXIT line after the exit marker$where"

# Split the dump into one base64 file per collected file plus a manifest.
mkdir "$tmp/dump"
awk -v m="$mark" -v dir="$tmp/dump" '
  index($0, m "_FILE_BEGIN ") {
    if (out != "") { print "unterminated" > (dir "/errors") }
    k++; out = dir "/" k ".b64"; printf "" > out
    rest = substr($0, index($0, m "_FILE_BEGIN ") + length(m "_FILE_BEGIN "))
    print k, rest > (dir "/manifest"); next
  }
  index($0, m "_FILE_END") { if (out != "") close(out); out = ""; next }
  out != "" && /^[A-Za-z0-9+\/=]+$/ { print > out; next }
  out != "" && $0 != "" { print "noise in file " k ": " $0 > (dir "/errors") }
' "$log"
[[ ! -s "$tmp/dump/errors" ]] || echo "softroce vm: warning: $(head -n 3 "$tmp/dump/errors")" >&2
got=0
if [[ -f "$tmp/dump/manifest" ]]; then
  while read -r k size sum name; do
    rel=$(base64 -d <<<"$name") || die "garbled file name in marker $k"
    case "/$rel/" in */../* | */./* | //*) die "refusing collected path '$rel'" ;; esac
    base64 -d "$tmp/dump/$k.b64" >"$tmp/dump/$k.bin" 2>/dev/null ||
      die "collected file '$rel' did not arrive intact (bad base64)$where"
    actual_size=$(stat -c %s "$tmp/dump/$k.bin")
    actual_sum=$(sha256sum <"$tmp/dump/$k.bin")
    [[ "$actual_size" == "$size" && "${actual_sum%% *}" == "$sum" ]] ||
      die "collected file '$rel' did not arrive intact ($actual_size of $size bytes, checksum $([[ "${actual_sum%% *}" == "$sum" ]] && echo ok || echo wrong))$where"
    if [[ -n "$collect" ]]; then
      [[ "$collect/$rel" != "$console_log" ]] || die "collected file '$rel' would overwrite the console log"
      mkdir -p "$(dirname "$collect/$rel")"
      mv "$tmp/dump/$k.bin" "$collect/$rel"
    fi
    got=$((got + 1))
  done <"$tmp/dump/manifest"
fi
[[ $got -eq $nfiles ]] || die "the guest sent $nfiles files, $got arrived$where"

echo "[softroce vm +$(elapsed)] guest script exited with status $status; $got file(s) collected${collect:+ into $collect}"
exit "$status"
