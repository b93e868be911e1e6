#!/bin/sh
# Install what building and testing capaudit needs, on Debian 12, if missing.
# Runs apt-get only when a package is absent, so repeated `make` is quiet.
# Extra packages (make fuzz: libclang-rt-14-dev) come as arguments.
# liblzma-dev and libbz2-dev: the static libdw link of the kernel matrix.
# podman, runc and busybox-static: tests/e2e/containers.bats runs real
# containers of a busybox image made from a tarball (no registry).
# qemu-system-x86 runs the kernel matrix (tools/vmtest.sh); the guest
# kernels and busybox-static are downloaded there, never installed.
# libmicrohttpd-dev: monitor --listen (user/lib/httpd.c); curl fetches from
# it in the tests. prometheus: its promtool checks the metrics text
# (tests/unit/test_metrics.c); the package is the Prometheus server too, and
# on a host that runs systemd its postinst starts prometheus.service.
# debhelper and lintian: make deb and tests/e2e/deb.bats; mandoc, man-db
# and groff-base check and find the generated manual pages, bash-completion
# and zsh run the generated completions (tests/e2e/docs-sync.bats); adduser
# is the package's postinst's. chromium: tests/e2e/html.bats loads report
# --format html in it, headless.
# The kernel matrix's arm64 guests: qemu-system-arm (qemu-system-aarch64),
# and make ARCH=arm64's static cross build: Debian's aarch64 cross
# compilers and the :arm64 -dev packages of the libraries capaudit links
# (multiarch: dpkg gets the arm64 architecture once, the host's own
# packages stay as they are; linux-libc-dev:arm64 also has the asm/unistd.h
# tools/gen-syscalls.sh reads).
set -eu

PKGS="make gcc g++ clang llvm pkg-config libbpf-dev bpftool libelf-dev zlib1g-dev
libcap-dev libcap2-bin libjansson-dev libsimdjson-dev libdw-dev liblzma-dev libbz2-dev linux-libc-dev util-linux bats jq libxml2-utils
valgrind qemu-system-x86 iputils-ping iproute2 socat python3 podman runc busybox-static
libmicrohttpd-dev curl prometheus python3-yaml debhelper lintian mandoc man-db groff-base
bash-completion zsh adduser chromium qemu-system-arm gcc-aarch64-linux-gnu g++-aarch64-linux-gnu
libbpf-dev:arm64 libelf-dev:arm64 libdw-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64
libbz2-dev:arm64 libcap-dev:arm64 libjansson-dev:arm64 linux-libc-dev:arm64 $*"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "capaudit: missing packages:$missing (run as root, or: apt-get install$missing;" \
		"the :arm64 ones after dpkg --add-architecture arm64 and apt-get update)" >&2
	exit 1
fi
echo "capaudit: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
case $missing in
*:arm64*)
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64 ;;
esac
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
