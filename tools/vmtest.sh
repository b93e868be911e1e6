#!/bin/bash
# The kernel matrix (make vmtest): the same workloads in every attach mode,
# natively on the host kernel and in Debian's own older kernels under qemu
# (TCG: 6.1 and 6.12 of Debian 12, amd64 and arm64; 5.10 of Debian 11,
# amd64), compared with each other.
#
#   tools/vmtest.sh [LABEL...]     # kernels from fetch-kernels.sh; default all
#
# Output: TAP (counted by tools/run-tests.sh), the kernel x mode table as
# "# " lines, and every result in $VMTEST_OUT (default build/vmtest/):
# <kernel>/files/* are the records and outputs of tools/vm/matrix-workloads.sh.
#
# What is checked, per kernel and mode (tests 'KERNEL MODE'):
#   - the mode attaches where the kernel has what it needs (tp_btf and
#     tracepoint: the capability:cap_capable event, 6.14+; fexit: BPF
#     trampolines; kprobe: a kprobe PMU), and the reason capaudit gives when
#     it cannot is the expected one;
#   - chown, clone3 with set_tid as root, the same without
#     CAP_CHECKPOINT_RESTORE, and as uid 65534 without capabilities record
#     the same capabilities, verdicts, counts, call sites and syscalls as
#     the host, the same noaudit classification, and report --suggest gives
#     the host's answer (tools/vm/signature.jq says what is compared);
#   - ptrace access to a root process that no check asks for (readlink of
#     /proc/PID/cwd) is seen by the ptrace-access hooks, and the suggestion
#     adds CAP_SYS_PTRACE, as on the host;
#   - every mode of one kernel gives the same noaudit counts too;
#   - record --cgroup keeps a chown inside the cgroup, attributed to it, and
#     not the same chown outside it (the kernel's cgroup filter).
# Per kernel ('KERNEL auto'): --attach auto picks tp_btf where the event
# exists, else fexit where trampolines work, else kprobe.
# A kernel without bpf_find_vma() (5.10: the record's kernel_bpf says so)
# records --user-stacks without the leaf frame: its user frames are
# compared without it, with the host's as they would be without it
# (signature.jq's $leaf); everything else is compared as for the others.
# Per kernel ('KERNEL (release)'): it boots, capaudit doctor finds a mode
# that works (exit 0), and with only CAP_BPF and CAP_PERFMON finds one too
# or names the reason there is none: where BPF memory counts against
# RLIMIT_MEMLOCK (5.10), the limit; where only kprobe mode attaches
# (arm64's 6.1: no trampolines) and kernel.perf_event_paranoid is 3,
# both; the workloads ran. Per guest ('KERNEL: reports the
# host's record'): report there of the host's chown record says what the
# host says of it.
# Once: the static build (make static) is static (ldd), and its doctor,
# record -- true and report work on the host.
#
# arm64 guests (labels arm64-*: Debian's arm64 kernels under
# qemu-system-aarch64, -M virt -cpu max) run the aarch64 static build
# (make ARCH=arm64 static: static, ARM aarch64, says file(1)). Their
# records are read here, on the host: syscall numbers of arm64's table,
# named from the record's arch, compared with the host's. What the
# comparison counts as one syscall (tools/vm/signature.jq): glibc calls
# chown(2) as fchownat on arm64, which has no chown.
#
# Skips (one TAP skip with the reason) when qemu, the kernels or the static
# build's sources cannot be had; a guest kernel that cannot be had (5.10
# without network for bullseye's lists; arm64's without dpkg's arm64
# architecture, qemu-system-aarch64 or the cross toolchain) is a skip of
# its own, the others run. Needs root (it loads BPF programs).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-build}
CA=$ROOT/$BUILD/capaudit
OUT=${VMTEST_OUT:-$ROOT/$BUILD/vmtest}
CACHE=${CAPAUDIT_VM_CACHE:-/var/cache/capaudit-vm}
export CAPAUDIT_VM_CACHE=$CACHE
MODES="auto tp_btf tracepoint fexit kprobe"
SIG=$ROOT/tools/vm/signature.jq
n=0 failed=0

