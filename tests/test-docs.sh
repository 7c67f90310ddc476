#!/usr/bin/env bash
# test-docs.sh: README.md and docs/*.md point at things that exist.
#
# Checks, for README.md and every docs/*.md:
#   - every relative link ([text](path), ![alt](path), "[ref]: path")
#     resolves to a file or folder, relative to the page ("/path": to the
#     top of the checkout), with any #anchor removed; links with a scheme
#     (https:, mailto:) and bare #anchors are not checked;
#   - every make target the page names is listed by "make help": a command
#     "make [VAR=value...] TARGET" in a code span or a fenced block (plain
#     "make" is "all"); the word "make" in prose is English, not a command;
#   - every page of docs/ is linked from README.md.
# First the checker runs on a fixture page with one broken link and one
# unknown target among good ones, and must report exactly those two.
#
# Reads:  README.md, docs/*.md, the Makefile (make help)
# Writes: a scratch folder, removed at exit
# Tools:  bash, grep, sed, awk, make, coreutils (it runs under the fresh
#         machine's PATH, tests/make-fresh-path.py)
# Ends with "N passed, N failed"; exit status 1 when anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib-test.sh
. tests/lib-test.sh
shopt -s nullglob

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# extract MODE PAGE: "LINE<TAB>ITEM" lines.  MODE links: the target of
# every link; MODE targets: the make target of every make command in code.
# Code spans may run over a line break; fenced blocks are code.
extract() {
	awk -v mode="$1" '
	function emit(ln, t) {
		sub(/^[ \t]+/, "", t)
		if (t ~ /^</) { sub(/^</, "", t); sub(/>.*$/, "", t) }
		sub(/[ \t].*$/, "", t)  # an optional "title"
		if (t != "") printf "%d\t%s\n", ln, t
	}
	function links(ln, s,   t) {
		if (match(s, /^ *\[[^]]+\]:[ \t]/)) emit(ln, substr(s, RSTART + RLENGTH))
		while (match(s, /\]\([^)]*\)/)) {
			t = substr(s, RSTART + 2, RLENGTH - 3)
			s = substr(s, RSTART + RLENGTH)
			emit(ln, t)
		}
	}
	# a command starts at the beginning, after "$ " or an assignment, or
	# after ; && || |; "#" starts a comment
	function targets(ln, s,   n, w, i, j, start, t) {
		n = split(s, w, /[ \t]+/)
		start = 1
		for (i = 1; i <= n; i++) {
			if (w[i] == "") continue
			if (w[i] ~ /^#/) break
			if (w[i] == ";" || w[i] == "&&" || w[i] == "||" || w[i] == "|") { start = 1; continue }
			if (w[i] == "$" || w[i] ~ /^[A-Za-z_][A-Za-z0-9_]*=/) continue
			if (start && w[i] == "make") {
				t = "all"
				for (j = i + 1; j <= n; j++) {
					if (w[j] ~ /^[A-Za-z_][A-Za-z0-9_]*=/ || w[j] ~ /^-/) continue
					if (w[j] ~ /^[a-z][a-z0-9-]*$/) t = w[j]
					break
				}
				printf "%d\t%s\n", ln, t
			}
			start = (w[i] ~ /;$/)
		}
	}
	/^[ \t]*(```|~~~)/ { fence = !fence; next }
	fence { if (mode == "targets") targets(FNR, $0); next }
	{
		prose = ""
		n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (c == "`") {
				if (incode) {
					if (mode == "targets") targets(codeline, code)
					incode = 0
				} else {
					incode = 1
					codeline = FNR
					code = ""
				}
			} else if (incode) {
				code = code c
			} else {
				prose = prose c
			}
		}
		if (incode) code = code " "
		if (mode == "links") links(FNR, prose)
	}' "$2"
}

