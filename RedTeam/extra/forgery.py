#!/usr/bin/env python3
"""Forged and spliced shard records fed to `habitat merge` (issue 30).

    RedTeam/extra/forgery.py HABITAT [FILTER]

In a sandbox Scenarios/product-comparison.yaml (every product as an arm: Scroll Off twice, Earned Access, Nudge,
none) is run as 3 shards (`run --shard K/3 --people 61 --days 8 --replications 2`: shards of 20, 20 and 21
people). A control merges them untouched (exit 0). Each case forges a fresh copy of shard 2 the way someone who
knows the file format would, and merges it with shards 1 and 3:

- a figure of one accumulator set near Int64.max (funnel, retention, the common and world counters, the world's
  pickups by hour, histograms, MRR, revenue, consumables, the forecast, battery energy and budgets, decisions,
  learning, the comparison sums, churn, Earned Access's daily unlock figures and counters, Nudge's things to do and
  AI cost, Scroll Off's counters) or made impossible (negative, active > eligible, a horizon of another length),
  each twice: `-oldsum` with the hash recomputed as the format-6 checksum was (accumulator bytes only) and
  `-resealed` with the format-7 seal recomputed (the forger knows the algorithm: the seal is not the defence, the
  accumulators' invariants are);
- a record of shard 3 pasted into shard 2 (as it is, and re-sealed with shard 2's labels), two records swapped
  with their arm or replication labels edited (and re-sealed), the people edited (and re-sealed).

Each must end with exit 2, a message naming the forged folder, the record (arm and replication) and — for a
re-sealed figure — the field, no crash, nothing written to --out and no staging left.

What no check of the file alone can see, and this part therefore does not try: a record re-sealed with figures a
run could have produced — a replication's record swapped with another replication's of the same arm, labels
edited and re-sealed, or a record pasted into a shard of the same size with consistent numbers.
"""
import copy
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rt  # noqa: E402

H, FILTER = rt.habitat_from_argv("forgery.py HABITAT [FILTER]")
suite = rt.Suite("forged and spliced shard records (merge)", FILTER)
RSS = min(rt.RSS_MB, 1024)
SCEN = "product-comparison.yaml"
SIZE = ["--people", "61", "--days", "8", "--replications", "2", "--progress", "never", "--threads", "1"]
BIG = 2**63 - 8
STATE = "shard-state.jsonl"

sb = rt.Sandbox("forgery")
cwd, GOOD = rt.good_shards(sb, suite, H, SCEN, SIZE)


def path(d, *f):
    return os.path.join(cwd, d, *f)


def read_lines(d):
    with open(path(d, STATE), "rb") as fh:
        return fh.read().split(b"\n")


def write_lines(d, ls):
    rt.replace_file(path(d, STATE), b"\n".join(ls))


def find(ls, arm, rep=1):
    """The index of the record of arm `arm` (its name), replication `rep`."""
    for i, line in enumerate(ls[1:], 1):
        if line:
            ident, _ = rt.shard_record_parse(line)
            if ident.get("arm_name", None) == arm and ident["replication"] == rep:
                return i
            if "arm_name" not in ident and ident["replication"] == rep and ARMS[ident["arm"]] == arm:
                return i
    raise KeyError(arm)


ARMS = ["scroll-off", "scroll-off-4-weeks", "earned-access", "nudge", "none"]


def pairs(arr):
    """(key, value) of a Swift dictionary with non-string keys, encoded as [k1, v1, k2, v2, …]."""
    return [(arr[i], arr[i + 1]) for i in range(0, len(arr), 2)]


# --- figure forgeries: f(acc) edits the accumulator in place -------------------------------------------------------

def first_cell(acc, family):
    cells = acc[family]["cells"]
    return pairs(cells)[0][1]


def set_histogram_big(h):
    h.clear()
    h.update({"count": BIG, "bins": [[0, BIG]], "sum": "0", "min": 0, "max": 0})


MONTH = {"year": 2026, "month": 1}


