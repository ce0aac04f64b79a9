#!/usr/bin/env bash
# Benchmarks/concurrent_load.sh HABITAT [STOPFILE] — a concurrent load for measuring the test suite on a busy
# machine (Tests/README.md, "How make test runs"): habitat runs of 20,000 people × 90 days on one thread, back to
# back, until STOPFILE (default /tmp/habitat-load.stop) exists; then prints how many ran. Writes only under a
# mktemp -d folder it removes.
#   Benchmarks/concurrent_load.sh .build/release/habitat & CI=true make test; touch /tmp/habitat-load.stop; wait
set -u
HABITAT=${1:?usage: Benchmarks/concurrent_load.sh HABITAT [STOPFILE]}
STOP=${2:-/tmp/habitat-load.stop}
[ -x "$HABITAT" ] || { echo "concurrent_load.sh: not an executable: $HABITAT" >&2; exit 2; }
rm -f "$STOP"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/habitat-load.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
n=0
while [ ! -e "$STOP" ]; do
    "$HABITAT" run --people 20000 --days 90 --replications 1 --threads 1 --out "$WORK/run" --progress never >/dev/null 2>&1
    rm -rf "$WORK/run"; n=$((n + 1))
done
echo "concurrent_load.sh: $n runs"
