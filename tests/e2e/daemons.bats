#!/usr/bin/env bats
# tier: plain (real Debian daemons in a private network namespace; their
# recording paths are record.bats' in the ASan pass)
# Daemons that fork into the background (issue 31): nginx and dnsmasq,
# started as Debian starts them (as root: they bind port 80 or 53, change
# user, and the launcher exits while the daemon goes on). record -- COMMAND
# records the whole start; the answer holds when applied: the daemon
# started with exactly the set answers a request, and without each member
# it fails, each time as the kernel says (tests/e2e/daemon-try.sh starts,
# asks and stops them). A record that attaches to a running daemon says
# that its answer may miss what the start needed.

load helper

TRY="$BATS_TEST_DIRNAME/daemon-try.sh"

# in_netns COMMAND...: in a network namespace of its own, loopback up (port
# 80 and 53 of the host are not touched), bounded
in_netns() {
	timeout -k 5 300 unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
}

# nginx_conf DIR: the smallest configuration that serves "ok" on port 80
# with Debian's user, its files in DIR
nginx_conf() {
	mkdir -p "$1/tmp"
	cat >"$1/nginx.conf" <<-EOF
	user www-data;
	worker_processes 1;
	pid $1/nginx.pid;
	error_log $1/error.log;
	events { worker_connections 64; }
	http {
		access_log off;
		client_body_temp_path $1/tmp/body;
		proxy_temp_path $1/tmp/proxy;
		fastcgi_temp_path $1/tmp/fastcgi;
		uwsgi_temp_path $1/tmp/uwsgi;
		scgi_temp_path $1/tmp/scgi;
		server { listen 80; location / { return 200 "ok\n"; } }
	}
	EOF
}

DNSMASQ_ARGS=(--conf-file=/dev/null --no-resolv --no-hosts --listen-address=127.0.0.1
	--bind-interfaces --address=/capaudit.test/10.1.2.3)

