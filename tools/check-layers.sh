#!/bin/sh
# make check-layers: every #include "LAYER/x.h" of user/ runs down the
# layers, never up or sideways where the design says it must not:
#
#   lib      capaudit-agnostic helpers        -> lib
#   facts    tables about Linux               -> lib facts
#   recfile  the record format, both ways     -> lib facts recfile
#   analyze  record -> conclusions (pure)     -> lib facts recfile analyze
#   output   how conclusions look             -> lib facts recfile analyze output
#   tracer   libbpf and the BPF ABI: load,    -> lib facts recfile analyze tracer
#            attach, maps, iterators, privileges
#   record   one recording, behind record.h   -> lib facts recfile analyze tracer record
#   monitor  capaudit monitor, on record.h    -> lib facts recfile analyze tracer record monitor
#   engines  verify and doctor                -> lib facts recfile analyze tracer record engines
#   cli      parsing and wiring               -> everything
#
# and only tracer/ and cli/ include libbpf (<bpf/...>) or the BPF ABI
# (capaudit.h, skeletons); the layers above the tracer see the ABI through
# tracer/abi.h. One line per violation, exit 1 if any.
cd "$(dirname "$0")/.."
bad=0
allowed() {
	case $1 in
	lib) echo "lib" ;;
	facts) echo "lib facts" ;;
	recfile) echo "lib facts recfile" ;;
	analyze) echo "lib facts recfile analyze" ;;
	output) echo "lib facts recfile analyze output" ;;
	tracer) echo "lib facts recfile analyze tracer" ;;
	record) echo "lib facts recfile analyze tracer record" ;;
	monitor) echo "lib facts recfile analyze tracer record monitor" ;;
	engines) echo "lib facts recfile analyze tracer record engines" ;;
	cli) echo "lib facts recfile analyze output tracer record monitor engines cli" ;;
	esac
}
for dir in user/*/; do
	layer=$(basename "$dir")
	ok=$(allowed "$layer")
	[ -n "$ok" ] || { echo "check-layers: $dir is not a known layer"; bad=1; continue; }
	for f in "$dir"*.c "$dir"*.h "$dir"*.cpp; do
		[ -e "$f" ] || continue
		grep -n '^#include' "$f" | while IFS= read -r line; do
			n=${line%%:*}
			inc=$(echo "$line" | sed -n 's/.*#include *["<]\([^">]*\)[">].*/\1/p')
			case $inc in
			*/*)
				top=${inc%%/*}
				case $top in
				bpf) [ "$layer" = tracer ] || [ "$layer" = cli ] ||
					echo "$f:$n: $layer/ includes <$inc>: only tracer/ and cli/ use libbpf" ;;
				lib|facts|recfile|analyze|output|tracer|record|monitor|engines|cli)
					case " $ok " in
					*" $top "*) ;;
					*) echo "$f:$n: $layer/ includes $inc: $layer may use only: $ok" ;;
					esac ;;
				esac ;;
			capaudit.h|*.skel.h)
				[ "$layer" = tracer ] || [ "$layer" = cli ] ||
					echo "$f:$n: $layer/ includes $inc (the BPF side's): only tracer/ and cli/ (the rest: tracer/abi.h)" ;;
			*.h)
				# a project header without its layer: say where it lives
				for l in lib facts recfile analyze output tracer record monitor engines cli; do
					[ -e "user/$l/$inc" ] && echo "$f:$n: include \"$l/$inc\", naming its layer"
				done ;;
			esac
		done
	done
done > /tmp/check-layers.$$
if [ -s /tmp/check-layers.$$ ]; then
	cat /tmp/check-layers.$$
	bad=1
fi
rm -f /tmp/check-layers.$$
exit $bad