skip_all() {
	echo "1..1"
	echo "ok 1 kernel matrix # skip $1"
	exit 0
}

[ "$(id -u)" -eq 0 ] || skip_all "needs root (loads BPF programs)"
command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
command -v jq >/dev/null || skip_all "jq is not installed"
[ -x "$CA" ] || { echo "vmtest: $CA not built (make)" >&2; exit 1; }

mkdir -p "$OUT"
if ! tools/vm/fetch-kernels.sh > "$OUT/fetch.log" 2>&1; then
	skip_all "cannot fetch Debian's kernels: $(grep -v '^fetch-kernels: [0-9.]*: ' "$OUT/fetch.log" | tail -n 1)"
fi
# the static build (make static: build-static/capaudit, set-pid, churn)
rc=0
make --no-print-directory static > "$OUT/build-static.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && grep -q '^build-static: cannot fetch' "$OUT/build-static.log"; then
	skip_all "$(grep '^build-static: cannot fetch' "$OUT/build-static.log" | tail -n 1)"
elif [ "$rc" -ne 0 ]; then
	echo "1..1"
	echo "not ok 1 kernel matrix: static build failed"
	sed 's/^/# /' "$OUT/build-static.log" | tail -n 30
	exit 1
fi
BIN=$ROOT/build-static/bin
cp "$CACHE/busybox/busybox" "$BIN/busybox"

# kernels: the host (native) first, then every guest kernel asked for
asked() { [ $# -eq 1 ] || printf '%s\n' "${@:2}" | grep -qx "$1"; }
labels="host"
declare -A vmlinuz_of arch_of unavailable
while IFS=$'\t' read -r label vmlinuz _ _ arch; do
	if asked "$label" "$@"; then
		labels="$labels $label"
		vmlinuz_of[$label]=$vmlinuz
		arch_of[$label]=${arch:-x86}
	fi
done < "$CACHE/kernels.list"
skipped=""
[ -f "$CACHE/kernels.skipped" ] && while IFS=$'\t' read -r label why; do
	asked "$label" "$@" && { skipped="$skipped $label"; unavailable[$label]=$why; }
done < "$CACHE/kernels.skipped"

# arm64 guests: qemu-system-aarch64 and the aarch64 static build
arm64s=""
for k in $labels; do [ "${arch_of[$k]:-}" = arm64 ] && arm64s="$arm64s $k"; done
arm64_static=""   # a TAP line's result: ok / fail WHY / skip WHY
if [ -n "$arm64s" ]; then
	if ! command -v qemu-system-aarch64 >/dev/null; then
		arm64_static="skip qemu-system-aarch64 is not installed (apt-get install qemu-system-arm)"
	else
		rc=0
		make --no-print-directory ARCH=arm64 static > "$OUT/build-static-arm64.log" 2>&1 || rc=$?
		if [ "$rc" -eq 0 ]; then
			arm64_static="ok $(file -b "$ROOT/build-static-arm64/capaudit" | cut -d, -f1,2,4)"
			cp "$CACHE/busybox-arm64/busybox" "$ROOT/build-static-arm64/bin/busybox"
		elif grep -q '^build-static: cross-building for arm64 needs' "$OUT/build-static-arm64.log"; then
			arm64_static="skip $(grep '^build-static: cross-building' "$OUT/build-static-arm64.log" | tail -n 1)"
		else
			arm64_static="fail the aarch64 static build failed"
		fi
	fi
	if [ "${arm64_static%% *}" != ok ]; then
		for k in $arm64s; do
			labels=$(echo $labels | tr ' ' '\n' | grep -vx "$k" | tr '\n' ' ')
			skipped="$skipped $k"
			unavailable[$k]=${arm64_static#* }
		done
	fi
fi

nk=$(echo $labels | wc -w)
ns=$(echo $skipped | wc -w)
# per kernel: the boot and the modes; per guest, the host's record reported there
echo "1..$((nk * 6 + (nk - 1) + 1 + ns + (${#arm64_static} > 0)))"

tap() {   # tap ok|fail|skip NAME [REASON]
	n=$((n + 1))
	case $1 in
	ok) echo "ok $n $2" ;;
	skip) echo "ok $n $2 # skip $3" ;;
	*) echo "not ok $n $2"; failed=$((failed + 1)) ;;
	esac
}

