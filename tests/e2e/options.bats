#!/usr/bin/env bats
# tier: check (the option tables: no root, no kernel, no waiting)
# Every command's options come from one table (user/cli/options.h): its
# --help explains each option the parser accepts. The hidden --list-options
# prints that table, one long option per line. No kernel needed: these run
# without root.

load helper

GOOD="$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl"

setup() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-opts.XXXXXX")
}

# The commands that take options: those `capaudit help` lists, but for
# version and help themselves.
commands() {
	"$CAPAUDIT" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' |
		grep -vx 'version\|help'
}

# explained CMD OPT: CMD's --help has an option line for OPT ("  -x, --opt"
# or "      --opt", then its argument and explanation)
explained() {
	grep -qE -- "^  (-[[:alnum:]], |    )$2( |\$)" "$T/$1.help"
}

@test "capaudit help lists the eight commands with options" {
	run commands
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sort | tr '\n' ' ')" = "check diff doctor monitor record report run verify " ]
}

@test "every option of every command is explained in its --help" {
	local cmd opt n
	for cmd in $(commands); do
		"$CAPAUDIT" "$cmd" --help >"$T/$cmd.help"
		"$CAPAUDIT" "$cmd" --list-options >"$T/$cmd.opts"
		n=$(wc -l <"$T/$cmd.opts")
		[ "$n" -ge 2 ] || { echo "$cmd --list-options: $n options"; return 1; }
		while IFS= read -r opt; do
			[[ "$opt" == --[a-z]* ]] || { echo "$cmd --list-options: '$opt'"; return 1; }
			explained "$cmd" "$opt" || { echo "$cmd --help does not explain $opt"; return 1; }
		done <"$T/$cmd.opts"
	done
}

@test "every option line of a --help is an option the command takes" {
	local cmd opt
	for cmd in $(commands); do
		"$CAPAUDIT" "$cmd" --help >"$T/$cmd.help"
		"$CAPAUDIT" "$cmd" --list-options >"$T/$cmd.opts"
		for opt in $(sed -nE 's/^  (-[[:alnum:]], |    )(--[a-z-]+).*/\2/p' "$T/$cmd.help"); do
			grep -qx -- "$opt" "$T/$cmd.opts" || { echo "$cmd --help shows $opt"; return 1; }
		done
		if grep -q -- '--list-options' "$T/$cmd.help"; then
			echo "$cmd --help shows the hidden --list-options"
			return 1
		fi
	done
}

@test "every option has an explanation, not only a name" {
	local cmd
	for cmd in $(commands); do
		"$CAPAUDIT" "$cmd" --help >"$T/$cmd.help"
		# an option line is followed on it or on the next line by its text
		awk -v cmd="$cmd" '
			pending { if ($0 !~ /^                          [^ ]/) { print cmd ": " pending; bad = 1 }
				  pending = "" }
			/^  (-[[:alnum:]], |    )--/ {
				line = $0; sub(/^ +/, "", line)
				if (split(line, w, /  +/) < 2) pending = line
			}
			END { if (pending) { print cmd ": " pending; bad = 1 }
			      exit bad }' "$T/$cmd.help"
	done
}

@test "the usage goes to stdout with --help (exit 0); a bad option is one line on stderr pointing to it (exit 2)" {
	local cmd
	for cmd in $(commands); do
		run --separate-stderr "$CAPAUDIT" "$cmd" --help
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		[[ "${lines[0]}" == "usage: capaudit $cmd"* ]]
		run --separate-stderr "$CAPAUDIT" "$cmd" --no-such-option
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[ "$stderr" = "capaudit: unknown option '--no-such-option' for $cmd: see capaudit $cmd --help" ]
		run --separate-stderr "$CAPAUDIT" "$cmd" -Z
		[ "$status" -eq 2 ]
		[ "$stderr" = "capaudit: unknown option '-Z' for $cmd: see capaudit $cmd --help" ]
		run --separate-stderr "$CAPAUDIT" "$cmd" --help=yes
		[ "$status" -eq 2 ]
		[ "$stderr" = "capaudit: option '--help' of $cmd takes no argument: see capaudit $cmd --help" ]
	done
}

