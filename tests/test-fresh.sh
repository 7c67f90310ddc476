#!/usr/bin/env bash
# test-fresh.sh: would a fresh machine have every tool after `make deps`?
# Builds the fresh machine's PATH ($OUT/check/fresh/bin: the commands of
# the base system, Essential or Priority required packages, plus the
# packages of scripts/deps.txt and their Depends; see
# tests/make-fresh-path.py) and checks, in it:
#  - every tool a script asks for with need_tool, and the ones the suites
#    call without it (shellcheck, mypy, gnuplot);
#  - an OCaml compiler, when a semantic patch has OCaml script rules
#    (spatch compiles them with ocamlfind ocamlopt);
#  - every Python module the project's .py and .cocci files import, as
#    Debian's python3 finds it, is a file of one of those packages.
# tests/run-tests.sh then runs the tool-only suites with PATH set to that
# folder, so a tool missing from scripts/deps.txt fails them as it would
# on a fresh machine.  Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

fresh="$OUT/check/fresh"
rm -rf "$fresh"
mkdir -p "$fresh"
bin="$fresh/bin"
mapfile -t sources < <(git ls-files '*.py' 'semantic-patches/*.cocci')
expect_status "fresh-machine PATH from scripts/deps.txt, Python imports provided" 0 "$fresh/make.log" \
	tests/make-fresh-path.py scripts/deps.txt "$bin" --imports "${sources[@]}"
sed 's/^/    /' "$fresh/make.log"

# Tools: need_tool's arguments after the stage name, and the extra ones.
mapfile -t tools < <({
	grep -rhoE '^[[:space:]]*need_tool[[:space:]]+[^[:space:]]+[[:space:]]+[^#|&;]*' scripts tests |
		sed -E 's/^[[:space:]]*need_tool[[:space:]]+[^[:space:]]+[[:space:]]+//' | tr -s '[:blank:]' '\n'
	printf '%s\n' shellcheck mypy gnuplot
} | grep -E '^[A-Za-z0-9_.+-]+$' | sort -u)
for t in "${tools[@]}"; do
	if [ -x "$bin/$t" ]; then ok "command $t"; else
		not_ok "command $t" "not in the fresh machine's PATH: which package of scripts/deps.txt should bring it?"
	fi
done

mapfile -t ocaml < <(grep -lE '^@(initialize|script|finalize):ocaml@' semantic-patches/*.cocci || true)
if [ ${#ocaml[@]} -gt 0 ]; then
	if [ -x "$bin/ocamlfind" ] && { [ -x "$bin/ocamlopt" ] || [ -x "$bin/ocamlopt.opt" ]; }; then
		ok "OCaml compiler for the OCaml rules of ${ocaml[*]}"
	else
		not_ok "OCaml compiler for the OCaml rules of ${ocaml[*]}" \
			"spatch needs ocamlfind and ocamlopt (or ocamlopt.opt); the fresh machine has: $(find "$bin" -name 'ocaml*' -printf '%f ')"
	fi
fi
tally
