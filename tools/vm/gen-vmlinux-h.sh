#!/bin/sh
# Regenerate vmlinux/arm64/vmlinux.h from a guest kernel's own BTF.
#
#   tools/vm/gen-vmlinux-h.sh LABEL     # a label of kernels.list, e.g. arm64-6.12
#
# Debian's arm64 image package ships a compressed Image (vmlinuz), not an
# ELF vmlinux, so bpftool cannot read its .BTF from the package: the
# kernel matrix's harness boots it (tools/vm/vmrun.sh), the guest copies
# /sys/kernel/btf/vmlinux (raw BTF) out, and bpftool dumps it here as C.
# Needs the kernel (tools/vm/fetch-kernels.sh) and its architecture's
# busybox; prints the header to stdout.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${CAPAUDIT_VM_CACHE:-/var/cache/capaudit-vm}
label=${1:?usage: gen-vmlinux-h.sh LABEL}
cd "$ROOT"
line=$(awk -F '\t' -v l="$label" '$1 == l' "$CACHE/kernels.list")
[ -n "$line" ] || { echo "gen-vmlinux-h: $label is not in $CACHE/kernels.list" >&2; exit 1; }
vmlinuz=$(echo "$line" | cut -f2)
arch=$(echo "$line" | cut -f5)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo 'cp /sys/kernel/btf/vmlinux /out/btf' > "$work/btf.sh"
mkdir -p "$work/empty"
ARCH=${arch:-x86} BINDIR=$work/empty tools/vm/vmrun.sh "$vmlinuz" "$work/btf.sh" "$work/out" >&2
bpftool btf dump file "$work/out/files/btf" format c
