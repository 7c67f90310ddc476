#!/usr/bin/env bash
# test-static.sh: static checks of the project's own code: shellcheck on
# every shell script, mypy and byte-compilation of the Python, spatch
# --parse-cocci on every semantic patch, and a -Werror compile of the guest
# C programs.  A missing tool is a failure, not a skip: make deps installs
# every one of them (scripts/deps.txt), so a skip would hide a missing
# install step.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

mapfile -t shells < <(find scripts tests .ci -type f 2>/dev/null | sort |
	while read -r f; do head -c 64 "$f" | has_line '^#!.*(ba)?sh' && echo "$f"; done)
mapfile -t pys < <(find scripts tests semantic-patches -name '*.py' -type f | sort)
mapfile -t coccis < <(find semantic-patches -maxdepth 1 -name '*.cocci' | sort)

if command -v shellcheck >/dev/null; then
	for f in "${shells[@]}"; do
		if out=$(shellcheck -x "$f" 2>&1); then ok "shellcheck $f"; else
			not_ok "shellcheck $f" "shellcheck reports:"
			printf '%s\n' "$out" | first_lines 20 | sed 's/^/    /'
		fi
	done
else
	not_ok "shellcheck" "not installed; run 'make deps' (scripts/deps.txt)"
fi

# A reader that stops early (head, grep -q, grep -m) kills its writer with
# SIGPIPE whenever the writer still has output, and under pipefail the
# whole pipeline then fails, at random: CI stop 39 lost the bench suite
# so (test-bench.sh's truncated copy failed 73 of 200 runs).  The scripts
# read the first lines with first_lines and test for a line with has_line
# (scripts/lib.sh), which read all of their input.
# Only scripts that set pipefail (the guest's busybox scripts do not, and
# there the last command's status is the pipeline's), and the two sourced
# libraries, which run in such scripts.
early=$(for f in "${shells[@]}" scripts/lib.sh tests/lib-test.sh; do
	grep -q pipefail "$f" || [[ $f == */lib*.sh ]] || continue
	grep -nE '\|[[:space:]]*(head|grep[[:space:]]+(-[[:alnum:]]*[qm]|--quiet|--max-count))' "$f" |
		grep -vE '^[0-9]+:[[:space:]]*#' | sed "s|^|$f:|" || true
done)
if [ -z "$early" ]; then
	ok "no pipeline ends in a reader that stops early (scripts that set pipefail)"
else
	not_ok "no pipeline ends in a reader that stops early" "head or grep -q/-m after a pipe (use first_lines/has_line):"
	printf '%s\n' "$early" | sed 's/^/    /'
fi

for f in "${pys[@]}"; do
	if python3 -m py_compile "$f" 2>/dev/null; then ok "py_compile $f"; else not_ok "py_compile $f" "syntax error"; fi
done
if command -v mypy >/dev/null; then
	if out=$(mypy --strict --ignore-missing-imports --no-error-summary "${pys[@]}" 2>&1); then
		ok "mypy (${#pys[@]} files)"
	else
		not_ok "mypy" "type errors:"
		printf '%s\n' "$out" | first_lines 20 | sed 's/^/    /'
	fi
else
	not_ok "mypy" "not installed; run 'make deps' (scripts/deps.txt)"
fi

if command -v spatch >/dev/null; then
	for f in "${coccis[@]}"; do
		if spatch --parse-cocci "$f" >/dev/null 2>&1; then ok "parse-cocci $f"; else
			not_ok "parse-cocci $f" "spatch --parse-cocci failed"
		fi
	done
else
	not_ok "spatch --parse-cocci" "coccinelle not installed; run 'make deps' (scripts/deps.txt)"
fi

for f in scripts/guest/*.c; do
	if gcc -Wall -Wextra -Werror -fsyntax-only "$f" 2>/dev/null; then ok "cc -Werror $f"; else
		not_ok "cc -Werror $f" "compiler warnings"
	fi
done
tally
