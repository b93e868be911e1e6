# SPDX-License-Identifier: GPL-2.0
# The capability-site tables (user/facts/capsites/linux-*.tsv, made by
# gen-capsites.py, twelve columns) as C data for user/facts/capsites.c: one array per
# kernel, then ktables[]. Run by the Makefile:
#   awk -f tools/capsites/tsv2c.awk user/facts/capsites/linux-*.tsv > capsites_data.h
function cstr(s) {
	if (s == "-" || s == "") return "NULL"
	gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); gsub(/\?\?/, "?\\?", s)
	return "\"" s "\""
}
function flush() {
	if (label == "") return
	printf "};\n"
	tables = tables sprintf("\t{ \"%s\", %s, %s, %d },\n", label, cstr(source), var, n)
}
FNR == 1 { flush(); label = ""; n = 0 }
/^# kernel\t/ {
	label = $2; source = $4; var = "ks_" label; gsub(/[^A-Za-z0-9]/, "_", var)
	printf "static const struct ksite %s[] = {\n", var
	next
}
/^#/ { next }
{
	split($0, f, "\t")
	ncap = split(f[4], caps, "|")
	c = ""
	for (i = 1; i <= 4; i++) {
		if (i > ncap) c = c "-1"
		else if (caps[i] == "unknown") c = c "KS_CAP_UNKNOWN"
		else c = c caps[i]
		if (i < 4) c = c ", "
	}
	# via, when, change: the twelve-column tables (NULL for "-")
	printf "\t{ \"%s\", %d, \"%s\", { %s }, KS_%s, %d, %s, %s, %s, %s, %s, %s },\n", f[1], f[2],
		f[3], c, toupper(f[5]), f[6] == "noaudit", cstr(f[7]), cstr(f[8]), cstr(f[9]),
		cstr(f[10]), cstr(f[11]), cstr(f[12])
	n++
}
END {
	flush()
	printf "static const struct ktable ktables[] = {\n%s};\n", tables
}