# broken_links PAGE: "LINE<TAB>TARGET" of each relative link that does not
# resolve; the number of relative links checked goes to $scratch/nlinks.
broken_links() {
	local page=$1 dir ln target path n=0
	dir=$(dirname "$page")
	while IFS=$'\t' read -r ln target; do
		if [[ $target == '#'* || $target =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]]; then
			continue
		fi
		path=${target%%#*}
		[ -n "$path" ] || continue
		n=$((n + 1))
		case $path in /*) path=.$path ;; *) path=$dir/$path ;; esac
		[ -e "$path" ] || printf '%s\t%s\n' "$ln" "$target"
	done < <(extract links "$page")
	echo "$n" >"$scratch/nlinks"
}

# unknown_targets PAGE: "LINE<TAB>TARGET" of each make target that make
# help does not list ($scratch/targets); the number checked goes to
# $scratch/ntargets.
unknown_targets() {
	local page=$1 ln target n=0
	while IFS=$'\t' read -r ln target; do
		n=$((n + 1))
		grep -qxF -- "$target" "$scratch/targets" || printf '%s\t%s\n' "$ln" "$target"
	done < <(extract targets "$page")
	echo "$n" >"$scratch/ntargets"
}

# make help: "  TARGET   description" lines under "targets:"
if make -s --no-print-directory help >"$scratch/help" 2>&1 &&
	awk '/^  [a-z]/ { print $1 }' "$scratch/help" >"$scratch/targets" &&
	grep -qx check "$scratch/targets"; then
	ok "make help lists the targets ($(wc -l <"$scratch/targets"))"
else
	not_ok "make help lists the targets" "no target list in its output: $(head -n 3 "$scratch/help")"
fi

# The checker on a fixture: exactly the planted broken link and unknown
# target must be reported.
fx=$scratch/fixture
mkdir -p "$fx/sub"
touch "$fx/sub/there.md"
cat >"$fx/page.md" <<'EOF'
A [good link](sub/there.md#part), a [folder](sub/), [web](https://example.org/x),
[an anchor](#top), ![an image](sub/there.md "title") and a
[broken one](sub/missing.md#part). Run `make check` or
`SUITES=docs make
help`, but not `make no-such-target FOO=1`; to make it fail is prose.

[ref]: sub/there.md

```sh
$ make        # the default target
```
EOF
# expect_flags WHAT CHECK COUNTFILE WANT N: CHECK on the fixture page
# reports exactly WANT, out of N items it counted into $scratch/COUNTFILE.
expect_flags() {
	local got
	got=$("$2" "$fx/page.md" | cut -f2 | tr '\n' ' ')
	if [ "$got" = "$4 " ] && [ "$(cat "$scratch/$3")" = "$5" ]; then
		ok "$1"
	else
		not_ok "$1" "reported '$got' of $(cat "$scratch/$3") items, expected '$4' of $5"
	fi
}
expect_flags "link check flags exactly the broken link of a fixture page" \
	broken_links nlinks "sub/missing.md#part" 5
expect_flags "target check flags exactly the unknown target of a fixture page" \
	unknown_targets ntargets no-such-target 4

pages=(README.md docs/*.md)
if [ -f README.md ] && [ ${#pages[@]} -gt 1 ]; then
	ok "README.md and $((${#pages[@]} - 1)) pages of docs/ to check"
else
	not_ok "README.md and docs/*.md" "missing: README.md or every page of docs/"
fi

for page in "${pages[@]}"; do
	[ -f "$page" ] || continue
	bad=$(broken_links "$page")
	if [ -z "$bad" ]; then
		ok "$page: its $(cat "$scratch/nlinks") relative links resolve"
	else
		while IFS=$'\t' read -r ln target; do
			not_ok "$page:$ln: link $target" "no such file or folder (from $(dirname "$page")/)"
		done <<<"$bad"
	fi
	bad=$(unknown_targets "$page")
	if [ -z "$bad" ]; then
		ok "$page: its $(cat "$scratch/ntargets") make commands name targets of make help"
	else
		while IFS=$'\t' read -r ln target; do
			not_ok "$page:$ln: make $target" "make help lists no target '$target'"
		done <<<"$bad"
	fi
done

# every page of docs/ is in the README's index
extract links README.md | cut -f2 | sed 's/#.*//' >"$scratch/readme-links"
for page in docs/*.md; do
	if grep -qxF -- "$page" "$scratch/readme-links"; then
		ok "README.md links $page"
	else
		not_ok "README.md links $page" "the page is missing from the README's index"
	fi
done

tally
