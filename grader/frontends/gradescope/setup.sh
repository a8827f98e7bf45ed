#!/usr/bin/env bash
# Runs once, while Gradescope builds the autograder image (Ubuntu, as root): a Python 3.10 or
# newer (the image's own when it has one), the grader's one dependency, and bubblewrap.
set -uo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
log="$root/source/setup.log"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >>"$log" 2>&1
apt-get install -y -q --no-install-recommends python3 python3-venv bubblewrap >>"$log" 2>&1
usable() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; }
python=""
for candidate in python3.13 python3.12 python3.11 python3.10 python3; do
    found="$(command -v "$candidate" || true)"
    if [ -n "$found" ] && usable "$found"; then python="$found"; break; fi
done
if [ -z "$python" ]; then
    # An image older than Ubuntu 22.04: take 3.11 from the distribution if it has it.
    apt-get install -y -q --no-install-recommends python3.11 python3.11-venv >>"$log" 2>&1 || true
    found="$(command -v python3.11 || true)"
    if [ -n "$found" ] && usable "$found"; then python="$found"; fi
fi
if [ -z "$python" ]; then
    echo "no Python 3.10 or newer could be installed" >"$root/source/setup-failed"
    exit 0  # run_autograder then writes a results.json that says so
fi
"$python" -m venv "$root/venv" >>"$log" 2>&1 \
    && "$root/venv/bin/pip" install -q --no-cache-dir -r "$root/source/requirements.txt" >>"$log" 2>&1 \
    || echo "the grader's dependencies did not install (see setup.log)" >"$root/source/setup-failed"
exit 0
