#!/bin/sh
# make install / make uninstall: one list of files (install_list), so that
# uninstall removes exactly what install puts.
#   tools/install.sh install|uninstall
# with the Makefile's variables in the environment: BUILD DESTDIR PREFIX
# BINDIR MANDIR DOCDIR BASHCOMPDIR ZSHCOMPDIR CAPAUDIT_GROUP SETCAP.
#
# The binary gets (unless SETCAP is empty) the file capabilities
# cap_bpf,cap_perfmon+ep, given only to a group: root:GROUP, mode 0750 (the
# policy of the kernel's Documentation/admin-guide/perf-security.rst for
# CAP_PERFMON). The group is created (a system group) when it does not
# exist. With DESTDIR (a staging tree, a package build) none of that is
# done: the binary is staged 0755 and the commands to run on the target are
# printed (the Debian package's postinst runs them).
set -eu
action=$1
: "${DESTDIR:=}" "${CAPAUDIT_GROUP=capaudit}" "${SETCAP=setcap}"
cd "$(dirname "$0")/.."

# install_list: "MODE SOURCE DEST FILTER" lines, DEST without DESTDIR;
# FILTER is how the file is copied (cp, readme, doc, unit). The manual
# pages are the ones the build made (tools/cligen.py, one per command);
# uninstall, which may run without a build, finds them where they are.
install_list() {
	if [ "$action" = install ]; then
		for f in "$BUILD"/man/man8/capaudit*.8; do
			echo "0644 $f $MANDIR/man8/${f##*/} cp"
		done
	else
		for f in "$DESTDIR$MANDIR"/man8/capaudit.8 "$DESTDIR$MANDIR"/man8/capaudit-*.8; do
			[ -e "$f" ] && echo "0644 - $MANDIR/man8/${f##*/} cp"
		done
	fi
	echo "0644 $BUILD/completion/capaudit $BASHCOMPDIR/capaudit cp"
	echo "0644 $BUILD/completion/_capaudit $ZSHCOMPDIR/_capaudit cp"
	echo "0644 README.md $DOCDIR/README.md readme"
	echo "0644 BENCHMARKS.md $DOCDIR/BENCHMARKS.md cp"
	# docs/README.md, the documents' index, is index.md there: README.md
	# is the project's
	for f in docs/*.md; do
		case $f in
		docs/README.md) echo "0644 $f $DOCDIR/index.md doc" ;;
		*) echo "0644 $f $DOCDIR/${f#docs/} doc" ;;
		esac
	done
	for f in docs/images/*.png; do
		echo "0644 $f $DOCDIR/images/${f#docs/images/} cp"
	done
	# the examples/ tree as it is in git (no build products)
	find examples -type f | LC_ALL=C sort | while IFS= read -r f; do
		case $f in
		examples/deploy/*.service) echo "0644 $f $DOCDIR/$f unit" ;;
		*) echo "0644 $f $DOCDIR/$f cp" ;;
		esac
	done
}

# copy FILTER SRC DEST: the installed copy. The docs are flat in DOCDIR
# (README.md's docs/X.md is X.md there, its docs/README.md index.md; docs'
# ../examples is examples, their README.md, the index, index.md);
# the systemd unit names the binary and docs where they are installed.
copy() {
	case $1 in
	cp) cat "$2" ;;
	readme) sed -e 's#](docs/README\.md)#](index.md)#g' -e 's#](docs/#](#g' "$2" ;;
	doc) sed -e 's#](README\.md)#](index.md)#g' -e 's#](\.\./#](#g' "$2" ;;
	unit) sed -e "s#/usr/local/share/doc/capaudit#$DOCDIR#g" \
		-e "s#/usr/local/bin/capaudit#$BINDIR/capaudit#g" "$2" ;;
	esac >"$3"
}

# the directories install creates files in, deepest first
dirs() {
	install_list | while read -r _ _ dest _; do dirname "$dest"; done
	echo "$BINDIR"
	echo "$MANDIR/man8"
}

# prune DIR: remove DIR and its parents while empty. In a staging tree
# (DESTDIR) up to DESTDIR itself; on the live system only capaudit's own
# directory (DOCDIR and below), never bin/ or man8/ that others use.
prune() {
	d=$1
	while [ "$d" != / ] && [ "$d" != . ]; do
		if [ -z "$DESTDIR" ]; then
			case $d in "$DOCDIR" | "$DOCDIR"/*) ;; *) return 0 ;; esac
		fi
		rmdir "$DESTDIR$d" 2>/dev/null || return 0
		d=$(dirname "$d")
	done
}

install_binary() {
	bin=$DESTDIR$BINDIR/capaudit
	if [ -n "$SETCAP" ] && [ -z "$CAPAUDIT_GROUP" ]; then
		echo "capaudit: make install: refusing to give file capabilities without a group:" \
			"set CAPAUDIT_GROUP=NAME (default capaudit), or SETCAP= for none" >&2
		exit 1
	fi
	install -D -m 0755 "$BUILD/capaudit" "$bin"
	[ -z "$SETCAP" ] && return 0
	if [ -n "$DESTDIR" ]; then
		echo "capaudit: DESTDIR is set: $bin is staged with mode 0755 and without file" \
			"capabilities (a staging tree is packaged, not run); on the target system run:"
		echo "  getent group $CAPAUDIT_GROUP >/dev/null || groupadd --system $CAPAUDIT_GROUP"
		echo "  chown root:$CAPAUDIT_GROUP $BINDIR/capaudit && chmod 0750 $BINDIR/capaudit"
		echo "  $SETCAP cap_bpf,cap_perfmon+ep $BINDIR/capaudit"
		return 0
	fi
	if ! getent group "$CAPAUDIT_GROUP" >/dev/null; then
		groupadd --system "$CAPAUDIT_GROUP"
		echo "capaudit: created the system group $CAPAUDIT_GROUP"
	fi
	# owner and group first: changing them clears file capabilities
	chown "root:$CAPAUDIT_GROUP" "$bin"
	chmod 0750 "$bin"
	"$SETCAP" cap_bpf,cap_perfmon+ep "$bin"
	echo "capaudit: installed $bin (root:$CAPAUDIT_GROUP, 0750, cap_bpf,cap_perfmon+ep):" \
		"members of $CAPAUDIT_GROUP may record; add a user with: usermod -aG $CAPAUDIT_GROUP USER"
}

case $action in
install)
	ls "$BUILD"/man/man8/capaudit.8 "$BUILD"/completion/capaudit "$BUILD"/completion/_capaudit \
		>/dev/null
	install_list | while read -r mode src dest filter; do
		install -d -m 0755 "$DESTDIR$(dirname "$dest")"
		copy "$filter" "$src" "$DESTDIR$dest.tmp"
		chmod "$mode" "$DESTDIR$dest.tmp"
		mv -f "$DESTDIR$dest.tmp" "$DESTDIR$dest"
	done
	install_binary
	;;
uninstall)
	install_list | while read -r _ _ dest _; do
		rm -f "$DESTDIR$dest"
	done
	rm -f "$DESTDIR$BINDIR/capaudit"
	dirs | LC_ALL=C sort -ru | while IFS= read -r d; do
		prune "$d"
	done
	if [ -z "$DESTDIR" ] && [ -n "$CAPAUDIT_GROUP" ] && getent group "$CAPAUDIT_GROUP" >/dev/null; then
		echo "capaudit: removed from $PREFIX; the group $CAPAUDIT_GROUP stays" \
			"(if install created it and nothing else uses it: groupdel $CAPAUDIT_GROUP)"
	fi
	;;
*)
	echo "usage: tools/install.sh install|uninstall" >&2
	exit 2
	;;
esac