# bounding CAP...: setpriv's --bounding-set for exactly these (CAP_X -> +x)
bounding() {
	local s=-all c
	for c in "$@"; do
		c=${c#CAP_}
		s+=",+${c,,}"
	done
	echo "$s"
}

# without SET MEMBER: SET (space-separated) less MEMBER
without() {
	local c out=()
	for c in $1; do [ "$c" = "$2" ] || out+=("$c"); done
	echo "${out[*]}"
}

setup() {
	e2e_setup
	command -v unshare >/dev/null && command -v setpriv >/dev/null || skip "util-linux is not installed"
	command -v ip >/dev/null || skip "iproute2 is not installed"
}

teardown() {
	# whatever a failed test left running (their command lines name $T)
	[ -n "${T:-}" ] && pkill -KILL -f -- "$T/" 2>/dev/null
	e2e_teardown
}

@test "nginx: record -- nginx follows the master it forks; the capsh snippet starts it, without each member it fails" {
	command -v nginx >/dev/null && command -v curl >/dev/null || skip "nginx-light and curl are not installed"
	local D=$T/nginx
	nginx_conf "$D"
	# the launcher exits at once; the master it forked changes the
	# temporary directories' owner, binds port 80 and starts a worker
	# that changes user: recorded until the master exits (the script stops
	# it once it has answered)
	run in_netns sh -c '"$1" record -o "$2/rec.jsonl" -- nginx -c "$3/nginx.conf" 2>"$2/rec.err" & r=$!
		"$4" nginx "$3" - && wait $r' sh "$CAPAUDIT" "$T" "$D" "$TRY"
	[ "$status" -eq 0 ]
	[ "$output" = answered ]
	run cat "$T/rec.err"
	echo "$output"
	# (the master, and its worker if it has forked it by then)
	re='^capaudit: nginx exited; [12] process(es)? it started still runs? \(pid ([0-9]+) nginx(, pid [0-9]+ nginx)?\): recording goes on until (it exits|they exit), -d ends, or a signal comes \(kill ([0-9]+)( [0-9]+)? stops (it|them)\)$'
	[[ "${lines[0]}" =~ $re ]]
	named="${BASH_REMATCH[5]}${BASH_REMATCH[6]}"
	[[ "${lines[1]}" == "capaudit: wrote $T/rec.jsonl ("*" nothing lost)" ]]
	[ "$(jq -r 'select(.type == "header") | .stop' "$T/rec.jsonl")" = exited ]
	# the launcher, the master it forked, and the master's worker, which
	# changed user (its checks of CAP_SETGID and CAP_SETUID are in it); the
	# line above named the master (and the worker if it ran by then)
	[ "$(jq -r 'select(.type == "process" and .comm == "nginx") | .pid' "$T/rec.jsonl" | wc -l)" -eq 3 ]
	worker=$(jq -rs '[.[] | select(.type == "process" and .comm == "nginx")] as $n
		| [$n[] | select(.ppid as $pp | $n | map(.pid) | index($pp))] as $kids
		| $kids[] | select(.ppid as $pp | $kids | map(.pid) | index($pp)) | .pid' "$T/rec.jsonl")
	[ -n "$worker" ]
	master=$(jq -r --argjson w "$worker" 'select(.type == "process" and .pid == $w) | .ppid' "$T/rec.jsonl")
	[[ " $named " == *" $master "* ]]
	run jq -rs --argjson w "$worker" '[.[] | select(.type == "check" and .pid == $w and .ret == 0) | .cap_name] | unique | join(" ")' "$T/rec.jsonl"
	[[ " $output " == *" CAP_SETGID "* && " $output " == *" CAP_SETUID "* ]]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --format json
	[ "$status" -eq 0 ]
	[ "$(jq -c .required <<<"$output")" = '["CAP_CHOWN","CAP_SETGID","CAP_SETUID","CAP_NET_BIND_SERVICE"]' ]
	[ "$(jq -c .partial <<<"$output")" = null ]
	# the kernel agrees: the snippet as printed starts nginx, which answers
	snippet=$("$CAPAUDIT" report -i "$T/rec.jsonl" --emit capsh)
	[[ "$snippet" == "capsh --drop="*" -- -c 'nginx -c $D/nginx.conf'" ]]
	run in_netns "$TRY" nginx "$D" bash -c "$snippet"
	[ "$output" = answered ]
	# ... and without each member, nginx fails, where the kernel refused it
	local set="CAP_CHOWN CAP_SETGID CAP_SETUID CAP_NET_BIND_SERVICE"
	declare -A says=(
		[CAP_CHOWN]="chown(\"$D/tmp/body\", 33) failed (1: Operation not permitted)"
		[CAP_SETGID]="setgid(33) failed (1: Operation not permitted)"
		[CAP_SETUID]="setuid(33) failed (1: Operation not permitted)"
		[CAP_NET_BIND_SERVICE]="bind() to 0.0.0.0:80 failed (13: Permission denied)")
	for c in $set; do
		run in_netns "$TRY" nginx "$D" setpriv --bounding-set="$(bounding $(without "$set" $c))" \
			nginx -c "$D/nginx.conf"
		echo "without $c: $output"
		[ "$status" -eq 1 ]
		[[ "$output" == "failed: "*"${says[$c]}"* ]]
	done
}

@test "dnsmasq: recorded whole; its pid file's chown is a refusal it tolerates, which verify finds; the proven set starts it, without each member it fails" {
	command -v dnsmasq >/dev/null && command -v busybox >/dev/null || skip "dnsmasq-base and busybox are not installed"
	local D=$T/dnsmasq
	mkdir -p "$D"
	run in_netns sh -c 'c=$1 t=$2 d=$3 try=$4; shift 4
		"$c" record -o "$t/rec.jsonl" -- dnsmasq "$@" 2>"$t/rec.err" & r=$!
		"$try" dnsmasq "$d" - && wait $r' sh "$CAPAUDIT" "$T" "$D" "$TRY" \
		"${DNSMASQ_ARGS[@]}" --pid-file="$D/dnsmasq.pid" --log-facility="$D/dnsmasq.log"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = answered ]
	[[ "$(head -n 1 "$T/rec.err")" == "capaudit: dnsmasq exited; 1 process it started still runs (pid "*" dnsmasq): recording goes on until it exits"* ]]
	# the first answer: enough (the snippet starts it) ...
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --format json
	[ "$(jq -c .required <<<"$output")" = '["CAP_CHOWN","CAP_SETGID","CAP_SETUID","CAP_NET_BIND_SERVICE"]' ]
	snippet=$("$CAPAUDIT" report -i "$T/rec.jsonl" --emit capsh)
	run in_netns "$TRY" dnsmasq "$D" bash -c "$snippet"
	[ "$output" = answered ]
	# ... not minimal: CAP_CHOWN was its pid file's fchown(), whose refusal
	# dnsmasq only logs; no record can tell that, the kernel can
	run in_netns "$TRY" dnsmasq "$D" setpriv --bounding-set="$(bounding CAP_SETGID CAP_SETUID CAP_NET_BIND_SERVICE)" \
		dnsmasq "${DNSMASQ_ARGS[@]}" --pid-file="$D/dnsmasq.pid" --log-facility="$D/dnsmasq.log"
	[ "$output" = answered ]
	grep -q "chown of PID file $D/dnsmasq.pid failed: Operation not permitted" "$D/dnsmasq.log"
	# verify finds the minimum with the same script as the judge: its exit
	# status says whether dnsmasq did its job (--exit-judges), so the
	# refused chown dnsmasq goes on from does not count
	in_netns "$CAPAUDIT" verify -q -f json -e capsh --exit-judges -- "$TRY" dnsmasq "$D" \
		>"$T/verify.json" 2>"$T/verify.err"
	json=$(cat "$T/verify.json")
	[ "$(jq -c .set <<<"$json")" = '["CAP_SETGID","CAP_SETUID","CAP_NET_BIND_SERVICE"]' ]
	[ "$(jq -r '.members[] | select(.cap == "CAP_CHOWN") | .kept' <<<"$json")" = false ]
	# its snippet (the judge under exactly that set) starts dnsmasq, which
	# answers; without each member it fails
	snippet=$(jq -r .snippets.capsh <<<"$json")
	[[ "$snippet" == "capsh --drop=cap_chown,"*" -- -c '$TRY dnsmasq $D'" ]]
	run in_netns bash -c "$snippet"
	[ "$status" -eq 0 ]
	[ "$output" = answered ]
	local set="CAP_SETGID CAP_SETUID CAP_NET_BIND_SERVICE"
	declare -A says=(
		[CAP_SETGID]="dnsmasq: failed to change group-id to dip: Operation not permitted"
		[CAP_SETUID]="dnsmasq: setting capabilities failed: Operation not permitted"
		[CAP_NET_BIND_SERVICE]="dnsmasq: failed to create listening socket for 127.0.0.1: Permission denied")
	for c in $set; do
		run in_netns "$TRY" dnsmasq "$D" setpriv --bounding-set="$(bounding $(without "$set" $c))" \
			dnsmasq "${DNSMASQ_ARGS[@]}" --pid-file="$D/dnsmasq.pid" --log-facility="$D/dnsmasq.log"
		echo "without $c: $output"
		[ "$status" -eq 1 ]
		[[ "$output" == *"${says[$c]}"* ]]
	done
}

@test "record -p of a running nginx: its snippet warns that the start is missing, and it is (no CAP_NET_BIND_SERVICE)" {
	command -v nginx >/dev/null && command -v curl >/dev/null || skip "nginx-light and curl are not installed"
	local D=$T/nginx
	nginx_conf "$D"
	# nginx runs; capaudit attaches to its master; a reload starts a new
	# worker (setgid, setuid) on the sockets bound at the start
	cat >"$T/mid.sh" <<-'EOF'
	set -u
	CAPAUDIT=$1 T=$2 D=$3 TRY=$4
	nginx -c "$D/nginx.conf" || exit 1
	for i in $(seq 600); do [ -s "$D/nginx.pid" ] && break; sleep 0.1; done
	master=$(cat "$D/nginx.pid")
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$master" & r=$!
	for i in $(seq 600); do
		[ "$(ls -l /proc/$r/fd 2>/dev/null | grep -c bpf_link)" -ge 4 ] && break
		sleep 0.1
	done
	old=$(pgrep -P "$master")
	nginx -c "$D/nginx.conf" -s reload 2>/dev/null
	# the reload is done when a worker other than the old one runs
	for i in $(seq 600); do
		[ -n "$(pgrep -P "$master" | grep -vx "$old")" ] && break
		sleep 0.1
	done
	"$TRY" nginx "$D" - && wait $r
	EOF
	run in_netns bash "$T/mid.sh" "$CAPAUDIT" "$T" "$D" "$TRY"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = answered ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --format json
	[ "$(jq -r .partial.missed_start <<<"$output")" = true ]
	# what the reload did is there, the bind of the start is not
	[[ " $(jq -r '.required | join(" ")' <<<"$output") " == *" CAP_SETGID CAP_SETUID "* ]]
	[ "$(jq -r '.required | index("CAP_NET_BIND_SERVICE")' <<<"$output")" = null ]
	# every snippet says so first, with the way to a complete answer
	for k in systemd capsh docker; do
		run "$CAPAUDIT" report -i "$T/rec.jsonl" --emit "$k"
		[ "$status" -eq 0 ]
		[[ "${lines[0]}" == "# WARNING: made from a partial record, this may miss capabilities: it attached to processes already running"* ]]
		[ "${lines[1]}" = "# (for a complete answer record the program from its start (capaudit record -- COMMAND, or --service UNIT) or prove a set with capaudit verify)" ]
	done
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest
	[[ "$output" == *"PARTIAL RECORD: the answer below may miss capabilities: it attached to processes already running"* ]]
}
