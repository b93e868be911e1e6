#!/bin/sh
# Boot a kernel under qemu (TCG) with a throw-away initramfs and run a script
# in it as root; the serial log comes back to the host.
#
#   tools/vm/vmrun.sh KERNEL_VMLINUZ SCRIPT OUTDIR
#
# The initramfs holds busybox-static ($CAPAUDIT_VM_CACHE/busybox/busybox, from
# fetch-kernels.sh), every file of BINDIR (default build-static/bin, from
# build-static.sh) in /bin and also at / (so /set-pid works), SCRIPT as
# /test.sh, and an /init that mounts proc, sysfs, devtmpfs, debugfs, tracefs,
# securityfs, bpffs and cgroup2, runs
# `sh /test.sh` (stdout+stderr to the serial console), then prints every
# file the script left in /out between markers (base64), an end marker with
# the script's exit status, and powers off.
#
# Results in OUTDIR:
#   serial.log    the raw serial console (CR stripped)
#   console.txt   what the script printed (between the start and end markers)
#   files/NAME    each file of the guest's /out, byte-exact
#   rc            the script's exit status in the guest
#   time          boot+run wall time in seconds, qemu start to qemu exit
# Exit status: the guest script's, or 125 when no end marker came back
# (kernel panic, timeout, init failure: see serial.log).
#
# Environment: MEM (MB, 256), SMP (1), TIMEOUT (s, 600), APPEND (more kernel
# args), ARCH (x86, or arm64: the guest's architecture), BINDIR, BUSYBOX,
# QEMU (qemu-system-x86_64, qemu-system-aarch64 for arm64), KEEP=1 keeps
# the initramfs work dir.
#
# arm64 guests: qemu's "virt" board with its most capable emulated CPU
# (-M virt -cpu max; pauth-impdef=on: pointer authentication with qemu's
# own cheap algorithm instead of QARMA, the same instructions at a
# fraction of TCG's time), serial console on its PL011 (ttyAMA0),
# busybox and binaries for aarch64 (fetch-kernels.sh,
# build-static.sh with ARCH=arm64).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${CAPAUDIT_VM_CACHE:-/var/cache/capaudit-vm}
[ $# -ge 3 ] || { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
KERNEL=$(realpath "$1")
SCRIPT=$(realpath "$2")
[ -f "$KERNEL" ] || { echo "vmrun: no kernel $KERNEL" >&2; exit 2; }
[ -f "$SCRIPT" ] || { echo "vmrun: no script $SCRIPT" >&2; exit 2; }
kname=$(basename "$(dirname "$KERNEL")")
OUTDIR=$3
MEM=${MEM:-256}
SMP=${SMP:-1}
TIMEOUT=${TIMEOUT:-600}
APPEND=${APPEND:-}
ARCH=${ARCH:-x86}
case $ARCH in
x86|x86_64)
	BINDIR=${BINDIR:-$ROOT/build-static/bin}
	BUSYBOX=${BUSYBOX:-$CACHE/busybox/busybox}
	QEMU=${QEMU:-qemu-system-x86_64} QPKG=qemu-system-x86
	MACHINE="-cpu max" CONSOLE=ttyS0 ;;
arm64|aarch64)
	BINDIR=${BINDIR:-$ROOT/build-static-arm64/bin}
	BUSYBOX=${BUSYBOX:-$CACHE/busybox-arm64/busybox}
	QEMU=${QEMU:-qemu-system-aarch64} QPKG=qemu-system-arm
	MACHINE="-M virt -cpu max,pauth-impdef=on" CONSOLE=ttyAMA0 ;;
*)
	echo "vmrun: ARCH=$ARCH: x86 or arm64" >&2; exit 2 ;;
esac
[ -x "$BUSYBOX" ] || { echo "vmrun: no busybox at $BUSYBOX (run fetch-kernels.sh)" >&2; exit 2; }
command -v "$QEMU" >/dev/null || { echo "vmrun: $QEMU missing (apt-get install $QPKG)" >&2; exit 2; }

work=$(mktemp -d /tmp/vmrun.XXXXXX)
cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT INT TERM

# --- initramfs -------------------------------------------------------------
root=$work/root
mkdir -p "$root/bin" "$root/sbin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" \
	"$root/out" "$root/etc" "$root/root"
