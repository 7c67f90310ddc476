#!/usr/bin/env bash
# bisect-step.sh: the test "git bisect run" calls at each commit: build the
# checked-out commit, boot it, and answer good (0), bad (1) or skip (125).
#
# Usage: bisect-step.sh TEST    (boot | kunit | traffic)
#   boot     boot to userspace (plan smoke): any crash, lockdep report,
#            warning or missing end marker is bad
#   kunit    like boot, and every KUnit case must pass
#   traffic  the default plan: traffic and block I/O under lockdep
# Env:    BISECT_BUILD_FAIL=bad counts a build failure as bad (default skip)
# Writes: $OUT/bisect/steps/SHA/{build.log,boot.log} and the boot's
#         summary under $OUT/boot/bisect-SHA/
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ $# -ne 1 ]; then
	echo "usage: $0 boot|kunit|traffic" >&2
	exit 128 # makes git bisect run stop
fi
case $1 in
boot | kunit) plan=smoke ;;
traffic) plan=default ;;
*)
	echo "bisect-step: unknown TEST '$1' (boot, kunit or traffic)" >&2
	exit 128
	;;
esac
case ${BISECT_BUILD_FAIL:-skip} in skip | bad) ;; *)
	echo "bisect-step: BISECT_BUILD_FAIL must be skip or bad" >&2
	exit 128
	;;
esac

commit=$(git -C "$TREE" rev-parse HEAD)
steps="$OUT/bisect/steps/${commit:0:12}"
mkdir -p "$steps"
log bisect "testing ${commit:0:12} $(git -C "$TREE" log -1 --format=%s "$commit")"

frags=$("$TOP/scripts/kernel/kconfig-fragments.sh" "$commit")
if ! KFRAGMENTS=$frags "$TOP/scripts/kernel/build-kernel.sh" bisect "$commit" >"$steps/build.log" 2>&1; then
	if [ "${BISECT_BUILD_FAIL:-skip}" = bad ]; then
		log bisect "${commit:0:12}: build failed -> bad"
		exit 1
	fi
	log bisect "${commit:0:12}: build failed -> skip (BISECT_BUILD_FAIL=bad to count it as bad)"
	exit 125
fi
if BOOT_NAME="bisect-${commit:0:12}" BOOT_TIMEOUT=${BOOT_TIMEOUT:-300} \
	"$TOP/scripts/kernel/boot-kernel.sh" bisect "$plan" >"$steps/boot.log" 2>&1; then
	log bisect "${commit:0:12}: good"
	exit 0
fi
verdict=$(sed -n 's/^boot verdict: //p' "$steps/boot.log" | first_lines 1)
if [ -z "$verdict" ]; then
	# the boot script itself failed (missing initramfs, QEMU missing):
	# not a property of this commit, so stop the bisection.
	tail -n 5 "$steps/boot.log" >&2
	exit 128
fi
log bisect "${commit:0:12}: bad ($verdict)"
exit 1
