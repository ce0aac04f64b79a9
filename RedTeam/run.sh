#!/usr/bin/env bash
# RedTeam/run.sh HABITAT [FILTER] — Habitat's own corpus of malformed and edge-case scenarios.
#
# Feeds every case in RedTeam/cases/ to `habitat validate CASE` and then `habitat run CASE --progress never`
# (no --out, no size flags: the scenario's name and outputs.dir decide where it writes) and judges the outcome.
# FILTER keeps the cases whose name contains it.
#
#   cases/*.yaml      used as they are
#   cases/*.gen.sh    print the scenario on stdout at run time (big or binary inputs); they run with the
#                     sandbox's working directory as cwd and RT_BOX / RT_CWD set (for absolute paths into it)
#   cases/data/       CSV install curves and other inputs the cases name (copied next to each case)
#
# Header lines of a case, in its first 4 KB (the first of each wins):
#   # case: what it tries                       (free text)
#   # expect: reject | no-crash                 (default reject)
#   # exit: 2                                   optional: the exit statuses a reject case may end with
#                                               (default "1 2"; a list like "1 2" is allowed)
#   # timeout: SECONDS   # rss_mb: MB           optional: tighter limits than TIMEOUT / RSS_MB for this case
#
# Each case runs alone in a fresh sandbox from mktemp -d:
#   SANDBOX/box/KEEP.txt, box/l1/KEEP.txt, box/l1/side/KEEP.txt, box/l1/l2/KEEP.txt,
#   box/l1/l2/l3/KEEP.txt, box/l1/l2/l3/work/KEEP.txt, box/l1/l2/l3/work/Reports/KEEP.txt
# with the working directory at box/l1/l2/l3/work (the case file and data/ are copied there), HOME set to
# SANDBOX/home and GIT_OPTIONAL_LOCKS=0 (habitat asks git for its own commit; this keeps that read-only).
# Each command runs under lib/guard.py: SIGKILLed after TIMEOUT seconds (default 20) or above RSS_MB MB
# resident (default 2048). JOBS cases (default 2) run side by side, each in its own sandbox.
#
# Verdicts:
#   reject    PASS when validate and run both exit with an allowed status (1 or 2, or the case's `exit:`),
#             neither crashed (signal, Swift runtime failure, backtrace), hung or went over the memory cap,
#             and nothing in the sandbox changed (no file, folder, link or staging folder created, changed or
#             removed).
#   no-crash  PASS when nothing crashed, hung or went over the cap, every canary is intact, no
#             `.NAME.partial-*` staging folder was left and nothing changed outside work/Reports/<something>/.
#
# Output: one line per case, in case order
#   NAME  validate=RC run=RC crashed=yes|no hang=no|yes|rss wrote=no|yes(...)  PASS|FAIL  SECONDS  first stderr line
# and last the line "N passed, M failed". Exit status 1 when any case failed, 2 on bad usage.
set -u
HABITAT=${1:?usage: RedTeam/run.sh HABITAT [FILTER]}
FILTER=${2:-}
case $HABITAT in /*) ;; *) HABITAT=$(cd "$(dirname "$HABITAT")" && pwd)/$(basename "$HABITAT") ;; esac
[ -x "$HABITAT" ] && [ -f "$HABITAT" ] || { echo "run.sh: not an executable file: $HABITAT" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
CASES=$HERE/cases
GUARD=$HERE/lib/guard.py
TIMEOUT=${TIMEOUT:-20}
RSS_MB=${RSS_MB:-2048}
JOBS=${JOBS:-2}
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "run.sh: python3 is needed" >&2; exit 2; }
CANARY_DIRS="box box/l1 box/l1/side box/l1/l2 box/l1/l2/l3 box/l1/l2/l3/work box/l1/l2/l3/work/Reports"
CANARY_FILES=$(for d in $CANARY_DIRS; do printf '%s/KEEP.txt ' "$d"; done)
WORK_REL=l1/l2/l3/work
CRASH_RE='Swift runtime failure|Fatal error|Program crashed|Backtracing from|Segmentation fault|Illegal instruction|Stack dump|Thread [0-9]+ crashed'

# snapshot BOX -> one sorted line per entry: path|type|size|mode|mtime|link target
snapshot() { find "$1" -printf '%P|%y|%s|%m|%T@|%l\n' 2>/dev/null | sort; }

# guarded NAME LIMIT_S LIMIT_MB CWD CMD... -> sets G_RC G_KILLED G_WALL G_RSS; output in $LOGS/NAME.out/.err
guarded() {
    local name=$1 t=$2 m=$3 dir=$4; shift 4
    read -r G_RC G_KILLED G_WALL G_RSS < <(env HOME="$SANDBOX/home" GIT_OPTIONAL_LOCKS=0 "$PY" -S "$GUARD" "$t" "$m" "$dir" \
        "$LOGS/$name.out" "$LOGS/$name.err" -- "$@")
}

# crashed RC KILLED ERRFILE -> yes|no (a kill by the watchdog counts as a hang, not a crash)
crashed() {
    [ "$2" != no ] && { echo no; return; }
    if [ "$1" -ge 128 ] && [ "$1" -ne 130 ]; then echo yes; return; fi
    grep -a -q -E "$CRASH_RE" "$3" 2>/dev/null && { echo yes; return; }
    echo no
}

# one_case FILE -> prints the case's line; exit status 0 for PASS, 1 for FAIL
one_case() {
    local f=$1 base name expect= allowed= t= m= line
    base=$(basename "$f"); name=${base%.yaml}; name=${name%.gen.sh}
    while IFS= read -r line; do
        case $line in
            '# expect: '*) [ -z "$expect" ] && expect=${line#\# expect: } ;;
            '# exit: '*) [ -z "$allowed" ] && allowed=${line#\# exit: } ;;
            '# timeout: '*) [ -z "$t" ] && t=${line#\# timeout: } ;;
            '# rss_mb: '*) [ -z "$m" ] && m=${line#\# rss_mb: } ;;
        esac
    done < <(head -c 4096 "$f" | tr -d '\r\000' | grep -a '^# ')
    expect=${expect:-reject}; allowed=${allowed:-1 2}
    t=${t:-$TIMEOUT}; [ "$t" -gt "$TIMEOUT" ] && t=$TIMEOUT
    m=${m:-$RSS_MB}; [ "$m" -gt "$RSS_MB" ] && m=$RSS_MB

    SANDBOX=$(mktemp -d "${TMPDIR:-/tmp}/habitat-redteam.XXXXXX")
    local BOX=$SANDBOX/box CWD=$SANDBOX/box/$WORK_REL LOGS=$SANDBOX/logs d
    mkdir -p "$CWD/Reports" "$BOX/l1/side" "$LOGS" "$SANDBOX/home"
    for d in $CANARY_DIRS; do printf 'canary %s %s\n' "$d" "$RANDOM$RANDOM" > "$SANDBOX/$d/KEEP.txt"; done
    local canaries_before canaries_after before after
    canaries_before=$(cd "$SANDBOX" && cksum $CANARY_FILES 2>&1)
    cp -r "$CASES/data" "$CWD/data"
    if [[ $base == *.gen.sh ]]; then
        (cd "$CWD" && RT_BOX=$BOX RT_CWD=$CWD sh "$f") > "$SANDBOX/case.yaml"
    else
        cp "$f" "$SANDBOX/case.yaml"
    fi
    mv "$SANDBOX/case.yaml" "$CWD/$name.yaml"
    before=$(snapshot "$BOX")

    local vrc vkilled vwall vcrash rrc rkilled rwall rcrash
    guarded validate "$t" "$m" "$CWD" "$HABITAT" validate "$name.yaml"
    vrc=$G_RC; vkilled=$G_KILLED; vwall=$G_WALL; vcrash=$(crashed "$vrc" "$vkilled" "$LOGS/validate.err")
    guarded run "$t" "$m" "$CWD" "$HABITAT" run "$name.yaml" --progress never
    rrc=$G_RC; rkilled=$G_KILLED; rwall=$G_WALL; rcrash=$(crashed "$rrc" "$rkilled" "$LOGS/run.err")

    after=$(snapshot "$BOX")
    canaries_after=$(cd "$SANDBOX" && cksum $CANARY_FILES 2>&1)
    local crash=no hang=no wrote=no lost staging outside ok=yes verdict msg why at
    { [ "$vcrash" = yes ] || [ "$rcrash" = yes ]; } && crash=yes
    { [ "$vkilled" = timeout ] || [ "$rkilled" = timeout ]; } && hang=yes
    { [ "$vkilled" = rss ] || [ "$rkilled" = rss ]; } && hang=rss
    lost=$(diff <(echo "$canaries_before") <(echo "$canaries_after") | grep -c '^<')
    staging=$(find "$BOX" -name '.*.partial-*' 2>/dev/null | head -1)
    if [ "$expect" = reject ]; then
        [ "$before" != "$after" ] && wrote=yes
    else
        # changes are allowed only inside work/Reports/<one folder>/ (and in the Reports folder's own mtime);
        # the canary in Reports/ is checked by content above
        outside=$(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | cut -c3- \
            | grep -v -E "^$WORK_REL/Reports/[^/|]+(/[^|]*)?\|" | grep -v -E "^$WORK_REL/Reports\|d\|" | head -1)
        [ -n "$outside" ] && wrote="yes(${outside%%|*})"
    fi
    [ "$lost" -gt 0 ] && wrote="yes(lost $lost canaries)"
    [ -n "$staging" ] && wrote="yes(staging left: ${staging#$BOX/})"

    if [ "$expect" = reject ]; then
        [[ " $allowed " == *" $vrc "* ]] || ok=no
        [[ " $allowed " == *" $rrc "* ]] || ok=no
    fi
    [ "$crash" = yes ] && ok=no
    [ "$hang" != no ] && ok=no
    [ "$wrote" != no ] && ok=no
    if [ $ok = yes ]; then verdict=PASS; else verdict=FAIL; fi

    msg=$(grep -a -v -E '^\s*$|^0x' "$LOGS/run.err" 2>/dev/null | head -1)
    [ -z "$msg" ] && msg=$(grep -a -v -E '^\s*$|^0x' "$LOGS/validate.err" 2>/dev/null | head -1)
    if [ "$crash" = yes ]; then
        why=$(grep -a -h -m1 -o -E '(Swift runtime failure|Fatal error)[^*]*' "$LOGS/run.err" "$LOGS/validate.err" | head -1)
        at=$(grep -a -h -o -E 'Sources/[^ ]+\.swift:[0-9]+' "$LOGS/run.err" "$LOGS/validate.err" | head -1)
        msg="CRASH: ${why:-signal $vrc/$rrc}${at:+ at $at}"
    fi
    [ "$rkilled" != no ] && msg="run killed ($rkilled, ${rwall}s); $msg"
    [ "$vkilled" != no ] && msg="validate killed ($vkilled, ${vwall}s); $msg"
    if [ "$expect" = reject ] && [ "$crash" = no ] && [ "$hang" = no ] \
        && ! [[ " $allowed " == *" $vrc "* && " $allowed " == *" $rrc "* ]]; then
        msg="expected exit ${allowed// /|}; $msg"
    fi
    msg=${msg//$CWD\//}; msg=${msg//$SANDBOX\//}
    printf '%-46s validate=%-3s run=%-3s crashed=%-3s hang=%-3s wrote=%-3s %-4s %5.1fs  %s\n' "$name" "$vrc" "$rrc" \
        "$crash" "$hang" "$wrote" "$verdict" "$(awk "BEGIN { print $vwall + $rwall }")" \
        "$(printf '%s' "$msg" | tr -d '\r' | cut -c1-200)"
    rm -rf "$SANDBOX"
    [ $ok = yes ]
}

RESULTS=$(mktemp -d "${TMPDIR:-/tmp}/habitat-redteam-results.XXXXXX")
trap 'rm -rf "$RESULTS"' EXIT
shopt -s nullglob
i=0
for f in $(printf "%s\n" "$CASES"/*.yaml "$CASES"/*.gen.sh | sort); do
    base=$(basename "$f"); name=${base%.yaml}; name=${name%.gen.sh}
    [ -n "$FILTER" ] && [[ $name != *"$FILTER"* ]] && continue
    i=$((i + 1)); key=$(printf '%04d' $i)
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    ( if one_case "$f" > "$RESULTS/$key.line"; then : > "$RESULTS/$key.pass"; fi ) &
done
wait
passed=0; failed=0
for l in "$RESULTS"/*.line; do
    cat "$l"
    if [ -e "${l%.line}.pass" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
