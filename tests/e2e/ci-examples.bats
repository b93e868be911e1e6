#!/usr/bin/env bats
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
	(cd "$W" && PATH="$T/bin:$PATH" bash -c "$1")
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
assert "sudo capaudit record -o caps.jsonl -- make check" in runs, runs
assert "capaudit check --baseline capaudit-baseline.json --format github caps.jsonl" in runs, runs
up = [s for s in cap["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
assert len(up) == 1 and up[0]["with"]["path"] == "caps.jsonl" and up[0]["if"] == "always()", up
assert any("make -C capaudit static" in s.get("run", "") for s in jobs["capaudit"]["steps"])
gl = yaml.safe_load(open(sys.argv[2]))
job = gl["capabilities"]
assert job["artifacts"]["reports"]["junit"] == "capaudit-junit.xml"
assert job["artifacts"]["when"] == "always"
assert "capaudit check --baseline capaudit-baseline.json --format junit caps.jsonl > capaudit-junit.xml" in job["script"]
assert "sudo capaudit record -o caps.jsonl -- make check" in job["script"]
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
	[ "${L[1]}" = "sudo capaudit record -o caps.jsonl -- make check" ]
	[ "${L[2]}" = "capaudit check --baseline capaudit-baseline.json --format github caps.jsonl" ]
	run -0 in_checkout "${L[0]}"
	# the record: make check's chown, in the checkout
	run -0 in_checkout "${L[1]}"
	"$CAPAUDIT" report -i "$W/caps.jsonl" --format json >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_CHOWN" ]
	# against the baseline (CAP_SYSLOG only): CAP_CHOWN is a new capability
	run -1 --separate-stderr in_checkout "${L[2]}"
	[ "${lines[0]}" = "::error file=capaudit-baseline.json,title=capaudit%3A new capability CAP_CHOWN::New capability CAP_CHOWN at kernel call site setattr_prepare (fchownat): not allowed by capaudit-baseline.json. CAP_CHOWN lets a program change a file's owner and group to any user and group. If this is intended, accept it (then review the diff and commit it): capaudit check --baseline capaudit-baseline.json --update caps.jsonl" ]
	[[ "${lines[1]}" == "::notice file=capaudit-baseline.json,title=capaudit%3A unused capability CAP_SYSLOG::CAP_SYSLOG is allowed by capaudit-baseline.json but no record used it. CAP_SYSLOG lets a program read and clear the kernel's log." ]]
	[ "${lines[2]}" = "capaudit check: FAIL: 1 failure, 1 hint, 0 allowed call sites seen" ]
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
