#!/usr/bin/env bash
# analyze-kernel.sh: the vector analysis of the campaign kernel.  The world
# is every C translation unit the campaign configuration compiles
# (scripts/kconfig/guest.config + campaign.config, tag base): each is
# compiled again with clang to LLVM IR (kbuild's own "%.ll" rule, same
# flags), reduced to facts (ir_facts.py, cached per unit: kbuild redoes
# only the units whose source or flags changed), and solved (vectors.py).
#
# Usage:  scripts/analysis/analyze-kernel.sh
# Reads:  $TREE (tag base), scripts/kconfig/{guest,campaign}.config,
#         scripts/analysis/world-exclude.txt (units left out of the world),
#         OVERRIDES (optional: call edges to cut, see README.md), JOBS.
# Writes: $OUT/build/campaign/ (the gcc build whose .cmd files list the
#         units), $WORK/src-analysis (a worktree of base),
#         $WORK/obj-ll (clang build folder with the .ll files),
#         $OUT/vectors/{units-built.txt,units-excluded.txt,units.txt,
#         units-without-ir.txt,facts/,masks.txt,sites.txt,vectors.json,
#         evidence.md,imprecision.md,summary.txt,log}; sites.txt (a mask
#         per section) is make convert's table.
# Exit:   0 done, 1 a stage failed, 2 missing tree or tool.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"
stage=analyze
need_tool "$stage" clang opt ld.lld llvm-ar llvm-nm llvm-objcopy python3 make git
need_tree "$stage"
JOBS=${JOBS:-$(nproc)}
OPT_PASSES=sroa,jump-threading
dest=$OUT/vectors
src=$WORK/src-analysis
objll=$WORK/obj-ll
mkdir -p "$dest/facts"
exec > >(tee "$dest/log") 2>&1
t0=$SECONDS

log "$stage" "1/5 campaign build (gcc): the units the configuration compiles"
# BUILD_REUSE=0: the units are read from $OBJ, which must hold this build
BUILD_REUSE=0 "$TOP/scripts/kernel/build-kernel.sh" campaign base ||
	die "$stage" "the campaign kernel does not build; see $OUT/build/campaign/log" 1
# Every C unit linked into vmlinux: the members of vmlinux.a and lib.a
# (all of lib.a, linked or not: more code only adds vectors), each with
# its source from kbuild's .cmd file.  Host tools (objtool, scripts/)
# are not members.
for a in "$OBJ/vmlinux.a" "$OBJ/lib/lib.a"; do
	[ -f "$a" ] || die "$stage" "no $a after the campaign build" 1
	ar t "$a"
done | sed -n 's|\.o$||p' | while read -r o; do
	cmd="$(dirname "$o")/.$(basename "$o").o.cmd"
	[ -f "$cmd" ] && sed -n 's/^source_[^ ]* := \(.*\.c\)$/\1/p' "$cmd"
done | sed "s|^$TREE/||" | grep -v '^/' | LC_ALL=C sort -u >"$dest/units-built.txt"
# less the units the world leaves out (world-exclude.txt says why)
sed 's/#.*//; s/[[:space:]]*$//; /^$/d' "$TOP/scripts/analysis/world-exclude.txt" >"$dest/units-excluded.txt"
grep -vxF -f "$dest/units-excluded.txt" "$dest/units-built.txt" >"$dest/units.txt" || true
n=$(wc -l <"$dest/units.txt")
log "$stage" "$(($(wc -l <"$dest/units-built.txt") - n)) unit(s) left out of the world (scripts/analysis/world-exclude.txt)"
[ "$n" -gt 0 ] || die "$stage" "no units found in $OBJ's .cmd files" 1
log "$stage" "$n C units ($(grep -c '^net/' "$dest/units.txt" || true) under net/) in $((SECONDS - t0))s"

log "$stage" "2/5 clang tree: $src at base, build folder $objll"
base=$(git -C "$TREE" rev-parse base)
if [ ! -e "$src/.git" ]; then
	git -C "$TREE" worktree add -q -f --detach "$src" "$base" >/dev/null 2>&1 ||
		die "$stage" "cannot create the worktree $src" 1
elif [ "$(git -C "$src" rev-parse HEAD)" != "$base" ]; then
	git -C "$src" checkout -q --detach "$base"
fi
mkdir -p "$objll"
kmake=(make -C "$src" ARCH=x86_64 LLVM=1 O="$objll")
cmp -s "$OUT/build/campaign/config" "$objll/.config" ||
	cp "$OUT/build/campaign/config" "$objll/.config"
"${kmake[@]}" -s olddefconfig >/dev/null ||
	die "$stage" "clang olddefconfig failed in $objll" 1
"${kmake[@]}" -s -j"$JOBS" prepare >"$dest/prepare.log" 2>&1 ||
	die "$stage" "clang 'make prepare' failed; see $dest/prepare.log" 1

