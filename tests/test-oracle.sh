#!/usr/bin/env bash
# test-oracle.sh: the lockdep oracle (scripts/analysis/lockdep-oracle.py)
# and the console copy of lockdep's files it reads (scripts/guest/
# lockdep-dump, scripts/kernel/parse-boot-log.py), on fixtures: no kernel.
#
# tests/fixtures/oracle/: vectors.json (a small analysis), world-init/ (a
# world for the analysis's lock-init names), keys.txt (test
# mapping rules), lockdep-*.txt (copies of /proc/lockdep in the core
# series' format), stats-*.txt (/proc/lockdep_stats).  The real boot is
# checked by the boot-net suite.  Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh

fx=tests/fixtures/oracle
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
oracle() {
	scripts/analysis/lockdep-oracle.py --vectors "$fx/vectors.json" --keys "$fx/keys.txt" "$@"
}

# A sound analysis: nothing missed; every way of mapping a name is used.
expect_status "sound analysis: nothing missed (exit 0)" 0 "$tmp/good.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --stats "$fx/stats-ok.txt" --out "$tmp/good"
expect_grep "counts: 2 by key, 4 by symbol (an array element, a seqlock and its counter), 1 by static initializer, 1 by init site, 2 by field, 1 sleeping, 1 pseudo, 1 unresolved, 1 unmapped; the seqlock -> counter edge holds" \
	': 14 classes observed in 1 boot\(s\): 2 by key, 4 by symbol, 1 by static initializer, 1 by init site \(0 ambiguous\), 2 by field \(2 ambiguous\), 1 sleeping, 1 pseudo, 1 unresolved, 1 unmapped \(12 of 14 named, 85.7%\); in a vector 11 \(8 checked\), usage missed 0; edges 3 \(2 checked\), missed 0' "$tmp/good.log"
expect_grep "the pseudo-lock taken in TIMER is listed as not checkable" \
	'^- \(&icsk->icsk_retransmit_timer\) \(pseudo\): TIMER$' "$tmp/good/oracle.md"
expect_grep "a class marked in every vector is not checked per vector" \
	'^- &base->lock#2 \(no vector in particular\): every vector$' "$tmp/good/oracle.md"
expect_grep "a name whose init sites are unresolved is listed as such" \
	'^&q->lock  # named by lock-init sites whose lock the analysis does not resolve$' "$tmp/good/unmapped.txt"
expect_grep "and its usage as not checkable" '^- &q->lock \(unresolved\): NET_RX$' "$tmp/good/oracle.md"
expect_grep "the unmapped class is named" '^&dev->mutex$' "$tmp/good/unmapped.txt"
expect_status "the sleeping lock is not listed as unmapped" 1 /dev/null grep -q '^big_mutex' "$tmp/good/unmapped.txt"
# A sleeping lock lockdep saw in a vector is a miss: the name rule (or
# the analysis's world) is wrong.
sed 's/\(.*\) ......................: big_mutex$/\1 ......-...............: big_mutex/' \
	"$fx/lockdep-good.txt" >"$tmp/lockdep-sleep.txt"
expect_status "a sleeping lock taken in a vector is a miss (exit 1)" 1 "$tmp/sleep.log" \
	oracle --lockdep "$tmp/lockdep-sleep.txt" --out "$tmp/sleep"
expect_grep "the miss names the sleeping lock and its vector" \
	'^- big_mutex \(sleeping: \): lockdep saw NET_TX; the analysis predicts none$' "$tmp/sleep/oracle.md"
# A lock in a static struct, by its initializer's name: checked (the
# analysis without RCU for it misses).
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["classes"]["state.barrier_lock"]["takes"] = []
json.dump(d, open(sys.argv[2], "w"))' "$fx/vectors.json" "$tmp/vectors-norcu.json"
expect_status "a static-initializer lock the analysis misses RCU for is a miss (exit 1)" 1 "$tmp/static.log" \
	scripts/analysis/lockdep-oracle.py --vectors "$tmp/vectors-norcu.json" --keys "$fx/keys.txt" \
	--lockdep "$fx/lockdep-good.txt" --out "$tmp/static"
expect_grep "the miss names the static lock" '^- rcu_st.barrier_lock \(static: state.barrier_lock\): lockdep saw RCU' "$tmp/static/oracle.md"
expect_grep "lower bound beside the upper bound for the socket section" \
	'^\| net/ipv4/tcp.c:100 \| tcp_x \| TIMER\|NET_TX\|NET_RX \| TIMER\|NET_RX \|$' "$tmp/good/oracle.md"
