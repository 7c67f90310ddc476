#!/usr/bin/env bash
# test-boot-net.sh: the converted kernel under load (make check-full).
# Stacks base, core and conversions/*/ (make series), builds the stack in
# the campaign configuration, runs sparse on the converted files against
# core, and boots it with lockdep under plan 'campaign': TCP and UDP over
# IPv4 and IPv6, loopback and veth, a packet socket and a bridge port on
# the receiving side, the sending side's qdisc replaced twice mid-flow,
# nftables counter rules on the host's input and output hooks, then block
# I/O. No lockdep report, no warning, no TCP byte lost.
#
# Env: NET_SELFTESTS (lockdep self-tests the core kernel passes, 371).
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
frags="$TOP/scripts/kconfig/guest.config $TOP/scripts/kconfig/campaign.config"

expect_status "series stacks base, core and the conversions" 0 "$logs/series.log" \
	scripts/series/make-series.sh
expect_status "the series builds in the campaign configuration" 0 "$logs/build.log" \
	env KFRAGMENTS="$frags" scripts/kernel/build-kernel.sh campaign-net series
grep RESULT "$logs/build.log" || true
expect_status "sparse: no new warning in the converted files" 0 "$logs/sparse.log" \
	scripts/kernel/sparse-check.sh core series
grep RESULT "$logs/sparse.log" || true
selftests=${NET_SELFTESTS:-371}
expect_status "the series boots under plan campaign ($selftests lockdep self-tests)" 0 "$logs/boot.log" \
	env BOOT_EXPECT_SELFTESTS="$selftests" scripts/kernel/boot-kernel.sh campaign-net campaign
sum="$OUT/boot/campaign-net-campaign/summary.txt"
expect_fresh "boot summary written by this run" "$sum" "$logs/.start"
sed 's/^/    /' "$sum" 2>/dev/null | head -n 30 || true
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
tally
