#!/usr/bin/env bats
# tier: check (reads source text and tables: no root, no kernel)
# The capability-site tables (docs/capsites.md): the generator reads each
# class of the kernel's capability logic from source written the way the
# kernel writes it (tests/fixtures/capsites-tree/, one function per
# class), and the tables kept in the tree are whole and built in.

load helper

GEN=tools/capsites/gen-capsites.py

setup() {
	fixture_setup
	cd "$BATS_TEST_DIRNAME/../.."
	command -v python3 >/dev/null || skip "python3 is not installed"
	python3 "$GEN" tests/fixtures/capsites-tree 0.1 fixture >"$T/gen.tsv"
}

row() {   # the columns caps..allowed_without of FUNCTION's row at LINE (direct rows)
	awk -F'\t' -v f="$1" -v l="$2" '$3 == f && $2 == l && $10 == "-" { print $4, $5, $6, $7, $8 }' "$T/gen.tsv"
}

crow() {   # FUNCTION's row at LINE: caps kind audit effect allowed_without | via | when | change
	awk -F'\t' -v f="$1" -v l="$2" '$3 == f && $2 == l { print $4, $5, $6, $7, $8 "|" $10 "|" $11 "|" $12 }' "$T/gen.tsv"
}

@test "generator: the fixture tree's table is the one kept (every class, as a whole)" {
	diff -u tests/fixtures/capsites-tree.tsv "$T/gen.tsv"
}

@test "generator: alternatives in the order asked, narrow first or broad first" {
	[ "$(row narrow_first 9)" = "CAP_CHECKPOINT_RESTORE|CAP_SYS_ADMIN any audit EPERM -" ]
	[ "$(row broad_first 21)" = "CAP_SYS_ADMIN|CAP_SYS_NICE any audit EPERM -" ]
	# a chain of checks that each allow: either for a read, one for a write
	[ "$(row chain 32)" = "CAP_DAC_READ_SEARCH|CAP_DAC_OVERRIDE any audit EACCES -" ]
	[ "$(row chain 34)" = "CAP_DAC_OVERRIDE one audit EACCES -" ]
	[ "$(row all_needed 89)" = "CAP_SYS_CHROOT|CAP_SYS_ADMIN all audit EPERM -" ]
}

@test "generator: a plain condition asked after the capability, and one asked before it" {
	[ "$(row asked_before 45)" = "CAP_SETUID one audit EPERM not (!uid_eq(kuid, old->uid) && !uid_eq(kuid, new->suid))" ]
	[ "$(awk -F'\t' '$3 == "condition_first" { print $4, $8 }' "$T/gen.tsv")" = "CAP_KILL -" ]
}

@test "generator: noaudit checks, and what a denial does" {
	[ "$(row noaudit_decides 59)" = "CAP_SYS_ADMIN one noaudit EACCES -" ]
	[ "$(row other_error 72)" = "CAP_SYS_RESOURCE|CAP_SYS_ADMIN any audit EAGAIN -" ]
	[ "$(row stored 83)" = "CAP_PERFMON|CAP_SYS_ADMIN any audit value -" ]
	[ "$(row helper 98)" = "CAP_IPC_LOCK one audit caller -" ]
	[ "$(awk -F'\t' '$3 == "helper" { print $9 }' "$T/gen.tsv")" = "caller_of_helper" ]
	# a sysctl's .permissions handler: the answer is the file's mode
	[ "$(awk -F'\t' '$3 == "perm_handler" { print $6, $7 }' "$T/gen.tsv")" = "noaudit mode" ]
}

