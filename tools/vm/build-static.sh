#!/bin/sh
# Statically linked capaudit and set-pid for the kernel matrix's guests
# (their initramfs has no shared libraries).
#
#   tools/vm/build-static.sh [OUTDIR]     # default build-static/bin
#
# The project's Makefile is used unchanged: command-line variables override
# CC, CXX and LDLIBS, objects go to BUILD=build-static. The BPF objects are
# the same as the host build's (one .bpf.o for every kernel, CO-RE).
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
OUT=${1:-$ROOT/build-static/bin}
SJ_VER=$(dpkg-query -W -f='${Version}' libsimdjson-dev)   # e.g. 3.0.1-1
SJ_UP=${SJ_VER%-*}
SJ_UP=${SJ_UP#*:}
LIBDIR=$CACHE/static

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
	g++ -O2 -DNDEBUG -std=c++17 -c "$CACHE/src/simdjson-$SJ_UP/singleheader/simdjson.cpp" \
		-o "$LIBDIR/simdjson.o"
	rm -f "$LIBDIR/libsimdjson.a"
	ar rcs "$LIBDIR/libsimdjson.a" "$LIBDIR/simdjson.o"
	rm -f "$LIBDIR/simdjson.o"
	echo "$SJ_VER" > "$LIBDIR/SIMDJSON"
fi

# 2. capaudit, set-pid and churn, -static (libdw needs liblzma and libbz2 too).
# getpwnam/getgrgid/initgroups (--user NAME, a unit's User=, the group named
# in a note) and libdw's debuginfod client (dlopen) draw glibc's "requires at
# runtime the shared libraries" link warning: the guests use --user with a
# bare uid and no debuginfod; elsewhere names resolve where the host's glibc
# NSS modules match (README, "A static binary").
log=$(mktemp)
rc=0
# HTTPD=0: without libmicrohttpd (monitor --listen), whose .a needs GnuTLS's.
make -C "$ROOT" --no-print-directory BUILD=build-static SANITIZE=0 FUZZ=0 HTTPD=0 \
	CC="gcc -static" CXX="g++ -static" \
	LDLIBS="-L$LIBDIR -lbpf -ldw -lelf -lz -llzma -lbz2 -lcap -ljansson -lsimdjson" \
	build-static/capaudit build-static/set-pid build-static/churn > "$log" 2>&1 || rc=$?
# (each warning is two lines: "in function 'f':", then the warning)
awk '/in statically linked applications requires at runtime/ { held = ""; next }
     /: in function / { if (held != "") print held; held = $0; next }
     { if (held != "") print held; held = ""; print }
     END { if (held != "") print held }' "$log"
rm -f "$log"
[ "$rc" -eq 0 ] || { echo "build-static: make failed ($rc)" >&2; exit 1; }

mkdir -p "$OUT"
for b in capaudit set-pid churn; do
	f=$ROOT/build-static/$b
	[ -x "$f" ] || { echo "build-static: $f was not built" >&2; exit 1; }
	if ! file "$f" 2>/dev/null | grep -q 'statically linked' && ldd "$f" >/dev/null 2>&1; then
		echo "build-static: $f is not static" >&2
		exit 1
	fi
	cp "$f" "$OUT/$b"
done
