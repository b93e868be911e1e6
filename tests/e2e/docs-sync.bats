#!/usr/bin/env bats
# tier: check (pages and completions: no root, no kernel, no waiting)
# The manual pages and the shell completions cannot leave an option out, as
# bpftool's test_bpftool_synctypes.py holds bpftool's: for every command
# `capaudit help` lists and every option of its table (--list-options=full,
# user/cli/options.h), the option is explained in its --help, has an entry
# in capaudit-COMMAND(8)'s OPTIONS, and is offered by the bash and the zsh
# completion, which offer for its argument the words the table gives (attach
# modes, capabilities, formats, ...) or files. The pages and completions are
# the ones the build made beside $CAPAUDIT (build/man, build/completion);
# where there are none (the ASan pass builds only the binary) they are
# generated here from $CAPAUDIT, as make does (tools/cligen.py). A mutation
# test shows every check failing without one option. The README starts with
# the two commands a fresh machine runs (make demo, make test: CI's
# command) and stays short; every page of docs/ is in its index
# (docs/README.md), and no link of the README or docs/ leads nowhere
# (doclinks.py); the quick start's output is quickstart.bats's (root). No
# root, no kernel.

bats_require_minimum_version 1.5.0

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
CAPAUDIT=${CAPAUDIT:-$ROOT/build/capaudit}
BCOMPLETE=$BATS_TEST_DIRNAME/bcomplete.bash
ZCOMPLETE=$BATS_TEST_DIRNAME/zcomplete.zsh

setup_file() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	local dir
	dir=$(dirname "$CAPAUDIT")
	if [ -e "$dir/man/man8/capaudit.8" ] && [ -e "$dir/completion/capaudit" ] &&
		[ -e "$dir/completion/_capaudit" ]; then
		GEN=$dir
	else
		GEN=$BATS_FILE_TMPDIR/gen
		mkdir -p "$GEN/man/man8" "$GEN/completion"
		python3 "$ROOT/tools/cligen.py" man "$CAPAUDIT" "$ROOT/man" "$GEN/man/man8"
		python3 "$ROOT/tools/cligen.py" bash "$CAPAUDIT" "$GEN/completion/capaudit"
		python3 "$ROOT/tools/cligen.py" zsh "$CAPAUDIT" "$GEN/completion/_capaudit"
	fi
	export GEN
	# every option of every command: "CMD<TAB>--list-options=full's option fields"
	local cmd
	for cmd in $(commands); do
		"$CAPAUDIT" "$cmd" --list-options=full | sed -n "s/^option\t/$cmd\t/p"
	done >"$BATS_FILE_TMPDIR/table"
	# files for FILE, DIR and unit file arguments and operands
	mkdir -p "$BATS_FILE_TMPDIR/files/sub"
	touch "$BATS_FILE_TMPDIR/files/a.jsonl" "$BATS_FILE_TMPDIR/files/x.service"
}

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-docs.XXXXXX")
	TABLE=$BATS_FILE_TMPDIR/table
	F=$BATS_FILE_TMPDIR/files
}

teardown() {
	rm -rf "$T"
}

# The commands with options: those `capaudit help` lists, but version and help.
commands() {
	"$CAPAUDIT" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' |
		grep -vx 'version\|help'
}

# options CMD: "LONG SHORT KIND" for each option of CMD (SHORT "-" if none)
options() {
	awk -F'\t' -v c="$1" '$1 == c { split($5, k, " "); print $2, ($3 == "" ? "-" : $3), k[1] }' "$TABLE"
}

# words CMD LONG: the words the table gives for the argument, one a line
words() {
	awk -F'\t' -v c="$1" -v o="$2" '$1 == c && $2 == o {
		n = split($5, k, " "); for (i = 2; i <= n; i++) print k[i] }' "$TABLE" | LC_ALL=C sort -u
}

# answer OUT LINE: the matches OUT (a helper's output) gives for LINE
answer() {
	awk -v q="== $2" '$0 == q { on = 1; next } /^== / { on = 0 } on' "$1"
}

# --help: every option on a line of its own ("  -x, --long" or "      --long")
check_help() { # CMD HELPFILE
	local long short kind
	while read -r long short kind; do
		if [ "$short" = - ]; then
			grep -qE -- "^      $long( |\$)" "$2"
		else
			grep -qE -- "^  $short, $long( |\$)" "$2"
		fi || { echo "$1 --help does not show $short $long"; return 1; }
	done < <(options "$1")
}