# sig FILE KIND [LEAF]: the comparable signature of one record (see
# signature.jq); user frames with the leaf frame unless the record's kernel
# had no bpf_find_vma() or LEAF is "no"
sig() {
	local f=$1 kind=$2 leaf=${3:-}
	[ -n "$leaf" ] || leaf=$(head -n 1 "$f" 2>/dev/null |
		jq -r 'if (.kernel_bpf.missing // []) | index("find_vma") then "no" else "yes" end')
	{
		"$CA" report --all --format json -i "$f" |
			jq -r --arg kind "$kind" --arg leaf "${leaf:-yes}" -f "$SIG"
		"$CA" report --suggest --format json -i "$f" |
			jq -r --arg kind "suggest-$kind" --arg leaf "${leaf:-yes}" -f "$SIG"
	} 2>&1
}

# The static binary itself, on the host: linked statically (ldd says so),
# doctor, record -- true and its report work (the guests run it below).
static_on_host() {
	local f=$ROOT/build-static/capaudit d=$OUT/static
	mkdir -p "$d"
	ldd "$f" > "$d/ldd.txt" 2>&1
	grep -q -e 'not a dynamic executable' -e 'statically linked' "$d/ldd.txt" ||
		{ echo "ldd: $(cat "$d/ldd.txt")"; return 1; }
	"$f" doctor > "$d/doctor.txt" 2>&1 || { echo "doctor: exit $?"; return 1; }
	"$f" record -q -o "$d/true.jsonl" -- true 2> "$d/record.err" ||
		{ echo "record: $(head -n 1 "$d/record.err")"; return 1; }
	"$f" report -i "$d/true.jsonl" > "$d/report.txt" 2>&1 &&
		grep -q '^PID [0-9]* true ' "$d/report.txt" || { echo "report: $(head -n 3 "$d/report.txt")"; return 1; }
	# users from /etc/passwd alone: a uid it lacks went on to the host's
	# libnss_systemd, which crashed the static binary (exit 139)
	"$f" run -q --caps none --user 3999999 -o "$d/user.jsonl" -- true > "$d/user.txt" 2>&1 ||
		{ echo "run --user 3999999: exit $?: $(head -n 1 "$d/user.txt")"; return 1; }
	"$f" run -q --caps none --user nobody -o "$d/nobody.jsonl" -- true > "$d/nobody.txt" 2>&1 ||
		{ echo "run --user nobody: exit $?: $(head -n 1 "$d/nobody.txt")"; return 1; }
}
why=$(static_on_host) || why=${why:-failed}
size=$(stat -c %s "$ROOT/build-static/capaudit")
if [ -z "$why" ]; then
	tap ok "static build: $(sed 's/^[[:space:]]*//' "$OUT/static/ldd.txt"), $((size / 1024)) KiB; doctor, record -- true, report and run --user (a uid without an account, nobody) run on the host"
else
	tap fail "static build on the host: $why"
fi
case $arm64_static in
"") ;;
ok*) tap ok "static build for arm64 (make ARCH=arm64 static): ${arm64_static#ok }" ;;
skip*) tap skip "static build for arm64" "${arm64_static#skip }" ;;
*) tap fail "static build for arm64: ${arm64_static#fail }"
   sed 's/^/# /' "$OUT/build-static-arm64.log" | tail -n 30 ;;
esac
for k in $skipped; do
	tap skip "$k: no guest" "${unavailable[$k]}"
done

