#!/usr/bin/env bats
# A real Prometheus server (Debian's prometheus package) scrapes capaudit
# monitor --listen: the check counter it stores for a program of this test
# is the number of checks the program made and the checkpoint's count, the
# target is up, the loss counters are there and 0, and the example rules
# (examples/prometheus/capaudit-rules.yml), loaded into it, fire the alert
# for a capability the monitor's baseline lacks. The example rules pass
# promtool's checks and tests, and name only metrics a monitor writes.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

RULES=$ROOT/examples/prometheus/capaudit-rules.yml
RULES_TEST=$ROOT/examples/prometheus/capaudit-rules.test.yml

setup() {
	e2e_setup
	MPID=
	PROM_PID=
	SH_PID=
	# chown(1) under a path of this test's own, so its series are this
	# test's alone. Not under /tmp: the metrics fold temporary executables
	# into one exe label
	BIN=$(mktemp -d /var/lib/capaudit-e2e.XXXXXX)
	cp "$(readlink -f "$(command -v chown)")" "$BIN/chown"
	CHOWN=$BIN/chown
	# a baseline that allows nothing: every capability used is a finding
	cat >"$T/empty.json" <<-'EOF'
	{"format": "capaudit-baseline", "version": 1, "capabilities": []}
	EOF
}

teardown() {
	# kill and reap what this test started, whatever failed, before the
	# directories they write in are removed
	local p
	for p in "$PROM_PID" "$MPID" "$SH_PID"; do
		[ -n "$p" ] || continue
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	[ -n "${BIN:-}" ] && rm -rf "$BIN"
	e2e_teardown
}

# start_scope: a shell that waits for $T/go, then chowns three files as
# root (three CAP_CHOWN checks granted) and two as nobody (two denied,
# after setpriv's own checks of CAP_SETUID and CAP_SETGID), touches
# $T/done and sleeps: the monitor's -p scope, so that nothing else on the
# host counts (SH_PID)
start_scope() {
	touch "$T/f1" "$T/f2" "$T/f3" "$T/f4" "$T/f5"
	sh -c 'while [ ! -e "$1/go" ]; do sleep 0.05; done
	       for i in 1 2 3; do "$2" nobody "$1/f$i"; done
	       for i in 4 5; do
	           setpriv --reuid=nobody --regid=nogroup --clear-groups "$2" nobody "$1/f$i"
	       done
	       touch "$1/done"; exec sleep 300' sh "$T" "$CHOWN" >/dev/null 2>&1 &
	SH_PID=$!
}

# monitor_port: the port monitor --listen 127.0.0.1:0 took (its stderr says)
monitor_port() {
	sed -n 's/.*(port \([0-9]*\)).*/\1/p' "$T/mon.err"
}

# listen_port PID: the TCP port process PID listens on (ss), empty until it does
listen_port() {
	ss -Hltnp 2>/dev/null | awk -v p="pid=$1," 'index($0, p) { n = split($4, a, ":"); print a[n]; exit }'
}

has_listen_port() {
	[ -n "$(listen_port "$1")" ]
}

# start_prometheus TARGET: Prometheus on 127.0.0.1 (a port it picks: no
# race for a free one), its own storage under $T, scraping only TARGET every
# second and evaluating the example rules every second (PROM_PID, PROM)
start_prometheus() {
	cat >"$T/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	  evaluation_interval: 1s
	rule_files:
	  - $RULES
	scrape_configs:
	  - job_name: capaudit
	    static_configs:
	      - targets: ["$1"]
	EOF
	prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
		--web.listen-address=127.0.0.1:0 >"$T/prom.log" 2>&1 &
	PROM_PID=$!
	wait_for 20 has_listen_port "$PROM_PID" || { tail -20 "$T/prom.log"; return 1; }
	PROM=http://127.0.0.1:$(listen_port "$PROM_PID")
	wait_for 20 curl -sf -o /dev/null "$PROM/-/ready" || { tail -20 "$T/prom.log"; return 1; }
}

# query PROMQL: the values of Prometheus's instant query, one per line,
# each as "LABELS VALUE" with the labels sorted as k=v,...
query() {
	curl -sfG --data-urlencode "query=$1" "$PROM/api/v1/query" | jq -r '
		.data.result[] | "\(.metric | to_entries | map("\(.key)=\(.value)") | join(",")) \(.value[1])"'
}

# value PROMQL: the value of a query that has one series (empty if none)
value() {
	query "$1" | awk '{print $NF}'
}