# the page: an entry of OPTIONS whose head names the option (both forms),
# followed by its explanation
check_man() { # CMD PAGE
	local long short kind head
	while read -r long short kind; do
		head="\\fB${long//-/\\-}\\fR"
		[ "$short" = - ] || head="\\fB${short//-/\\-}\\fR, $head"
		HEAD=$head awk '
			BEGIN { h = ENVIRON["HEAD"] }
			/^\.SH / { opts = ($0 == ".SH OPTIONS") }
			opts && prev == ".TP" && (substr($0, 1, length(h)) == h) &&
				(length($0) == length(h) || substr($0, length(h) + 1, 1) == " ") { found = 1; getline; ok = ($0 !~ /^\./ && $0 != "") }
			{ prev = $0 }
			END { exit !(found && ok) }' "$2" ||
			{ echo "$2 has no OPTIONS entry for $short $long"; return 1; }
	done < <(options "$1")
}

# queries CMD [long]: the command lines asked of the completions for CMD:
# its options, each option's argument (given after its long form only with
# "long": zsh's option specs name both forms at once, and its answers are
# slow)
queries() {
	local long short kind
	echo "capaudit $1 -"
	while read -r long short kind; do
		for o in $long $short; do
			[ "$o" = - ] && continue
			[ "${2:-}" = long ] && [ "$o" = "$short" ] && continue
			case $kind in
			one | list | text) echo "capaudit $1 $o " ;;
			file | dir | unitfile) echo "capaudit $1 $o $F/" ;;
			user) echo "capaudit $1 $o roo" ;;
			pids) echo "capaudit $1 $o " ;;
			esac
		done
	done < <(options "$1")
}

# check_completion CMD OUT SHELL: OUT (the helper's answers to queries CMD,
# for zsh with "long") offers every option, and for each argument what its
# kind calls for
check_completion() {
	local long short kind o got want offered
	offered=$(answer "$2" "capaudit $1 -")
	while read -r long short kind; do
		for o in $long $short; do
			[ "$o" = - ] && continue
			grep -qx -- "$o" <<<"$offered" ||
				{ echo "$3: capaudit $1 - does not offer $o"; return 1; }
			[ "$3" = zsh ] && [ "$o" = "$short" ] && continue
			case $kind in
			one | list)
				got=$(answer "$2" "capaudit $1 $o " | LC_ALL=C sort -u)
				want=$(words "$1" "$long")
				[ "$got" = "$want" ] ||
					{ echo "$3: capaudit $1 $o: offers '$got', not '$want'"; return 1; } ;;
			text)
				got=$(answer "$2" "capaudit $1 $o ")
				[ -z "$got" ] || { echo "$3: capaudit $1 $o (any text): offers '$got'"; return 1; } ;;
			file | dir | unitfile)
				got=$(answer "$2" "capaudit $1 $o $F/")
				case $kind in
				file) want="a.jsonl sub x.service" ;;
				dir) want="sub" ;;
				unitfile) want="sub x.service" ;;
				esac
				[ "$(sed 's#.*/\([^/]\)#\1#; s#/$##' <<<"$got" | LC_ALL=C sort -u | xargs)" = "$want" ] ||
					{ echo "$3: capaudit $1 $o $F/: offers '$got', not $want"; return 1; } ;;
			user)
				grep -qx root <<<"$(answer "$2" "capaudit $1 $o roo")" ||
					{ echo "$3: capaudit $1 $o roo: no root"; return 1; } ;;
			pids)
				# bash: every pid; zsh's _pids: those of its terminal
				got=$(answer "$2" "capaudit $1 $o ")
				if [ "$3" = bash ]; then
					grep -qx 1 <<<"$got"
				else
					[ -n "$got" ] && ! grep -qv '^[0-9][0-9]*$' <<<"$got"
				fi || { echo "$3: capaudit $1 $o: offers '$got'"; return 1; } ;;
			esac
		done
	done < <(options "$1")
}