def add_revenue(acc):
    acc["revenue"]["cells"] += [{"month": MONTH, "source": "subscriptions"},
                                {"gross": {"micros": BIG}, "refunds": {"micros": 0}, "storeFee": {"micros": 0}, "cost": {"micros": 0},
                                 "transactions": 1, "payingPeople": 1}]


def add_tokens(acc):
    acc["tokens"]["months"] += [MONTH, {"tokenGross": {"micros": 0}, "subscriptionGross": {"micros": 0}, "otherGross": {"micros": 0},
                                        "tokensSold": BIG, "tokenBuyers": 1, "capHits": 0}]


def nudge_ai(acc):
    ai = acc["product"]["ai"]
    cell = {"dauDays": 1, "splits": 0, "drafts": 0, "costMicros": BIG, "grossMicros": 0}
    if ai:
        ai[0]["cells"][0] = cell
    else:
        ai.append({"month": MONTH, "cells": [cell, dict(cell, costMicros=0)]})


def retention_over(acc):
    c = first_cell(acc, "retention")
    c["active"][1] = c["eligible"][1] + 500


def comparison(field, value):
    def f(acc):
        p = sorted(acc["comparison"]["personas"])[0]
        acc["comparison"]["personas"][p][field] = value
    return f


def retained_over(acc):
    p = sorted(acc["comparison"]["personas"])[0]
    s = acc["comparison"]["personas"][p]
    s["inUse"][0] = s["retentionEligible"][0] + 3   # `retained` until issue 39 (in use, now beside app opened)


def measures(acc):
    p = sorted(acc["comparison"]["personas"])[0]
    return acc["comparison"]["personas"][p]["measures"]


def tasks_done_over(acc):
    ms = measures(acc)
    arisen = next((m["value"] for m in ms if m["measure"] == "tasks_arisen"), 0)
    ms[:] = [m for m in ms if m["measure"] != "tasks_done"] + [{"measure": "tasks_done", "value": arisen + 5}]


def set_path(keys, value):
    def f(acc):
        o = acc
        for k in keys[:-1]:
            o = o[k]
        o[keys[-1]] = value
    return f


def churn_big(acc):
    acc["churned"][sorted(acc["churned"])[0] if acc["churned"] else "uninstall"] = BIG


def battery_budget(acc):
    device = sorted(acc["battery"]["cells"])[0]
    acc["battery"]["cells"][device][0]["withinBudget"] = BIG


