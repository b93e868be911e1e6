#!/bin/sh
# make screenshot: docs/images/report.png, the picture README.md shows.
# It is the html report (report --format html) of the demo workload
# recorded the way tools/demo.sh records it the second time (a root
# service whose bounding set lacks CAP_BPF, CAP_PERFMON and
# CAP_CHECKPOINT_RESTORE), opened at its "Least privilege: the answer" section (first on the page) in
# headless Chromium (tools/screenshot.py), 1100x760 pixels: wide enough for
# the report's tables, small enough to stay a PNG of about 120 KB. Root:
# the recorder loads a BPF program.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
CAPAUDIT="$BUILD/capaudit"
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
OUT=${OUT:-docs/images/report.png}

if [ "$(id -u)" -ne 0 ]; then
	echo "capaudit screenshot: run as root (the recorder loads a BPF program)" >&2
	exit 1
fi
[ -n "$CHROMIUM" ] || { echo "capaudit screenshot: no chromium (apt-get install chromium)" >&2; exit 1; }
NARROW=-bpf,-perfmon,-checkpoint_restore
"$CAPAUDIT" record -q -o "$BUILD/screenshot.jsonl" -- \
	setpriv --inh-caps=$NARROW --bounding-set=$NARROW "$BUILD/demo-workload" >/dev/null
"$CAPAUDIT" report --format html --suggest --program demo-workload -i "$BUILD/screenshot.jsonl" \
	>"$BUILD/screenshot.html"
mkdir -p "$(dirname "$OUT")"
python3 tools/screenshot.py "$CHROMIUM" "$BUILD/screenshot.html#answer" "$OUT" 1100 760
echo "capaudit screenshot: wrote $OUT ($(stat -c %s "$OUT") bytes)"