# A class marked in every vector (no vector in particular) adds nothing
# to a section's lower bound.
printf '(____ptrval____) FD:    1 BD:    1 ..-.-.-.-.-.-.-.-.-.-.: rlock-AF_INET6\n\n' >"$tmp/any.txt"
cat "$fx/lockdep-good.txt" "$tmp/any.txt" >"$tmp/lockdep-any.txt"
expect_status "a class marked in every vector is accepted" 0 "$tmp/any.log" \
	oracle --lockdep "$tmp/lockdep-any.txt" --out "$tmp/any"
expect_grep "and leaves the socket section's lower bound as it was" \
	'^\| net/ipv4/tcp.c:100 \| tcp_x \| TIMER\|NET_TX\|NET_RX \| TIMER\|NET_RX \|$' "$tmp/any/oracle.md"
expect_status "hot functions: exercised or not" 0 "$tmp/hot.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --hot tcp_x --hot udp_y --out "$tmp/hot"
expect_grep "a hot function whose section ran" '^\| tcp_x \| 1 \| 1 \|$' "$tmp/hot/oracle.md"
expect_grep "a hot function with no section in the world" '^\| udp_y \| 0 \| 0 \|$' "$tmp/hot/oracle.md"
expect_grep "the tables' fill levels are reported" '^\| stats-ok.txt \| dependency chains \| 900 \| 65536 \| 1% \|$' "$tmp/good/oracle.md"

# The lower bound and the counts go into the analysis's own output.
mkdir -p "$tmp/an"
cp "$fx/vectors.json" "$tmp/an/vectors.json"
printf 'world: fixture\nlockdep oracle: an older run\n' >"$tmp/an/summary.txt"
expect_status "the analysis's output is annotated" 0 "$tmp/an.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --out "$tmp/an-out" --annotate "$tmp/an"
expect_grep "its summary has the oracle's counts" \
	'^lockdep oracle: 1 boot\(s\); classes observed 14, named 12 \(85.7%' "$tmp/an/summary.txt"