# (name, arm, edit, words expected in a re-sealed forgery's message)
FIGURES = [
    ("funnel-reached-max", "scroll-off", set_path(["funnel", "reached", 0], BIG), "funnel.reached[1]"),
    ("funnel-reached-negative", "scroll-off", set_path(["funnel", "reached", 1], -5), "is negative"),
    ("retention-active-max", "scroll-off", lambda a: first_cell(a, "retention")["active"].__setitem__(0, BIG), "retention["),
    ("retention-active-over-eligible", "scroll-off", retention_over, "> eligible"),
    ("retention-eligible-negative", "earned-access", lambda a: first_cell(a, "retention")["eligible"].__setitem__(2, -3), "is negative"),
    ("retention-horizon-other", "scroll-off", set_path(["retention", "maxDay"], 400), "retention.max_day"),
    ("common-events-max", "scroll-off", set_path(["common", "values", 6], BIG), "common.events"),
    ("common-pickups-negative", "none", set_path(["common", "values", 0], -5), "common.pickups"),
    ("world-counter-max", "scroll-off", set_path(["world", "counts", "values", 0], BIG), "world.counts.pickupsAfterSession"),
    ("world-pickups-by-hour-max", "nudge", set_path(["world", "pickupsByHour", 3], BIG), "world.pickups_by_hour"),
    ("world-histogram-bins-max", "scroll-off", lambda a: set_histogram_big(a["world"]["habitDaysTo95"]), "world.habit_days_to_95.count"),
    ("time-saved-histogram-max", "earned-access", lambda a: set_histogram_big(a["true_saved_per_day"]), "true_saved_per_day.count"),
    ("mrr-micros-max", "scroll-off", set_path(["mrr_at_end", "micros"], BIG), "mrr_at_end"),
    ("mrr-micros-negative", "nudge", set_path(["mrr_at_end", "micros"], -1), "mrr_at_end"),
    ("revenue-gross-max", "scroll-off", add_revenue, "revenue"),
    ("tokens-sold-max", "scroll-off", add_tokens, "tokens"),
    ("forecast-installs-max", "earned-access", lambda a: pairs(a["forecast"]["months"])[0][1].__setitem__("installs", BIG), "forecast["),
    ("battery-energy-int128-max", "scroll-off", set_path(["battery", "energy", 0], str(2**127 - 1)), "battery.energy"),
    ("battery-within-budget-max", "nudge", battery_budget, "within_budget"),
    ("decisions-max", "earned-access", set_path(["decisions", 0, "opportunities"], BIG), "decisions["),
    ("decisions-unknown-kind", "nudge", set_path(["decisions", 0, "kind"], "made_up"), "'made_up' is not a decision kind of this product"),
    ("learning-max", "scroll-off", set_path(["learning", "values", 1], BIG), "learning"),
    ("comparison-target-ms-max", "none", comparison("targetAppMs", BIG), "comparison["),
    ("comparison-retained-over-eligible", "scroll-off", retained_over, "> eligible"),
    ("comparison-tasks-done-over-arisen", "nudge", tasks_done_over, "> arisen"),
    ("comparison-unknown-measure", "none", lambda a: measures(a).append({"measure": "made_up", "value": 1}), "'made_up' is not a neutral measure"),
    ("churned-max", "scroll-off", churn_big, "churned"),
    ("ea-day-credits-max", "earned-access", set_path(["product", "days", 0, "creditsEarned"], BIG), "product.days[0].credits_earned"),
    ("ea-day-grants-negative", "earned-access", set_path(["product", "days", 1, "grants", "quest"], -7), "is negative"),
    ("ea-counter-max", "earned-access", set_path(["product", "counts", "values", 0], BIG), "product.counts.shields"),
    ("nudge-day-arisen-max", "nudge", set_path(["product", "days", 0, "arisen"], BIG), "product.days[0].arisen"),
    ("nudge-ai-cost-max", "nudge", nudge_ai, "cost_micros"),
    ("scroll-off-counter-max", "scroll-off", set_path(["product", "counts", "values", 0], BIG), "product.counts.shields"),
    ("scroll-off-histogram-max", "scroll-off-4-weeks", lambda a: set_histogram_big(a["product"]["appSavedPerActiveDay"]), "product.app_saved_per_active_day"),
]


def forge_figure(edit, arm, old):
    def g(d):
        ls = read_lines(d)
        i = find(ls, arm)
        ident, acc = rt.shard_record_parse(ls[i])
        edit(acc)
        ls[i] = rt.shard_record_line(ident, rt.shard_record_dump(acc), old=old)
        write_lines(d, ls)
    return g


# --- identity forgeries --------------------------------------------------------------------------------------------

def splice(resealed):
    def g(d):
        ls, three = read_lines(d), read_lines(GOOD[2])
        i, j = find(ls, "scroll-off"), find(three, "scroll-off")
        if resealed:
            mine, _ = rt.shard_record_parse(ls[i])
            ident, acc = rt.shard_record_parse(three[j])
            for k in ("shard", "people", "from", "to"):
                ident[k] = mine[k]
            ls[i] = rt.shard_record_line(ident, rt.shard_record_dump(acc))
        else:
            ls[i] = three[j]
        write_lines(d, ls)
    return g


