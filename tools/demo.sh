#!/bin/sh
# make demo: record the bundled workload (examples/demo-workload.c) twice and
# print what capaudit makes of it:
#  1. as root: the report, per process, capability and kernel call site;
#  2. as a root service whose bounding set lacks the narrow capabilities
#     (CAP_BPF, CAP_PERFMON, CAP_CHECKPOINT_RESTORE), the way many services
#     are still deployed: report --suggest shows which of its CAP_SYS_ADMIN
#     uses a narrower capability would satisfy, observed on this kernel.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
CAPAUDIT="$BUILD/capaudit"

if [ "$(id -u)" -ne 0 ]; then
	echo "capaudit demo: run as root (the recorder loads a BPF program, and the" >&2
	echo "demo workload performs privileged operations)" >&2
	exit 1
fi
echo "== capaudit record -o $BUILD/demo.jsonl -- $BUILD/demo-workload"
"$CAPAUDIT" record -o "$BUILD/demo.jsonl" -- "$BUILD/demo-workload"
echo
echo "== capaudit report -i $BUILD/demo.jsonl"
"$CAPAUDIT" report -i "$BUILD/demo.jsonl"

NARROW=-bpf,-perfmon,-checkpoint_restore
echo
echo "== the same workload without the narrow capabilities (CAP_SYS_ADMIN kept):"
echo "== capaudit record -o $BUILD/demo-sysadmin.jsonl -- setpriv --inh-caps=$NARROW --bounding-set=$NARROW $BUILD/demo-workload"
"$CAPAUDIT" record -o "$BUILD/demo-sysadmin.jsonl" -- \
	setpriv --inh-caps=$NARROW --bounding-set=$NARROW "$BUILD/demo-workload"
echo
echo "== capaudit report --suggest --program demo-workload -i $BUILD/demo-sysadmin.jsonl"
"$CAPAUDIT" report --suggest --program demo-workload -i "$BUILD/demo-sysadmin.jsonl"
echo
echo "== capaudit report --emit systemd --program demo-workload -i $BUILD/demo-sysadmin.jsonl"
"$CAPAUDIT" report --emit systemd --program demo-workload -i "$BUILD/demo-sysadmin.jsonl"
