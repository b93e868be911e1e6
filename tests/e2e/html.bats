#!/usr/bin/env bats
# report --format html in a real browser: a record of real programs (a copy
# of build/privops named like markup, run with user stacks; chown granted,
# then denied after setpriv drops it) and one of another host (a fixture:
# ping on 6.12), merged into one page that headless Chromium loads
# (tests/e2e/browse.py, over the DevTools pipe). The cells of the DOM the
# browser built are compared with report --format json and report
# --suggest --format json of the same records (html-cells.js reads them);
# the page must log nothing, request nothing but itself, run no script of
# the record's, and leave a screenshot in build/html/. Without a browser
# the tests that need one skip and say so; the others read the file.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
# kept after the run, beside the binary tested: build/html/report.png
KEEP=$(dirname "$CAPAUDIT")/html
# the program's name: comm, exe and argv all hold it
HOSTILE="<script>&'\"x"

setup_file() {
	[ "$(id -u)" -eq 0 ] || skip "end-to-end tests need root (they load BPF programs)"
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	[ -x "$ROOT/build/privops" ] || skip "build/privops is not built (make test builds it)"
	local d=$BATS_FILE_TMPDIR
	chmod 755 "$d"
	cp "$ROOT/build/privops" "$d/$HOSTILE"
	touch "$d/owned-a" "$d/owned-b" "$d/owned-c"
	# one recording (they take a second or two each): the hostile program,
	# chown granted, then chown denied after setpriv drops it. On one line:
	# the command cell shows a newline as \x0a, the JSON as it is.
	local drop='setpriv --inh-caps=-chown --bounding-set=-chown chown nobody "$3"'
	"$CAPAUDIT" record -q --user-stacks -o "$d/a.jsonl" -- sh -c \
		"\"\$0\" \"\$1\"; chown nobody \"\$2\"; $drop 2>/dev/null; exit 0" \
		"$d/$HOSTILE" "$d/owned-a" "$d/owned-b" "$d/owned-c"
	# merged with a record of another host: ping's CAP_NET_RAW on 6.12
	cp "$ROOT/tests/fixtures/emit-setuid-ping.jsonl" "$d/b.jsonl"
	# the page, and what report --format json says of the same records
	(cd "$d" && "$CAPAUDIT" report --format html a.jsonl b.jsonl >page.html)
	(cd "$d" && "$CAPAUDIT" report --format json a.jsonl b.jsonl >rep.json)
	(cd "$d" && "$CAPAUDIT" report --suggest --format json a.jsonl b.jsonl >sg.json)
	rm -rf "$KEEP"
	mkdir -p "$KEEP"
	cp "$d/page.html" "$KEEP/report.html"
	[ -n "$CHROMIUM" ] || return 0
	python3 "$BATS_TEST_DIRNAME/browse.py" "$CHROMIUM" "$KEEP/report.html" "$KEEP" \
		"$BATS_TEST_DIRNAME/html-cells.js" 2>"$d/browse.err" || true
}

setup() {
	e2e_setup
	D=$BATS_FILE_TMPDIR
}

# the tests that read what the browser made
need_browser() {
	[ -n "$CHROMIUM" ] || skip "chromium is not installed (tools/deps.sh installs it)"
	[ -s "$KEEP/eval.json" ] || { cat "$D/browse.err" "$KEEP/chromium.log" >&2; false; }
}

# cells FILTER: jq on the cells read from the browser's DOM
cells() {
	jq -c "$1" "$KEEP/eval.json"
}

@test "html: Chromium loads the page: no console message, no request but the page itself" {
	need_browser
	[ "$(jq -c . "$KEEP/console.json")" = "[]" ]
	[ "$(jq -r 'length' "$KEEP/requests.json")" = 1 ]
	[ "$(jq -r '.[0]' "$KEEP/requests.json")" = "file://$KEEP/report.html" ]
	[ "$(cells .title)" = '"capaudit report: a.jsonl, b.jsonl"' ]
	# the whole page was laid out (far taller than one screen)
	[ "$(cells .height)" -gt 2000 ]
}

