#!/usr/bin/env bash
# A long soak of the daemon on a clone of REPO (default: this repository): many clients over
# the Unix socket while HEAD flips and files are saved, a few clients sending garbage.
# Loopback only; bounded by SECONDS (default 600). Exits non-zero on any error or mixed answer.
#   scripts/soak.sh [REPO] [SECONDS] [CLIENTS]
set -euo pipefail
cd "$(dirname "$0")/.."
repo="${1:-.}"
seconds="${2:-600}"
clients="${3:-100}"
exec cargo run --release -q -p tether-bench -- soak "$repo" --seconds "$seconds" --clients "$clients"
