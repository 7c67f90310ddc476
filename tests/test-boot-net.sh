#!/usr/bin/env bash
# test-boot-net.sh: the converted kernel (make check, after the boot-base
# and core suites).  Stacks base, core and conversions/*/ (make series),
# builds the stack in the converted kernel's configuration (NET_KFRAGMENTS:
# campaign + core.config, as the core suite built core, so only the
# converted files recompile), runs sparse on the converted files against
# core, compiles them in x86_64 allmodconfig, and boots it with lockdep
# under load: TCP and UDP over IPv4 and IPv6, loopback and veth, a packet
# socket and a bridge port on the receiving side, the sending side's qdisc
# replaced twice mid-flow, nftables counter rules on the host's input and
# output hooks, then block I/O, then the quick networking self-tests,
# whose verdicts must be those of the base kernel's default boot (the
# boot-base suite's, same campaign configuration). No lockdep report, no
# warning, no TCP byte lost.
#
# Env: NET_PLAN (default campaign-check, 5 s per path; with CHECK=full,
#      make check-full, campaign, 15 s per path, and then also the whole
#      self-test set on both kernels), NET_SELFTESTS (lockdep self-tests,
#      371).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

logs="$OUT/check/boot-net"
rm -rf "$logs"
mkdir -p "$logs"
touch "$logs/.start"
if [ -n "${NET_PLAN:-}" ]; then
	plan=$NET_PLAN
elif [ "${CHECK:-}" = full ]; then
	plan=campaign
else
	plan=campaign-check
fi
base_boot="$OUT/boot/campaign-default"
require_core_state boot-net
if [ ! -f "$base_boot/verdict.json" ] || [ "$(cat "$OUT/build/campaign/rev" 2>/dev/null)" != "$(git -C "$TREE" rev-parse base)" ]; then
	not_ok "boot-net needs the boot-base suite's boot" \
		"no default boot of the base kernel in the campaign configuration ($base_boot); run it after boot-base: SUITES=\"boot-base core boot-net\" tests/run-tests.sh"
	tally
	exit 1
fi

expect_status "series stacks base, core and the conversions" 0 "$logs/series.log" \
	scripts/series/make-series.sh
t0=$SECONDS
expect_status "the series builds in the converted kernel's configuration" 0 "$logs/build.log" \
	env KFRAGMENTS="$NET_KFRAGMENTS" scripts/kernel/build-kernel.sh campaign-net series
grep RESULT "$logs/build.log" || true
if cmp -s "$OUT/build/core/config" "$OUT/build/campaign-net/config"; then
	ok "converted kernel has the core kernel's configuration (built after it in $((SECONDS - t0)) s)"
else
	not_ok "converted kernel has the core kernel's configuration" \
		"$OUT/build/core/config and $OUT/build/campaign-net/config differ"
fi
expect_status "sparse: no new warning in the converted files" 0 "$logs/sparse.log" \
	scripts/kernel/sparse-check.sh core series
grep RESULT "$logs/sparse.log" || true
expect_status "the converted files compile in x86_64 allmodconfig" 0 "$logs/wide.log" \
	scripts/kernel/compile-wide.sh core series
grep RESULT "$logs/wide.log" || true

selftests=${NET_SELFTESTS:-371}
expect_status "the series boots under plan $plan ($selftests lockdep self-tests)" 0 "$logs/boot.log" \
	env BOOT_EXPECT_SELFTESTS="$selftests" \
	scripts/kernel/boot-kernel.sh campaign-net "$plan"
sum="$OUT/boot/campaign-net-$plan/summary.txt"
expect_fresh "boot summary written by this run" "$sum" "$logs/.start"
sed 's/^/    /' "$sum" 2>/dev/null | grep -v '^     *\(ok\|not ok\|skip\) ' | first_lines 40 || true
for path in loopback veth loopback6 veth6; do
	expect_traffic "$sum" "$path" tcp
	expect_traffic "$sum" "$path" udp
done
for path in veth veth6; do
	expect_grep "$path: packet socket saw frames, bridge port, two qdisc changes" \
		"traffic $path/packet: frames=[1-9][0-9]* bytes=[0-9]+ bridge=yes qdisc_changes=2" "$sum"
done
expect_grep "nftables: the input and output counter rules counted packets" \
	"traffic host/nftables: input_packets=[1-9][0-9]* output_packets=[1-9][0-9]*" "$sum"
