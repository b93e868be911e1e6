#!/usr/bin/env bats
# tier: plain (installs and removes a Debian package, hello: once, in the plain pass)
# tools/deps.sh installs what a target misses, and while it does no
# package starts or restarts a service: it puts a stand-in
# /usr/sbin/policy-rc.d in place (invoke-rc.d(8): 101, "not allowed").
# Killed with SIGKILL, it cannot remove it: the next run (any target) must
# tell that stand-in from an admin's own file and remove it, and never
# touch the admin's. A host with its own policy-rc.d keeps it: there the
# stand-in's path is one in the test's directory (CAPAUDIT_POLICY_RC_D,
# for this test), and the admin's file is checked to be the same
# throughout. The package is real (hello: 60 kB, no service, no
# dependency but libc), installed from the host's sources and purged.

load helper

PKG=hello

setup() {
	e2e_setup
	command -v apt-get >/dev/null || skip "not a Debian system"
	if [ ! -e "$BATS_FILE_TMPDIR/installed-here" ]; then
		! dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q installed ||
			skip "$PKG is installed here: not touched"
		apt-cache show "$PKG" >/dev/null 2>&1 || skip "no $PKG package in this host's sources"
		(cd "$T" && apt-get download -qq "$PKG" >/dev/null 2>&1) ||
			skip "cannot download $PKG from this host's sources (no network?)"
	fi
	ADMIN=/usr/sbin/policy-rc.d
	if [ -e "$ADMIN" ] || [ -L "$ADMIN" ]; then
		# the host's own: the stand-in goes beside the test instead
		POLICY=$T/policy-rc.d
		ADMIN_SUM=$(stat -c '%i %Y %s %a' "$ADMIN")$(sha256sum <"$ADMIN")
		export CAPAUDIT_POLICY_RC_D=$POLICY
	else
		POLICY=$ADMIN
		ADMIN=
	fi
}

teardown() {
	[ -n "${DPID:-}" ] && kill -KILL "$DPID" 2>/dev/null
	# whatever happened: the apt-get it started has ended, the package is gone
	[ -n "${APT_PID:-}" ] && wait_for 300 sh -c "! kill -0 $APT_PID 2>/dev/null"
	purge
	# at the real path: a stand-in, or the admin's file this test wrote
	if [ -z "$ADMIN" ] && { grep -qs "capaudit" "$POLICY" || [ -e "$T/wrote-policy" ]; }; then
		rm -f "$POLICY"
	fi
	e2e_teardown
}

purge() {
	[ -e "$BATS_FILE_TMPDIR/installed-here" ] &&
		dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'ok installed\|config-files' &&
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "$PKG" \
			>/dev/null 2>&1
	return 0
}

# the admin's file, if any, is as it was
admin_untouched() {
	[ -z "$ADMIN" ] || [ "$(stat -c '%i %Y %s %a' "$ADMIN")$(sha256sum <"$ADMIN")" = "$ADMIN_SUM" ]
}

@test "deps.sh killed with SIGKILL while its stand-in policy-rc.d is in place: the next run removes it; an admin's is never touched" {
	touch "$BATS_FILE_TMPDIR/installed-here"
	"$ROOT/tools/deps.sh" build "$PKG" >"$T/d1.out" 2>&1 &
	DPID=$!
	# its stand-in is there while it installs: killed then, it cannot clean up
	wait_for 300 test -e "$POLICY" || { cat "$T/d1.out"; false; }
	kill -KILL "$DPID"
	wait "$DPID" 2>/dev/null || true
	DPID=
	# (its apt-get, if it had started, goes on: killed mid-install it would
	# leave dpkg broken)
	APT_PID=$(pgrep -f "apt-get install .*--no-install-recommends .*$PKG\$" || true)
	[ -z "$APT_PID" ] || wait_for 300 sh -c "! kill -0 $APT_PID 2>/dev/null"
	[ -e "$POLICY" ]
	admin_untouched
	# the next run, with the package to install again: the stale stand-in
	# is taken for what it is, its own put in place and removed at its end
	purge
	run "$ROOT/tools/deps.sh" build "$PKG"
	echo "$output"
	[ "$status" -eq 0 ]
	dpkg-query -W -f='${Status}' "$PKG" | grep -q 'ok installed'
	[ ! -e "$POLICY" ]
	admin_untouched
	# a stale one is removed by any run as root, even one with nothing to
	# install (it stops every later install's services on this host)
	printf '#!/bin/sh\n# capaudit tools/deps.sh stand-in: pid 999999999 start 1 boot %s\nexit 101\n' \
		"$(cat /proc/sys/kernel/random/boot_id)" >"$POLICY"
	run "$ROOT/tools/deps.sh" build "$PKG"
	[ "$status" -eq 0 ]
	[[ "$output" == "capaudit: removed $POLICY, a stand-in left by a tools/deps.sh that was killed: package installs start services again" ]]
	[ ! -e "$POLICY" ]
	admin_untouched
	# an admin's file (where the host has one: at the test's path), the
	# same words the stand-in once had, without its mark; and one of a
	# run that still runs (this shell's): both left as they are
	touch "$T/wrote-policy"
	local f before
	for f in '#!/bin/sh\nexit 101\n' \
		"#!/bin/sh\n# capaudit tools/deps.sh stand-in: pid $$ start $(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20) boot $(cat /proc/sys/kernel/random/boot_id)\nexit 101\n"; do
		printf "$f" >"$POLICY"
		chmod 755 "$POLICY"
		before=$(stat -c '%i %Y %s %a' "$POLICY")$(sha256sum <"$POLICY")
		run "$ROOT/tools/deps.sh" build "$PKG"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
		[ "$(stat -c '%i %Y %s %a' "$POLICY")$(sha256sum <"$POLICY")" = "$before" ]
	done
	admin_untouched
}
