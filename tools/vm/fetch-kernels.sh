#!/bin/sh
# Fetch the guest kernels (and busybox-static) for the kernel matrix.
#
#   tools/vm/fetch-kernels.sh         # default matrix: 6.1 and 6.12 cloud kernels
#   METAS="6.1=linux-image-cloud-amd64" tools/vm/fetch-kernels.sh
#   NO_UPDATE=1 tools/vm/fetch-kernels.sh  # skip apt-get update (offline re-run)
#
# Resolves each meta package (its Depends: names the concrete, ABI-numbered
# image package), downloads the "-unsigned" variant of that image when apt
# offers it (same build, no Authenticode signature; falls back to the signed
# one) with `apt-get download`, and unpacks only ./boot from it with
# `dpkg-deb --fsys-tarfile` (never installed on the host). Modules are not
# needed: the cloud kernels have everything the harness uses built in.
#
# Cache in $CAPAUDIT_VM_CACHE (default /var/cache/capaudit-vm; idempotent:
# an existing vmlinuz is not fetched again). Prints kernels.list; a non-zero
# exit means the kernels cannot be had here (vmtest skips, with the reason).
#   cache/debs/*.deb
#   cache/kernels/<label>/vmlinuz, config, System.map, PACKAGE (name=version)
#   cache/busybox/busybox       (from busybox-static, unpacked, not installed)
#   cache/kernels.list          label<TAB>vmlinuz<TAB>package<TAB>version
set -eu

CACHE=${CAPAUDIT_VM_CACHE:-/var/cache/capaudit-vm}
# label=meta-package pairs; the 6.12 kernel for bookworm comes from
# bookworm-security (source package linux-6.12), meta linux-image-6.12-cloud-amd64.
METAS=${METAS:-"6.1=linux-image-cloud-amd64 6.12=linux-image-6.12-cloud-amd64"}

mkdir -p "$CACHE/debs" "$CACHE/kernels" "$CACHE/busybox"

if [ -z "${NO_UPDATE:-}" ]; then
	# apt-cache needs fresh lists; cheap when nothing changed.
	apt-get update -qq >/dev/null 2>&1 || echo "fetch-kernels: apt-get update failed, using old lists" >&2
fi

# pkg_version NAME -> candidate version (empty if unknown to apt)
pkg_version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -n1
}

# download NAME -> path of the .deb in cache/debs
download() {
	name=$1
	ver=$(pkg_version "$name")
	[ -n "$ver" ] || { echo "fetch-kernels: apt knows no package $name" >&2; return 1; }
	# apt-get download names files NAME_VERSION_ARCH.deb with ':' as %3a
	f=$(ls "$CACHE/debs/${name}_"*.deb 2>/dev/null | grep -F "_$(echo "$ver" | sed 's/:/%3a/')_" | head -n1 || true)
	if [ -z "$f" ]; then
		(cd "$CACHE/debs" && apt-get download -q -o APT::Sandbox::User=root "$name=$ver" >/dev/null) || return 1
		f=$(ls "$CACHE/debs/${name}_"*.deb | grep -F "_$(echo "$ver" | sed 's/:/%3a/')_" | head -n1)
	fi
	echo "$f"
}

list=$CACHE/kernels.list.tmp
: > "$list"
for pair in $METAS; do
	label=${pair%%=*}
	meta=${pair#*=}
	dep=$(apt-cache show --no-all-versions "$meta" 2>/dev/null | sed -n 's/^Depends: //p' | head -n1 |
		tr ',' '\n' | sed 's/ *(.*//; s/^ *//' | grep '^linux-image-' | head -n1)
	[ -n "$dep" ] || { echo "fetch-kernels: cannot resolve $meta" >&2; exit 1; }
	img=$dep
	[ -n "$(pkg_version "$dep-unsigned")" ] && img=$dep-unsigned
	ver=$(pkg_version "$img")
	dir=$CACHE/kernels/$label
	if [ -f "$dir/vmlinuz" ] && [ "$(cat "$dir/PACKAGE" 2>/dev/null)" = "$img=$ver" ]; then
		echo "fetch-kernels: $label: $img=$ver (cached)" >&2
	else
		echo "fetch-kernels: $label: $meta -> $img=$ver" >&2
		deb=$(download "$img")
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/x"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp/x" ./boot
		cp "$dir.tmp/x/boot/"vmlinuz-* "$dir.tmp/vmlinuz"
		cp "$dir.tmp/x/boot/"config-* "$dir.tmp/config"
		cp "$dir.tmp/x/boot/"System.map-* "$dir.tmp/System.map"
		rm -rf "$dir.tmp/x"
		echo "$img=$ver" > "$dir.tmp/PACKAGE"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	printf '%s\t%s\t%s\t%s\n' "$label" "$dir/vmlinuz" "$img" "$ver" >> "$list"
done
mv "$list" "$CACHE/kernels.list"

# busybox-static: unpacked from its .deb (installing it would replace the
# host's busybox package).
bbver=$(pkg_version busybox-static)
if [ ! -x "$CACHE/busybox/busybox" ] || [ "$(cat "$CACHE/busybox/PACKAGE" 2>/dev/null)" != "busybox-static=$bbver" ]; then
	deb=$(download busybox-static)
	rm -rf "$CACHE/busybox.tmp" && mkdir -p "$CACHE/busybox.tmp/x"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$CACHE/busybox.tmp/x" ./bin/busybox
	mv "$CACHE/busybox.tmp/x/bin/busybox" "$CACHE/busybox.tmp/busybox"
	rm -rf "$CACHE/busybox.tmp/x"
	echo "busybox-static=$bbver" > "$CACHE/busybox.tmp/PACKAGE"
	rm -rf "$CACHE/busybox" && mv "$CACHE/busybox.tmp" "$CACHE/busybox"
fi
echo "fetch-kernels: busybox-static=$bbver" >&2
cat "$CACHE/kernels.list"