@test "generator: along the call chain, what a caller does with a false or passed-on answer" {
	# fs/attr.c setattr_prepare(): the chmod goes on, the set-group-ID bit cleared
	[ "$(crow setattr_prepare 6)" = "CAP_FSETID one audit silent -|in_group_or_capable|-|attr->ia_mode &= ~S_ISGID" ]
	# a value returned on a denial, and a denial that falls to one
	[ "$(crow setattr_should_drop_sgid 18)" = "CAP_FSETID one audit value -|in_group_or_capable|-|return ATTR_KILL_SGID" ]
	[ "$(crow mode_strip_sgid 20)" = "CAP_FSETID one audit value -|in_group_or_capable|-|return mode & ~S_ISGID" ]
	# kernel/sys.c set_one_prio(): an errno, after a plain condition
	[ "$(crow set_one_prio 26)" = "CAP_SYS_NICE one audit EACCES -|can_nice|-|-" ]
	# passed on: a chain function of the second level, and its caller
	[ "$(crow nice_ok 38)" = "CAP_SYS_NICE one audit caller -|can_nice|-|-" ]
	[ "$(crow sys_nice 44)" = "CAP_SYS_NICE one audit EPERM -|nice_ok|-|-" ]
	[ "$(crow store_nice 52)" = "CAP_SYS_NICE one audit value -|can_nice|-|p->may_nice = can_nice(p, nice)" ]
	# an answer that is true on a denial ("is unprivileged"): inverted
	[ "$(crow pipe_set_size 58)" = "CAP_SYS_RESOURCE|CAP_SYS_ADMIN unknown audit EPERM -|pipe_is_unprivileged_user|-|-" ]
	# a static chain function: its own file's callers only; a function of
	# the same name of another file is not it
	[ "$(crow caller_of_helper 103)" = "CAP_IPC_LOCK one audit EPERM -|helper|-|-" ]
	run grep -c $'^kernel/other.c\t' "$T/gen.tsv"
	[ "$output" = 0 ]
	# mm/mmap.c mlock_future_ok()'s callers (a bool function's plain condition)
	[ "$(crow do_mmap 22)" = "CAP_IPC_LOCK one audit EAGAIN -|mlock_future_ok|-|-" ]
	[ "$(crow acct_stack_growth 30)" = "CAP_IPC_LOCK one audit ENOMEM -|mlock_future_ok|-|-" ]
	# the callee's own rows stay direct
	[ "$(crow in_group_or_capable 10)" = "CAP_FSETID one audit false -|-|-|-" ]
	[ "$(crow can_nice 28)" = "CAP_SYS_NICE one audit caller -|-|-|-" ]
}

@test "generator: a switch's case labels, and an error stored before a break" {
	# net/core/sock.c sk_setsockopt(): ret = -EPERM; break; and the function returns ret
	[ "$(crow sk_setsockopt 13)" = "CAP_NET_ADMIN one audit EPERM -|-|SO_SNDBUFFORCE|-" ]
	[ "$(crow sk_setsockopt 9)" = "CAP_NET_ADMIN one audit EACCES -|-|SO_DEBUG|-" ]
	# a bare break: skipped, silently; two labels on one branch
	[ "$(crow sk_setsockopt 21)" = "CAP_NET_ADMIN one audit silent -|-|SO_PRIORITY|SO_PRIORITY_ALIAS|break" ]
	# reached by falling through from the labels before
	[ "$(crow sk_setsockopt 26)" = "CAP_NET_ADMIN one audit EPERM -|-|SO_PRIORITY|SO_PRIORITY_ALIAS|SO_RCVBUFFORCE|-" ]
	# net/socket.c sock_ioctl(): err = -EPERM; just before if (!ns_capable(...)) break;
	[ "$(crow sock_ioctl 84)" = "CAP_NET_ADMIN one audit EPERM -|-|SIOCGSKNS|-" ]
	# the stored error is not what the function returns: undecided
	[ "$(crow other_return 47)" = "CAP_NET_ADMIN one audit unknown -|-|1|-" ]
	# outside a switch
	[ "$(crow narrow_first 9)" = "CAP_CHECKPOINT_RESTORE|CAP_SYS_ADMIN any audit EPERM -|-|-|-" ]
	[ "$(crow broad_first 21)" = "CAP_SYS_ADMIN|CAP_SYS_NICE any audit EPERM -|-|IOPRIO_CLASS_RT|-" ]
}