cp "$BUSYBOX" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
if [ -d "$BINDIR" ]; then
	for f in "$BINDIR"/*; do
		[ -f "$f" ] || continue
		cp "$f" "$root/bin/"
		ln -s "bin/$(basename "$f")" "$root/$(basename "$f")"
	done
fi
cp "$SCRIPT" "$root/test.sh"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' \
	> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

cat > "$root/init" <<'EOF'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin HOME=/root TERM=dumb
mount -t devtmpfs dev /dev 2>/dev/null
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t securityfs securityfs /sys/kernel/security
mount -t bpf bpf /sys/fs/bpf
mount -t cgroup2 cgroup2 /sys/fs/cgroup
exec </dev/console >/dev/console 2>&1
echo "@@VMRUN-START uptime=$(cut -d' ' -f1 /proc/uptime) kernel=$(uname -r)"
cd /
sh /test.sh
rc=$?
echo "@@VMRUN-SCRIPT-DONE rc=$rc uptime=$(cut -d' ' -f1 /proc/uptime)"
for f in /out/*; do
	[ -f "$f" ] || continue
	echo "@@VMRUN-FILE ${f#/out/}"
	base64 "$f"
	echo "@@VMRUN-FILE-END"
done
echo "@@VMRUN-END rc=$rc"
sync
poweroff -f
EOF
chmod +x "$root/init" "$root/test.sh"
# packed by this machine's busybox (the guest's may be another architecture's)
(cd "$root" && find . | LC_ALL=C sort | "$CACHE/busybox/busybox" cpio -o -H newc 2>/dev/null) \
	> "$work/initrd.cpio"

# --- boot ------------------------------------------------------------------
mkdir -p "$OUTDIR"
rm -rf "$OUTDIR/files" "$OUTDIR/rc" "$OUTDIR/time"
raw=$work/serial.raw
t0=$(date +%s.%N)
set +e
# -nodefaults: no VGA, NIC, floppy, cdrom; panic=-1 + -no-reboot: a panic
# ends qemu at once instead of hanging until TIMEOUT.
# shellcheck disable=SC2086
timeout "$TIMEOUT" "$QEMU" -accel tcg $MACHINE -m "$MEM" -smp "$SMP" \
	-nodefaults -no-user-config -display none -no-reboot \
	-serial "file:$raw" -monitor none \
	-kernel "$KERNEL" -initrd "$work/initrd.cpio" \
	-append "console=$CONSOLE panic=-1 quiet loglevel=3 rdinit=/init $APPEND" \
	> "$work/qemu.out" 2>&1
qrc=$?
set -e
t1=$(date +%s.%N)
tr -d '\r' < "$raw" > "$OUTDIR/serial.log"
secs=$(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}')
echo "$secs" > "$OUTDIR/time"
if [ "$qrc" -ne 0 ]; then
	echo "vmrun: qemu exited $qrc$([ "$qrc" -eq 124 ] && echo " (timeout ${TIMEOUT}s)")" >&2
	cat "$work/qemu.out" >&2
fi

# --- results ---------------------------------------------------------------
awk '/^@@VMRUN-START/{on=1; next} /^@@VMRUN-SCRIPT-DONE/{on=0} on' "$OUTDIR/serial.log" \
	> "$OUTDIR/console.txt"
mkdir -p "$OUTDIR/files"
awk -v dir="$OUTDIR/files" '
	/^@@VMRUN-FILE-END/ { close(cmd); cmd = ""; next }
	/^@@VMRUN-FILE / { name = $2; gsub(/[^A-Za-z0-9._-]/, "_", name);
		cmd = "base64 -d > \"" dir "/" name "\""; next }
	cmd != "" { print | cmd }' "$OUTDIR/serial.log"
end=$(sed -n 's/^@@VMRUN-END rc=//p' "$OUTDIR/serial.log" | tail -n1)
start_up=$(sed -n 's/^@@VMRUN-START uptime=\([0-9.]*\).*/\1/p' "$OUTDIR/serial.log")
done_up=$(sed -n 's/^@@VMRUN-SCRIPT-DONE rc=[0-9]* uptime=//p' "$OUTDIR/serial.log")
if [ -z "$end" ]; then
	echo "vmrun: $kname: no end marker (${secs}s); last lines of $OUTDIR/serial.log:" >&2
	tail -n 20 "$OUTDIR/serial.log" >&2
	echo 125 > "$OUTDIR/rc"
	exit 125
fi
echo "$end" > "$OUTDIR/rc"
echo "vmrun: $kname: script rc=$end, wall ${secs}s (guest uptime at script start ${start_up}s, script ${done_up:-?}s - ${start_up}s), results in $OUTDIR" >&2
exit "$end"
