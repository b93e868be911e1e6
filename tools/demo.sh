#!/bin/sh
# make demo: record the bundled workload (examples/demo-workload.c) and
# print its report.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}

if [ "$(id -u)" -ne 0 ]; then
	echo "capaudit demo: run as root (the recorder loads a BPF program, and the" >&2
	echo "demo workload performs privileged operations)" >&2
	exit 1
fi
echo "== capaudit record -o $BUILD/demo.jsonl -- $BUILD/demo-workload"
"$BUILD/capaudit" record -o "$BUILD/demo.jsonl" -- "$BUILD/demo-workload"
echo
echo "== capaudit report -i $BUILD/demo.jsonl"
"$BUILD/capaudit" report -i "$BUILD/demo.jsonl"
echo
echo "== capaudit report --suggest -i $BUILD/demo.jsonl"
"$BUILD/capaudit" report --suggest -i "$BUILD/demo.jsonl"
