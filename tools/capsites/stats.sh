#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The capability-site tables' sizes (docs/capsites.md): per kernel, rows,
# rows with alternatives, noaudit rows, noaudit rows that decide (an errno
# or a sysctl's mode), rows asked before a plain allow condition, and
# rows whose denial's effect is known.
cd "$(dirname "$0")/../../user/facts/capsites" || exit 1
printf '%-8s %6s %6s %8s %9s %11s %13s\n' kernel sites any noaudit deciding conditional effect-known
for f in linux-*.tsv; do
	awk -F'\t' -v k="${f#linux-}" '
		/^#/ { next }
		{ n++ }
		$5 == "any" { any++ }
		$6 == "noaudit" { na++; if ($7 ~ /^E[A-Z0-9]+$/ || $7 == "mode") dec++ }
		$8 != "-" { cond++ }
		$7 != "unknown" { known++ }
		END { sub(/\.tsv$/, "", k)
		      printf "%-8s %6d %6d %8d %9d %11d %6d of %d\n", k, n, any, na, dec, cond, known, n }' "$f"
done