@test "generator: netlink acks, a grant that assigns, a bool function's plain condition" {
	# net/netfilter/nfnetlink.c nfnetlink_rcv(), and the returned form
	[ "$(crow nfnetlink_rcv 61)" = "CAP_NET_ADMIN one audit ack:EPERM -|-|-|-" ]
	[ "$(crow ack_returned 71)" = "CAP_NET_RAW one audit ack:EPERM -|-|-|-" ]
	# mm/mlock.c do_mlock(): int error = -ENOMEM; ... if (... || capable()) error = ...;
	[ "$(crow do_mlock 44)" = "CAP_IPC_LOCK one audit ENOMEM -|-|-|-" ]
	# fs/crypto/keyring.c: if (err == -ENOKEY && capable(CAP_FOWNER)) err = 0;
	[ "$(crow verify_key_added 53)" = "CAP_FOWNER one audit ENOKEY -|-|-|-" ]
	# mm/mmap.c mlock_future_ok(): false unless the plain condition at the end
	[ "$(crow mlock_future_ok 7)" = "CAP_IPC_LOCK one audit false locked_pages <= limit_pages|-|-|-" ]
	# a value stored: the statement
	[ "$(crow stored 83)" = "CAP_PERFMON|CAP_SYS_ADMIN any audit value -|-|-|env->allow_ptr_leaks = perfmon_capable()" ]
	# likely()/unlikely() read through; an operand asked before the
	# capability is no condition that allows without it; `return kill`
	# where kill is a mask of constants and |= is a value, with them
	# capabilities each asked for its own operand, allowing together:
	# not alternatives (net/core/scm.c scm_check_creds())
	[ "$(crow scm_check_creds 5)" = "CAP_SYS_ADMIN|CAP_SETUID unknown audit EPERM -|-|-|-" ]
	[ "$(crow setattr_should_drop_suidgid 73)" = "CAP_FSETID one audit value S_ISREG(mode)|-|-|return kill (kill = 0; kill = ATTR_KILL_SUID; kill |= setattr_should_drop_sgid(inode))" ]
}

@test "tables: one per kernel, each with its source, every row whole and built in" {
	local f n
	for k in 5.10 6.1 6.12 7.2; do
		f=user/facts/capsites/linux-$k.tsv
		[ "$(sed -n 2p "$f" | cut -f2)" = "$k" ]
		[[ "$(sed -n 2p "$f" | cut -f4)" == "Debian linux-source-$k "* ]]
		# twelve columns, a line number, known kinds and audit words; a
		# change only for silent and value effects
		[ "$(sed -n 3p "$f" | awk -F'\t' '{ print NF, $10, $11, $12 }')" = "12 via when change" ]
		run awk -F'\t' '!/^#/ && (NF != 12 || $2 !~ /^[0-9]+$/ || $5 !~ /^(one|any|all|unknown)$/ ||
			$6 !~ /^(audit|noaudit)$/ || ($12 != "-" && $7 !~ /^(silent|value)$/) ||
			length($12) > 120) { print FILENAME ":" FNR ": " $0 }' "$f"
		[ -z "$output" ]
		# chain rows, each through another function than its own
		n=$(awk -F'\t' '!/^#/ && $10 != "-" && $10 != $3' "$f" | wc -l)
		[ "$n" -gt 100 ]
		[ "$(awk -F'\t' '!/^#/ && $10 == $3' "$f" | wc -l)" -eq 0 ]
		n=$(grep -vc '^#' "$f")
		[ "$n" -gt 1000 ]
		# the build's copy has as many rows
		grep -q "{ \"$k\", \".*\", ks_${k//./_}, $n }" build/capsites_data.h
	done
}
