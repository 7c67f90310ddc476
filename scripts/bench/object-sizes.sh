#!/usr/bin/env bash
# object-sizes.sh: the text size of the objects a conversion changed, in
# kernels built without lock debugging, as a markdown section for
# results/bench.md: `size` per object and kernel, and the kernel's
# scripts/bloat-o-meter from pristine 6.1 and from the series' core to the
# converted series, function by function.
#
# Usage: object-sizes.sh OUTFILE NAME=DIR...
#   NAME=DIR  a kernel and the folder its objects were saved to (the same
#             relative paths as in the build folder, plus vmlinux); the
#             first is the baseline, the last the converted kernel
# Reads:  the objects, $TREE/scripts/bloat-o-meter
# Writes: OUTFILE
# Exit:   0 written, 1 an object is missing or a tool failed, 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 3 ] || die sizes "usage: $0 OUTFILE NAME=DIR NAME=DIR... (at least two kernels)" 2
outfile=$1
shift
names=() dirs=()
for a in "$@"; do
	case $a in
	?*=?*) names+=("${a%%=*}") dirs+=("${a#*=}") ;;
	*) die sizes "'$a' is not NAME=DIR" 2 ;;
	esac
	[ -d "${a#*=}" ] || die sizes "no object folder ${a#*=} (build the kernel first)" 2
done
need_tool sizes size nm python3
bloat="$TREE/scripts/bloat-o-meter"
[ -f "$bloat" ] || die sizes "no $bloat: the work tree is missing (make tree)" 2

last=$((${#dirs[@]} - 1))
mapfile -t objs < <(cd "${dirs[$last]}" && find . -name '*.o' | sed 's|^\./||' | sort)
[ ${#objs[@]} -gt 0 ] || die sizes "no objects in ${dirs[$last]}" 1

# .text bytes: of an object, every .text section; of vmlinux, the sizes of
# its text symbols added up (its .text holds alignment gaps between the
# entry, irqentry and softirqentry parts, which hide small changes)
text() {
	case $1 in
	*/vmlinux)
		nm -S --defined-only "$1" | python3 -c '
import sys
print(sum(int(f[1], 16) for f in (l.split() for l in sys.stdin) if len(f) == 4 and f[2] in "tT"))' ||
			die sizes "nm failed on $1" 1
		;;
	*) size -A "$1" | awk '$1 == ".text" || $1 ~ /^\.text\./ { t += $2 } END { print t + 0 }' ;;
	esac
}

{
	echo "## Text size of the converted objects"
	echo
	echo "\`.text\` bytes (all .text sections) of each object a conversion changed, and"
	echo "of vmlinux (its functions' sizes added up), in the kernels of this run (no lock"
	echo "debugging, so the mask pair is inline at every converted call site). The"
	echo "series' kernels also build in its KUnit suite (bench-kunit.config), which"
	echo "pristine 6.1 cannot: the vmlinux row includes it."
	echo
	printf '| object |'
	printf ' %s |' "${names[@]}"
	printf ' %s - %s |\n' "${names[$last]}" "${names[0]}"
	printf '|---|'
	for _ in "${names[@]}"; do printf -- '---|'; done
	printf -- '---|\n'
	for o in "${objs[@]}" vmlinux; do
		printf '| %s |' "$o"
		first=
		for d in "${dirs[@]}"; do
			[ -f "$d/$o" ] || die sizes "no $d/$o" 1
			t=$(text "$d/$o")
			[ -n "$first" ] || first=$t
			printf ' %s |' "$t"
		done
		printf ' %+d |\n' $((t - first))
	done
	for i in $(seq 0 $((last - 1))); do
		echo
		echo "scripts/bloat-o-meter, ${names[$i]} -> ${names[$last]}, per converted object:"
		echo
		echo '```'
		for o in "${objs[@]}"; do
			echo "== $o"
			python3 "$bloat" "${dirs[$i]}/$o" "${dirs[$last]}/$o" ||
				die sizes "bloat-o-meter failed on $o" 1
		done
		echo '```'
	done
	echo
} >"$outfile"
result sizes PASS "$outfile: ${#objs[@]} objects, ${#names[@]} kernels"