# Headers that kbuild generates only as a prerequisite of one object
# (lib/crc32table.h, init/utsversion-tmp.h): building that object in the
# clang tree makes them; kbuild has no rule for the header alone.
"${kmake[@]}" -s -j"$JOBS" lib/crc32.o init/version.o >>"$dest/prepare.log" 2>&1 ||
	log "$stage" "lib/crc32.o or init/version.o did not build (their IR will be missing); see $dest/prepare.log"
log "$stage" "3/5 LLVM IR of $n units (kbuild %.ll rule, -j$JOBS)"
sed 's/\.c$/.ll/' "$dest/units.txt" >"$dest/ll-targets.txt"
# The IR is the front end's only: no LLVM pass runs but the two of
# $OPT_PASSES below (sroa turns stack slots into SSA values; jump
# threading removes the paths clang's cleanup switches make up, a
# "return" inside a loop otherwise seems to skip the unlock before it),
# so static inline helpers stay functions and the evidence names them.
if ! xargs -a "$dest/ll-targets.txt" "${kmake[@]}" -k -j"$JOBS" \
	KCFLAGS="-Xclang -disable-llvm-passes -gline-tables-only" >"$dest/ir.log" 2>&1; then
	log "$stage" "some units gave no IR; see $dest/ir.log"
fi
missing=$(while read -r u; do [ -s "$objll/${u%.c}.ll" ] || echo "$u"; done <"$dest/units.txt")
printf '%s\n' "$missing" | sed '/^$/d' >"$dest/units-without-ir.txt"
nmiss=$(grep -c . "$dest/units-without-ir.txt" || true)
log "$stage" "IR for $((n - nmiss)) of $n units in $((SECONDS - t0))s"
# A unit without IR is code the proof does not read: no table then.  (A
# build of another commit in the shared tree while this one ran gave the
# core series' units, which tag base does not have.)
[ "$nmiss" -eq 0 ] ||
	die "$stage" "$nmiss unit(s) gave no IR ($dest/units-without-ir.txt, $dest/ir.log): the masks would not be proven; run make analyze again with nothing else building in $TREE" 1

log "$stage" "4/5 facts (cached per unit)"
# The cache holds while the reader and the passes are the same.
stamp="$OPT_PASSES $(sha256sum "$TOP/scripts/analysis/ir_facts.py" | cut -c1-16)"
if [ "$(cat "$dest/facts/.stamp" 2>/dev/null)" != "$stamp" ]; then
	[ ! -e "$dest/facts/.stamp" ] || log "$stage" "ir_facts.py or the passes changed: reading every unit again"
	rm -rf "$dest/facts"
	mkdir -p "$dest/facts"
	printf '%s\n' "$stamp" >"$dest/facts/.stamp"
fi
todo=$dest/facts-todo.txt
: >"$todo"
while read -r u; do
	ll=$objll/${u%.c}.ll
	fj=$dest/facts/${u%.c}.json
	[ -s "$ll" ] || continue
	[ -s "$fj" ] && [ "$fj" -nt "$ll" ] && continue
	printf '%s\n' "$u" >>"$todo"
done <"$dest/units.txt"
log "$stage" "$(wc -l <"$todo") units to read"
export objll dest TOP src OPT_PASSES
# shellcheck disable=SC2016 # expanded by the child shell
xargs -a "$todo" -P "$JOBS" -I{} bash -c '
	u={}; b=${u%.c}; mkdir -p "$dest/facts/$(dirname "$u")"
	opt -S -passes="$OPT_PASSES" "$objll/$b.ll" -o "$dest/facts/$b.sroa.ll" &&
	python3 "$TOP/scripts/analysis/ir_facts.py" "$dest/facts/$b.sroa.ll" \
		"$dest/facts/$b.json" --tu "$u" --srcroot "$src"; rc=$?
	rm -f "$dest/facts/$b.sroa.ll"; exit $rc' ||
	die "$stage" "reading the IR failed for a unit (above)" 1
# facts of units no longer in the world must not stay in it
find "$dest/facts" -name '*.json' | while read -r f; do
	u=${f#"$dest/facts/"}
	grep -qxF "${u%.json}.c" "$dest/units.txt" || rm -f "$f"
done
log "$stage" "facts done in $((SECONDS - t0))s"

log "$stage" "5/5 solve"
solve=(--facts "$dest/facts" --out "$dest" --world "campaign configuration (base, $n units)"
	--srcroot "$src")
[ -z "${OVERRIDES:-}" ] || solve+=(--overrides "$OVERRIDES")
python3 "$TOP/scripts/analysis/vectors.py" "${solve[@]}" >"$dest/solve.log" ||
	die "$stage" "the solve failed; see $dest/solve.log" 1
cat "$dest/summary.txt"
result "$stage" PASS "$(grep -c '^section' "$dest/masks.txt") BH sections, table in $dest/masks.txt ($((SECONDS - t0))s)"
