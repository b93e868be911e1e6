#!/bin/sh
# make deb: build/capaudit_VERSION_ARCH.deb with debhelper (debian/), then
# lintian on it. The package is built in a copy of the tree,
# BUILD/deb/capaudit-VERSION/ (git's files when this is a checkout, the
# working tree's content), so that dh's clean step never touches the
# working tree's build directories and dpkg-buildpackage's outputs, which
# it writes to the parent directory, stay in BUILD/deb/.
#   BUILD=build VERSION=x.y.z tools/build-deb.sh
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
VERSION=${VERSION:?set VERSION (make deb does)}

for t in dpkg-buildpackage dpkg-parsechangelog dh; do
	command -v "$t" >/dev/null || {
		echo "capaudit: make deb needs $t (apt-get install dpkg-dev debhelper)" >&2
		exit 1
	}
done
# one version: the package's (debian/changelog) is the Makefile's
cl=$(dpkg-parsechangelog -S Version)
if [ "$cl" != "$VERSION" ]; then
	echo "capaudit: debian/changelog is at $cl, the Makefile's VERSION is $VERSION:" \
		"add a changelog entry (dch -v $VERSION)" >&2
	exit 1
fi
dpkg-checkbuilddeps || {
	echo "capaudit: make deb: missing build dependencies (tools/deps.sh installs them)" >&2
	exit 1
}

top=$BUILD/deb
src=$top/capaudit-$VERSION
rm -rf "$top"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# tracked and new files, as they are now (a deleted one is left out)
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar -c --null -T - -f - | tar -x -C "$src"
else
	tar -c --exclude='./build*' --exclude=./.git -f - . | tar -x -C "$src"
fi

arch=$(dpkg --print-architecture)
deb=capaudit_${VERSION}_$arch.deb
echo "  DEB      $BUILD/$deb"
log=$top/build.log
if ! (cd "$src" && dpkg-buildpackage -us -uc -b -j"${JOBS:-2}") >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "capaudit: dpkg-buildpackage failed; the whole log: $log" >&2
	exit 1
fi
cp "$top/$deb" "$BUILD/$deb"

if command -v lintian >/dev/null; then
	echo "  LINTIAN  $BUILD/$deb"
	# errors and warnings fail; each tag debian/ overrides says why
	lintian --allow-root --fail-on error,warning --display-info "$BUILD/$deb"
else
	echo "capaudit: lintian is not installed: $BUILD/$deb not checked" >&2
fi