# complete_all bash|zsh FILE OUT: the completion FILE's answers to every
# command's queries, and to the commands' own line, into OUT
complete_all() {
	local cmd
	{
		echo "capaudit "
		for cmd in $(commands); do
			if [ "$1" = zsh ]; then queries "$cmd" long; else queries "$cmd"; fi
		done
	} >"$T/queries"
	if [ "$1" = bash ]; then
		bash "$BCOMPLETE" "$2" <"$T/queries" >"$3"
	else
		mkdir -p "$T/zdir"
		cp "$2" "$T/zdir/_capaudit"
		(cd "$T" && timeout 120 zsh -f "$ZCOMPLETE" "$T/zdir") <"$T/queries" >"$3"
	fi
}

@test "docs-sync: every option of every command is in its --help" {
	local cmd
	for cmd in $(commands); do
		"$CAPAUDIT" "$cmd" --help >"$T/$cmd.help"
		check_help "$cmd" "$T/$cmd.help"
	done
}

@test "docs-sync: every command has its page, every option an entry in its OPTIONS" {
	local cmd
	for cmd in $(commands); do
		[ -s "$GEN/man/man8/capaudit-$cmd.8" ] || { echo "no capaudit-$cmd.8"; return 1; }
		check_man "$cmd" "$GEN/man/man8/capaudit-$cmd.8"
	done
	# and no page for a command that is not there
	for f in "$GEN"/man/man8/capaudit-*.8; do
		f=${f##*/capaudit-}
		commands | grep -qx "${f%.8}" || { echo "capaudit-$f: no such command"; return 1; }
	done
}

@test "docs-sync: capaudit(8) names every command; each page names the command and what it does" {
	local cmd
	for cmd in $("$CAPAUDIT" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
		grep -qx "\\\\fB$cmd\\\\fR" "$GEN/man/man8/capaudit.8" ||
			{ echo "capaudit.8 does not list $cmd"; return 1; }
	done
	for cmd in $(commands); do
		summary=$("$CAPAUDIT" help | sed -n "s/^  $cmd  *//p")
		run lexgrog "$GEN/man/man8/capaudit-$cmd.8"
		[ "$status" -eq 0 ]
		[[ "$output" == *": \"capaudit-$cmd - $summary\"" ]] || { echo "$output"; return 1; }
		grep -q "^\\\\fBcapaudit\\\\fR \\\\fB$cmd\\\\fR" "$GEN/man/man8/capaudit-$cmd.8"
	done
}

@test "docs-sync: man itself finds the pages in the build tree (man -M build/man, MANPATH)" {
	command -v man >/dev/null || skip "no man (Debian man-db)"
	# the build's own pages where make made them (build/man), else those
	# generated here
	local m=$GEN/man
	[ ! -d "$(dirname "$CAPAUDIT")/man" ] || m=$(dirname "$CAPAUDIT")/man
	# the layout man searches: a section directory, man8/
	run -0 man -M "$m" -w capaudit-record
	[ "$output" = "$m/man8/capaudit-record.8" ]
	run -0 env MANPAGER=cat MANWIDTH=80 LC_ALL=C.UTF-8 man -M "$m" capaudit-verify
	[[ "$output" == *"capaudit-verify - "* ]]
	[[ "$output" == *"--emit"* ]]
	# MANPATH ending in ':' puts the build tree before the system's pages
	run -0 env MANPATH="$m:" man -w capaudit
	[ "$output" = "$m/man8/capaudit.8" ]
}

@test "docs-sync: the pages render without a warning (groff -ww, mandoc -Tlint)" {
	command -v groff >/dev/null || skip "no groff (Debian groff-base)"
	local f
	for f in "$GEN"/man/man8/*.8; do
		run --separate-stderr env LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$f"
		[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$f: $stderr"; return 1; }
		run --separate-stderr env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f"
		[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$f: $stderr"; return 1; }
		[[ "$output" == *OPTIONS* ]]
		if command -v mandoc >/dev/null; then
			run mandoc -Tlint "$f"
			[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$output"; return 1; }
		fi
	done
}

@test "docs-sync: bash completes every command, every option and each argument" {
	[ -r /usr/share/bash-completion/bash_completion ] || skip "no bash-completion"
	bash -n "$GEN/completion/capaudit"
	complete_all bash "$GEN/completion/capaudit" "$T/bash.out"
	diff <(answer "$T/bash.out" "capaudit ") \
		<("$CAPAUDIT" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | LC_ALL=C sort)
	local cmd
	for cmd in $(commands); do
		check_completion "$cmd" "$T/bash.out" bash
	done
}

@test "docs-sync: zsh completes every command, every option and each argument" {
	command -v zsh >/dev/null || skip "no zsh"
	zsh -n "$GEN/completion/_capaudit"
	complete_all zsh "$GEN/completion/_capaudit" "$T/zsh.out"
	diff <(answer "$T/zsh.out" "capaudit ") \
		<("$CAPAUDIT" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | LC_ALL=C sort)
	local cmd
	for cmd in $(commands); do
		check_completion "$cmd" "$T/zsh.out" zsh
	done
}

@test "docs-sync: after -- (or its first operand) the audited command is completed; check's operands are files" {
	[ -r /usr/share/bash-completion/bash_completion ] || skip "no bash-completion"
	local c
	printf '%s\n' "capaudit record -- ech" "capaudit record -q -o x ech" \
		"capaudit run --caps none -- ech" "capaudit verify -- cat $F/a." \
		"capaudit check -b b.json $F/a." >"$T/q"
	bash "$BCOMPLETE" "$GEN/completion/capaudit" <"$T/q" >"$T/bash.out"
	for c in "capaudit record -- ech" "capaudit record -q -o x ech" "capaudit run --caps none -- ech"; do
		answer "$T/bash.out" "$c" | grep -qx echo || { echo "bash: $c"; return 1; }
	done
	[ "$(answer "$T/bash.out" "capaudit verify -- cat $F/a.")" = "$F/a.jsonl" ]
	[ "$(answer "$T/bash.out" "capaudit check -b b.json $F/a.")" = "$F/a.jsonl" ]
	command -v zsh >/dev/null || skip "no zsh"
	(cd "$T" && timeout 60 zsh -f "$ZCOMPLETE" "$GEN/completion") <"$T/q" >"$T/zsh.out"
	for c in "capaudit record -- ech" "capaudit record -q -o x ech" "capaudit run --caps none -- ech"; do
		answer "$T/zsh.out" "$c" | grep -qx echo || { echo "zsh: $c"; return 1; }
	done
	answer "$T/zsh.out" "capaudit check -b b.json $F/a." | grep -q 'a\.jsonl$'
}

@test "docs-sync: each check fails when one option is missing (report --lenient)" {
	[ -r /usr/share/bash-completion/bash_completion ] || skip "no bash-completion"
	command -v zsh >/dev/null || skip "no zsh"
	# the option is in the table, and every check passes with it
	options report | grep -q -- '^--lenient - '
	"$CAPAUDIT" report --help >"$T/help"
	check_help report "$T/help"
	check_man report "$GEN/man/man8/capaudit-report.8"
	# --help without its line
	grep -v -- '--lenient' "$T/help" >"$T/help.mut"
	run check_help report "$T/help.mut"
	[ "$status" -ne 0 ]
	[[ "$output" == *"does not show - --lenient"* ]]
	# the page without its entry
	awk '/^\.TP$/ { tp = $0; next }
	     tp != "" { if ($0 ~ /\\-\\-lenient/) { skip = 1; tp = ""; next } print tp; tp = "" }
	     skip && /^\./ { skip = 0 }
	     !skip' "$GEN/man/man8/capaudit-report.8" >"$T/report.8"
	run ! grep -qx '\\fB\\-\\-lenient\\fR' "$T/report.8"
	run check_man report "$T/report.8"
	[ "$status" -ne 0 ]
	[[ "$output" == *"no OPTIONS entry for - --lenient"* ]]
	# the bash completion without it in report's options
	awk '/^    report\)$/ { r = 1 } r && /opts=/ { sub(/ --lenient/, ""); r = 0 } 1' \
		"$GEN/completion/capaudit" >"$T/capaudit.bash"
	run ! cmp -s "$T/capaudit.bash" "$GEN/completion/capaudit"
	queries report >"$T/q"
	bash "$BCOMPLETE" "$T/capaudit.bash" <"$T/q" >"$T/bash.out"
	run check_completion report "$T/bash.out" bash
	[ "$status" -ne 0 ]
	[[ "$output" == *"capaudit report - does not offer --lenient"* ]]
	# the zsh completion without its spec
	mkdir "$T/z"
	grep -v -- "--lenient'\\[" "$GEN/completion/_capaudit" >"$T/z/_capaudit"
	run ! cmp -s "$T/z/_capaudit" "$GEN/completion/_capaudit"
	queries report long >"$T/q"
	(cd "$T" && timeout 60 zsh -f "$ZCOMPLETE" "$T/z") <"$T/q" >"$T/zsh.out"
	run check_completion report "$T/zsh.out" zsh
	[ "$status" -ne 0 ]
	[[ "$output" == *"capaudit report - does not offer --lenient"* ]]
}

# The README's first block: its command lines without their comments
readme_first_commands() {
	awk '/^```/ { n++; next } n == 1' "$ROOT/README.md" | sed -n 's/^\(make [a-z]*\).*/\1/p'
}

@test "docs-sync: the README starts with make demo and make test; CI runs that test command" {
	# the first lines a reader sees: the title, then the block of the two commands
	[ "$(sed -n 1p "$ROOT/README.md")" = "# capaudit" ]
	[ "$(awk 'NF && !/^#/ { print; exit }' "$ROOT/README.md")" = '```sh' ]
	[ "$(readme_first_commands | xargs)" = "make demo make test" ]
	# .ci/run's command is the README's, as it is written there
	[ "$(grep -v '^#\|^set \|^cd \|^$' "$ROOT/.ci/run")" = "$(readme_first_commands | sed -n 2p)" ]
	# and both are targets make help lists
	make -C "$ROOT" --no-print-directory -s help | grep -q '^  make demo '
	make -C "$ROOT" --no-print-directory -s help | grep -q '^  make test '
}

@test "docs-sync: the README is short, the quick start near its top, the rest in docs/ pages" {
	[ "$(stat -c %s "$ROOT/README.md")" -le 12288 ]
	# the quick start (record, report --suggest, --emit, verify) within the first 80 lines
	local qs
	qs=$(grep -n '^<!-- quickstart:' "$ROOT/README.md" | cut -d: -f1)
	[ -n "$qs" ] && [ "$qs" -le 80 ]
	# its picture of the html report is there, a PNG of reasonable size
	grep -q '](docs/images/report.png)' "$ROOT/README.md"
	[ "$(head -c 8 "$ROOT/docs/images/report.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ "$(stat -c %s "$ROOT/docs/images/report.png")" -le 153600 ]
}

@test "docs-sync: every page of docs/ is in its index, with a line of its own" {
	local f
	for f in "$ROOT"/docs/*.md; do
		f=${f##*/}
		[ "$f" = README.md ] && continue
		grep -q "^- \[$f\]($f) — ." "$ROOT/docs/README.md" ||
			{ echo "docs/README.md does not list $f"; return 1; }
	done
	# and the README links to the index
	grep -q '](docs/README.md)' "$ROOT/README.md"
}

@test "docs-sync: no link of the README or of docs/ leads nowhere (files and headings)" {
	run python3 "$BATS_TEST_DIRNAME/doclinks.py" "$ROOT"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the checker finds a broken one: a copy of the tree with one link changed
	mkdir -p "$T/tree/docs"
	cp "$ROOT"/docs/*.md "$T/tree/docs/"
	sed 's#](docs/usage.md#](docs/no-such-page.md#' "$ROOT/README.md" >"$T/tree/README.md"
	sed -i 's#](install.md\#a-static-binary)#](install.md\#no-such-heading)#' "$T/tree/docs/ci.md"
	run python3 "$BATS_TEST_DIRNAME/doclinks.py" "$T/tree"
	[ "$status" -eq 1 ]
	[[ "$output" == *"README.md:"*": docs/no-such-page.md: no such file"* ]]
	[[ "$output" == *"docs/ci.md:"*": install.md#no-such-heading: no heading makes the anchor #no-such-heading"* ]]
}

@test "docs-sync: the baseline file has one name in the docs, manual pages, examples and messages: capaudit-baseline.json" {
	# every --baseline FILE written out (not "-" or a placeholder such as
	# FILE), and every other name a baseline had
	run bash -c "cd '$ROOT' && grep -rnoE -- '--baseline[= ]+[^ \`)\"]+' README.md docs man examples user/recfile/kind.c |
		grep -vE -- '--baseline[= ]+(-|[A-Z]+|%s)\$' | grep -v 'capaudit-baseline\.json\$';
		grep -rnP '(?<![-\\w])(caps|baseline|web)\.json(?!l)|caps\.baseline\.json|ci/capabilities\.json|nginx-caps\.json' README.md docs man examples user/recfile/kind.c"
	[ -z "$output" ] || { echo "other names for the baseline:"; echo "$output"; return 1; }
	[ -f "$ROOT/examples/ci/capaudit-baseline.json" ]
}
