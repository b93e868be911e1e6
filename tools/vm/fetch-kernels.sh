#!/bin/sh
# Fetch the guest kernels (and busybox-static) for the kernel matrix.
#
#   tools/vm/fetch-kernels.sh         # default matrix: 6.1 and 6.12 cloud kernels, amd64 and
#                                     # arm64, and amd64's 5.10
#   METAS="6.1=linux-image-cloud-amd64" tools/vm/fetch-kernels.sh
#   METAS="5.10=bullseye/linux-image-cloud-amd64" tools/vm/fetch-kernels.sh
#   NO_UPDATE=1 tools/vm/fetch-kernels.sh  # skip apt-get update (offline re-run)
#
# Resolves each meta package (its Depends: names the concrete, ABI-numbered
# image package), downloads the "-unsigned" variant of that image when apt
# offers it (same build, no Authenticode signature; falls back to the signed
# one) with `apt-get download`, and unpacks only ./boot from it with
# `dpkg-deb --fsys-tarfile` (never installed on the host). Modules are not
# needed: the cloud kernels have everything the harness uses built in.
# A meta package named NAME:arm64 is Debian's arm64 kernel (apt knows it
# once dpkg has the architecture: dpkg --add-architecture arm64, as
# tools/deps.sh does); its guests also need busybox-static:arm64.
# A meta package named SUITE/NAME comes from another Debian suite (5.10:
# bullseye, Debian 11) through apt's options alone: its own sources list,
# package lists and caches under cache/apt-SUITE/ (apt-SUITE-arm64/ for
# SUITE/NAME:arm64), the host's apt configuration untouched
# (-o Dir::Etc::SourceList=..., as tools/vm/build-static.sh fetches its
# source).
#
# Cache in $CAPAUDIT_VM_CACHE (default /var/cache/capaudit-vm; idempotent:
# an existing vmlinuz is not fetched again). Prints kernels.list. A kernel
# that cannot be had is left out of it and named, with the reason, in
# kernels.skipped (vmtest skips it, saying why); a non-zero exit means no
# kernel can be had here (vmtest skips the matrix, with the reason).
#   cache/debs/*.deb
#   cache/kernels/<label>/vmlinuz, config, System.map, PACKAGE (name=version)
#   cache/busybox/busybox       (from busybox-static, unpacked, not installed)
#   cache/busybox-arm64/busybox (from busybox-static:arm64)
#   cache/kernels.list          label<TAB>vmlinuz<TAB>package<TAB>version<TAB>arch (x86, arm64)
#   cache/kernels.skipped       label<TAB>why
#   cache/apt-SUITE/            another suite's sources.list, lists, caches
set -eu

