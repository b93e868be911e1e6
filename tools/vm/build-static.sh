#!/bin/sh
# Statically linked capaudit and set-pid for the kernel matrix's guests
# (their initramfs has no shared libraries).
#
#   tools/vm/build-static.sh [OUTDIR]     # default build-static/bin
#   ARCH=arm64 tools/vm/build-static.sh   # make ARCH=arm64: build-static-arm64/bin
#
# The project's Makefile is used unchanged: command-line variables override
# CC, CXX and LDLIBS, objects go to BUILD=build-static. The BPF objects are
# the same as the host build's (one .bpf.o for every kernel, CO-RE).
#
# ARCH (x86, arm64; default this machine's) other than this machine's
# cross-builds: objects in build-static-ARCH, the compilers of Debian's
# cross toolchain (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu), the
# libraries of the :arm64 -dev packages (dpkg --add-architecture arm64;
# tools/deps.sh installs both), the BPF objects compiled for that
# architecture's registers and kernel types (-D__TARGET_ARCH_arm64,
# vmlinux/arm64/vmlinux.h).
#
# Every library capaudit links has a .a in its Debian -dev package except
# simdjson (libsimdjson-dev ships only the .so). Its .a is built from the
# amalgamation in Debian's own source package of the installed version
# (apt-get source --download-only with private apt lists under the cache,
# nothing changed on the host); singleheader/simdjson.h there is checked to
# be the installed /usr/include/simdjson.h. Needs network once; the .a is
# cached in $CAPAUDIT_VM_CACHE (default /var/cache/capaudit-vm).
#
# Exit status: 0 built; 1 build failed; 3 the simdjson source could not be
# fetched (vmtest then skips with that reason).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${CAPAUDIT_VM_CACHE:-/var/cache/capaudit-vm}
HOST_ARCH=$(uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
ARCH=$(echo "${ARCH:-$HOST_ARCH}" | sed 's/x86_64/x86/;s/aarch64/arm64/')
if [ "$ARCH" = "$HOST_ARCH" ]; then
	BUILD=build-static CROSS="" LIBDIR=$CACHE/static
else
	case $ARCH in
	arm64) CROSS=aarch64-linux-gnu- ;;
	x86) CROSS=x86_64-linux-gnu- ;;
	*) echo "build-static: ARCH=$ARCH: capaudit builds for x86 and arm64" >&2; exit 1 ;;
	esac
	BUILD=build-static-$ARCH LIBDIR=$CACHE/static-$ARCH
	DEBARCH=$(echo "$ARCH" | sed 's/^x86$/amd64/')
	missing=""
	command -v "${CROSS}gcc" >/dev/null || missing="$missing gcc-${CROSS%-}"
	command -v "${CROSS}g++" >/dev/null || missing="$missing g++-${CROSS%-}"
	for p in libbpf-dev libelf-dev libdw-dev zlib1g-dev liblzma-dev libbz2-dev libcap-dev libjansson-dev; do
		dpkg-query -W -f='${Status}' "$p:$DEBARCH" 2>/dev/null | grep -q "ok installed" ||
			missing="$missing $p:$DEBARCH"
	done
	if [ -n "$missing" ]; then
		echo "build-static: cross-building for $ARCH needs:$missing (tools/deps.sh installs them)" >&2
		exit 1
	fi