@test "a mistyped long option: did you mean the nearest, when it is near; a missing argument names it" {
	run --separate-stderr "$CAPAUDIT" report --sugest "$GOOD"
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "capaudit: unknown option '--sugest' for report (did you mean --suggest?): see capaudit report --help" ]
	run --separate-stderr "$CAPAUDIT" check --strcit=1 --baseline x.json
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown option '--strcit' for check (did you mean --strict?): see capaudit check --help" ]
	run --separate-stderr "$CAPAUDIT" diff --lenent a b
	[ "$stderr" = "capaudit: unknown option '--lenent' for diff (did you mean --lenient?): see capaudit diff --help" ]
	# a long option typed with one dash is refused at its first letter;
	# the word it was in is the long option, or near one
	run --separate-stderr "$CAPAUDIT" report -suggest "$GOOD"
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "capaudit: unknown option '-s' for report (did you mean --suggest?): see capaudit report --help" ]
	run --separate-stderr "$CAPAUDIT" report "$GOOD" -noadit
	[ "$stderr" = "capaudit: unknown option '-n' for report (did you mean --noaudit?): see capaudit report --help" ]
	run --separate-stderr "$CAPAUDIT" report -xyzzy
	[ "$stderr" = "capaudit: unknown option '-x' for report: see capaudit report --help" ]
	# nothing near: no guess
	run --separate-stderr "$CAPAUDIT" report --frobnicate
	[ "$stderr" = "capaudit: unknown option '--frobnicate' for report: see capaudit report --help" ]
	# a prefix of one option is that option (getopt's abbreviations); of
	# several, they are named
	run --separate-stderr "$CAPAUDIT" check --s --baseline x.json
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: option '--s' of check is ambiguous (--strict, --source-root): see capaudit check --help" ]
	run --separate-stderr "$CAPAUDIT" report --cap
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: option '--cap' of report needs an argument (CAP): see capaudit report --help" ]
	run --separate-stderr "$CAPAUDIT" report -i
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: option '-i' of report needs an argument (FILE): see capaudit report --help" ]
	run --separate-stderr "$CAPAUDIT" report --noaudit=yes "$GOOD"
	[ "$stderr" = "capaudit: option '--noaudit' of report takes no argument: see capaudit report --help" ]
	# in a cluster of short options, the unknown one
	run --separate-stderr "$CAPAUDIT" report -az "$GOOD"
	[ "$stderr" = "capaudit: unknown option '-z' for report: see capaudit report --help" ]
	# JSON mode: the same line as {"error": ...} on stdout
	run --separate-stderr "$CAPAUDIT" report --format json --sugest "$GOOD"
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | jq -r .error)" = "unknown option '--sugest' for report (did you mean --suggest?): see capaudit report --help" ]
}

@test "a mistyped command: did you mean the nearest; the help is one command away" {
	run --separate-stderr "$CAPAUDIT" reprot capaudit-baseline.json
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "capaudit: unknown command 'reprot' (did you mean capaudit report?): see capaudit help" ]
	run --separate-stderr "$CAPAUDIT" chek
	[ "$stderr" = "capaudit: unknown command 'chek' (did you mean capaudit check?): see capaudit help" ]
	run --separate-stderr "$CAPAUDIT" frobnicate
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown command 'frobnicate': see capaudit help" ]
	run --separate-stderr "$CAPAUDIT" --verison
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown option '--verison' (did you mean capaudit --version?): see capaudit help" ]
	run --separate-stderr "$CAPAUDIT" --frob
	[ "$stderr" = "capaudit: unknown option '--frob' before the command: see capaudit help" ]
}

@test "a mistyped capability name: did you mean the nearest (report --cap, run --caps)" {
	run --separate-stderr "$CAPAUDIT" report --cap CAP_NET_BINDSERVICE "$GOOD"
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "capaudit: --cap CAP_NET_BINDSERVICE: unknown capability 'CAP_NET_BINDSERVICE' (did you mean CAP_NET_BIND_SERVICE?)" ]
	run --separate-stderr "$CAPAUDIT" report --cap chown,sys_admn "$GOOD"
	[ "$stderr" = "capaudit: --cap chown,sys_admn: unknown capability 'sys_admn' (did you mean CAP_SYS_ADMIN?)" ]
	run --separate-stderr "$CAPAUDIT" run --caps net_bindservice -- true
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown capability 'net_bindservice' in --caps net_bindservice (did you mean CAP_NET_BIND_SERVICE?)" ]
	# nothing near: what a name looks like
	run --separate-stderr "$CAPAUDIT" report --cap CAP_FROBNICATE "$GOOD"
	[ "$stderr" = "capaudit: --cap CAP_FROBNICATE: unknown capability 'CAP_FROBNICATE' (a name as CAP_SYS_ADMIN or sys_admin, or a number 0-63)" ]
}

@test "report --noaudit is documented; --all is its deprecated alias" {
	"$CAPAUDIT" report --help >"$T/report.help"
	grep -qE -- '^      --noaudit +include noaudit checks' "$T/report.help"
	grep -qE -- '^  -a, --all +deprecated alias of --noaudit' "$T/report.help"
	"$CAPAUDIT" report -i "$GOOD" --format json --noaudit >"$T/noaudit.json"
	"$CAPAUDIT" report -i "$GOOD" --format json --all >"$T/all.json"
	"$CAPAUDIT" report -i "$GOOD" --format json -a >"$T/a.json"
	"$CAPAUDIT" report -i "$GOOD" --format json >"$T/audited.json"
	cmp "$T/noaudit.json" "$T/all.json"
	cmp "$T/noaudit.json" "$T/a.json"
	run cmp -s "$T/noaudit.json" "$T/audited.json"
	[ "$status" -eq 1 ]
	run "$CAPAUDIT" report -i "$GOOD"
	[[ "$output" == *"noaudit checks (kernel probing, never a requirement; --noaudit shows them)"* ]]
}

@test "an unknown --format names the formats that command has" {
	run --separate-stderr "$CAPAUDIT" report --format junit -i "$GOOD"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown format 'junit' for report (text, json, html)" ]
	run --separate-stderr "$CAPAUDIT" check --format xml --baseline "$ROOT/examples/ci/capaudit-baseline.json" "$GOOD"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown format 'xml' for check (text, json, junit, sarif, github)" ]
	run --separate-stderr "$CAPAUDIT" diff --format junit "$GOOD" "$GOOD"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown format 'junit' for diff (text, json)" ]
	run --separate-stderr "$CAPAUDIT" doctor --format sarif
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown format 'sarif' for doctor (text, json)" ]
}
