#!/bin/sh
# The CI workflow of examples/ci/README.md, end to end: build the service,
# record it, check it against the committed baseline (passes); build the
# change that adds raw ICMP pings, record, check again (fails, exit 1, with
# the diff in expected-diff.txt). Run from the repository root, as root.
set -eu
CAPAUDIT=${CAPAUDIT:-build/capaudit}
OUT=${OUT:-$(mktemp -d)}
cc=${CC:-gcc}

$cc -O2 -o "$OUT/service" examples/ci/service.c
$cc -O2 -DHEALTH_PINGS -o "$OUT/service-v2" examples/ci/service.c

echo "== v1: record and check"
"$CAPAUDIT" record -q -o "$OUT/v1.jsonl" -- "$OUT/service"
"$CAPAUDIT" check --baseline examples/ci/capaudit-baseline.json "$OUT/v1.jsonl"

echo "== v2 (adds raw ICMP pings): record and check"
"$CAPAUDIT" record -q -o "$OUT/v2.jsonl" -- "$OUT/service-v2"
set +e
"$CAPAUDIT" check --baseline examples/ci/capaudit-baseline.json "$OUT/v2.jsonl" >"$OUT/v2-check.txt"
rc=$?
set -e
cat "$OUT/v2-check.txt"
if [ "$rc" -ne 1 ]; then
	echo "check-example: expected exit 1 for v2, got $rc" >&2
	exit 1
fi
# the --update hint names the record where it is; the README's is v2.jsonl
sed "s|$OUT/||g" "$OUT/v2-check.txt" >"$OUT/v2-check.shown"
diff -u examples/ci/expected-diff.txt "$OUT/v2-check.shown"
echo "== as expected: v1 passes, v2 fails with the diff in examples/ci/expected-diff.txt"