@test "html: the programs table holds report --format json's numbers, row for row" {
	need_browser
	local want
	want=$(jq -c '[.processes[] | {pid, comm, exe, caps: [.capabilities[]
		| {cap, granted, denied}]}]' "$D/rep.json")
	[ "$(cells .processes)" = "$want" ]
	# not vacuous: the hostile program chowned and set the hostname, the
	# chown after setpriv was denied
	[ "$(cells '[.processes[] | select(.comm == "<script>&'"'"'\"x") | .caps[]
		| select(.cap == "CAP_CHOWN" or .cap == "CAP_SYS_ADMIN") | .cap] | sort')" = \
	  '["CAP_CHOWN","CAP_SYS_ADMIN"]' ]
	[ "$(cells '[.processes[] | select(.comm == "chown") | .caps[]
		| select(.cap == "CAP_CHOWN") | "\(.granted)/\(.denied)"] | sort')" = '["0/1","1/0"]' ]
}

@test "html: the record's facts, totals and losses are report --format json's" {
	need_browser
	[ "$(cells '[.inputs[] | .file]')" = '["a.jsonl","b.jsonl"]' ]
	[ "$(cells '[.inputs[] | .kernel | split(" ")[0]]')" = \
	  "$(jq -c '[.inputs[] | .kernel]' "$D/rep.json")" ]
	[ "$(cells '.inputs[1].kernel')" = '"6.12.0 x86_64"' ]
	[ "$(cells '[.inputs[] | .attach]')" = "$(jq -c '[.inputs[] | .attach]' "$D/rep.json")" ]
	[ "$(cells '[.inputs[] | .command]')" = \
	  "$(jq -c '[.inputs[] | .argv | join(" ")]' "$D/rep.json")" ]
	[ "$(cells '.inputs[0].command')" = \
	  "$(jq -c '.inputs[0].argv | join(" ")' "$D/rep.json")" ]
	cells '.inputs[0].command' | grep -qF "<script>"
	jq -s -e '.[0].total_checks == .[1].total_checks and .[0].total_checks > 0 and
		.[0].hidden_noaudit == .[1].hidden_noaudit and
		.[0].required == .[1].required and .[0].denied == .[1].denied and
		([.[0].inputs[].lost] == [.[1].inputs[].lost | add])' \
		"$KEEP/eval.json" "$D/rep.json"
	# losses: one line when there are none, a row per kind when some
	if [ "$(jq '[.record.lost[]] | add' "$D/rep.json")" = 0 ]; then
		[ "$(cells .lost_line)" = '"Nothing lost"' ]
		[ "$(cells .lost)" = '{}' ]
	else
		[ "$(cells .lost_line)" = null ]
		jq -s -e '.[0].lost == .[1].record.lost and (.[0].lost | length) == 6' \
			"$KEEP/eval.json" "$D/rep.json"
	fi
}

