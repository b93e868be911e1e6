#!/bin/sh
# Install, on Debian 12, the packages one make target needs, if missing.
# Runs apt-get only when a package is absent, so repeated `make` is quiet.
#
#   tools/deps.sh build|demo|check|test|vmtest|fuzz|bench [PACKAGE...]
#
# Each target gets only its own (and what it builds on): `make` and
# `make demo` never pull in chromium or qemu. Extra packages come as
# arguments. The groups, and why each package is in one:
#
# build: the compilers (clang for the BPF object, bpftool for its skeleton),
#   the libraries capaudit links (libmicrohttpd: monitor --listen,
#   user/lib/httpd.c), python3 for the manual pages and completions
#   (tools/cligen.py).
# demo: build, and setpriv (util-linux) for the demo's second run.
# check (make check: unit tests, fuzz corpus replay, the end-to-end files
#   that need no kernel): bats and jq run the end-to-end files; prometheus
#   is promtool, which checks the metrics text (tests/unit/test_metrics.c;
#   the package is the Prometheus server too, which tests/e2e/prometheus.bats
#   runs on a port of its own to scrape a monitor, and on a host that runs
#   systemd its postinst starts prometheus.service); mandoc, man-db and
#   groff-base check and find the generated manual pages, bash-completion
#   and zsh run the generated completions (tests/e2e/docs-sync.bats);
#   libxml2-utils' xmllint reads check --format junit; libcap2-bin's setcap
#   and getcap the --emit setcap lines.
# test (make test: everything): check, vmtest, and what the recording tests
#   use: valgrind; podman, runc and busybox-static (tests/e2e/containers.bats
#   runs real containers of a busybox image made from a tarball, no
#   registry); iputils-ping, iproute2, socat, curl (fetches from monitor
#   --listen); python3-yaml (the DaemonSet example); debhelper, lintian and
#   adduser (make deb and tests/e2e/deb.bats: the package's postinst);
#   chromium (tests/e2e/html.bats loads report --format html headless);
#   linux-perf (perf stat -a in tests/e2e/corpus.bats and verify.bats);
#   bpftrace (tests/e2e/verify.bats proves its tracepoint attach); nginx-light
#   and dnsmasq-base (tests/e2e/daemons.bats: real daemons that fork into the
#   background, started in a private network namespace); debootstrap and
#   patchelf (tools/criu-setup.sh: Debian 13's CRIU 4.1.1 for
#   tests/e2e/criu.bats, since Debian 12's cannot run on 6.13+);
#   tests/e2e/corpus-effects.bats runs real programs whose refusals are not
#   a syscall's EPERM: rsync (a set-group-ID bit cleared), memtester, gpg
#   and rt-tests' cyclictest (mlock() past RLIMIT_MEMLOCK: ENOMEM),
#   nftables, conntrack, ipset, iptables and ethtool (refused in a netlink
#   ack), udev's udevadm and systemd's systemd-notify (SO_RCVBUFFORCE,
#   SO_SNDBUFFORCE tried and done without). strace and procps' sysctl
#   (tests/e2e/objects-strace.bats: the objects a record names against
#   what strace -f prints for the same run of chown, kill, renice,
#   taskset, ping, ip, python3, mount, chroot, cat and sysctl).
# vmtest (the kernel matrix, tools/vmtest.sh): qemu-system-x86 and
#   qemu-system-arm (qemu-system-aarch64) run the guests; liblzma-dev and
#   libbz2-dev link the static libdw; make ARCH=arm64's static cross build
#   takes Debian's aarch64 cross compilers and the :arm64 -dev packages of
#   the libraries capaudit links (multiarch: dpkg gets the arm64
#   architecture once, the host's own packages stay as they are;
#   linux-libc-dev:arm64 also has the asm/unistd.h tools/gen-syscalls.sh
#   reads). The guest kernels and busybox are downloaded by
#   tools/vm/fetch-kernels.sh, never installed.
# fuzz: clang's libFuzzer runtime. bench: bpftrace (the comparison rows);
#   for tools/bench/realwork.sh (make bench-real, and the end of make bench)
#   nginx-light and wrk (the server workload and its load generator),
#   iproute2 (its private network namespace), linux-perf (perf bench sched
#   messaging), jq (reads the monitor's checkpoint).
set -eu

BUILD_PKGS="make gcc g++ clang llvm pkg-config libbpf-dev bpftool libelf-dev zlib1g-dev
linux-libc-dev libcap-dev libjansson-dev libsimdjson-dev libdw-dev libmicrohttpd-dev python3"
DEMO_PKGS="$BUILD_PKGS util-linux"
CHECK_PKGS="$BUILD_PKGS bats jq prometheus mandoc man-db groff-base bash-completion zsh
libxml2-utils libcap2-bin"
VMTEST_PKGS="$BUILD_PKGS jq qemu-system-x86 qemu-system-arm liblzma-dev libbz2-dev
gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libbpf-dev:arm64 libelf-dev:arm64 libdw-dev:arm64
zlib1g-dev:arm64 liblzma-dev:arm64 libbz2-dev:arm64 libcap-dev:arm64 libjansson-dev:arm64
linux-libc-dev:arm64"
TEST_PKGS="$CHECK_PKGS $VMTEST_PKGS util-linux valgrind iputils-ping iproute2 socat curl
podman runc busybox-static python3-yaml debhelper lintian adduser chromium linux-perf
debootstrap patchelf bpftrace nginx-light dnsmasq-base rsync memtester gpg rt-tests nftables
conntrack ipset iptables ethtool udev systemd strace procps"

