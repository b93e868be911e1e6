#!/bin/bash
# daemon-try.sh nginx|dnsmasq DIR [COMMAND...]: start a real Debian daemon
# the way it is normally started (as root; it forks into the background,
# binds its port on 127.0.0.1, changes user), wait until it answers a
# request or says that it failed, then stop it. DIR holds its
# configuration (nginx.conf), pid file and log. COMMAND replaces the usual
# start (a capsh or setpriv line around it); "-" starts nothing (the
# daemon is being started by someone else: capaudit record).
#
# Prints "answered" and exits 0, or "failed: WHAT IT SAID" and exits 1.
# Meant for a private network namespace (tests/e2e/daemons.bats), and as
# the script capaudit verify runs: it exits 0 only when the daemon did its
# job. Waits for an event (the answer, the daemon's own error, its exit),
# at most 60 s.
set -u
kind=$1 dir=$2
shift 2

case $kind in
nginx)
	start() { nginx -c "$dir/nginx.conf"; }
	ask() { [ "$(curl -s -m 2 http://127.0.0.1/ 2>/dev/null)" = ok ]; }
	# the master reports a worker that cannot change user in the log only
	logged_failure() { grep -m1 '\[emerg\]' "$dir/error.log" 2>/dev/null; }
	pidfile=$dir/nginx.pid
	# the master names DIR (its workers are its children)
	mine="^nginx: master process .*$dir/" ;;
dnsmasq)
	start() {
		dnsmasq --conf-file=/dev/null --no-resolv --no-hosts --listen-address=127.0.0.1 \
			--bind-interfaces --address=/capaudit.test/10.1.2.3 \
			--pid-file="$dir/dnsmasq.pid" --log-facility="$dir/dnsmasq.log"
	}
	ask() { busybox nslookup capaudit.test 127.0.0.1 2>/dev/null | grep -q 10.1.2.3; }
	# what stops it comes back through its start (the forked daemon
	# reports to the launcher before it exits); "failed" in its log can be
	# a warning it goes on after (the pid file's chown)
	logged_failure() { return 1; }
	pidfile=$dir/dnsmasq.pid
	mine="^dnsmasq .*$dir/" ;;
*)
	echo "daemon-try.sh: unknown daemon '$kind' (nginx or dnsmasq)" >&2
	exit 2 ;;
esac

# signal_as_owner SIG PID: as the process's own user (a daemon that
# changed user is signalled without CAP_KILL, which capaudit verify would
# otherwise find this script needing)
signal_as_owner() {
	local uid gid
	uid=$(stat -c %u "/proc/$2" 2>/dev/null) || return 0
	gid=$(stat -c %g "/proc/$2" 2>/dev/null) || return 0
	if [ "$uid" = 0 ]; then
		kill "-$1" "$2" 2>/dev/null
	else
		setpriv --reuid="$uid" --regid="$gid" --clear-groups kill "-$1" "$2" 2>/dev/null
	fi
}

# stop it: its master, then whatever of it still runs (one that ignores
# the signal) with its children
stop() {
	local i p
	for p in $(pgrep -f -- "$mine"); do signal_as_owner TERM "$p"; done
	for i in $(seq 100); do
		pgrep -f -- "$mine" >/dev/null || return 0
		sleep 0.1
	done
	for p in $(pgrep -f -- "$mine"); do
		pkill -KILL -P "$p"
		kill -KILL "$p"
	done
}

out=""
# a fresh log and pid file for a start of our own
# (nginx makes its temporary directories as root and hands them to its
# user: fresh ones, as on a first start, whose chown every start then needs)
if [ "${1:-}" != - ]; then
	rm -rf "$dir/error.log" "$dir/dnsmasq.log" "$pidfile" "$dir/tmp"
	mkdir "$dir/tmp"
fi
if [ $# -eq 0 ]; then
	out=$(start 2>&1) || { echo "failed: $out"; stop; exit 1; }
elif [ "$1" != - ]; then
	out=$("$@" 2>&1) || { echo "failed: $out"; stop; exit 1; }
fi
for i in $(seq 300); do
	if ask; then
		echo answered
		stop
		exit 0
	fi
	if err=$(logged_failure); then
		echo "failed: $err"
		stop
		exit 1
	fi
	sleep 0.2
done
echo "failed: no answer in 60 s${out:+ ($out)}"
stop
exit 1
