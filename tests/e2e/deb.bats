#!/usr/bin/env bats
# tier: plain (packaging: the package holds the plain build; once)
# make deb: the Debian package builds (debhelper, in build/deb), lintian
# finds no error and no warning, and installed with apt-get it is what
# make install makes: /usr/bin/capaudit root:capaudit 0750 with
# cap_bpf,cap_perfmon+ep (postinst: the group, a dpkg-statoverride,
# setcap), the manual pages found by man, the completions where the shells
# read them; a member of the group records; purge leaves nothing behind
# (files, the override, the group). The machine is left as it was: the
# package purged, the test's user removed, whatever happens. The tests run
# in order and build on each other; they need root and apt-get, and run in
# the plain pass only (the package builds its own binary).

load helper

DEB_USER=capaudit-debtest

setup_file() {
	VERSION=$(sed -n 's/^VERSION *:= *//p' "$ROOT/Makefile")
	DEB=$ROOT/${BUILD:-build}/capaudit_${VERSION}_$(dpkg --print-architecture 2>/dev/null).deb
	export VERSION DEB
}

setup() {
	e2e_setup
	[ "$CAPAUDIT" -ef "$ROOT/${BUILD:-build}/capaudit" ] ||
		skip "the package builds its own binary: tested once, in the plain pass"
	command -v apt-get >/dev/null && command -v dpkg-buildpackage >/dev/null ||
		skip "not a Debian system with dpkg-dev"
	(cd "$ROOT" && dpkg-checkbuilddeps) 2>/dev/null ||
		skip "the package's build dependencies are missing (tools/deps.sh installs them)"
	# a capaudit the test did not install, or a group it would purge
	if [ ! -e "$BATS_FILE_TMPDIR/installed-here" ]; then
		! dpkg-query -W -f='${Status}' capaudit 2>/dev/null | grep -q installed ||
			skip "the capaudit package is installed here: not touched"
		[ ! -e /usr/bin/capaudit ] || skip "/usr/bin/capaudit exists: not touched"
		! getent group capaudit >/dev/null ||
			skip "the group capaudit exists here (make install?): purge would remove it"
		! getent passwd "$DEB_USER" >/dev/null || skip "the user $DEB_USER exists here"
	fi
}

teardown() {
	e2e_teardown
}

# whatever happened: no package, no user
teardown_file() {
	getent passwd "$DEB_USER" >/dev/null && userdel "$DEB_USER"
	if [ -e "$BATS_FILE_TMPDIR/installed-here" ] &&
		dpkg-query -W -f='${Status}' capaudit 2>/dev/null | grep -q 'ok installed\|config-files'; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq capaudit >/dev/null 2>&1
	fi
	return 0
}

@test "deb: make deb builds build/capaudit_VERSION_ARCH.deb, lintian clean (no error, no warning)" {
	local start=$SECONDS
	run make -C "$ROOT" --no-print-directory deb
	echo "$output"
	[ "$status" -eq 0 ]
	[ -s "$DEB" ]
	echo "# make deb: $((SECONDS - start)) s" >&3
	# make deb ran lintian, which failed it on an error or a warning
	[[ "$output" == *"  LINTIAN  "* ]]
	[ "$(dpkg-deb -f "$DEB" Package Version Architecture | tr '\n' ' ')" = \
		"Package: capaudit Version: $VERSION Architecture: $(dpkg --print-architecture) " ]
}

@test "deb: apt-get installs it: root:capaudit 0750, cap_bpf,cap_perfmon+ep, pages, completions" {
	[ -s "$DEB" ] || skip "no package (the build failed)"
	dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$BATS_FILE_TMPDIR/packages-before"
	touch "$BATS_FILE_TMPDIR/installed-here"
	run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$DEB"
	echo "$output"
	[ "$status" -eq 0 ]
	# nothing but capaudit itself (its dependencies are the build's)
	dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$T/after"
	[ "$(comm -13 "$BATS_FILE_TMPDIR/packages-before" "$T/after")" = capaudit ]
	[ "$(stat -c '%U:%G %a' /usr/bin/capaudit)" = "root:capaudit 750" ]
	[ "$(getcap /usr/bin/capaudit | sed 's/.* //')" = "cap_perfmon,cap_bpf=ep" ]
	[ "$(dpkg-statoverride --list /usr/bin/capaudit)" = "root capaudit 750 /usr/bin/capaudit" ]
	getent group capaudit
	[ "$(man -w capaudit)" = /usr/share/man/man8/capaudit.8.gz ]
	[ "$(man -w capaudit-record)" = /usr/share/man/man8/capaudit-record.8.gz ]
	MANWIDTH=80 man capaudit-record | grep -q -- '--attach MODE\[,MODE...\]'
	run bash -c '. /usr/share/bash-completion/bash_completion; __load_completion capaudit; complete -p capaudit'
	[ "$output" = "complete -F _capaudit capaudit" ]
	run zsh -f -c 'autoload -Uz compinit; compinit -u -D; print -r -- $_comps[capaudit]'
	[ "$output" = _capaudit ]
	[ -e /usr/share/doc/capaudit/monitor.md ]
	grep -qx 'ExecStart=/usr/bin/capaudit monitor -a -q --interval 60 \\' \
		/usr/share/doc/capaudit/examples/deploy/capaudit-monitor.service
	[ "$(/usr/bin/capaudit --version)" = "capaudit $VERSION" ]
}

@test "deb: a member of capaudit records; others cannot run it" {
	[ -e /usr/bin/capaudit ] || skip "not installed"
	useradd --system --no-create-home --shell /bin/sh --groups capaudit "$DEB_USER"
	chmod 1777 "$T"
	cd /
	run runuser -u "$DEB_USER" -- capaudit record -q -o "$T/x.jsonl" -- true
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report -i "$T/x.jsonl" --format json >"$T/rep.json"
	[ "$(jqr '[.processes[].comm] | index("true") != null')" = true ]
	[ "$(jqr '.processes[] | select(.comm == "true") | .uid')" = "$(id -u "$DEB_USER")" ]
	run runuser -u nobody -- /usr/bin/capaudit version
	[ "$status" -ne 0 ]
	[[ "$output" == *"Permission denied"* ]]
	userdel "$DEB_USER"
}

@test "deb: apt-get purge leaves nothing: files, the statoverride, the group" {
	[ -e "$BATS_FILE_TMPDIR/installed-here" ] || skip "not installed by this test"
	dpkg -L capaudit >"$T/files"
	run env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q capaudit
	echo "$output"
	[ "$status" -eq 0 ]
	run dpkg -L capaudit
	[ "$status" -ne 0 ]
	run dpkg-query -W -f='${Status}' capaudit
	[[ "$output" != *installed* ]]
	[[ "$output" != *config-files* ]]
	run getent group capaudit
	[ "$status" -ne 0 ]
	[ -z "$(dpkg-statoverride --list /usr/bin/capaudit)" ]
	[ ! -e /usr/share/doc/capaudit ]
	local f
	while IFS= read -r f; do
		case $f in /usr/share/doc/capaudit* | /usr/bin/capaudit | */capaudit* | */_capaudit)
			[ ! -e "$f" ] || { echo "left behind: $f"; return 1; } ;;
		esac
	done <"$T/files"
	dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$T/after"
	diff "$BATS_FILE_TMPDIR/packages-before" "$T/after"
	rm "$BATS_FILE_TMPDIR/installed-here"
}
