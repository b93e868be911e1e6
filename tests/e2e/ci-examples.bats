#!/usr/bin/env bats
# docs/ci.md followed as it is written, by a new user: a small C program in
# a git repository, built as its step 1 says, its baseline made and
# committed with step 2's lines, then changed to open a raw socket on line
# 24; step 3's workflow (which must be examples/ci/github-actions.yml) run
# in a fresh clone: its check fails with exactly the annotation the page
# shows (on app.c, line 24, what CAP_NET_RAW lets a program do, the
# command that accepts it); JUnit (the GitLab job's line) and SARIF say the
# same at the same place; step 4's lines accept it, and the baseline's
# diff is only the new entry.
# examples/ci/github-actions.yml and examples/ci/gitlab-ci.yml: both parse as
# YAML with the jobs and artifacts their comments name, and their capaudit
# command lines, taken out of the files, run as written: the record line
# on a `make check` here, the check lines on records of the kernel matrix
# (tests/fixtures/kernels, README there) copied in as caps.jsonl. GitHub
# annotations have the ::error file=... shape; the JUnit report is valid
# XML with the expected test cases.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

E=$ROOT/examples/ci
K=$ROOT/tests/fixtures/kernels

setup() {
	python3 -c 'import yaml' 2>/dev/null || skip "no python3 yaml (Debian python3-yaml)"
	e2e_setup
	# a checkout: make check chowns a file (CAP_CHOWN); `capaudit` and
	# `sudo` on PATH as in CI (this test runs as root already)
	W=$T/work
	mkdir -p "$W" "$T/bin"
	printf 'check:\n\ttouch state && chown nobody state\n' >"$W/Makefile"
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$CAPAUDIT" >"$T/bin/capaudit"
	printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
	chmod +x "$T/bin/capaudit" "$T/bin/sudo"
	# the committed baseline: the host's record of the matrix's CAP_SYSLOG
	# loop (6.18: do_syslog)
	"$CAPAUDIT" check --update --baseline "$W/capaudit-baseline.json" "$K/6.18-loop.jsonl" 2>/dev/null
}

# lines FILE: the capaudit command lines of a workflow file, one per line
# (run: steps of every GitHub job, script: lines of every GitLab job)
lines_of() {
	python3 - "$1" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
out = []
for name, job in doc.items():
    if not isinstance(job, dict):
        continue
    if name == "jobs":
        for j in job.values():
            for step in j.get("steps", []):
                out += step.get("run", "").splitlines()
    out += [l for item in job.get("script", []) for l in item.splitlines()]
for l in out:
    l = l.strip()
    if l.startswith("capaudit ") or l.startswith("sudo capaudit "):
        print(l)
PY
}

# in_checkout LINE: run one command line in the checkout, as CI would
in_checkout() {
	in_dir "$W" "$1"
}

# in_dir DIR LINE: the same in DIR
in_dir() {
	(cd "$1" && PATH="$T/bin:$PATH" bash -c "$2")
}

# recipe NAME: the block of docs/ci.md after its "<!-- ci-recipe:NAME" comment
recipe() {
	python3 - "$ROOT/docs/ci.md" "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
marker = "<!-- ci-recipe:" + sys.argv[2]
at = [i for i, l in enumerate(lines) if l == marker + " -->" or l.startswith(marker + " ")]
if len(at) != 1:
    sys.exit("docs/ci.md has %d %r comments" % (len(at), marker))
i = at[0] + 1
if not lines[i].startswith("```"):
    sys.exit("docs/ci.md: no block right after %r" % marker)
j = lines.index("```", i + 1)
print("\n".join(lines[i + 1:j]))
PY
}

# The project of docs/ci.md's new user: app.c hands its state file to
# nobody (CAP_CHOWN); the change (app_v2) adds health pings over a raw ICMP
# socket, opened on line 24 (CAP_NET_RAW)
app_v1() {
	cat <<'EOF'
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

/* the service's state file belongs to nobody */
static int give_away_state(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fclose(f);
	return chown(path, 65534, 65534);
}

int main(void)
{
	return give_away_state("state") != 0;
}
EOF
}

