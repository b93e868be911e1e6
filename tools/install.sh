#!/bin/sh
# make install: the capaudit binary, and (unless SETCAP is empty) the
# file capabilities cap_bpf,cap_perfmon+ep on it, given only to a group:
# root:GROUP, mode 0750 (the policy of the kernel's
# Documentation/admin-guide/perf-security.rst for CAP_PERFMON). The group
# is created (a system group) when it does not exist.
#   tools/install.sh BINARY DEST GROUP SETCAP
set -eu
src=$1 dest=$2 group=$3 setcap=$4

if [ -n "$setcap" ] && [ -z "$group" ]; then
	echo "capaudit: make install: refusing to give file capabilities without a group:" \
		"set CAPAUDIT_GROUP=NAME (default capaudit), or SETCAP= for none" >&2
	exit 1
fi
install -D -m 0755 "$src" "$dest"
[ -z "$setcap" ] && exit 0
if ! getent group "$group" >/dev/null; then
	groupadd --system "$group"
	echo "capaudit: created the system group $group"
fi
# owner and group first: changing them clears file capabilities
chown "root:$group" "$dest"
chmod 0750 "$dest"
"$setcap" cap_bpf,cap_perfmon+ep "$dest"
echo "capaudit: installed $dest (root:$group, 0750, cap_bpf,cap_perfmon+ep): members of" \
	"$group may record; add a user with: usermod -aG $group USER"