# value_is PROMQL V: the query has one series, of value V
value_is() {
	[ "$(value "$1")" = "$2" ]
}

# alert_state NAME: the state of the alert NAME in Prometheus (pending,
# firing; empty when it is not active)
alert_state() {
	curl -sf "$PROM/api/v1/alerts" | jq -r --arg n "$1" '.data.alerts[] | select(.labels.alertname == $n) | .state'
}

alert_firing() {
	[ "$(alert_state "$1")" = firing ]
}

@test "prometheus: a real server scrapes monitor --listen; its count is the program's and the checkpoint's; the new-capability alert fires" {
	command -v prometheus >/dev/null || skip "no prometheus server (Debian package prometheus)"
	start_scope
	start_monitor --interval 0.5 -p "$SH_PID" --listen 127.0.0.1:0 --baseline "$T/empty.json"
	wait_for 10 grep -q '(port [0-9]*)' "$T/mon.err"
	target=127.0.0.1:$(monitor_port)
	start_prometheus "$target"
	echo "monitor at $target, Prometheus at $PROM"
	sel="job=\"capaudit\",instance=\"$target\""
	# scraped before the program runs: the target up, no finding yet
	wait_for 20 value_is "up{$sel}" 1
	wait_for 20 value_is "capaudit_findings_total{$sel,kind=\"new-capability\"}" 0
	[ -z "$(alert_state CapauditNewCapability)" ]
	touch "$T/go"
	wait_for 20 test -e "$T/done"
	chown_sel="$sel,exe=\"$CHOWN\",comm=\"chown\",cap=\"CAP_CHOWN\""
	wait_for 20 value_is "capaudit_checks_total{$chown_sel,verdict=\"granted\"}" 3
	wait_for 20 value_is "capaudit_checks_total{$chown_sel,verdict=\"denied\"}" 2
	# Prometheus's numbers are the checkpoint's: the metrics are written from it
	"$CAPAUDIT" report -i "$T/mon.jsonl" --format json >"$T/rep.json"
	# (root's checks and nobody's are rows of their own: uids are not labels)
	jq -c --arg e "$CHOWN" '.processes[] | select(.exe == $e) | {uid, pids, capabilities}' "$T/rep.json"
	[ "$(jq -r --arg e "$CHOWN" '[.processes[] | select(.exe == $e) | .capabilities[]
		| select(.cap == "CAP_CHOWN")] | "\(map(.granted) | add) \(map(.denied) | add)"' \
		"$T/rep.json")" = "3 2" ]
	# one series each, with the labels the monitor wrote and the target's
	# (an empty label, such as container="" here, is no label to Prometheus)
	query "capaudit_checks_total{$chown_sel}"
	[ "$(query "capaudit_checks_total{$chown_sel}" | cut -d' ' -f1 | sort | tr '\n' ' ')" = \
	  "__name__=capaudit_checks_total,cap=CAP_CHOWN,comm=chown,exe=$CHOWN,instance=$target,job=capaudit,verdict=denied __name__=capaudit_checks_total,cap=CAP_CHOWN,comm=chown,exe=$CHOWN,instance=$target,job=capaudit,verdict=granted " ]
	[ "$(value "up{$sel}")" = 1 ]
	# every loss kind is there, at 0
	[ "$(query "capaudit_lost_total{$sel}" | sed 's/.*kind=\([a-z_]*\).* /\1=/' | sort | tr '\n' ' ')" = \
	  "hook_skipped=0 map_full=0 proc_full=0 result_lost=0 ringbuf_full=0 stack_errors=0 " ]
	# each capability the scope used is new to the empty baseline: as many
	# new-capability findings as the checkpoint has capabilities (CAP_CHOWN,
	# and setpriv's)
	caps=$(jq '[.processes[].capabilities[] | select(.noaudit == false) | .cap] | unique | length' "$T/rep.json")
	echo "capabilities in the checkpoint: $caps"
	[ "$caps" -ge 2 ]
	wait_for 10 value_is "capaudit_findings_total{$sel,kind=\"new-capability\"}" "$caps"
	# the example rules, evaluated by this server: the denial rate is
	# recorded for the program (its value is 0 here: a series first seen
	# at 2 has no rise that rate() can see), the new capability alerts,
	# nothing was lost
	wait_for 20 sh -c "curl -sfG --data-urlencode 'query=instance_exe_cap:capaudit_denials:rate5m{exe=\"$CHOWN\"}' \
		'$PROM/api/v1/query' | jq -e '.data.result | length == 1' >/dev/null"
	[ "$(query "instance_exe_cap:capaudit_denials:rate5m{exe=\"$CHOWN\"}" | cut -d' ' -f1)" = \
	  "__name__=instance_exe_cap:capaudit_denials:rate5m,cap=CAP_CHOWN,exe=$CHOWN,instance=$target,job=capaudit" ]
	wait_for 20 alert_firing CapauditNewCapability
	curl -sf "$PROM/api/v1/alerts" | jq -c '.data.alerts[]'
	[ "$(curl -sf "$PROM/api/v1/alerts" | jq -r '.data.alerts[] | select(.labels.alertname == "CapauditNewCapability")
		| "\(.labels.instance) \(.labels.kind) \(.labels.severity) \(.annotations.summary)"')" = \
	  "$target new-capability warning A capability outside the baseline was used on $target" ]
	[ -z "$(alert_state CapauditLosingEvents)" ]
	[ -z "$(alert_state CapauditCannotWrite)" ]
}

# emitted_names FILE: the metric names of a metrics text, one per line
emitted_names() {
	sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$1" | sort -u
}

# used_names FILE: the capaudit metric names a rules or rules test file
# uses (not the recorded ones: those have a colon in their name)
used_names() {
	grep -oP '(?<![\w:])capaudit_[a-z_]+(?![\w:])' "$1" | sort -u
}

@test "prometheus rules: promtool checks and tests pass; every metric and label they use is one a monitor writes" {
	command -v promtool >/dev/null || skip "no promtool (Debian package prometheus)"
	run -0 promtool check rules "$RULES"
	echo "$output"
	[[ "$output" == *"SUCCESS: 7 rules found"* ]]
	# promtool reads the rule files relative to the test file
	run -0 promtool test rules "$RULES_TEST"
	echo "$output"
	[[ "$output" == *SUCCESS* ]]
	# a real monitor's metrics, with a baseline (the findings counter), a
	# checkpoint written (its timestamp) and a granted and a denied check
	start_scope
	start_monitor --interval 0.5 -p "$SH_PID" --metrics "$T/m.prom" --baseline "$T/empty.json"
	touch "$T/go"
	wait_for 20 test -e "$T/done"
	wait_for 20 grep -sqF "exe=\"$CHOWN\",comm=\"chown\",container=\"\",container_name=\"\",unit=\"\",cap=\"CAP_CHOWN\",verdict=\"denied\"} 2" "$T/m.prom"
	wait_for 10 grep -q '^capaudit_last_checkpoint_timestamp_seconds ' "$T/m.prom"
	emitted_names "$T/m.prom" >"$T/emitted"
	cat "$T/emitted"
	for f in "$RULES" "$RULES_TEST"; do
		used_names "$f" >"$T/used"
		[ "$(wc -l <"$T/used")" -ge 4 ]
		echo "$f uses: $(tr '\n' ' ' <"$T/used")"
		run comm -23 "$T/used" "$T/emitted"
		[ -z "$output" ] || { echo "not written by capaudit monitor: $output"; false; }
	done
	# each label matcher of the rules (kind="new-capability", verdict="denied"...)
	# is a label and value some series of that metric has
	grep -oP '(?<![\w:])capaudit_[a-z_]+\{[^}]*\}' "$RULES" | sort -u >"$T/selectors"
	[ -s "$T/selectors" ]
	while IFS= read -r s; do
		name=${s%%\{*}
		for m in $(echo "$s" | grep -oP '[a-z_]+="[^"]*"'); do
			grep "^$name{" "$T/m.prom" | grep -qF "$m" || { echo "no $name series has $m"; false; }
		done
	done <"$T/selectors"
	# the test file's capaudit_checks_total series have the monitor's labels,
	# in its order, and Prometheus's job and instance
	want=$(grep '^capaudit_checks_total{' "$T/m.prom" | head -1 | grep -oP '[a-z_]+(?==")' | tr '\n' ',')
	grep -oP "series: 'capaudit_checks_total\{[^}]*\}" "$RULES_TEST" >"$T/series"
	[ "$(wc -l <"$T/series")" -ge 2 ]
	while IFS= read -r s; do
		[ "$(echo "$s" | grep -oP '[a-z_]+(?==")' | tr '\n' ',')" = "${want}job,instance," ]
	done <"$T/series"
}