# run_guest LABEL: the workloads in that kernel under qemu, into $OUT/LABEL
run_guest() {
	local k=$1 dir=$OUT/$1
	if [ "${arch_of[$k]}" = arm64 ]; then
		ARCH=arm64 BINDIR=$ROOT/build-static-arm64/bin MEM=256 TIMEOUT=900 \
			tools/vm/vmrun.sh "${vmlinuz_of[$k]}" tools/vm/matrix-workloads.sh \
			"$dir" > "$dir/vmrun.log" 2>&1
	else
		BINDIR=$BIN MEM=256 TIMEOUT=900 tools/vm/vmrun.sh "${vmlinuz_of[$k]}" \
			tools/vm/matrix-workloads.sh "$dir" > "$dir/vmrun.log" 2>&1
	fi
	sed -n 's/^uname=//p' "$dir/files/kernel.txt" 2>/dev/null > "$dir/release"
}

# The host first, alone (its workloads run natively); then the guests in
# two lanes at once, amd64's and arm64's, one qemu (one emulated CPU) per
# core: the arm64 guests add their excess over the amd64 ones' time, not
# their own.
for k in $labels; do
	rm -rf "$OUT/$k"
	mkdir -p "$OUT/$k"
done
dir=$OUT/host
ARM64_BIN=$ROOT/build-static-arm64/bin
rm -f "$BIN/foreign.jsonl" "$ARM64_BIN/foreign.jsonl"
t0=$(date +%s.%N)
# one host run at a time: the workloads set kernel.dmesg_restrict, which is
# the whole host's (another matrix run beside this one, or an end-to-end
# test beside it in make test's other lane, would set it back under it):
# the lock tests/e2e/helper.bash's host_lock takes; at most 30 minutes of
# waiting
BIN=$BIN OUT=$dir/files flock -w 1800 /run/lock/capaudit-dmesg_restrict.lock \
	sh tools/vm/matrix-workloads.sh > "$dir/console.txt" 2>&1
echo $? > "$dir/rc"
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' > "$dir/time"
uname -r > "$dir/release"
# the host's chown record goes to every guest, which reports it (on arm64:
# an x86_64 record read there, named from x86_64's table)
if [ -f "$dir/files/auto.chown.jsonl" ]; then
	cp "$dir/files/auto.chown.jsonl" "$BIN/foreign.jsonl"
	[ -d "$ARM64_BIN" ] && cp "$dir/files/auto.chown.jsonl" "$ARM64_BIN/foreign.jsonl"
fi
for lane in x86 arm64; do
	(
		for k in $labels; do
			[ "$k" != host ] && [ "${arch_of[$k]}" = "$lane" ] && run_guest "$k"
		done
	) &
done
wait
rm -f "$BIN/foreign.jsonl" "$ARM64_BIN/foreign.jsonl"

