#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The capability-site tables' sizes (docs/capsites.md): per kernel, over the
# rows that ask themselves (via "-"): rows, rows with alternatives, noaudit
# rows, noaudit rows that decide (an errno or a sysctl's mode), rows asked
# before a plain allow condition, rows whose denial's effect is known; then
# the chain rows (a caller using the answer of a function that answers false
# or passes the answer on), and of the rows that answer so (effect false or
# caller), those with at least one chain row through their function: the
# sites whose effect is known at the caller.
cd "$(dirname "$0")/../../user/facts/capsites" || exit 1
printf '%-8s %6s %6s %8s %9s %11s %13s %6s %13s\n' kernel sites any noaudit deciding conditional \
	effect-known chain caller-known
for f in linux-*.tsv; do
	awk -F'\t' -v k="${f#linux-}" '
		/^#/ { next }
		$10 != "-" { chain++; via[$10] = 1; next }
		{ n++ }
		$5 == "any" { any++ }
		$6 == "noaudit" { na++; if ($7 ~ /^E[A-Z0-9]+$/ || $7 == "mode") dec++ }
		$8 != "-" { cond++ }
		$7 != "unknown" { known++ }
		$7 == "false" || $7 == "caller" { answers[++na_] = $3 }
		END { sub(/\.tsv$/, "", k)
		      for (i = 1; i <= na_; i++) if (answers[i] in via) ck++
		      printf "%-8s %6d %6d %8d %9d %11d %6d of %-4d %6d %6d of %d\n", k, n, any, na, dec,
			     cond, known, n, chain, ck, na_ }' "$f"
done
echo "caller-known: sites whose effect is known at the caller (rows answering false or" \
	"passing the answer on whose function has at least one chain row)"