app_v2() {
	app_v1 | sed '/^int main/,$d'
	cat <<'EOF'
/* health pings: a raw ICMP socket, the new privilege (the kernel checks
 * CAP_NET_RAW when it is opened) */
static int open_ping_socket(void)
{
	int s;

	/* one, opened and closed */
	s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP); /* LINE:socket */
	if (s < 0)
		return -1;
	close(s);
	return 0;
}

int main(void)
{
	return give_away_state("state") != 0 || open_ping_socket() != 0;
}
EOF
}

@test "ci recipe: docs/ci.md as written: the job's annotation is on the changed line, in plain words, with the command that accepts it" {
	command -v git >/dev/null || skip "git is not installed"
	command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
	export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.org GIT_COMMITTER_NAME=ci \
		GIT_COMMITTER_EMAIL=ci@example.org
	local R=$T/repo C=$T/ci l n ann msg
	# step 1: the project, its Makefile with the page's flags
	mkdir "$R"
	git -C "$R" init -q
	app_v1 >"$R/app.c"
	{ recipe build; printf 'check: app\n\t./app\n'; } >"$R/Makefile"
	grep -qx 'CFLAGS += -g -fno-omit-frame-pointer' "$R/Makefile"
	git -C "$R" add app.c Makefile
	git -C "$R" commit -qm 'app'
	# step 2, line by line: recorded, the baseline written and committed
	recipe first >"$T/first"
	[ "$(wc -l <"$T/first")" -eq 4 ]
	n=0
	while IFS= read -r l; do
		n=$((n + 1))
		in_dir "$R" "$l" >"$T/first.$n" 2>&1 || { cat "$T/first.$n"; return 1; }
	done <"$T/first"
	[ "$(sed -n 2p "$T/first.2")" = "  added CAP_CHOWN, in syscall chown at kernel call site setattr_prepare: it lets a program change a file's owner and group to any user and group" ]
	[ "$(git -C "$R" ls-files | xargs)" = "Makefile app.c capaudit-baseline.json" ]
	[ "$(git -C "$R" status --porcelain --untracked-files=no)" = "" ]
	# the change, on the line the page shows
	app_v2 >"$R/app.c"
	[ "$(grep -n 'LINE:socket' "$R/app.c" | cut -d: -f1)" = 24 ]
	git -C "$R" commit -qam 'health pings'
	# step 3: the workflow is the example's, its job run in a fresh checkout
	recipe workflow >"$T/workflow.yml"
	[ "$(cat "$T/workflow.yml")" = "$(sed -n '/^name: capabilities$/,$p' "$E/github-actions.yml")" ]
	run -0 lines_of "$T/workflow.yml"
	mapfile -t L <<<"$output"
	[ "${#L[@]}" -eq 3 ]
	[ "${L[1]}" = "sudo capaudit record --user-stacks -o caps.jsonl -- make check" ]
	git clone -q "$R" "$C"
	run -0 in_dir "$C" "${L[0]}"
	run -0 in_dir "$C" "${L[1]}"
	run -1 --separate-stderr in_dir "$C" "${L[2]}"
	# one annotation, the page's, byte for byte; nothing to explain on stderr
	ann=$(recipe annotation)
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "$ann" ]
	[ "${lines[1]}" = "capaudit check: FAIL: 1 failure, 0 hints, 1 allowed call site seen" ]
	[ -z "$stderr" ]
	msg=${ann#::error *::}
	[[ "$msg" == "New capability CAP_NET_RAW "*", asked for at app.c:24 (open_ping_socket): "*". CAP_NET_RAW lets a program open raw sockets, which send and receive network packets the program builds itself. If this is intended, accept it (then review the diff and commit it): capaudit check --baseline capaudit-baseline.json --update caps.jsonl" ]]
	# JUnit, as the GitLab job writes it, and SARIF: the same words, the same place
	run -0 lines_of "$E/gitlab-ci.yml"
	mapfile -t G <<<"$output"
	[ "${G[1]}" = "capaudit check --baseline capaudit-baseline.json --format junit caps.jsonl > capaudit-junit.xml" ]
	run -1 in_dir "$C" "${G[1]}"
	[ "$(xmllint --xpath 'string(//testcase[failure]/@file)' "$C/capaudit-junit.xml")" = app.c ]
	[ "$(xmllint --xpath 'string(//testcase[failure]/@line)' "$C/capaudit-junit.xml")" = 24 ]
	[ "$(xmllint --xpath 'string(//failure/@message)' "$C/capaudit-junit.xml")" = "$msg" ]
	[ "$(xmllint --xpath 'count(//failure)' "$C/capaudit-junit.xml")" = 1 ]
	run -1 in_dir "$C" "capaudit check --baseline capaudit-baseline.json --format sarif caps.jsonl > capaudit.sarif"
	[ "$(jq -r '.runs[0].results | length' "$C/capaudit.sarif")" = 1 ]
	[ "$(jq -r '.runs[0].results[0].message.text' "$C/capaudit.sarif")" = "$msg" ]
	[ "$(jq -r '.runs[0].results[0].locations[0].physicalLocation | "\(.artifactLocation.uri):\(.region.startLine)"' "$C/capaudit.sarif")" = app.c:24 ]
	# step 4: accepted with the command the annotation ends with; the diff
	# is the new entry alone
	recipe accept >"$T/accept"
	[ "$(sed -n 1p "$T/accept")" = "${msg##*: }" ]
	run -0 --separate-stderr in_dir "$C" "$(sed -n 1p "$T/accept")"
	[ "$stderr" = "capaudit: updated capaudit-baseline.json: 2 capabilities, 0 expected denials
  added CAP_NET_RAW, in syscall socket at kernel call site inet_create: it lets a program open raw sockets, which send and receive network packets the program builds itself" ]
	run -0 in_dir "$C" "$(sed -n 2p "$T/accept")"
	[ "$(printf '%s\n' "${lines[@]}" | grep '^[-+] ')" = "$(printf '%s\n' '+    },' '+    {' \
	  '+      "cap": "CAP_NET_RAW",' '+      "syscalls": [' '+        "socket"' '+      ],' \
	  '+      "callsites": [' '+        "inet_create"' '+      ]')" ]
	run -0 in_dir "$C" "${L[2]}"
}

@test "ci examples: both files parse, with the jobs, runner and artifacts their comments name" {
	run -0 python3 - "$E/github-actions.yml" "$E/gitlab-ci.yml" <<'PY'
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
jobs = gh["jobs"]
cap = jobs["capabilities"]
assert cap["runs-on"] == "ubuntu-latest", cap["runs-on"]
assert cap["needs"] == "capaudit"
assert jobs["capaudit"]["container"] == "debian:12"
runs = [s.get("run", "") for s in cap["steps"]]
assert "sudo capaudit record --user-stacks -o caps.jsonl -- make check" in runs, runs
assert "capaudit check --baseline capaudit-baseline.json --format github caps.jsonl" in runs, runs
up = [s for s in cap["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
assert len(up) == 1 and up[0]["with"]["path"] == "caps.jsonl" and up[0]["if"] == "always()", up
assert any("make -C capaudit static" in s.get("run", "") for s in jobs["capaudit"]["steps"])
gl = yaml.safe_load(open(sys.argv[2]))
job = gl["capabilities"]
assert job["artifacts"]["reports"]["junit"] == "capaudit-junit.xml"
assert job["artifacts"]["when"] == "always"
assert "capaudit check --baseline capaudit-baseline.json --format junit caps.jsonl > capaudit-junit.xml" in job["script"]
assert "sudo capaudit record --user-stacks -o caps.jsonl -- make check" in job["script"]
assert "make -C capaudit-src static" in gl["capaudit"]["script"]
print("ok")
PY
	# the format names are the ones check --help gives
	run -0 "$CAPAUDIT" check --help
	[[ "$output" == *"text (default), json, junit, sarif or github"* ]]
}

@test "ci examples: GitHub's capaudit lines run: make check recorded, then ::error annotations or OK" {
	run -0 lines_of "$E/github-actions.yml"
	mapfile -t L <<<"$output"
	[ "${#L[@]}" -eq 3 ]
	[ "${L[0]}" = "sudo capaudit doctor" ]
	[ "${L[1]}" = "sudo capaudit record --user-stacks -o caps.jsonl -- make check" ]
	[ "${L[2]}" = "capaudit check --baseline capaudit-baseline.json --format github caps.jsonl" ]
	run -0 in_checkout "${L[0]}"
	# the record: make check's chown, in the checkout
	run -0 in_checkout "${L[1]}"
	"$CAPAUDIT" report -i "$W/caps.jsonl" --format json >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_CHOWN" ]
	# against the baseline (CAP_SYSLOG only): CAP_CHOWN is a new capability
	run -1 --separate-stderr in_checkout "${L[2]}"
	# what it was about: the file make check chowned (its owner and mode
	# read by the recorder after the chown)
	[[ "${lines[0]}" == "::error file=capaudit-baseline.json,title=capaudit%3A new capability CAP_CHOWN::New capability CAP_CHOWN at kernel call site setattr_prepare (fchownat): not allowed by capaudit-baseline.json. About $W/state (owner 65534:"*", read after the check). CAP_CHOWN lets a program change a file's owner and group to any user and group. If this is intended, accept it (then review the diff and commit it): capaudit check --baseline capaudit-baseline.json --update caps.jsonl" ]]
	[[ "${lines[1]}" == "::notice file=capaudit-baseline.json,title=capaudit%3A unused capability CAP_SYSLOG::CAP_SYSLOG is allowed by capaudit-baseline.json but no record used it. CAP_SYSLOG lets a program read and clear the kernel's log." ]]
	[ "${lines[2]}" = "capaudit check: FAIL: 1 failure, 1 hint, 0 allowed call sites seen" ]
	# chown(1) has no debug info: on the baseline file, and check says why
	[ "$stderr" = "capaudit: note: 1 finding has no source line in the program's own code, so it is shown on the baseline file: the program that asked was built without debug info (-g), or it is not the project's own (a system tool such as chown)" ]
	# Debian 6.1's record of the same loop (check_syslog_permissions, not
	# do_syslog): nothing new at the default --match syscall
	cp "$K/6.1-loop.jsonl" "$W/caps.jsonl"
	run -0 in_checkout "${L[2]}"
	[ "$output" = "capaudit check: OK: 0 failures, 0 hints, 1 allowed call site seen" ]
}

@test "ci examples: GitLab's capaudit lines run; the JUnit report is valid XML with the expected test cases" {
	run -0 lines_of "$E/gitlab-ci.yml"
	mapfile -t L <<<"$output"
	[ "${#L[@]}" -eq 2 ]
	[ "${L[1]}" = "capaudit check --baseline capaudit-baseline.json --format junit caps.jsonl > capaudit-junit.xml" ]
	run -0 in_checkout "${L[0]}"
	# make check's record: CAP_CHOWN fails, the baseline's unused CAP_SYSLOG is skipped
	run -1 in_checkout "${L[1]}"
	run -0 python3 - "$W/capaudit-junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall("./testsuite/testcase")
print(root.get("tests"), root.get("failures"), root.get("skipped"), len(cases),
      ";".join("%s/%s/%s" % (c.get("classname"), c.get("name"),
               "failure" if c.find("failure") is not None else
               "skipped" if c.find("skipped") is not None else "pass") for c in cases))
PY
	[ "$output" = "2 1 1 2 capaudit.CAP_CHOWN/setattr_prepare/failure;capaudit.CAP_SYSLOG/(capability)/skipped" ]
	# the 6.12 and 6.1 guests' records of the matrix's loop: one passing case each
	for k in 6.12 6.1; do
		cp "$K/$k-loop.jsonl" "$W/caps.jsonl"
		run -0 in_checkout "${L[1]}"
		run -0 python3 -c 'import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot(); c = r.findall("./testsuite/testcase")
print(r.get("tests"), r.get("failures"), len(c), c[0].get("name"))' "$W/capaudit-junit.xml"
		[ "$output" = "1 0 1 $([ "$k" = 6.1 ] && echo check_syslog_permissions || echo do_syslog)" ]
	done
}