expect_status "once, the older lines replaced" 0 /dev/null test "$(grep -c '^lockdep oracle:' "$tmp/an/summary.txt")" -eq 3
obs=$(python3 -c 'import json, sys
print([s.get("observed") for s in json.load(open(sys.argv[1]))["sections"] if s["loc"] == "net/ipv4/tcp.c:100"])' "$tmp/an/vectors.json" 2>/dev/null || true)
expect_status "its vectors.json has the section's observed mask ($obs)" 0 /dev/null test "$obs" = "['TIMER|NET_RX']"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["sections"] = d["sections"][1:]
json.dump(d, open(sys.argv[2], "w"))' "$fx/vectors.json" "$tmp/an/vectors.json"
expect_status "another analysis's output is refused (exit 2)" 2 "$tmp/an2.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --out "$tmp/an-out2" --annotate "$tmp/an"

# The table make check reads (--write-table) gives the same verdicts.
expect_status "the trimmed table is written" 0 "$tmp/table.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --out "$tmp/t1" --write-table "$tmp/table.json"
for f in good usage-miss; do
	scripts/analysis/lockdep-oracle.py --vectors "$tmp/table.json" --keys "$fx/keys.txt" \
		--lockdep "$fx/lockdep-$f.txt" --out "$tmp/t-$f" >"$tmp/t-$f.log" 2>&1 || true
done
if grep -q 'usage missed 1;' "$tmp/t-usage-miss.log" &&
	cmp -s <(tail -n +4 "$tmp/t1/oracle.md") <(tail -n +4 "$tmp/t-good/oracle.md"); then
	ok "the trimmed table gives the full analysis's verdicts"
else
	not_ok "the trimmed table gives the full analysis's verdicts" "see $tmp/t1/oracle.md, $tmp/t-good/oracle.md"
fi

# A name a rule leaves unmapped is not guessed by its field (swait_queue_head.wait,
# which the fixture analysis says no vector takes: a guess would be a miss), and says why.
printf '(____ptrval____) FD:    1 BD:    1 ....-.................: &x->wait\n\n' >"$tmp/wait.txt"
cat "$fx/lockdep-good.txt" "$tmp/wait.txt" >"$tmp/lockdep-wait.txt"
expect_status "a name left unmapped by rule" 0 "$tmp/wait.log" \
	oracle --lockdep "$tmp/lockdep-wait.txt" --out "$tmp/wait"
expect_grep "it is listed with the rule's reason" "^&x->wait  # a helper's parameter name" "$tmp/wait/unmapped.txt"
expect_grep "and its usage as not checkable" '^- &x->wait \(unmapped\): TIMER$' "$tmp/wait/oracle.md"

# Each way of being wrong is caught.
expect_status "a vector the analysis does not predict is a miss (exit 1)" 1 "$tmp/usage.log" \
	oracle --lockdep "$fx/lockdep-usage-miss.txt" --out "$tmp/usage"
expect_grep "the usage miss names class, vector and prediction" \
	'^- &sk->sk_callback_lock \(site: sock.sk_callback_lock\): lockdep saw TIMER; the analysis predicts NET_RX$' "$tmp/usage/oracle.md"
expect_status "an order edge the analysis does not have is a miss (exit 1)" 1 "$tmp/order.log" \
	oracle --lockdep "$fx/lockdep-order-miss.txt" --out "$tmp/order"
expect_grep "the order miss names both classes" '^- rlock-AF_INET -> slock-AF_INET$' "$tmp/order/oracle.md"
expect_status "a table over 90% full fails (exit 1)" 1 "$tmp/full.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --stats "$fx/stats-full.txt" --out "$tmp/full"
expect_grep "the full table is named" 'table nearly full: .*dependency chains 64000 of 65536' "$tmp/full.log"
# Two boots are taken together: the miss of the second fails the union.
expect_status "two boots: a miss in either fails" 1 "$tmp/two.log" \
	oracle --lockdep "$fx/lockdep-good.txt" --lockdep "$fx/lockdep-usage-miss.txt" --out "$tmp/two"

# Bad input: exit 2 with a reason, never a pass.
expect_status "a kernel without the core series' states is refused (exit 2)" 2 "$tmp/nocore.log" \
	oracle --lockdep "$fx/lockdep-no-core.txt" --out "$tmp/nocore"
expect_grep "the refusal says why" 'not the 22 of the core series' "$tmp/nocore.log"
printf 'nothing here\n' >"$tmp/empty.txt"
expect_status "a file with no classes is refused (exit 2)" 2 "$tmp/empty.log" \
	oracle --lockdep "$tmp/empty.txt" --out "$tmp/empty"
printf '{"classes": {"x": {"mask": "NONE", "before": []}}, "sections": []}\n' >"$tmp/old.json"
expect_status "an analysis without 'takes' is refused (exit 2)" 2 "$tmp/old.log" \
	scripts/analysis/lockdep-oracle.py --vectors "$tmp/old.json" --keys "$fx/keys.txt" \
	--lockdep "$fx/lockdep-good.txt" --out "$tmp/old"
printf 'slock-AF_\\w+ socket_lock_t.slock\n' >"$tmp/keys-noreason.txt"
expect_status "a key rule without its reason is refused (exit 2)" 2 "$tmp/keys.log" \
	scripts/analysis/lockdep-oracle.py --vectors "$fx/vectors.json" --keys "$tmp/keys-noreason.txt" \
	--lockdep "$fx/lockdep-good.txt" --out "$tmp/keys"
# Every class the project's key rules map to is a class of the analysis
# of record (results/oracle/analysis-classes.json.gz, which make check's
# boot-net suite checks its boot against): a rule renamed without the
# table regenerated turns each of its names into a miss on the boot.
keys_vs_table() {
	PYTHONPATH=$TOP/tests python3 - "$1" "$2" <<'PY'
import gzip, json, sys
from pathlib import Path
from script_module import load
# the oracle's own reader of the rules
rules = load("lockdep_oracle", Path("scripts/analysis/lockdep-oracle.py")).read_keys(Path(sys.argv[1]))
table = json.load(gzip.open(sys.argv[2], "rt"))["classes"]
missing = [f"{rx.pattern}: {c}" for rx, target, _why in rules if not target.startswith("-")
           for c in target.split(",") if c not in table]
print("\n".join(missing) if missing else "every mapped class is in the table")
sys.exit(1 if missing else 0)
PY
}
expect_status "the key rules map to classes of the analysis of record" 0 "$tmp/keys-table.log" \
	keys_vs_table scripts/analysis/lockdep-keys.txt results/oracle/analysis-classes.json.gz
sed 's/sock\.sk_receive_queue/sk_buff_head.lock/' scripts/analysis/lockdep-keys.txt >"$tmp/keys-old.txt"
expect_status "a rule naming a class the table lacks is caught (exit 1)" 1 "$tmp/keys-old.log" \
	keys_vs_table "$tmp/keys-old.txt" results/oracle/analysis-classes.json.gz
expect_grep "the missing class is named" 'sk_buff_head.lock' "$tmp/keys-old.log"

# The project's own rules parse, and every rule names a reason.
expect_status "scripts/analysis/lockdep-keys.txt parses" 0 "$tmp/realkeys.log" \
	scripts/analysis/lockdep-oracle.py --vectors "$fx/vectors.json" \
	--lockdep "$fx/lockdep-good.txt" --out "$tmp/realkeys"

# The names the oracle maps by (vectors.json "inits", "sleeping",
# "static_names"), from a small world solved by the real analysis: each
# helper's name maps to its own struct's lock, although both pass
# spinlock_check()'s return value (without looking through it, both names
# mapped to both locks); a name passed down through a helper maps to the
# lock the helper inits, of the object the caller passes (a wait queue
# head's lock is the class of where the head sits, and inside
# __init_waitqueue_head() it is every caller's); mutexes are sleeping; a static struct's lock is
# named by its initializer; a lockdep map of its own is no lock.
expect_status "the analysis solves the lock-init world" 0 "$tmp/world.log" \
	scripts/analysis/analyze-world.sh "$fx/world-init" "$tmp/world"
names() {
	python3 -c 'import json, sys
print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]], sort_keys=True))' "$tmp/world/vectors.json" "$1" 2>/dev/null || true
}
want_names() {
	local what=$1 key=$2 want=$3 got
	got=$(names "$key")
	if [ "$got" = "$want" ]; then
		ok "$what: $got"
	else
		not_ok "$what" "got '${got:-nothing}' in $tmp/world/vectors.json, want '$want'"
	fi
}
want_names "each init-site name maps to its own lock, through a helper too" inits \
	'{"&d->mutex": [], "&e->poll_wait": ["ep.poll_wait"], "&f->wqh": ["fdctx.wqh"], "&n->lock": ["node.lock"], "&p->rd_wait": ["wq.lock"], "&t->lock": ["table.lock"], "&wq_head->lock": ["ep.poll_wait", "fdctx.wqh"]}'
