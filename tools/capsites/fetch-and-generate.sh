#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate the capability-site tables (docs/capsites.md) from Debian's
# kernel source packages:
#   tools/capsites/fetch-and-generate.sh [LABEL...]   (default: all of them)
# Each LABEL's linux-source-LABEL package comes from its suite through a
# private apt configuration under $CACHE (never the host's sources), is
# unpacked once there, and user/facts/capsites/linux-LABEL.tsv rewritten.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${CAPAUDIT_KSRC_CACHE:-/var/tmp/capaudit-ksrc}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# label suite: the suite that ships linux-source-LABEL
KERNELS="5.10:bullseye 6.1:bookworm-security 6.12:bookworm-security 7.2:sid"

suite_url() {
	case $1 in
	*-security) echo "http://deb.debian.org/debian-security $1" ;;
	*) echo "$MIRROR $1" ;;
	esac
}

fetch() {   # fetch LABEL SUITE: the unpacked tree's path on stdout
	local label=$1 suite=$2 d="$CACHE/apt-$2" A deb src="$CACHE/src-$1"
	if [ -f "$src/Makefile" ]; then
		echo "$src"
		return
	fi
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$CACHE/debs"
	touch "$d/status"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(suite_url "$suite") main" \
		>"$d/sources.list"
	A=(-o "Dir::Etc::SourceList=$d/sources.list" -o Dir::Etc::SourceParts=/dev/null
	   -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" -o "Dir::State::status=$d/status"
	   -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null)
	apt-get -qq "${A[@]}" update >&2
	(cd "$CACHE/debs" && apt-get "${A[@]}" download -q -o APT::Sandbox::User=root \
		"linux-source-$label" >&2)
	deb=$(ls -t "$CACHE/debs/linux-source-${label}_"*.deb | head -n 1)
	rm -rf "$src.tmp" && mkdir -p "$src.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*.tar.xz' |
		tar -xJ -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	echo "$src"
}

want() { [ $# -eq 1 ] || printf '%s\n' "${@:2}" | grep -qx "$1"; }
for k in $KERNELS; do
	label=${k%%:*}
	suite=${k#*:}
	want "$label" "$@" || continue
	src=$(fetch "$label" "$suite")
	deb=$(ls -t "$CACHE/debs/linux-source-${label}_"*.deb 2>/dev/null | head -n 1)
	ver=$(dpkg-deb -f "$deb" Version)
	python3 "$ROOT/tools/capsites/gen-capsites.py" "$src" "$label" \
		"Debian linux-source-$label $ver" >"$ROOT/user/facts/capsites/linux-$label.tsv.tmp"
	mv "$ROOT/user/facts/capsites/linux-$label.tsv.tmp" "$ROOT/user/facts/capsites/linux-$label.tsv"
	echo "linux-$label.tsv: $(grep -vc '^#' "$ROOT/user/facts/capsites/linux-$label.tsv") rows"
done