CACHE=${CAPAUDIT_VM_CACHE:-/var/cache/capaudit-vm}
# label=meta-package pairs; the 6.12 kernels for bookworm come from
# bookworm-security (source package linux-6.12), meta linux-image-6.12-cloud-ARCH;
# 5.10 is Debian 11's (bullseye), the oldest LTS with CAP_BPF, CAP_PERFMON
# and CAP_CHECKPOINT_RESTORE.
METAS=${METAS:-"6.1=linux-image-cloud-amd64 6.12=linux-image-6.12-cloud-amd64
arm64-6.1=linux-image-cloud-arm64:arm64 arm64-6.12=linux-image-6.12-cloud-arm64:arm64
5.10=bullseye/linux-image-cloud-amd64"}

mkdir -p "$CACHE/debs" "$CACHE/kernels"

if [ -z "${NO_UPDATE:-}" ]; then
	# apt-cache needs fresh lists; cheap when nothing changed.
	apt-get update -qq >/dev/null 2>&1 || echo "fetch-kernels: apt-get update failed, using old lists" >&2
fi

# apt's options for the suite at hand: none for the host's own, else
# those of suite_apt()
A=""

# suite_apt SUITE DEBARCH: A set to a private apt for SUITE's DEBARCH
# packages (its lists fetched unless NO_UPDATE); non-zero with the reason
# on stdout when it has none
suite_apt() {
	d=$CACHE/apt-$1
	[ "$2" = amd64 ] || d=$d-$2
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	: > "$d/status"
	# the host's own mirror (as build-static.sh finds it), Debian's keys
	mirror=$(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror:-http://deb.debian.org/debian} $1 main" \
		> "$d/sources.list"
	A="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null
	   -o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache -o Dir::State::status=$d/status
	   -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
	   -o APT::Architecture=$2 -o APT::Architectures=$2 -o APT::Sandbox::User=root"
	if [ -z "${NO_UPDATE:-}" ]; then
		# shellcheck disable=SC2086
		apt-get -qq $A update >/dev/null 2>&1 ||
			echo "fetch-kernels: apt-get update of $1 failed, using old lists" >&2
	fi
	ls "$d/lists/"*_Packages* >/dev/null 2>&1 ||
		{ echo "no package lists of Debian's $1 (apt-get update failed: no network?)"; return 1; }
}

# pkg_version NAME[:ARCH] -> candidate version (empty if unknown to apt)
pkg_version() {
	# shellcheck disable=SC2086
	apt-cache $A show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -n1
}

# download NAME[:ARCH] -> path of the .deb in cache/debs
download() {
	name=$1
	ver=$(pkg_version "$name")
	[ -n "$ver" ] || { echo "fetch-kernels: apt knows no package $name" >&2; return 1; }
	# apt-get download names files NAME_VERSION_ARCH.deb with ':' as %3a
	base=${name%%:*}
	f=$(ls "$CACHE/debs/${base}_"*.deb 2>/dev/null | grep -F "_$(echo "$ver" | sed 's/:/%3a/')_${debarch}.deb" | head -n1 || true)
	if [ -z "$f" ]; then
		# shellcheck disable=SC2086
		(cd "$CACHE/debs" && apt-get $A download -q -o APT::Sandbox::User=root "$name=$ver" >/dev/null) ||
			return 1
		f=$(ls "$CACHE/debs/${base}_"*.deb | grep -F "_$(echo "$ver" | sed 's/:/%3a/')_${debarch}.deb" | head -n1)
	fi
	echo "$f"
}

# busybox DEBARCH DIR: busybox-static of that architecture, unpacked from
# its .deb into DIR (installing it would replace the host's busybox
# package); from the host's suite (A empty)
busybox() {
	debarch=$1 dir=$2 pkg=busybox-static
	[ "$debarch" = amd64 ] || pkg=busybox-static:$debarch
	bbver=$(pkg_version "$pkg")
	[ -n "$bbver" ] || { echo "apt knows no package $pkg"; return 1; }
	if [ ! -x "$dir/busybox" ] || [ "$(cat "$dir/PACKAGE" 2>/dev/null)" != "$pkg=$bbver" ]; then
		deb=$(download "$pkg") || { echo "cannot download $pkg=$bbver"; return 1; }
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/x"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp/x" ./bin/busybox
		mv "$dir.tmp/x/bin/busybox" "$dir.tmp/busybox"
		rm -rf "$dir.tmp/x"
		echo "$pkg=$bbver" > "$dir.tmp/PACKAGE"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	echo "fetch-kernels: $pkg=$bbver" >&2
}

# the host's busybox packs every initramfs (tools/vm/vmrun.sh)
debarch=amd64
why=$(busybox amd64 "$CACHE/busybox") || { echo "fetch-kernels: busybox-static: $why" >&2; exit 1; }
arm64_bb=""

list=$CACHE/kernels.list.tmp
: > "$list"
: > "$CACHE/kernels.skipped"
skip() {   # skip LABEL WHY: this kernel cannot be had here
	echo "fetch-kernels: $1: $2" >&2
	printf '%s\t%s\n' "$1" "$2" >> "$CACHE/kernels.skipped"
}
for pair in $METAS; do
	label=${pair%%=*}
	meta=${pair#*=}
	A=""
	debarch=amd64 arch=x86 q=""
	case $meta in
	*:arm64) debarch=arm64 arch=arm64 q=:arm64 ;;
	esac
	if [ "$arch" = arm64 ] && [ -z "$arm64_bb" ]; then
		arm64_bb=$(busybox arm64 "$CACHE/busybox-arm64" && echo ok) || arm64_bb="busybox-static:arm64: $arm64_bb"
	fi
	if [ "$arch" = arm64 ] && [ "$arm64_bb" != ok ]; then
		skip "$label" "$arm64_bb"
		continue
	fi
	suite=""
	case $meta in
	*/*)
		# (not in $(...): A is set for what follows); its private apt
		# has only the one architecture, the name no ":arm64"
		suite=${meta%%/*}
		suite_apt "$suite" "$debarch" > "$CACHE/apt-why" ||
			{ skip "$label" "$(cat "$CACHE/apt-why")"; continue; }
		meta=${meta#*/}
		meta=${meta%:arm64} q="" ;;
	esac
	# shellcheck disable=SC2086
	dep=$(apt-cache $A show --no-all-versions "$meta" 2>/dev/null | sed -n 's/^Depends: //p' | head -n1 |
		tr ',' '\n' | sed 's/ *(.*//; s/^ *//' | grep '^linux-image-' | head -n1)
	if [ -z "$dep" ]; then
		if [ "$arch" = arm64 ] && [ -z "$suite" ] &&
		   ! dpkg --print-foreign-architectures | grep -qx arm64; then
			skip "$label" "cannot resolve $meta: dpkg has no arm64 architecture (dpkg --add-architecture arm64; apt-get update)"
		else
			skip "$label" "cannot resolve $meta${suite:+ in Debian $suite}"
		fi
		continue
	fi
	img=$dep
	[ -n "$(pkg_version "$dep-unsigned$q")" ] && img=$dep-unsigned
	ver=$(pkg_version "$img$q")
	dir=$CACHE/kernels/$label
	if [ -f "$dir/vmlinuz" ] && [ "$(cat "$dir/PACKAGE" 2>/dev/null)" = "$img$q=$ver" ]; then
		echo "fetch-kernels: $label: $img$q=$ver (cached)" >&2
	else
		echo "fetch-kernels: $label: $meta -> $img$q=$ver" >&2
		deb=$(download "$img$q") || { skip "$label" "cannot download $img$q=$ver"; continue; }
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/x"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp/x" ./boot
		cp "$dir.tmp/x/boot/"vmlinuz-* "$dir.tmp/vmlinuz"
		cp "$dir.tmp/x/boot/"config-* "$dir.tmp/config"
		cp "$dir.tmp/x/boot/"System.map-* "$dir.tmp/System.map"
		rm -rf "$dir.tmp/x"
		echo "$img$q=$ver" > "$dir.tmp/PACKAGE"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$dir/vmlinuz" "$img" "$ver" "$arch" >> "$list"
done
mv "$list" "$CACHE/kernels.list"
[ -s "$CACHE/kernels.list" ] || { echo "fetch-kernels: no kernel can be had" >&2; exit 1; }
cat "$CACHE/kernels.list"