def swap(a, b, resealed):
    def g(d):
        ls = read_lines(d)
        i, j = find(ls, *a), find(ls, *b)
        (ia, aa), (ib, ab) = rt.shard_record_parse(ls[i]), rt.shard_record_parse(ls[j])
        out = []
        for ident, acc, label in ((ia, aa, ib), (ib, ab, ia)):
            new = dict(ident)
            for k in ("arm", "arm_name", "replication"):
                if k in label:
                    new[k] = label[k]
            if resealed:
                out.append(rt.shard_record_line(new, rt.shard_record_dump(acc)))
            else:
                raw = rt.shard_record_line(ident, rt.shard_record_dump(acc))
                head = rt.shard_record_line(new, rt.shard_record_dump(acc))
                # the labels edited, the old seal kept
                seal = raw.split(b'"seal":"')[1][:16] if b'"seal"' in raw else raw.split(b'"checksum":"')[1][:16]
                key = b'"seal":"' if b'"seal"' in head else b'"checksum":"'
                pre, post = head.split(key)
                out.append(pre + key + seal + post[16:])
        ls[j], ls[i] = out
        write_lines(d, ls)
    return g


def people(resealed):
    def g(d):
        ls = read_lines(d)
        i = find(ls, "nudge")
        ident, acc = rt.shard_record_parse(ls[i])
        if resealed:
            ident["people"] += 1
            if "to" in ident:
                ident["to"] += 1
            ls[i] = rt.shard_record_line(ident, rt.shard_record_dump(acc))
        else:
            ls[i] = ls[i].replace(b'"people":%d' % ident["people"], b'"people":%d' % (ident["people"] + 1), 1)
        write_lines(d, ls)
    return g


def arm_name(d):
    ls = read_lines(d)
    i = find(ls, "none")
    ident, acc = rt.shard_record_parse(ls[i])
    ident["arm_name"] = "nothing"
    ls[i] = rt.shard_record_line(ident, rt.shard_record_dump(acc))
    write_lines(d, ls)


# (name, forge, arm and replication named in the message, words expected)
CASES = []
for name, arm, edit, words in FIGURES:
    CASES.append((f"{name}-oldsum", forge_figure(edit, arm, True), arm, 1, "seal"))
    CASES.append((f"{name}-resealed", forge_figure(edit, arm, False), arm, 1, words))
CASES += [
    ("splice-shard-3-into-2", splice(False), "scroll-off", 1, "shard 3/3"),
    ("splice-shard-3-into-2-resealed", splice(True), "scroll-off", 1, "people"),
    ("swap-arms-labels-edited", swap(("scroll-off", 1), ("earned-access", 1), False), "scroll-off", 1, "seal"),
    ("swap-arms-labels-edited-resealed", swap(("scroll-off", 1), ("earned-access", 1), True), "scroll-off", 1, "record 1"),
    ("swap-replications-labels-edited", swap(("nudge", 1), ("nudge", 2), False), "nudge", 1, "seal"),
    ("people-edited", people(False), "nudge", 1, "seal"),
    ("people-edited-resealed", people(True), "nudge", 1, "21 people"),
    ("arm-name-edited-resealed", arm_name, "none", 1, "labelled"),
]

n = 0


def fresh():
    global n
    n += 1
    d = f"forged-{n:02d}"
    shutil.copytree(path(GOOD[1]), path(d), symlinks=True)
    return d


def merge(second, tag):
    return rt.merge_with(sb, H, cwd, GOOD, second, tag, RSS)


if suite.wants("control-merge-untouched"):
    r, out = merge(GOOD[1], "control")
    p = rt.common_problems(r, {0})
    if r.rc == 0 and not os.path.isfile(os.path.join(out, "product-comparison.csv")):
        p.append("no product-comparison.csv")
    suite.record("control-merge-untouched", p, f"exit {r.rc}")
    shutil.rmtree(out, ignore_errors=True)

for name, forge, arm, rep, words in CASES:
    if not suite.wants(name):
        continue
    d = fresh()
    try:
        forge(d)
    except (KeyError, IndexError) as e:
        suite.record(name, [f"the forgery could not be made: {e!r}"])
        continue
    r, out = merge(d, name)
    p = rt.merge_refused_problems(r, out, cwd, (f"'{d}'", f"(arm '{arm}', replication {rep})", words))
    suite.record(name, p, f"exit {r.rc}: {r.first_err}")
    shutil.rmtree(path(d), ignore_errors=True)

lost = sb.canaries_intact()
if lost:
    suite.record("canaries", ["lost: " + " ".join(lost)])
sb.cleanup()
suite.finish()
