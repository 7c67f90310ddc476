#!/usr/bin/env bash
# compile-wide.sh: compile the .c files a change touches in x86_64
# allmodconfig, object by object: a wider configuration than the campaign
# one (every option of net/ on, as built-in or module, CONFIG_WERROR too),
# so a conversion that only builds with the options the analysis saw is
# caught.
#
# Usage: compile-wide.sh OLD_REV NEW_REV [MODULE_DIR...]
#   the .c files that differ between the two revisions of the work tree
#   (for the campaign: core and series, the conversions) are compiled at
#   NEW_REV; each MODULE_DIR (a Kbuild file and its sources) is built as an
#   external module there too (copied under $OUT/compile-wide; modpost
#   without vmlinux's symbol list only warns, so every undefined symbol of
#   the module must have an EXPORT_SYMBOL in the tree instead), e.g. the
#   core suite's tests/fixtures/mask-api-module
# Reads:  $TREE
# Writes: $WORK/obj-wide (its own O= folder: allmodconfig, prepared once and
#         kept), $OUT/compile-wide/{log,files.txt}
# Exit:   0 every file compiled, 1 one did not, 2 usage or missing tree/rev.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die wide "usage: $0 OLD_REV NEW_REV [MODULE_DIR...]" 2
old=$1
new=$2
shift 2
mods=()
for m in "$@"; do
	[ -f "$m/Kbuild" ] || die wide "$m is not a module folder (no Kbuild file)" 2
	mods+=("$(realpath "$m")")
done
need_tool wide git make gcc ccache flex bison bc nm
need_tree wide
need_revs wide "$old" "$new"
need_clean_tree wide
mapfile -t files < <(git -C "$TREE" diff --name-only "$old" "$new" -- '*.c')
[ ${#files[@]} -gt 0 ] || [ ${#mods[@]} -gt 0 ] ||
	die wide "no .c file differs between $old and $new, and no module folder was given" 2

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
JOBS=${JOBS:-$(nproc)}
case $JOBS in '' | *[!0-9]*) die wide "JOBS must be a number, not '$JOBS'" 2 ;; esac
res="$OUT/compile-wide"
mkdir -p "$res"
logf="$res/log"
: >"$logf"
printf '%s\n' "${files[@]}" >"$res/files.txt"
obj="$WORK/obj-wide"
cfg="$WORK/obj-wide-config"
mkdir -p "$obj" "$cfg"
start=$(git -C "$TREE" rev-parse HEAD)
trap 'git -C "$TREE" checkout -q --detach "$start"' EXIT
git -C "$TREE" checkout -q --detach "$new" || die wide "cannot check out '$new' in $TREE" 2
kmake=(make -C "$TREE" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc")

t0=$SECONDS
# A scratch allmodconfig, copied only when it changed, so that the prepared
# folder is reused (prepare builds objtool and the host tools: minutes cold).
log wide "configuring x86_64 allmodconfig; log: $logf"
"${kmake[@]}" O="$cfg" allmodconfig >>"$logf" 2>&1 || die wide "allmodconfig failed; see $logf" 1
cmp -s "$cfg/.config" "$obj/.config" || cp "$cfg/.config" "$obj/.config"
for opt in CONFIG_NET CONFIG_INET CONFIG_IPV6 CONFIG_WERROR; do
	grep -Eq "^$opt=[ym]" "$obj/.config" || die wide "allmodconfig has no $opt; see $obj/.config" 1
done
log wide "preparing $obj (host tools, objtool, generated headers)"
"${kmake[@]}" O="$obj" -j"$JOBS" olddefconfig modules_prepare >>"$logf" 2>&1 ||
	die wide "make modules_prepare failed in $obj; see $logf" 1

bad=0
i=0
for f in "${files[@]}"; do
	i=$((i + 1))
	if [ ! -f "$TREE/$f" ]; then
		log wide "[$i/${#files[@]}] $f: removed at $new, nothing to compile"
		continue
	fi
	log wide "[$i/${#files[@]}] $f"
	if ! "${kmake[@]}" O="$obj" -j"$JOBS" "${f%.c}.o" >>"$logf" 2>&1; then
		grep -E 'error|warning' "$logf" | tail -n 10 >&2 || true
		log wide "$f does not compile in allmodconfig at $new"
		bad=$((bad + 1))
	fi
done
for m in "${mods[@]}"; do
	copy="$res/mod-$(basename "$m")"
	rm -rf "$copy"
	cp -r "$m" "$copy"
	log wide "module $(basename "$m") (external, copied to $copy)"
	if ! "${kmake[@]}" O="$obj" M="$copy" KBUILD_MODPOST_WARN=1 modules >>"$logf" 2>&1 ||
		! ls "$copy"/*.ko >/dev/null 2>&1; then
		grep -E 'error' "$logf" | tail -n 10 >&2 || true
		log wide "module $(basename "$m") does not build in allmodconfig at $new"
		bad=$((bad + 1))
		continue
	fi
	# modpost has no vmlinux symbol list here: check instead that every
	# symbol the module needs is exported somewhere in the tree.
	mapfile -t needed < <(nm -u "$copy"/*.ko | awk '{print $2}' | LC_ALL=C sort -u)
	alt=$(IFS='|'; echo "${needed[*]}")
	mapfile -t unexported < <(comm -23 <(printf '%s\n' "${needed[@]}") <(
		git -C "$TREE" grep -h -o -E "EXPORT(_PER_CPU)?_SYMBOL(_GPL|_NS|_NS_GPL)?\\(($alt)[,)]" HEAD |
			sed -E 's/.*\(//; s/[,)]$//' | LC_ALL=C sort -u))
	if [ ${#unexported[@]} -gt 0 ]; then
		log wide "module $(basename "$m") needs symbols no EXPORT_SYMBOL names: ${unexported[*]}"
		bad=$((bad + 1))
	fi
done
n=$((${#files[@]} + ${#mods[@]}))
if [ "$bad" -eq 0 ]; then
	result wide PASS "${#files[@]} file(s) of $old..$new and ${#mods[@]} module(s) compile in x86_64 allmodconfig ($((SECONDS - t0))s)"
else
	result wide FAIL "$bad of $n file(s) and module(s) do not compile in x86_64 allmodconfig; see $logf"
	exit 1
fi