want_names "mutexes, dynamic and static, are sleeping" sleeping '["&d->mutex", "big_mutex"]'
want_names "a static struct's lock is named by its initializer" static_names \
	'{"rcu_st.barrier_lock": ["state.barrier_lock"]}'
want_names "a static lockdep map of its own is no lock" pseudo_names '["console_lock"]'

# The console copy: lockdep-dump's lines, decoded by parse-boot-log.py.
# The guest script runs here on fixture files in place of /proc.
mkdir -p "$tmp/proc"
cp "$fx/lockdep-good.txt" "$tmp/proc/lockdep"
cp "$fx/stats-ok.txt" "$tmp/proc/lockdep_stats"
printf '7\t4\t1\t7\n' >"$tmp/proc/printk"
sed -e "s#/proc/lockdep_stats#$tmp/proc/lockdep_stats#g" -e "s#/proc/lockdep\\b#$tmp/proc/lockdep#g" \
	-e "s#/proc/sys/kernel/printk#$tmp/proc/printk#g" -e "s#/tmp/lockdep-dump#$tmp/ld#g" \
	scripts/guest/lockdep-dump >"$tmp/dump.sh"
{
	echo "PLAN-START plan=t"
	sh "$tmp/dump.sh" load
	echo "PLAN-END plan=t passed=1 failed=0"
} >"$tmp/console.txt"
expect_status "a whole copy passes the boot" 0 "$tmp/parse.log" \
	scripts/kernel/parse-boot-log.py "$tmp/console.txt" --dump-dir "$tmp/dumps"
if cmp -s "$tmp/dumps/load.lockdep" "$fx/lockdep-good.txt" && cmp -s "$tmp/dumps/load.stats" "$fx/stats-ok.txt"; then
	ok "the copies are byte for byte lockdep's files"
else
	not_ok "the copies are byte for byte lockdep's files" "differences in $tmp/dumps"
fi
expect_grep "the console level is restored after the copy" '^7$' "$tmp/proc/printk"
awk '/^LDD load lockdep 2 / { next } { print }' "$tmp/console.txt" >"$tmp/lost.txt"
expect_status "a copy that lost a line fails the boot" 1 "$tmp/lost.log" \
	scripts/kernel/parse-boot-log.py "$tmp/lost.txt"
expect_grep "the lost line is named" 'lockdep copy load.lockdep is not whole: 1 of [0-9]+ lines missing \(first 2\)' "$tmp/lost.log"
awk '/^LDD load stats 1 / { sub(/ [A-Za-z0-9+\/=]+$/, " AAAA" substr($NF, 5)) } { print }' "$tmp/console.txt" >"$tmp/garbled.txt"
expect_status "a garbled copy fails the boot" 1 "$tmp/garbled.log" \
	scripts/kernel/parse-boot-log.py "$tmp/garbled.txt"
expect_grep "the garbled copy is named" 'lockdep copy load.stats is not whole' "$tmp/garbled.log"
grep -v '^LOCKDEP-DUMP-END' "$tmp/console.txt" >"$tmp/cut.txt"
expect_status "a copy cut short (no end line) fails the boot" 1 "$tmp/cut.log" \
	scripts/kernel/parse-boot-log.py "$tmp/cut.txt"
printf ' debug_locks:                             0\n' >"$tmp/proc/lockdep_stats"
expect_status "the guest step fails when lockdep is off" 1 "$tmp/off.log" sh "$tmp/dump.sh" load
expect_grep "and says why" 'lockdep is off' "$tmp/off.log"
tally
