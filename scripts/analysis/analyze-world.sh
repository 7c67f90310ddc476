#!/usr/bin/env bash
# analyze-world.sh: the vector analysis of a small world of C files (not a
# kernel): compile each file to LLVM IR, extract facts, solve, and print
# the mask table.
#
# Usage:  scripts/analysis/analyze-world.sh WORLD [OUTDIR]
# Reads:  WORLD/*.c (and headers in WORLD), plus the stub kernel
#         tests/analysis-worlds/stub/*.c unless WORLD has a file NO_STUB;
#         include path: WORLD, then tests/analysis-worlds/stub.
#         OVERRIDES (optional): call edges to cut, see README.md.
# Writes: OUTDIR (default $OUT/analyze-world/<name>): ir/, facts/,
#         masks.txt, vectors.json, evidence.md, summary.txt, log.
# Exit:   0 done, 1 a file did not compile or parse, 2 usage error.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=analyze-world

[ $# -ge 1 ] || die "$stage" "usage: $0 WORLD [OUTDIR]" 2
world=$(cd "$1" 2>/dev/null && pwd) || die "$stage" "no such world folder: $1" 2
need_tool "$stage" clang opt python3
stub=$TOP/tests/analysis-worlds/stub
dest=${2:-$OUT/analyze-world/$(basename "$world")}
rm -rf "$dest"
mkdir -p "$dest/ir" "$dest/facts"

# the world's files, in subfolders too (a file that must sit at a kernel
# path, kernel/locking/lockdep.c, for a rule keyed by its unit)
mapfile -t srcs < <(find "$world" -name '*.c' | LC_ALL=C sort)
[ "${#srcs[@]}" -gt 0 ] || die "$stage" "no .c files in $world" 2
[ -e "$world/NO_STUB" ] || srcs+=("$stub"/*.c)

log "$stage" "$(basename "$world"): ${#srcs[@]} files"
for src in "${srcs[@]}"; do
	rel=${src#"$world"/}
	name=${rel%.c}
	name=${name//\//-}
	[ "$rel" != "$src" ] || { rel=$(basename "$src"); name=stub-${rel%.c}; }
	ll=$dest/ir/$name.ll
	if ! clang -O2 -Xclang -disable-llvm-passes -fno-discard-value-names \
		-g -S -emit-llvm -I "$world" -I "$stub" \
		-o "$ll.raw" "$src" 2>"$dest/ir/$name.err"; then
		cat "$dest/ir/$name.err" >&2
		die "$stage" "$src does not compile (clang, see above)" 1
	fi
	opt -S -passes=sroa,jump-threading "$ll.raw" -o "$ll"
	python3 "$TOP/scripts/analysis/ir_facts.py" "$ll" "$dest/facts/$name.json" \
		--tu "$rel" --srcroot "$world" --srcroot "$stub=stub" ||
		die "$stage" "cannot read the IR of $src" 1
done
solve=(--facts "$dest/facts" --out "$dest" --world "$(basename "$world")" --srcroot "$world")
[ -z "${OVERRIDES:-}" ] || solve+=(--overrides "$OVERRIDES")
python3 "$TOP/scripts/analysis/vectors.py" "${solve[@]}" >"$dest/log" ||
	die "$stage" "the solve failed, see $dest/log" 1
cat "$dest/masks.txt"
sed 's/^/# /' "$dest/summary.txt"
