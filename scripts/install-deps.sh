#!/usr/bin/env bash
# install-deps.sh: install the Debian packages the campaign needs, if any
# is missing.  Idempotent: does nothing when everything is there.
#
# Reads:  scripts/deps.txt (package names, one per line)
# Writes: nothing but the system's packages (apt-get, as root or via sudo)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

mapfile -t pkgs < <(sed 's/#.*//; /^[[:space:]]*$/d' "$TOP/scripts/deps.txt")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | has_line 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	result deps PASS "all ${#pkgs[@]} packages installed"
	exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
		die deps "missing packages (${missing[*]}) and not root, no password-less sudo; install them as root: apt-get install ${missing[*]}" 2
	fi
	sudo=(sudo -n)
fi
log deps "installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq ||
	die deps "apt-get update failed (is the Debian archive reachable?)" 1
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
	die deps "apt-get install failed for: ${missing[*]}" 1
result deps PASS "installed ${missing[*]}"
