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

row() {   # the columns caps..allowed_without of FUNCTION's row at LINE
	awk -F'\t' -v f="$1" -v l="$2" '$3 == f && $2 == l { print $4, $5, $6, $7, $8 }' "$T/gen.tsv"
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

@test "tables: one per kernel, each with its source, every row whole and built in" {
	local f n
	for k in 5.10 6.1 6.12 7.2; do
		f=user/facts/capsites/linux-$k.tsv
		[ "$(sed -n 2p "$f" | cut -f2)" = "$k" ]
		[[ "$(sed -n 2p "$f" | cut -f4)" == "Debian linux-source-$k "* ]]
		# nine columns, a line number, known kinds and audit words
		run awk -F'\t' '!/^#/ && (NF != 9 || $2 !~ /^[0-9]+$/ || $5 !~ /^(one|any|all|unknown)$/ ||
			$6 !~ /^(audit|noaudit)$/) { print FILENAME ":" FNR ": " $0 }' "$f"
		[ -z "$output" ]
		n=$(grep -vc '^#' "$f")
		[ "$n" -gt 1000 ]
		# the build's copy has as many rows
		grep -q "{ \"$k\", \".*\", ks_${k//./_}, $n }" build/capsites_data.h
	done
}