# what a report of a record says, in one line: its architecture, and per
# capability the verdicts and the syscalls by name and number
foreign_sig() {
	jq -r '[.record.arch] + [.processes[] | .comm as $c | .capabilities[] |
		"\($c) \(.cap) \(.granted)/\(.denied) in \([.syscalls[] | "\(.name // "?"):\(.nr)"] | join(","))"] |
		join("; ")' 2>/dev/null
}

declare -A cell
for k in $labels; do
	dir=$OUT/$k
	if [ "$(cat "$dir/rc" 2>/dev/null)" != 0 ]; then
		tap fail "$k: boot and run the workloads"
		sed 's/^/#   /' "$dir/vmrun.log" 2>/dev/null | tail -n 20
		for m in $MODES; do tap fail "$k $m: no results"; cell[$k.$m]=FAIL; done
		[ "$k" = host ] || tap fail "$k: no report of the host's record"
		continue
	fi
	f=$dir/files
	# doctor works as root; with only CAP_BPF and CAP_PERFMON it works
	# too, or says why it cannot: BPF memory charged to RLIMIT_MEMLOCK
	# (before 5.11), or no BPF trampolines (arm64 before 6.4, as root's
	# doctor found) and perf events left to CAP_SYS_ADMIN
	# (kernel.perf_event_paranoid=3, Debian's level): no mode is left
	bad="" capsonly=""
	[ "$(cat "$f/doctor.rc" 2>/dev/null)" = 0 ] ||
		bad="capaudit doctor: $(grep '^Verdict' "$f/doctor.txt" 2>/dev/null)"
	if grep -q '^  BPF memory  *RLIMIT_MEMLOCK' "$f/doctor.txt" 2>/dev/null; then
		grep -q '^  fexit .* count against RLIMIT_MEMLOCK ([0-9]* KiB here)' "$f/capsonly-doctor.txt" ||
			bad="${bad:+$bad; }with only CAP_BPF and CAP_PERFMON doctor does not name RLIMIT_MEMLOCK"
		capsonly=": RLIMIT_MEMLOCK named"
	elif grep -q '^  fexit  *no: .*(ENOTSUPP): this kernel cannot attach BPF trampolines' "$f/doctor.txt" &&
	     grep -q '^  kernel.perf_event_paranoid  *[3-9]$' "$f/doctor.txt"; then
		grep -q '^  fexit  *no: .*(ENOTSUPP): this kernel cannot attach BPF trampolines' "$f/capsonly-doctor.txt" &&
		grep -q '^  kprobe  *no: .*kernel.perf_event_paranoid=[3-9] .* lets only CAP_SYS_ADMIN open perf events' "$f/capsonly-doctor.txt" ||
			bad="${bad:+$bad; }with only CAP_BPF and CAP_PERFMON doctor does not name both ENOTSUPP (fexit) and perf_event_paranoid (kprobe)"
		capsonly=": no mode, fexit's ENOTSUPP and kprobe's perf_event_paranoid named"
	elif ! grep -q '^Verdict: capaudit record works here' "$f/capsonly-doctor.txt" 2>/dev/null; then
		bad="${bad:+$bad; }with only CAP_BPF and CAP_PERFMON: $(grep '^Verdict' "$f/capsonly-doctor.txt" 2>/dev/null)"
	fi
	if [ -z "$bad" ]; then
		tap ok "$k ($(cat "$dir/release")): boot, doctor (root; CAP_BPF and CAP_PERFMON only$capsonly) and the workloads in $(cat "$dir/time") s"
	else
		tap fail "$k ($(cat "$dir/release")): $bad"
		sed 's/^/#   /' "$f/doctor.txt" "$f/capsonly-doctor.txt" 2>/dev/null | tail -n 40
	fi
	if [ "$k" != host ]; then
		want=$("$CA" report --format json -i "$OUT/host/files/auto.chown.jsonl" | foreign_sig)
		got=$(foreign_sig < "$f/foreign.report.json")
		if [ -n "$want" ] && [ "$got" = "$want" ]; then
			tap ok "$k: reports the host's record as the host does ($want)"
		else
			tap fail "$k: the host's record reported there: '$got'; on the host: '$want'"
			sed 's/^/#   /' "$f/foreign.report.err" 2>/dev/null | head -n 5
		fi
	fi
	for m in $MODES; do
		if [ -f "$f/$m.skip" ]; then
			cell[$k.$m]=skip
			echo "$(cat "$f/$m.skip")" > "$dir/$m.why"
			continue
		fi
		cell[$k.$m]=ran
		for w in chown clone3 nocr nobody ptrace shortcut scope; do
			if [ -f "$f/$m.$w.jsonl" ]; then
				sig "$f/$m.$w.jsonl" "$w"
			else
				echo "$w: no record (exit $(cat "$f/$m.$w.rc" 2>/dev/null)): $(head -n1 "$f/$m.$w.err" 2>/dev/null)"
			fi
			echo "$w exit $(cat "$f/$m.$w.rc" 2>/dev/null)"
		done > "$dir/$m.sig"
		# the host's, as a kernel without bpf_find_vma() records them
		[ "$k" != host ] || for w in chown clone3 nocr nobody ptrace shortcut scope; do
			[ -f "$f/$m.$w.jsonl" ] && sig "$f/$m.$w.jsonl" "$w" no
			echo "$w exit $(cat "$f/$m.$w.rc" 2>/dev/null)"
		done > "$dir/$m.sig-noleaf"
		# the call-site cache: 300 checks at one site, walked in the slot's
		# first 64 hits and at the 256th (and at the exec's own few), never
		# because a proof failed: without proofs every one walks
		# (its call site's name is left out: check_syslog_permissions() is
		# a function of its own on 6.1, inlined in do_syslog() on 6.18)
		{
			echo "loop exit $(cat "$f/$m.loop.rc" 2>/dev/null)"
			"$CA" report --format json -i "$f/$m.loop.jsonl" 2>&1 | jq -r '"loop CAP_SYSLOG " +
				([.processes[].capabilities[] | select(.cap == "CAP_SYSLOG") | .granted] | add | tostring)'
			# (kprobe mode without kretprobe_stack, 5.10: no proofs, its
			# record says so: every check walked, at the entry probe)
			head -n 1 "$f/$m.loop.jsonl" 2>/dev/null | jq -r '"loop cache: \(if .cache.unproven == 0
				and .cache.hit_walks < 100 then "counted by proofs" elif .attach == "kprobe" and
				((.kernel_bpf.missing // []) | index("kretprobe_stack")) and
				.cache.misses + .cache.hit_walks == .checks then
				"not used (kprobe mode without kretprobe_stack): every check walked"
				else "hits walked: \(.cache)" end)"'
		} >> "$dir/$m.sig"
		# the scope's processes: all in its cgroup, the chown outside not among them
		# the scope's processes: all in its cgroup, the chown outside not among them
		# (the cgroup is /capaudit-mx-PID, PID the run's: compared without it)
		echo "scope cgroups: $(jq -r 'select(.type == "process") | .cgroup // "none"
			| sub("^/capaudit-mx-[0-9]+$"; "/capaudit-mx")' \
			"$f/$m.scope.jsonl" 2>/dev/null | sort -u | tr '\n' ' ')" >> "$dir/$m.sig"
		# what the chown was about (issue 44): the file, read by the hook
		# from the syscall's path (the run's directory left out); not its
		# owner, which the recorder reads after the chown or before it
		echo "chown objects: $(jq -r 'select(.type == "check" and .cap_name == "CAP_CHOWN") |
			.objects // [] | .[] | "\(.kind) \(.path // "none" | sub(".*/matrix\\.[^/]+/"; "matrix/"))"' \
			"$f/$m.chown.jsonl" 2>/dev/null | sort -u | tr '\n' ' ')" >> "$dir/$m.sig"
		[ "$k" != host ] || grep -e '^loop ' -e '^scope cgroups: ' -e '^chown objects: ' \
			"$dir/$m.sig" >> "$dir/$m.sig-noleaf"
		"$CA" report --format json -i "$f/$m.chown.jsonl" 2>/dev/null | jq -r '.record.attach' \
			> "$dir/$m.attached"
	done
done

# The reference: the host's first mode that ran (tp_btf on 6.14+).
ref=""
for m in tp_btf tracepoint fexit kprobe; do
	[ "${cell[host.$m]:-}" = ran ] && { ref=$OUT/host/$m.sig; refname="host $m"; break; }
done

for k in $labels; do
	dir=$OUT/$k
	[ -f "$dir/rc" ] && [ "$(cat "$dir/rc")" = 0 ] || continue
	f=$dir/files
	event=$(sed -n 's/^event=//p' "$f/kernel.txt")
	for m in $MODES; do
		name="$k $m"
		if [ "${cell[$k.$m]}" = skip ]; then
			why=$(sed 's/^capaudit: //' "$dir/$m.why")
			# a mode may only be missing for the reason the kernel gives
			case "$m:$event:$why" in
			tp_btf:no:*|tracepoint:no:*|fexit:*:*"trampolines"*|kprobe:*:*"kprobes are not built"*)
				# Debian's kernels must run kprobe, and fexit where BPF
				# trampolines can attach to a kernel function: with
				# ftrace direct calls (kernel/bpf/trampoline.c
				# register_fentry(): ENOTSUPP without), which x86 has
				# and arm64 since 6.4 (commit 2aa6ac03516d)
				if [ "$k" != host ] && { [ "$m" = kprobe ] || { [ "$m" = fexit ] &&
				   grep -qx 'CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' \
					"$(dirname "${vmlinuz_of[$k]}")/config"; }; }; then
					tap fail "$name: expected to attach on $k, got: $why"
					cell[$k.$m]=FAIL
				else
					tap skip "$name" "$why"
				fi ;;
			*)
				tap fail "$name: unexpected failure: $why"
				cell[$k.$m]=FAIL ;;
			esac
			continue
		fi
		if [ -z "$ref" ]; then
			tap fail "$name: the host recorded in no mode: nothing to compare with"
			cell[$k.$m]=FAIL
			continue
		fi
		# the host's lines as this kernel records them, where its records
		# say what it lacks: user stacks without the leaf frame (no
		# bpf_find_vma()), kprobe mode without the call-site cache
		cref=$ref
		note=""
		grep -q ' (no leaf frame)$' "$dir/$m.sig" && cref=$ref-noleaf note=" (no leaf frames)"
		nocache=$(grep '^loop cache: not used (kprobe mode without kretprobe_stack)' "$dir/$m.sig")
		as_here() {   # as_here FILE: FILE's lines, with this mode's loop cache line if so
			if [ -n "$nocache" ]; then
				awk -v l="$nocache" '/^loop cache: counted by proofs$/ { $0 = l } { print }' "$1"
			else
				cat "$1"
			fi
		}
		[ -n "$nocache" ] && note="$note (no call-site cache)"
		as_here "$cref" > "$dir/$m.ref"
		cref=$dir/$m.ref
		if [ "$m" = auto ]; then
			# auto: the first of tp_btf, tracepoint, fexit, kprobe that works here
			want=""
			for w in tp_btf tracepoint fexit kprobe; do
				[ "${cell[$k.$w]:-}" = ran ] && { want=$w; break; }
			done
			got=$(cat "$dir/auto.attached")
			if [ "$got" = "$want" ] && diff -u <(grep -v '^kernel-only' "$cref") \
				<(grep -v '^kernel-only' "$dir/auto.sig") > "$dir/auto.diff"; then
				tap ok "$name: picked $got, same results as $refname$note"
				cell[$k.$m]=$got
			else
				tap fail "$name: picked '$got' (expected '$want'), or results differ from $refname"
				sed 's/^/#   /' "$dir/auto.diff"
				cell[$k.$m]=FAIL
			fi
			continue
		fi
		# the same as the host (noaudit counts aside: exec and mmap differ
		# between kernel versions), and the same noaudit counts as this
		# kernel's other modes
		first=""
		for w in tp_btf tracepoint fexit kprobe; do
			[ "${cell[$k.$w]:-}" = ran ] || [ "${cell[$k.$w]:-}" = pass ] && { first=$w; break; }
		done
		if diff -u <(grep -v '^kernel-only' "$cref") <(grep -v '^kernel-only' "$dir/$m.sig") \
			> "$dir/$m.diff" &&
		   diff -u <(as_here "$dir/$first.sig") "$dir/$m.sig" >> "$dir/$m.diff"; then
			tap ok "$name: chown, clone3 (root, without CAP_CHECKPOINT_RESTORE, uid 65534), ps: same as $refname$note"
			cell[$k.$m]=pass
		else
			tap fail "$name: results differ (- $refname or $k $first, + $k $m)"
			sed 's/^/#   /' "$dir/$m.diff" | head -n 40
			cell[$k.$m]=FAIL
		fi
	done
done

# the table
{
	printf '%-42s' "kernel"
	for m in $MODES; do printf ' %-10s' "$m"; done
	echo
	for k in $labels; do
		r=$(cat "$OUT/$k/release" 2>/dev/null)
		printf '%-42s' "$k${r:+ ($r)}"
		for m in $MODES; do printf ' %-10s' "${cell[$k.$m]:-?}"; done
		echo
	done
} > "$OUT/table.txt"
echo "# kernel x attach mode (auto: the mode it picked; skip: the mode cannot attach there)"
sed 's/^/# /' "$OUT/table.txt"
[ "$failed" -eq 0 ]
