#!/usr/bin/env bats
# tier: plain (packaging: make install installs the plain build; once)
# make install / make uninstall: the binary, the manual pages, the bash and
# zsh completions, the docs and the examples, under PREFIX and DESTDIR;
# uninstall removes exactly what install put (tools/install.sh has the one
# list). They install the plain build (make's BUILD), so they run in the
# plain pass only.

load helper

setup() {
	e2e_setup
	[ "$CAPAUDIT" -ef "$ROOT/${BUILD:-build}/capaudit" ] ||
		skip "make install installs ${BUILD:-build}/: tested once, with the plain build"
}

# files DIR: every file and symlink below DIR, relative, sorted
files() {
	(cd "$1" && find . \( -type f -o -type l \) | LC_ALL=C sort)
}

# the files make install puts under a prefix, relative to it
expected() {
	echo ./bin/capaudit
	local cmd
	for cmd in $("$CAPAUDIT" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' |
		grep -vx 'version\|help'); do
		echo "./share/man/man8/capaudit-$cmd.8"
	done
	echo ./share/man/man8/capaudit.8
	echo "./share/bash-completion/completions/capaudit"
	echo "./share/zsh/$1/_capaudit"
	echo ./share/doc/capaudit/README.md
	echo ./share/doc/capaudit/BENCHMARKS.md
	# docs/README.md, the index, beside the project's README.md as index.md
	(cd "$ROOT/docs" && ls *.md) | sed 's#^README\.md$#index.md#; s#^#./share/doc/capaudit/#'
	(cd "$ROOT/docs" && ls images/*.png) | sed 's#^#./share/doc/capaudit/#'
	(cd "$ROOT" && git ls-files examples 2>/dev/null || find examples -type f) |
		sed 's#^#./share/doc/capaudit/#'
}

@test "install: DESTDIR stages every file, the binary without group or file capabilities (it says what to run); uninstall empties the tree" {
	run make -C "$ROOT" --no-print-directory -s install DESTDIR="$T/stage"
	[ "$status" -eq 0 ]
	[[ "$output" == *"DESTDIR is set"*"on the target system run:"* ]]
	[[ "$output" == *"groupadd --system capaudit"* ]]
	[[ "$output" == *"chown root:capaudit /usr/local/bin/capaudit && chmod 0750 /usr/local/bin/capaudit"* ]]
	[[ "$output" == *"setcap cap_bpf,cap_perfmon+ep /usr/local/bin/capaudit"* ]]
	diff <(files "$T/stage/usr/local") <(expected site-functions | LC_ALL=C sort)
	[ "$(stat -c %a "$T/stage/usr/local/bin/capaudit")" = 755 ]
	[ -z "$(getcap "$T/stage/usr/local/bin/capaudit")" ]
	# the installed docs link to each other where they are, the unit to the
	# installed binary and docs
	local d=$T/stage/usr/local/share/doc/capaudit
	run grep -c '](docs/' "$d/README.md"
	[ "$output" = 0 ]
	grep -q '](record-format.md)' "$d/README.md"
	# the project's README, not the index over it; its picture and index there
	grep -q '^## Quick start' "$d/README.md"
	grep -q '](images/report.png)' "$d/README.md"
	cmp "$ROOT/docs/images/report.png" "$d/images/report.png"
	grep -q '](index.md)' "$d/README.md"
	grep -q '](usage.md)' "$d/index.md"
	run ! grep -q '](\.\./' "$d/index.md"
	grep -q '](examples/deploy/capaudit-monitor.service)' "$d/monitor.md"
	grep -qx 'Documentation=file:///usr/local/share/doc/capaudit/monitor.md' \
		"$d/examples/deploy/capaudit-monitor.service"
	[ -e "$d/monitor.md" ]
	# where bash-completion and zsh look for them under /usr/local
	XDG_DATA_DIRS=$T/stage/usr/local/share run bash -c \
		'. /usr/share/bash-completion/bash_completion; __load_completion capaudit; complete -p capaudit'
	[ "$output" = "complete -F _capaudit capaudit" ]
	zsh -f -c 'print -l $fpath' | grep -qx /usr/local/share/zsh/site-functions
	run make -C "$ROOT" --no-print-directory -s uninstall DESTDIR="$T/stage"
	[ "$status" -eq 0 ]
	[ -z "$(ls -A "$T/stage")" ]
}

@test "install: PREFIX=/usr puts the completions where Debian's bash-completion and zsh read them" {
	run make -C "$ROOT" --no-print-directory -s install DESTDIR="$T/stage" PREFIX=/usr SETCAP=
	[ "$status" -eq 0 ]
	diff <(files "$T/stage/usr") <(expected vendor-completions | LC_ALL=C sort)
	[ -e "$T/stage$(pkg-config --variable=completionsdir bash-completion)/capaudit" ]
	zsh -f -c 'print -l $fpath' | grep -qx /usr/share/zsh/vendor-completions
	grep -qx 'ExecStart=/usr/bin/capaudit monitor -a -q --interval 60 \\' \
		"$T/stage/usr/share/doc/capaudit/examples/deploy/capaudit-monitor.service"
	grep -qx 'Documentation=file:///usr/share/doc/capaudit/monitor.md' \
		"$T/stage/usr/share/doc/capaudit/examples/deploy/capaudit-monitor.service"
	make -C "$ROOT" --no-print-directory -s uninstall DESTDIR="$T/stage" PREFIX=/usr
	[ -z "$(ls -A "$T/stage")" ]
}

@test "install: on the live system (PREFIX) the same files, the binary root:GROUP 0750 with its capabilities; uninstall removes every one" {
	command -v setcap >/dev/null || skip "setcap is not installed"
	run make -C "$ROOT" --no-print-directory -s install PREFIX="$T/usr" CAPAUDIT_GROUP=nogroup
	[ "$status" -eq 0 ]
	diff <(files "$T/usr") <(expected site-functions | LC_ALL=C sort)
	[ "$(stat -c '%U:%G %a' "$T/usr/bin/capaudit")" = "root:nogroup 750" ]
	[ "$(getcap "$T/usr/bin/capaudit" | sed 's/.* //')" = "cap_perfmon,cap_bpf=ep" ]
	MANPATH=$T/usr/share/man run man -w capaudit-record
	[ "$output" = "$T/usr/share/man/man8/capaudit-record.8" ]
	# a file of the user's own in capaudit's doc directory stays
	touch "$T/usr/share/doc/capaudit/notes.txt"
	run make -C "$ROOT" --no-print-directory -s uninstall PREFIX="$T/usr" CAPAUDIT_GROUP=nogroup
	[ "$status" -eq 0 ]
	[ "$(files "$T/usr")" = "./share/doc/capaudit/notes.txt" ]
	rm "$T/usr/share/doc/capaudit/notes.txt"
	make -C "$ROOT" --no-print-directory -s uninstall PREFIX="$T/usr" CAPAUDIT_GROUP=nogroup
	# on a live system only capaudit's own directories go; bin/, man8/ and
	# the completion directories are others' too
	[ -z "$(files "$T/usr")" ]
	[ ! -e "$T/usr/share/doc/capaudit" ]
	[ -d "$T/usr/bin" ]
}