expect_grep "block I/O completed in softirq" "block-io PASS" "$sum"

table="$OUT/net-selftests/net-selftests-quick.md"
rm -f "$table"
expect_status "quick networking self-tests: same verdicts as the base kernel" 0 "$logs/selftests.log" \
	scripts/kernel/compare-selftests.py --plan scripts/guest/plans/net-selftests-quick.plan \
	--base "$base_boot" --conv "$OUT/boot/campaign-net-$plan" \
	--base-label base --conv-label converted --out "$table"
grep '^selftests:' "$logs/selftests.log" || true
expect_grep "quick networking self-tests: none fails on either kernel" \
	"^selftests: [0-9]+ self-tests; base: [0-9]+ pass, [0-9]+ skip, 0 fail; converted: [0-9]+ pass, [0-9]+ skip, 0 fail; 0 differ$" \
	"$logs/selftests.log"

# Lockdep as the analysis's oracle (scripts/analysis/lockdep-oracle.py):
# the boot's copy of /proc/lockdep is whole, and everything lockdep saw
# in it is predicted by the analysis of record
# (results/oracle/analysis-classes.json.gz, which make's oracle-net stage
# writes from a fresh make analyze).  The same table with one vector
# dropped from every class's "takes" is an analysis that misses that
# vector: the boot's observations must catch it, for every vector the
# oracle could check in this boot.
expect_grep "the boot's copy of /proc/lockdep is whole" '^  lockdep copy load.lockdep: whole$' "$sum"
odir="$OUT/check/boot-net-oracle"
rm -rf "$odir"
expect_status "lockdep oracle: the analysis of record predicts all the boot observed" 0 "$logs/oracle.log" \
	scripts/analysis/run-oracle.sh "$TOP/results/oracle/analysis-classes.json.gz" "$odir" "campaign-net-$plan"
grep '^lockdep-oracle:' "$logs/oracle.log" || true
expect_grep "lockdep oracle: it checked vector usage and order edges" \
	'in a vector [0-9]+ \([1-9][0-9]* checked\), usage missed 0; edges [0-9]+ \([1-9][0-9]* checked\), missed 0' "$logs/oracle.log"
checked=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(set(d["checked_vectors"]))))' "$odir/oracle.json" 2>/dev/null || true)
expect_status "lockdep oracle: the boot shows vectors taking mapped classes (${checked:-none})" 0 /dev/null test -n "$checked"
for vec in $checked; do
	python3 -c 'import gzip, json, sys
d = json.loads(gzip.decompress(open(sys.argv[1], "rb").read()))
for c in d["classes"].values():
    c["takes"] = [v for v in c["takes"] if v != sys.argv[2]]
json.dump(d, open(sys.argv[3], "w"))' "$TOP/results/oracle/analysis-classes.json.gz" "$vec" "$odir-no-$vec.json"
	expect_status "lockdep oracle: an analysis that misses $vec is caught" 1 "$logs/oracle-no-$vec.log" \
		scripts/analysis/run-oracle.sh "$odir-no-$vec.json" "$odir-no-$vec" "campaign-net-$plan"
done

if [ "${CHECK:-}" = full ]; then
	expect_status "the whole networking self-test set: same verdicts, base vs converted" 0 \
		"$logs/selftests-full.log" \
		scripts/kernel/run-net-selftests.sh net-selftests campaign campaign-net
	grep RESULT "$logs/selftests-full.log" || true
	# the end-to-end benchmark's load on the converted kernel, lockdep
	# watching (plan e2e-load: the hot sections under their own load)
	expect_status "the converted kernel boots under the end-to-end load with lockdep" 0 \
		"$logs/boot-e2e-load.log" scripts/kernel/boot-kernel.sh campaign-net e2e-load
	# the oracle over the union of the three workloads: the load, the
	# whole self-test set and the end-to-end load
	expect_status "lockdep oracle: the union of the load, self-test and end-to-end boots is predicted" 0 \
		"$logs/oracle-union.log" scripts/analysis/run-oracle.sh \
		"$TOP/results/oracle/analysis-classes.json.gz" "$odir-union" "campaign-net-$plan" \
		campaign-net-net-selftests campaign-net-e2e-load
	grep '^lockdep-oracle:' "$logs/oracle-union.log" || true
fi
tally