@test "html: the answer comes first: the required set, the replacements, the --emit snippets, then the programs" {
	need_browser
	[ "$(cells .sections)" = '["answer","programs","suggest","record","paths"]' ]
	[ "$(cells .required_before_programs)" = true ]
	# each snippet is what report --emit prints for the same records
	local kind
	[ "$(cells '[.emit[].kind]')" = '["setcap","systemd","docker","compose","kubernetes","capsh"]' ]
	for kind in setcap systemd docker compose kubernetes capsh; do
		[ "$(cells ".emit[] | select(.kind == \"$kind\") | .text")" = \
		  "$(cd "$D" && "$CAPAUDIT" report --emit "$kind" a.jsonl b.jsonl | jq -Rs .)" ]
	done
}

@test "html: the Note cells hold the text report's notes" {
	need_browser
	# each Note is the text report's note line (row_note() writes both)
	local notes want
	notes=$(cells '[.notes[] | select(.note != "") | .note] | unique')
	want=$(cd "$D" && "$CAPAUDIT" report a.jsonl b.jsonl | sed -n 's/^ *note: //p' |
		jq -Rsc 'split("\n") | map(select(. != "")) | unique')
	[ "$notes" = "$want" ]
	# not vacuous: setpriv's capset() asked for CAP_SETPCAP, which could
	# not change the outcome; the cell says so, where it was empty before
	[ "$(cells '[.notes[] | select(.cap == "CAP_SETPCAP") | .note]')" = \
	  '["the answer could not change the outcome (capset() kept the inheritable set within the permitted one)"]' ]
}

@test "html: the least-privilege part is report --suggest's" {
	need_browser
	jq -s -e '.[0].sg_required == .[1].required and .[0].sg_observed == .[1].observed and
		.[0].sg_denied == .[1].denied and
		(.[0].sg_required | index("CAP_CHOWN") != null) and
		.[0].sg_keep_sys_admin == ([.[1].keep[].cap] | index("CAP_SYS_ADMIN") != null) and
		.[0].sg_keep_sys_admin and
		.[0].denials == [.[1].denials[] | {cap, callsite, count}]' \
		"$KEEP/eval.json" "$D/sg.json"
}

@test "html: the call paths sum every program's call sites per capability" {
	need_browser
	local want
	want=$(jq -c '[.processes[].capabilities[] | . as $c | .callsites[]
		| {cap: $c.cap, number: $c.number, function, granted, denied,
		   stack: (.stack | length > 0)}]
		| group_by(.number) | map({cap: .[0].cap, open: true, sites: (group_by(.function)
		| map({function: .[0].function, granted: (map(.granted) | add),
		       denied: (map(.denied) | add),
		       stacks: ([.[] | select(.stack)] | if length > 0 then 1 else 0 end)}))})' \
		"$D/rep.json")
	# stacks: at least one per site that has one (distinct ones may be more)
	[ "$(cells '[.paths[] | .sites |= map(.stacks |= ([., 1] | min))]')" = "$want" ]
	[ "$(cells '.paths | length')" -ge 2 ]
}

@test "html: a program named like markup stays text; the page runs and fetches nothing" {
	need_browser
	[ "$(cells '.scripts')" = 0 ]
	[ "$(cells '.fetchers')" = 0 ]
	[ "$(cells '[.processes[].comm] | map(select(. == "<script>&'"'"'\"x")) | length')" = 1 ]
	[ "$(cells '[.processes[].exe] | map(select(endswith("/<script>&'"'"'\"x"))) | length')" = 1 ]
}

@test "html: the file holds the hostile name escaped, and no http(s) URL" {
	local page=$D/page.html
	! grep -qi '<script' "$page"
	grep -qF '&lt;script&gt;&amp;&#39;&quot;x' "$page"
	! grep -qiE 'https?:' "$page"
	grep -qF "content=\"default-src 'none'; style-src 'unsafe-inline'\"" "$page"
}

@test "html: the screenshot is a PNG of the 1280-pixel viewport, kept in build/html" {
	need_browser
	local png=$KEEP/report.png
	[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	# IHDR: width and height, big-endian, at bytes 16 and 20
	[ "$(od -An -tu1 -j16 -N4 "$png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')" = 1280 ]
	[ "$(od -An -tu1 -j20 -N4 "$png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')" = 2000 ]
	# a page of tables, not a blank one: a blank 1280x2000 PNG is a few KB
	[ "$(stat -c %s "$png")" -gt 30000 ]
}

@test "html: report's modes and filters make a page too; --program filters the suggestion" {
	local mode n
	cd "$D"
	for mode in program container; do
		"$CAPAUDIT" report --format html --by "$mode" a.jsonl b.jsonl >"$T/$mode.html"
		n=$("$CAPAUDIT" report --format json --by "$mode" a.jsonl b.jsonl |
			jq '[.workloads[].programs[]] | length')
		[ "$(grep -c '^<tbody class="proc">' "$T/$mode.html")" = "$n" ]
		! grep -qi '<script\|https\?:' "$T/$mode.html"
	done
	"$CAPAUDIT" report --format html --noaudit --by user-site a.jsonl >"$T/us.html"
	grep -q '<table id="user-sites">' "$T/us.html"
	[ "$(grep -c '^<tbody class="proc" data-pid' "$T/us.html")" = \
	  "$("$CAPAUDIT" report --format json a.jsonl | jq '.processes | length')" ]
	# the suggestion of chown alone: CAP_CHOWN, not the hostile CAP_SYS_ADMIN
	"$CAPAUDIT" report --format html --suggest --program chown a.jsonl b.jsonl >"$T/p.html"
	grep -q '<span class="caps" id="sg-required"><span class="chip">CAP_CHOWN</span></span>' \
		"$T/p.html"
	run --separate-stderr "$CAPAUDIT" report --format html --suggest --program nope b.jsonl
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "capaudit: --program nope: no program of that name in b.jsonl" ]
}
