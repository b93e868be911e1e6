#!/usr/bin/env bats
# tier: check (record files only: no root, no kernel, no waiting)
# What a check was about (record format 7's objects, issue 44), shown
# under its capability by every output: report text and JSON, --suggest,
# html, check's findings and annotations, diff. The record is
# hand-written: tests/fixtures/objects.jsonl, one program whose checks
# name a file, a process, a socket option, a raw socket, a netlink
# message, a mount, a file with a hostile name and a chown over more
# files than a line shows. A record without objects shows what it always
# showed.

load helper

REC="$ROOT/tests/fixtures/objects.jsonl"
OLD="$ROOT/tests/fixtures/emit-setuid-ping.jsonl"

setup() {
	fixture_setup
}

teardown() {
	e2e_teardown
}

@test "report: each call site says what its checks were about, under its capability" {
	run "$CAPAUDIT" report -i "$REC"
	[ "$status" -eq 0 ]
	# the line after each call site
	[[ "$output" == *"    call site generic_permission               granted 2
      about /srv/app/config.yml (owner 65534:65534, mode 0600)"* ]]
	[[ "$output" == *"call site kill_ok_by_cred                  granted 1
      about process 4242 (sleep, uid 65534, read after the check)"* ]]
	[[ "$output" == *"call site sk_setsockopt                    denied 1
      about SOL_SOCKET SO_RCVBUFFORCE"* ]]
	[[ "$output" == *"      about netlink NETLINK_ROUTE RTM_NEWADDR"* ]]
	[[ "$output" == *"      about socket AF_INET SOCK_RAW protocol 1"* ]]
	[[ "$output" == *"      about mount tmpfs on /mnt"* ]]
	# bounded: three shown, the fourth counted, the checks that did not fit too
	[[ "$output" == *"      about /srv/data/a (owner 1000:1000, mode 0644), /srv/data/b (owner 1000:1000, mode 0644), /srv/data/c (owner 1000:1000, mode 0644), 1 more and others in 2 checks"* ]]
	# the record names the files: no hint to find them another way
	[[ "$output" != *"the record does not name the file"* ]]
}

@test "report: a hostile path is shown escaped: newline, ESC, U+202E" {
	run "$CAPAUDIT" report -i "$REC"
	[ "$status" -eq 0 ]
	[[ "$output" == *'      about /tmp/evil\x0a\x1b[31m\xe2\x80\xaegpj.exe<b> (owner 1000:1000, mode 0400)'* ]]
	# nothing a terminal acts on got through
	[[ "$output" != *$'\x1b'* ]]
	[[ "$output" != *$'\xe2\x80\xae'* ]]
}

@test "report --format json: objects and objects_more per call site" {
	"$CAPAUDIT" report -i "$REC" --format json >"$T/rep.json"
	run jq -r '.processes[0].capabilities[] | select(.cap == "CAP_DAC_OVERRIDE") | .callsites[0].objects[0] | "\(.kind) \(.path) \(.uid):\(.gid) \(.mode_octal) \(.count) \(.text)"' "$T/rep.json"
	[ "$output" = "file /srv/app/config.yml 65534:65534 0600 2 /srv/app/config.yml (owner 65534:65534, mode 0600)" ]
	run jq -r '.processes[0].capabilities[] | select(.cap == "CAP_KILL") | .callsites[0].objects[0] | "\(.pid) \(.name) \(.late)"' "$T/rep.json"
	[ "$output" = "4242 sleep true" ]
	run jq -r '.processes[0].capabilities[] | select(.cap == "CAP_CHOWN") | .callsites[0] | "\(.objects | length) \(.objects_more)"' "$T/rep.json"
	[ "$output" = "4 2" ]
	# JSON keeps the bytes (escaped by JSON, not by the text's rules)
	run jq -r '.processes[0].capabilities[] | select(.cap == "CAP_DAC_READ_SEARCH") | .callsites[0].objects[0].path' "$T/rep.json"
	[ "$output" = $'/tmp/evil\n\x1b[31m\xe2\x80\xaegpj.exe<b>' ]
}

@test "report --suggest: where each required capability is used, the denials, what each was about" {
	run "$CAPAUDIT" report --suggest -i "$REC"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  CAP_KILL: kill_ok_by_cred
    about process 4242 (sleep, uid 65534, read after the check)"* ]]
	[[ "$output" == *"  CAP_DAC_OVERRIDE: generic_permission
    about /srv/app/config.yml (owner 65534:65534, mode 0600)"* ]]
	[[ "$output" == *"  path_mount (mount), 1 check
    about mount tmpfs on /mnt"* ]]
	[[ "$output" == *"CAP_NET_ADMIN at sk_setsockopt (setsockopt), 1x: denied at an operation programs try and fall back from
    about SOL_SOCKET SO_RCVBUFFORCE"* ]]
	"$CAPAUDIT" report --suggest --format json -i "$REC" >"$T/rep.json"
	[ "$(jqr '.keep[] | select(.cap == "CAP_NET_RAW") | .details[0].objects[0].text')" = "socket AF_INET SOCK_RAW protocol 1" ]
	[ "$(jqr '.keep[] | select(.cap == "CAP_CHOWN") | .details[0] | "\(.objects | length) \(.objects_more)"')" = "4 2" ]
	[ "$(jqr '.denials[0].objects[0].text')" = "SOL_SOCKET SO_RCVBUFFORCE" ]
}

@test "report --format html: objects escaped as markup under their call site" {
	"$CAPAUDIT" report --format html -i "$REC" >"$T/r.html"
	grep -q '<span class="about small">about /srv/app/config.yml (owner 65534:65534, mode 0600)</span>' "$T/r.html"
	grep -qF 'about /tmp/evil\x0a\x1b[31m\xe2\x80\xaegpj.exe&lt;b&gt; (owner 1000:1000, mode 0400)' "$T/r.html"
	[ "$(grep -c 'exe<b>' "$T/r.html")" = 0 ]
	grep -q '<code>sk_setsockopt</code><br><span class="about small">about SOL_SOCKET SO_RCVBUFFORCE</span>' "$T/r.html"
}

@test "a record without objects: the outputs say what they always said" {
	run "$CAPAUDIT" report -i "$OLD"
	[ "$status" -eq 0 ]
	[[ "$output" != *"about"* ]]
	run "$CAPAUDIT" report --suggest -i "$OLD"
	[[ "$output" != *"    about "* ]]
	"$CAPAUDIT" report --format json -i "$OLD" >"$T/rep.json"
	[ "$(jqr '[.. | objects | select(has("objects") or has("objects_more"))] | length')" = 0 ]
	"$CAPAUDIT" report --format html -i "$OLD" >"$T/r.html"
	[ "$(grep -c 'class="about' "$T/r.html")" = 0 ]
}

# the record without its CAP_KILL check: what a baseline allowed before
before_kill() {
	grep -v '"cap":5,' "$REC" | sed 's/"checks":8}/"checks":7}/' >"$T/before.jsonl"
}

@test "check: a new capability's finding says what it was about, in text, JSON and GitHub annotations" {
	before_kill
	"$CAPAUDIT" check --baseline "$T/b.json" --update "$T/before.jsonl" 2>/dev/null
	run "$CAPAUDIT" check --baseline "$T/b.json" "$REC"
	[ "$status" -eq 1 ]
	[[ "$output" == *"+ new capability   CAP_KILL at kill_ok_by_cred (kill)
      about process 4242 (sleep, uid 65534, read after the check)"* ]]
	run --separate-stderr "$CAPAUDIT" check --format github --baseline "$T/b.json" "$REC"
	[ "$status" -eq 1 ]
	[[ "$output" == *"::error file=$T/b.json,title=capaudit%3A new capability CAP_KILL::New capability CAP_KILL at kernel call site kill_ok_by_cred (kill): not allowed by $T/b.json. About process 4242 (sleep, uid 65534, read after the check). CAP_KILL lets"* ]]
	"$CAPAUDIT" check --format json --baseline "$T/b.json" "$REC" >"$T/rep.json" || true
	[ "$(jqr '.findings[0].objects[0] | "\(.kind) \(.pid) \(.name) \(.uid)"')" = "process 4242 sleep 65534" ]
	"$CAPAUDIT" check --format sarif --baseline "$T/b.json" "$REC" >"$T/rep.json" || true
	[[ "$(jqr '.runs[0].results[0].message.text')" == *"About process 4242 (sleep, uid 65534, read after the check)."* ]]
	"$CAPAUDIT" check --format junit --baseline "$T/b.json" "$REC" >"$T/j.xml" || true
	grep -q 'About process 4242 (sleep, uid 65534, read after the check)\.' "$T/j.xml"
}

@test "check: a hostile path in an annotation is escaped" {
	grep -v '"cap":2,' "$REC" | sed 's/"checks":8}/"checks":7}/' >"$T/before.jsonl"
	"$CAPAUDIT" check --baseline "$T/b.json" --update "$T/before.jsonl" 2>/dev/null
	run --separate-stderr "$CAPAUDIT" check --format github --match callsite --baseline "$T/b.json" "$REC"
	[[ "$output" == *'About /tmp/evil\x0a\x1b[31m\xe2\x80\xaegpj.exe<b> (owner 1000:1000, mode 0400).'* ]]
	[[ "$output" != *$'\x1b'* ]]
}

@test "diff: what an added call site was about, said once under it" {
	before_kill
	run "$CAPAUDIT" diff "$T/before.jsonl" "$REC"
	[ "$status" -eq 1 ]
	[[ "$output" == *"  + CAP_KILL                 checked: granted 1, denied 0
  + CAP_KILL                 syscall kill x1
  + CAP_KILL                 call site kill_ok_by_cred, granted 1
      about process 4242 (sleep, uid 65534, read after the check)
"* ]]
	"$CAPAUDIT" diff --format json "$T/before.jsonl" "$REC" >"$T/rep.json" || true
	[ "$(jqr '[.programs[0].changes[] | select(.kind == "callsite") | .objects[0].text] | join(",")')" = "process 4242 (sleep, uid 65534, read after the check)" ]
}

@test "report --by user-site: each row says what its checks were about" {
	run "$CAPAUDIT" report --by user-site -i "$REC"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  CAP_NET_ADMIN            at sk_setsockopt                    denied 1
    about SOL_SOCKET SO_RCVBUFFORCE"* ]]
	"$CAPAUDIT" report --by user-site --format json -i "$REC" >"$T/rep.json"
	[ "$(jqr '.user_sites[] | select(.callsite == "kill_ok_by_cred") | .objects[0].text')" = "process 4242 (sleep, uid 65534, read after the check)" ]
}