fi
OUT=${1:-$ROOT/$BUILD/bin}
SJ_VER=$(dpkg-query -W -f='${Version}' libsimdjson-dev)   # e.g. 3.0.1-1
SJ_UP=${SJ_VER%-*}
SJ_UP=${SJ_UP#*:}

# 1. libsimdjson.a, the same version as the installed header
if [ ! -f "$LIBDIR/libsimdjson.a" ] || [ "$(cat "$LIBDIR/SIMDJSON" 2>/dev/null)" != "$SJ_VER" ]; then
	mkdir -p "$CACHE/apt-src/lists/partial" "$CACHE/src" "$LIBDIR"
	# the host's own mirror, as a deb-src line
	mirror=$(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	echo "deb-src ${mirror:-http://deb.debian.org/debian} bookworm main" > "$CACHE/apt-src/sources.list"
	A="-o Dir::Etc::SourceList=$CACHE/apt-src/sources.list -o Dir::Etc::SourceParts=/dev/null
	   -o Dir::State::Lists=$CACHE/apt-src/lists -o APT::Sandbox::User=root"
	orig=$(ls "$CACHE"/src/simdjson_"$SJ_UP".orig.tar.* 2>/dev/null | head -n1 || true)
	if [ -z "$orig" ]; then
		# shellcheck disable=SC2086
		if ! apt-get -qq $A update >/dev/null 2>&1 ||
		   ! (cd "$CACHE/src" && apt-get -qq $A source --download-only "simdjson=$SJ_VER" >/dev/null 2>&1); then
			echo "build-static: cannot fetch Debian's simdjson $SJ_VER source (apt-get source, no network?)" >&2
			exit 3
		fi
		orig=$(ls "$CACHE"/src/simdjson_"$SJ_UP".orig.tar.* | head -n1)
	fi
	tar -xf "$orig" -C "$CACHE/src" "simdjson-$SJ_UP/singleheader/simdjson.cpp" \
		"simdjson-$SJ_UP/singleheader/simdjson.h"
	if ! cmp -s "$CACHE/src/simdjson-$SJ_UP/singleheader/simdjson.h" /usr/include/simdjson.h; then
		echo "build-static: Debian's simdjson $SJ_VER source does not match /usr/include/simdjson.h" >&2
		exit 1
	fi
	# as Debian builds it (-O2 -DNDEBUG)
	"${CROSS}g++" -O2 -DNDEBUG -std=c++17 -c "$CACHE/src/simdjson-$SJ_UP/singleheader/simdjson.cpp" \
		-o "$LIBDIR/simdjson.o"
	rm -f "$LIBDIR/libsimdjson.a"
	"${CROSS}ar" rcs "$LIBDIR/libsimdjson.a" "$LIBDIR/simdjson.o"
	rm -f "$LIBDIR/simdjson.o"
	echo "$SJ_VER" > "$LIBDIR/SIMDJSON"
fi

# 2. capaudit, set-pid and churn, -static (libdw needs liblzma and libbz2 too).
# getpwnam/getgrgid/initgroups (--user NAME, a unit's User=, the group named
# in a note) and libdw's debuginfod client (dlopen) draw glibc's "requires at
# runtime the shared libraries" link warning: STATIC=1 has capaudit look
# users and groups up in /etc/passwd and /etc/group alone, never through the
# host's NSS modules (docs/install.md, "A static binary"); no debuginfod.
log=$(mktemp)
rc=0
# HTTPD=0: without libmicrohttpd (monitor --listen), whose .a needs GnuTLS's.
make -C "$ROOT" --no-print-directory ARCH="$ARCH" BUILD="$BUILD" SANITIZE=0 FUZZ=0 HTTPD=0 STATIC=1 \
	CC="${CROSS}gcc -static" CXX="${CROSS}g++ -static" \
	LDLIBS="-L$LIBDIR -lbpf -ldw -lelf -lz -llzma -lbz2 -lcap -ljansson -lsimdjson" \
	"$BUILD/capaudit" "$BUILD/set-pid" "$BUILD/churn" > "$log" 2>&1 || rc=$?
# (each warning is two lines: "in function 'f':", then the warning)
awk '/in statically linked applications requires at runtime/ { held = ""; next }
     /: in function / { if (held != "") print held; held = $0; next }
     { if (held != "") print held; held = ""; print }
     END { if (held != "") print held }' "$log"
rm -f "$log"
[ "$rc" -eq 0 ] || { echo "build-static: make failed ($rc)" >&2; exit 1; }

mkdir -p "$OUT"
for b in capaudit set-pid churn; do
	f=$ROOT/$BUILD/$b
	[ -x "$f" ] || { echo "build-static: $f was not built" >&2; exit 1; }
	if [ -n "$CROSS" ]; then
		# no ldd for another architecture: file(1) says what it is
		desc=$(file -b "$f" 2>/dev/null || true)
		want=$([ "$ARCH" = arm64 ] && echo "ARM aarch64" || echo "x86-64")
		case $desc in
		*"$want"*"statically linked"*) ;;
		*) echo "build-static: $f is not a static $ARCH executable: $desc" >&2; exit 1 ;;
		esac
	elif ! file "$f" 2>/dev/null | grep -q 'statically linked' && ldd "$f" >/dev/null 2>&1; then
		echo "build-static: $f is not static" >&2
		exit 1
	fi
	cp "$f" "$OUT/$b"
done
