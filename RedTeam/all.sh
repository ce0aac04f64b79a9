#!/usr/bin/env bash
# RedTeam/all.sh HABITAT [FILTER] — the whole red-team suite: the scenario corpus and every extra class.
#
#   corpus      RedTeam/run.sh            malformed / edge-case scenarios through validate and run
#   outpaths    RedTeam/extra/outpaths.py where run/trace/compare/check may write, and what they must refuse
#   interrupt   RedTeam/extra/interrupt.py SIGINT/SIGTERM/SIGHUP/SIGKILL during runs and check --record; double signals during merge
#   races       RedTeam/extra/races.py     two or three runs (run, merge, check --record) into one folder at once
#   baselines   RedTeam/extra/baselines.py corrupted baselines and run folders for check and compare
#   shards      RedTeam/extra/shards.py    damaged or mismatched shard folders for merge; run --shard misuse
#   forgery     RedTeam/extra/forgery.py   forged and spliced shard records (figures near Int64.max, re-sealed) for merge
#   fulldisk    RedTeam/extra/fulldisk.py  a full 2 MB tmpfs (skipped where tmpfs cannot be mounted)
#   usage       RedTeam/extra/usage.py     bad flags and arguments: exit 2 with a message
#   messages    RedTeam/extra/messages.py  no library internals (NSCocoaErrorDomain, yaml_, …) in messages
#   pagewriter  RedTeam/extra/pagewriter.py report_page.py on damaged run folders, manifests, comparison CSVs (one Python process)
#   products    RedTeam/extra/products.py  cross-product compare and check: every pair, baselines of another product
#   limits      RedTeam/extra/limits.py    product arms, tenures, Nudge's rule parameters at/past their limits (trace invariants), the joint fit, input types
#   lock        RedTeam/extra/lock.py      files planted at .NAME.lock (links, types, sizes, flags, forged records); spellings of one folder
#   huge        RedTeam/extra/huge.py      a 3 GB sparse file at every reader: refused naming file and limit within 512 MB
#   spec        RedTeam/extra/spec.py      every command that writes files, what it wrote against docs/report-spec.json
#   sensitivity RedTeam/extra/sensitivity.py sensitivity / calibrate --plausible / run --robustness: hostile ranges, shards, sets, options
#
# FILTER keeps the cases whose name contains it (in every part); PARTS="corpus usage" runs only those parts.
# TIMEOUT (default 20 s) and RSS_MB (default 2048) are each command's limits; JOBS (default 2) corpus cases
# run side by side. Every case works in its own mktemp -d sandbox. Each part ends with "N passed, M failed";
# the last line here is the sum, and the exit status is 1 when anything failed.
set -u
HABITAT=${1:?usage: RedTeam/all.sh HABITAT [FILTER]}
FILTER=${2:-}
case $HABITAT in /*) ;; *) HABITAT=$(cd "$(dirname "$HABITAT")" && pwd)/$(basename "$HABITAT") ;; esac
[ -x "$HABITAT" ] && [ -f "$HABITAT" ] || { echo "all.sh: not an executable file: $HABITAT" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "all.sh: python3 is needed" >&2; exit 2; }
export TIMEOUT=${TIMEOUT:-20} RSS_MB=${RSS_MB:-2048}
PARTS=${PARTS:-corpus outpaths interrupt races baselines shards forgery fulldisk usage messages pagewriter products limits lock huge spec sensitivity}

passed=0; failed=0; summary=""
LOG=$(mktemp "${TMPDIR:-/tmp}/habitat-redteam-all.XXXXXX")
trap 'rm -f "$LOG"' EXIT
for part in $PARTS; do
    case $part in
        corpus) cmd=("$HERE/run.sh" "$HABITAT" "$FILTER"); echo "== scenario corpus (RedTeam/cases)" ;;
        outpaths|interrupt|races|baselines|shards|forgery|fulldisk|usage|messages|pagewriter|products|limits|lock|huge|spec|sensitivity) cmd=("$PY" "$HERE/extra/$part.py" "$HABITAT" "$FILTER") ;;
        *) echo "all.sh: unknown part '$part'" >&2; exit 2 ;;
    esac
    t0=$SECONDS
    "${cmd[@]}" 2>&1 | tee "$LOG"
    last=$(tail -1 "$LOG")
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        p=${BASH_REMATCH[1]}; f=${BASH_REMATCH[2]}
    else
        p=0; f=1; echo "$part: ended without its summary line (the script itself failed)"
    fi
    passed=$((passed + p)); failed=$((failed + f))
    summary+=$(printf '\n  %-11s %4d passed, %3d failed  (%ds)' "$part" "$p" "$f" $((SECONDS - t0)))
    echo
done
echo "== red team: $HABITAT (${SECONDS}s in all)$summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
