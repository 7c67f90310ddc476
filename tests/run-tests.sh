#!/usr/bin/env bash
# run-tests.sh: the project's test runner (make check, make check-full).
# Runs each suite, keeps its output in $OUT/check/SUITE.log, adds up the
# suites' closing "N passed, N failed" lines and ends with the total in the
# same form.
#
# The tool-only suites (fresh, static, docs, units, scripts, cocci, worlds, oracle) run
# with PATH set to the commands a fresh machine has after make deps
# (tests/make-fresh-path.py: base system + scripts/deps.txt + their
# Depends), so a tool that scripts/deps.txt forgets fails them here too.
# The kernel suites run with the caller's PATH.
#
# Env: CHECK=full      also the suites that do not fit make check's budget
#                      (make check-full: the three bisect suites);
#      SUITES="a b"    only those suites (any of the full list);
#      FRESH_PATH=0    tool-only suites with the caller's PATH (debugging);
#      BUILD_REUSE=0   compile every kernel again even when unchanged.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

# name:kind:command, in order (cheap first, kernel builds last); kind
# "tool" needs no kernel tree and runs under the fresh PATH.  Suites that
# need another suite's state say so and fail at once when run alone
# (bisect-lockdep, boot-net, core-static and bench need the core suite's
# tag and build, boot-net also boot-base's boot).
all_suites=(
	"fresh:tool:tests/test-fresh.sh"
	"static:tool:tests/test-static.sh"
	"docs:tool:tests/test-docs.sh"
	"units:tool:tests/run-unit-tests.py"
	"scripts:tool:tests/test-scripts.sh"
	"cocci:tool:tests/test-cocci.sh"
	"worlds:tool:tests/test-worlds.sh"
	"oracle:tool:tests/test-oracle.sh"
	"conversions:kernel:tests/test-conversions.sh"
	"boot-base:kernel:tests/test-boot-base.sh"
	"bisect:kernel:tests/test-bisect.sh"
	"core:kernel:tests/test-core.sh"
	"boot-net:kernel:tests/test-boot-net.sh"
	"core-static:kernel:tests/test-core-static.sh"
	"bisect-lockdep:kernel:tests/test-bisect-lockdep.sh"
	"bisect-series:kernel:tests/test-bisect-series.sh"
	"bench:kernel:tests/test-bench.sh"
)
# make check leaves these to make check-full: each is a bisection with
# four to seven kernel builds and boots (about 3.5 min warm each, half of the warm
# make check before the split).  boot-net runs in both: it needs boot-base's
# base boot and core's build (same configuration, so only the converted
# files recompile); with CHECK=full it loads the kernel longer (plan
# campaign) and runs the whole networking self-test set on both kernels.
full_only="bisect bisect-lockdep bisect-series"

case ${CHECK:-} in '' | full) ;; *) die check "CHECK must be empty or 'full', not '$CHECK'" 2 ;; esac
read -r -a picked <<<"${SUITES:-}"
want=${picked[*]}
if [ -z "$want" ]; then
	for entry in "${all_suites[@]}"; do
		name=${entry%%:*}
		if [ "${CHECK:-}" = full ] || [[ " $full_only " != *" $name "* ]]; then
			want+=" $name"
		fi
	done
fi
for w in $want; do
	printf '%s\n' "${all_suites[@]}" | has_line "^$w:" ||
		die check "unknown suite '$w'; suites: $(printf '%s\n' "${all_suites[@]}" | cut -d: -f1 | tr '\n' ' ')" 2
done
# A kernel variant whose commit, final .config and compiler match its last
# build is not compiled again (scripts/kernel/build-kernel.sh): a warm run
# on unchanged sources boots the kernels it already has.
export BUILD_REUSE=${BUILD_REUSE:-1}
res="$OUT/check"
mkdir -p "$res"
cd "$TOP"

fresh_bin=""
if [ "${FRESH_PATH:-1}" != 0 ]; then
	fresh_bin="$res/fresh-path/bin"
	log check "building the fresh machine's PATH for the tool-only suites: $fresh_bin"
	rm -rf "$res/fresh-path"
	tests/make-fresh-path.py scripts/deps.txt "$fresh_bin" ||
		log check "could not build it (see above): the tool-only suites will fail"
fi

total_p=0
total_f=0
table=()
for entry in "${all_suites[@]}"; do
	name=${entry%%:*}
	kind=${entry#*:}
	cmd=${kind#*:}
	kind=${kind%%:*}
	# exact names: "bisect" must not select "bisect-lockdep"
	if [[ " $want " != *" $name "* ]]; then
		continue
	fi
	run=("$cmd")
	note=""
	if [ "$kind" = tool ] && [ -n "$fresh_bin" ]; then
		run=(env PATH="$fresh_bin" "$cmd")
		note=" (fresh machine's PATH)"
	fi
	log check "suite $name: $cmd$note"
	t0=$SECONDS
	status=0
	if [ -x "$cmd" ]; then
		"${run[@]}" 2>&1 | tee "$res/$name.log" || status=$?
	else
		echo "suite $name: $cmd is missing" | tee "$res/$name.log"
		status=1
	fi
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$res/$name.log" | tail -n 1 || true)
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed}
	else
		p=0
		f=1 # no tally: the suite itself broke
	fi
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # nonzero exit without a counted failure still fails
	fi
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	table+=("$(printf '%-14s %4d passed %4d failed %6ss' "$name" "$p" "$f" $((SECONDS - t0)))")
done

echo
echo "suite summary (logs in $res/):"
printf '  %s\n' "${table[@]}"
printf '%d passed, %d failed\n' "$total_p" "$total_f"
[ "$total_f" -eq 0 ]