target=${1:-test}
[ $# -gt 0 ] && shift
case $target in
build) PKGS=$BUILD_PKGS ;;
demo) PKGS=$DEMO_PKGS ;;
check) PKGS=$CHECK_PKGS ;;
test) PKGS=$TEST_PKGS ;;
vmtest) PKGS=$VMTEST_PKGS ;;
fuzz) PKGS="$BUILD_PKGS libclang-rt-14-dev" ;;
bench) PKGS="$BUILD_PKGS bpftrace nginx-light wrk iproute2 linux-perf jq" ;;
*) echo "tools/deps.sh: unknown target '$target' (build, demo, check, test, vmtest, fuzz, bench)" >&2
   exit 2 ;;
esac
PKGS="$PKGS $*"

# The stand-in policy-rc.d: while packages are installed for the tests,
# they start no service on this host (nginx's would take port 80):
# invoke-rc.d(8) asks /usr/sbin/policy-rc.d, and 101 is "not allowed"
# (/usr/share/doc/init-system-helpers/README.policy-rc.d.gz). Its second
# line says whose it is (this script, its pid, that process's start time
# and the boot): removed when this script ends, or by any later run as
# root once that process is gone (killed with SIGKILL, it cannot remove
# it: every later install on the host would start no service). A file
# without that line is the admin's (or a stand-in of a version before the
# line, which cannot be told from one): never touched.
# CAPAUDIT_POLICY_RC_D puts it elsewhere: for tests/e2e/deps.bats on a
# host that has its own.
POLICY=${CAPAUDIT_POLICY_RC_D:-/usr/sbin/policy-rc.d}
MARK="# capaudit tools/deps.sh stand-in:"
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)

# start_of PID: its start time, clock ticks after boot (/proc/PID/stat
# field 22; the name in parentheses may hold spaces)
start_of() {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20
}

# whose FILE: "PID START BOOT" when FILE is a stand-in of this script
# (exactly its three lines), nothing otherwise
whose() {
	[ -f "$1" ] && [ ! -L "$1" ] && [ "$(wc -l <"$1")" -eq 3 ] &&
		[ "$(sed -n '1p;3p' "$1")" = "$(printf '#!/bin/sh\nexit 101')" ] &&
		sed -n "2s|^$MARK pid \([0-9][0-9]*\) start \([0-9][0-9]*\) boot \([0-9a-f-]*\)\$|\1 \2 \3|p" "$1"
}

# stale FILE: a stand-in whose process is gone (another boot's, or a pid
# that is no longer that process)
stale() {
	# shellcheck disable=SC2046
	set -- $(whose "$1")
	[ $# -eq 3 ] && { [ "$3" != "$boot" ] || [ "$(start_of "$1")" != "$2" ]; }
}

# Stand-ins of runs that were killed, and what such a run was writing
# (POLICY.capaudit-PID, before it was put in place): removed.
remove_stale() {
	if stale "$POLICY"; then
		rm -f "$POLICY"
		echo "capaudit: removed $POLICY, a stand-in left by a tools/deps.sh that was killed:" \
			"package installs start services again" >&2
	fi
	for f in "$POLICY".capaudit-*; do
		[ -e "$f" ] || continue
		kill -0 "${f##*.capaudit-}" 2>/dev/null || rm -f "$f"
	done
}

missing=""
for p in $PKGS; do
	case " $missing " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ "$(id -u)" -ne 0 ] || remove_stale
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "capaudit: missing packages for make $target:$missing (run as root, or: apt-get install$missing;" \
		"the :arm64 ones after dpkg --add-architecture arm64 and apt-get update)" >&2
	exit 1
fi
echo "capaudit: installing for make $target:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
case $missing in
*:arm64*)
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64 ;;
esac
apt-get update -qq
# the stand-in, when there is no policy-rc.d: written beside it first and
# linked into place (never over a file: ln fails if one appeared), so that
# the file there is always whole; removed at the end, on an error and on
# SIGINT, SIGTERM and SIGHUP, if it is still ours
placed=""
cleanup() {
	# shellcheck disable=SC2046
	[ -n "$placed" ] && [ "$(whose "$POLICY")" = "$$ $(start_of $$) $boot" ] && rm -f "$POLICY"
	rm -f "$POLICY.capaudit-$$"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
if [ ! -e "$POLICY" ] && [ ! -L "$POLICY" ]; then
	printf '#!/bin/sh\n%s pid %s start %s boot %s\nexit 101\n' "$MARK" $$ "$(start_of $$)" \
		"$boot" >"$POLICY.capaudit-$$"
	chmod 755 "$POLICY.capaudit-$$"
	ln "$POLICY.capaudit-$$" "$POLICY" 2>/dev/null && placed=1
	rm -f "$POLICY.capaudit-$$"
fi
# (another process's dpkg may hold the lock for a while: wait for it)
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 $missing >/dev/null
