#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CRIU 4.1.1 for the tests (tests/e2e/criu.bats): Debian 12's CRIU 3.17
# cannot run on Linux 6.13+ ("vdso: Unexpected rt vDSO area bounds"),
# Debian 13's runs on the host's own root without a chroot: debootstrap a
# minimal trixie with criu once (cached, under a lock), then a copy of its
# criu pointed at trixie's loader and libraries with patchelf.
#   tools/criu-setup.sh   prints the criu binary's path, or one line why not
# Needs root, debootstrap and patchelf (tools/deps.sh test installs them)
# and the network the first time.
set -euo pipefail
CACHE=${CAPAUDIT_CRIU_CACHE:-/var/tmp/capaudit-criu}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
ROOTFS=$CACHE/trixie
BIN=$CACHE/bin/criu
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock 9
if [ ! -x "$BIN" ]; then
	for t in debootstrap patchelf; do
		command -v "$t" >/dev/null || { echo "$t is not installed (apt-get install $t)"; exit 1; }
	done
	if [ ! -x "$ROOTFS/usr/sbin/criu" ]; then
		rm -rf "$ROOTFS.tmp"
		# debootstrap mounts /proc and /sys inside the new root: in a
		# mount namespace of its own, so nothing is left mounted here
		if ! unshare -m debootstrap --variant=minbase --include=criu trixie "$ROOTFS.tmp" \
			"$MIRROR" >"$CACHE/debootstrap.log" 2>&1; then
			echo "debootstrap of trixie failed: $(tail -n 1 "$CACHE/debootstrap.log")"
			exit 1
		fi
		rm -rf "$ROOTFS"
		mv "$ROOTFS.tmp" "$ROOTFS"
	fi
	mkdir -p "$CACHE/bin"
	cp "$ROOTFS/usr/sbin/criu" "$BIN.tmp"
	patchelf --set-interpreter "$ROOTFS/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
		--force-rpath --set-rpath "$ROOTFS/usr/lib/x86_64-linux-gnu" "$BIN.tmp"
	mv "$BIN.tmp" "$BIN"
fi
echo "$BIN"
