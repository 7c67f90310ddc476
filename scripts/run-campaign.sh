#!/usr/bin/env bash
# run-campaign.sh: the whole campaign (make): every stage in order, each
# logged to $OUT/campaign/STAGE.log, a stage skipped when one it needs
# failed, and a summary table at the end ($OUT/campaign/summary.txt).
# Exit status 1 when any stage failed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$TOP"

res="$OUT/campaign"
mkdir -p "$res"
declare -A state=()
rows=()

# stage NAME "NEEDS..." CMD...: run CMD unless a needed stage did not pass.
stage() {
	local name=$1 needs=$2 n t0=$SECONDS st line
	shift 2
	for n in $needs; do
		if [ "${state[$n]:-}" != PASS ]; then
			state[$name]=SKIP
			rows+=("$(printf '%-12s %-5s %6s  %s' "$name" SKIP - "needs $n")")
			log campaign "$name: skipped ($n did not pass)"
			return 0
		fi
	done
	log campaign "$name: $*"
	set +e
	"$@" 2>&1 | tee "$res/$name.log" | grep --line-buffered -E '^\[|^RESULT|^boot verdict'
	st=${PIPESTATUS[0]}
	set -e
	line=$(grep '^RESULT' "$res/$name.log" | tail -n 1 | sed 's/^RESULT [^ ]* [A-Z]*: //' || true)
	if [ "$st" -eq 0 ]; then state[$name]=PASS; else state[$name]=FAIL; fi
	rows+=("$(printf '%-12s %-5s %5ss  %s' "$name" "${state[$name]}" $((SECONDS - t0)) "${line:-see $res/$name.log}")")
}

stage deps "" scripts/install-deps.sh
stage tree "deps" scripts/kernel/setup-tree.sh
stage initramfs "tree" scripts/kernel/make-initramfs.sh
stage build-base "tree" scripts/kernel/build-kernel.sh base base
stage boot-base "build-base initramfs" scripts/kernel/boot-kernel.sh base default
if [ -f core-patches/series ]; then
	stage core "tree" scripts/kernel/apply-patches.sh core-patches base core
	stage build-core "core" scripts/kernel/build-kernel.sh core core
	stage boot-core "build-core initramfs" env BOOT_EXPECT_KUNIT=softirq_mask \
		scripts/kernel/boot-kernel.sh core default
	stage sparse-core "build-core" scripts/kernel/sparse-check.sh base core \
		kernel/locking/spinlock.c
	stage rt-check "core" scripts/kernel/check-rt-build.sh core
fi
if [ -x tests/test-cocci.sh ]; then
	stage cocci-test "deps" tests/test-cocci.sh
fi
if [ -x scripts/convert/convert-subsys.sh ]; then
	stage analyze "tree" scripts/analysis/analyze-kernel.sh
	stage convert-net "analyze" scripts/convert/convert-subsys.sh net
	# the stacked series (base, core, conversions) in the campaign
	# configuration: built, sparse on the converted files, booted under load
	stage series "core convert-net" scripts/series/make-series.sh
	stage build-net "series" env KFRAGMENTS="$NET_KFRAGMENTS" \
		scripts/kernel/build-kernel.sh campaign-net series
	stage sparse-net "build-net" scripts/kernel/sparse-check.sh core series
	stage wide-net "series" scripts/kernel/compile-wide.sh core series
	stage boot-net "build-net initramfs" \
		scripts/kernel/boot-kernel.sh campaign-net campaign
	# lockdep as the analysis's oracle: all that boot observed (per-vector
	# usage, dependencies) must be predicted by the analysis; writes
	# results/oracle/ and the analysis table make check's boot-net suite
	# checks its own boot against (before observe-net, whose
	# regeneration of the note reads results/oracle/oracle.json)
	# the end-to-end benchmark's load on the converted kernel, for the
	# oracle: the hot sections under the load that makes them hot
	stage boot-e2e-load "build-net initramfs" \
		scripts/kernel/boot-kernel.sh campaign-net e2e-load
	stage oracle-net "analyze boot-net boot-e2e-load" \
		env TABLE="$TOP/results/oracle/analysis-classes.json.gz" ANNOTATE="$OUT/vectors" \
		scripts/analysis/run-oracle.sh "$OUT/vectors/vectors.json" "$TOP/results/oracle" \
		campaign-net-campaign campaign-net-e2e-load
	# ... and catches an analysis with one rule switched off (a solve of
	# a few minutes): results/oracle/unsound.md
	stage oracle-unsound "oracle-net" scripts/analysis/oracle-unsound.sh campaign-net-campaign campaign-net-e2e-load
	# lockdep's usage of the converted classes in that boot, into the note
	stage observe-net "boot-net" scripts/convert/observe-lockdep.sh net campaign-net-campaign
	# the whole networking self-test set, base (variant campaign, which
	# the analyze stage built) vs converted, side by side
	stage selftests-net "analyze build-net initramfs" env \
		RESULTS_FILE="$TOP/results/net-selftests.md" \
		scripts/kernel/run-net-selftests.sh net-selftests campaign campaign-net
fi

{
	echo "campaign summary ($(date '+%F %T'), work folder $WORK)"
	echo
	printf '%-12s %-5s %6s  %s\n' stage state time detail
	printf '%s\n' "${rows[@]}"
	for b in base-default:boot-base core-default:boot-core campaign-net-campaign:boot-net; do
		f="$OUT/boot/${b%%:*}/summary.txt"
		if [ ! -f "$f" ] || [ "${state[${b#*:}]:-SKIP}" = SKIP ]; then
			continue
		fi
		echo
		echo "== boot ${b%%:*} (kernel-plan)"
		grep -Ev '^    (ok|not ok|skip) ' "$f"
	done
	echo
	echo "logs: $res/"
} | tee "$res/summary.txt"
for s in "${state[@]}"; do
	[ "$s" != FAIL ] || exit 1
done
