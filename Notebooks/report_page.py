#!/usr/bin/env python3
"""Writes one self-contained `report.html` for a Habitat run folder (or `comparison.html` beside a comparison CSV).

    python3 Notebooks/report_page.py RUN_DIR [RUN_DIR ...]        (make plots RUN=RUN_DIR also writes it)
    python3 Notebooks/report_page.py comparison.csv               (habitat compare's output → comparison.html)

The page is read from the same CSVs as the notebooks and the PNGs (`habitat_data.load_run`), its charts drawn by
`habitat_charts` with Plotly, whose JavaScript bundle is inlined with the data: the file opens offline, can be
mailed or attached to a pull request, and makes no network request. The bundle is plotly.py's `plotly.min.js`, once
per page; the layout template the charts share is written once; charts are drawn when scrolled near (all at once
without IntersectionObserver, and before printing), so the page opens without drawing what is out of sight. Every number on it is also in an HTML table,
so it still reads with JavaScript off.

Sections, their titles, intros, charts and the files they read are the report specification's (docs/report-spec.json,
`page.sections`), in the order a reader asks: what was run → the products compared on the same people (runs whose
arms are different products, issue 28: claims against true effects, each KPI side by side, effect against cost, by
persona) → the KPI table with targets → the world check → the activation funnel → the decisions people made →
learning → retention → revenue (and the token share, for products with consumables) → unlocks (Earned Access) →
battery and energy → arms against the control (runs with arms) → the forecast (runs with an acquisition curve); a
section is left out when the run lacks its file (a run of `none`, no app, has what was run, KPIs, the world check and
learning). Targets are those the run's files carry. An arm selector filters charts and tables where there are arms;
a chart the chosen arm has nothing in (a product's own report, an arm without an app) is hidden and a note says so.

The page is written with the mode the CSVs beside it have (0644 under the usual umask).

The page is written beside the reports and replaces only a page this script wrote (it carries a generator mark);
any other `report.html` is refused (exit 2).
"""
from __future__ import annotations

import argparse
import html
import json
import math
import os
import re
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import habitat_charts as hc  # noqa: E402
import habitat_data as hp  # noqa: E402
import report_spec as spec  # noqa: E402

GENERATOR = "habitat report page"
GENERATOR_MARK = f'<meta name="generator" content="{GENERATOR}">'
PAGE_NAME = "report.html"


PageError = PageInputError = spec.InputError
"""A page that cannot or must not be written: `PageInputError(file, what, why)`, raised where a file is read, parsed
or written and said once, by `write_pages`, as `report_page: FILE: WHAT — WHY` (exit 2)."""


# --- Numbers for people ---------------------------------------------------------------------------------------

# Units in words ({unit: label}), as the specification names them (kpis.csv's and world-check.csv's `unit` among them).
UNIT_NAMES = spec.unit_labels()


def is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or (isinstance(value, str) and
                                                                                  not value.strip())


def number(value: float) -> str:
    """About three significant digits, thousands separated, never in exponent form."""
    v = float(value)
    if v == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(v)))
    decimals = min(max(2 - magnitude, 0), 6)
    return f"{v:,.{decimals}f}"


def fmt(value, unit: str) -> str:
    """A value as a person reads it: 12.3 % for a fraction, $1,234.56 for USD, 4.2 min, 24.0 per day; — if empty."""
    if is_missing(value):
        return "—"
    v = float(value)
    if unit in ("fraction", "change"):   # change: a relative change, shown as a % (issue 40)
        p = v * 100
        return f"{p:.2f} %" if 0 < abs(p) < 1 else f"{p:.1f} %"
    if unit == "usd":
        return f"{'-' if v < 0 else ''}${abs(v):,.2f}"
    if unit == "minutes":
        return f"{number(v)} min"
    if unit == "seconds":
        return f"{number(v)} s"
    return number(v)  # the unit is named in its own column or heading


def target_text(low, high, unit: str) -> str:
    if is_missing(low) and is_missing(high):
        return "—"
    if is_missing(high):
        return f"≥ {fmt(low, unit)}"
    if is_missing(low):
        return f"≤ {fmt(high, unit)}"
    return f"{fmt(low, unit)} – {fmt(high, unit)}"


def verdict(meets, mean) -> tuple[str, str]:
    """(text, css class) of a KPI's met / not met cell."""
    m = "" if is_missing(meets) else str(meets).lower()
    if m == "true":
        return "✓ met", "met"
    if m == "false":
        return "✗ not met", "missed"
    if is_missing(mean):
        return "not measured", "none"
    return "no target", "none"


WORDS = {"mrr": "MRR", "usd": "(USD)", "pct": "%", "14d": "in 14 days", "24h": "24 h", "30s": "30 s",
         "p90": "(p90)", "d1": "D1", "d7": "D7", "d30": "D30"}


def label(identifier: str) -> str:
    """'d7_retention_actives' → 'D7 retention actives'; 'mrr_usd_at_horizon' → 'MRR (USD) at horizon'."""
    words = [WORDS.get(w, w) for w in identifier.split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def esc(value) -> str:
    return html.escape("" if is_missing(value) else str(value), quote=True)


# --- What was run ---------------------------------------------------------------------------------------------


# The manifest keys the page reads, with the JSON types they must have (null reads as absent).
MANIFEST_TYPES = {
    "scenario_name": (str,), "resolved_scenario": (str,), "tool_version": (str,), "git_commit": (str,),
    "scenario_hash": (str,), "product": (str,), "seed": (int,), "replications": (int,), "person_days": (int,),
    "events_simulated": (int,), "threads": (int,), "people": (int,), "wall_seconds": (int, float),
}
JSON_TYPES = {str: "a string", int: "a whole number", float: "a number"}


def json_shown(value, limit: int = 80) -> str:
    """A JSON value as a message quotes it, cut to `limit` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def read_manifest(run_dir: Path) -> dict:
    """manifest.json as a dict ({} without one, as runs written before it); refused (`PageInputError`) when it is
    not a file of UTF-8 JSON holding an object, or a key the page reads has the wrong type or a negative count."""
    path = run_dir / "manifest.json"
    if not os.path.lexists(path):
        return {}
    text = spec.read_text(path, "JSON")
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as e:
        raise PageInputError(path, f"not JSON: {e.msg} on line {e.lineno}, column {e.colno}",
                             "Habitat writes manifest.json as one JSON object") from e
    except (ValueError, RecursionError) as e:
        raise PageInputError(path, "not JSON Habitat writes", spec.shown(str(e) or type(e).__name__)) from e
    if not isinstance(manifest, dict):
        kind = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false"}
        raise PageInputError(path, f"JSON holding {kind.get(type(manifest), 'null')}, not an object",
                             "Habitat writes manifest.json as one JSON object of keys")
    for key, types in MANIFEST_TYPES.items():
        value = manifest.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            raise PageInputError(path, f"key {key} holds {json_shown(value)}", f"not {JSON_TYPES[types[-1]]}")
        if isinstance(value, (int, float)) and not (value >= 0):
            raise PageInputError(path, f"key {key} holds {json_shown(value)}", "not a count (negative)")
    return manifest


def scenario_value(manifest: dict, key: str) -> str | None:
    """A top-level (or `population:` child) scalar of the resolved scenario in the manifest."""
    text = manifest.get("resolved_scenario", "")
    found = re.search(rf"^\s*{re.escape(key)}:\s*\"?([^\"\n]+?)\"?\s*$", text, re.MULTILINE)
    return found.group(1) if found else None


def run_facts(t: dict, manifest: dict) -> list[tuple[str, str]]:
    arms = hc.arms_of(t)
    installs = scenario_value(manifest, "installs")
    wall = manifest.get("wall_seconds")
    facts = [
        ("scenario", manifest.get("scenario_name") or str(t["kpis"]["scenario"].iloc[0])),
        ("product", hp.product(t) or "several: " + ", ".join(dict.fromkeys(t["kpis"]["product"].dropna().astype(str)))),
        ("arms", f"{len(arms)}: {', '.join(arms[:12])}{' …' if len(arms) > 12 else ''}"),
        ("people", f"{int(installs):,} per arm" if installs and installs.isdigit() else "—"),
        ("days", scenario_value(manifest, "horizon_days") or "—"),
        ("start", scenario_value(manifest, "start") or "—"),
        ("replications", str(manifest.get("replications", len(hp._replications(t, t["kpis"]))))),
        ("seed", str(manifest.get("seed", "—"))),
        ("person-days simulated", f"{manifest['person_days']:,}" if "person_days" in manifest else "—"),
        ("events simulated", f"{manifest['events_simulated']:,}" if "events_simulated" in manifest else "—"),
        ("Habitat version", str(manifest.get("tool_version", "—"))),
        ("commit", str(manifest.get("git_commit", "—"))),
        ("scenario hash", str(manifest.get("scenario_hash", "—"))),
        ("wall time", f"{wall:.1f} s on {manifest.get('threads', '?')} thread(s)" if isinstance(wall, (int, float))
         else "—"),
    ]
    return facts


# --- Tables ---------------------------------------------------------------------------------------------------


def arm_attr(arm) -> str:
    """The row's arm for the selector: one arm (data-arm), or a list of arms it belongs to (data-arms, e.g. an arm
    and its control)."""
    if isinstance(arm, (list, tuple)):
        return f' data-arms="{esc(" ".join(str(a) for a in arm))}"'
    return f' data-arm="{esc(arm)}"'


def kpis_table(t: dict) -> str:
    """Every pooled KPI row of kpis.csv (per arm): value, 95 % CI, target, met / not met."""
    df = hp._pooled(t["kpis"])
    # The raw cells are kpis.csv's text as written (0.9200 stays 0.9200), read beside the numbers row for row.
    text = t.get("kpis_text")
    cells_as_written = text.loc[df.index] if text is not None else df.astype(object).where(df.notna(), "")
    several = df["arm"].nunique() > 1
    head = ("<tr>" + ("<th>arm</th>" if several else "") + "<th>KPI</th><th>unit</th><th class=num>mean</th>"
            "<th class=num>95 % CI</th><th class=num>target</th><th>met?</th></tr>")
    body = []
    for (_, r), (_, w) in zip(df.iterrows(), cells_as_written.iterrows()):
        unit = r["unit"]
        text, css = verdict(r["meets_target"], r["mean"])
        applies = r.get("applies")   # kpis.csv written before the column: every KPI applies
        if text == "not measured" and not is_missing(applies) and str(applies) != "yes":
            text = f"not measured: {esc(applies)}"
        cells = [f"<td>{esc(r['arm'])}</td>" if several else "",
                 f"<td>{esc(label(r['kpi']))}<br><code>{esc(r['kpi'])}</code></td>",
                 f"<td>{esc(UNIT_NAMES.get(unit, unit))}</td>",
                 f'<td class=num data-field="mean" data-value="{esc(w["mean"])}">{fmt(r["mean"], unit)}</td>',
                 '<td class=num><span data-field="ci_low" data-value="{}">{}</span> to <span data-field="ci_high" '
                 'data-value="{}">{}</span></td>'.format(esc(w["ci_low"]), fmt(r["ci_low"], unit),
                                                         esc(w["ci_high"]), fmt(r["ci_high"], unit)),
                 '<td class=num>{}<span hidden data-field="target_min" data-value="{}">{}</span>'
                 '<span hidden data-field="target_max" data-value="{}">{}</span></td>'.format(
                     target_text(r["target_min"], r["target_max"], unit), esc(w["target_min"]),
                     fmt(r["target_min"], unit), esc(w["target_max"]), fmt(r["target_max"], unit)),
                 f'<td class="{css}" data-field="meets_target" data-value="{esc(w["meets_target"])}">{text}</td>']
        body.append(f'<tr data-kpi="{esc(r["kpi"])}"{arm_attr(r["arm"])}>{"".join(cells)}</tr>')
    return f'<table id="kpi-table" class="data"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def simple_table(columns: list[str], rows: list[tuple[str | None, list[str]]], table_id: str, numeric_from: int = 1,
                 numeric_until: int | None = None) -> str:
    """A plain table: `rows` are (arm or None, cell HTML strings); columns from `numeric_from` on (up to, not
    including, `numeric_until`) right-aligned."""
    until = len(columns) if numeric_until is None else numeric_until

    def num(i: int) -> str:
        return " class=num" if numeric_from <= i < until else ""
    head = "".join(f"<th{num(i)}>{esc(c)}</th>" for i, c in enumerate(columns))
    body = "".join(f"<tr{arm_attr(arm) if arm is not None else ''}>" +
                   "".join(f"<td{num(i)}>{c}</td>" for i, c in enumerate(cells))
                   + "</tr>" for arm, cells in rows)
    return f'<table id="{table_id}" class="data"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def signed(value, unit: str) -> str:
    """A difference as a person reads it: +1.2 pp (percentage points, of a share), −55.8 min, +$0.07; — if empty."""
    if is_missing(value):
        return "—"
    v = float(value)
    text = fmt(abs(v), unit).replace(" %", " pp") if unit == "fraction" else fmt(abs(v), unit)
    return ("+" if v > 0 else "−" if v < 0 else "") + text


def interval(low, high, unit: str, signs: bool = False) -> str:
    """'29.0 min to 32.2 min' (signed ends for differences); — without one."""
    if is_missing(low) or is_missing(high):
        return "—"
    show = signed if signs else fmt
    return f"{show(low, unit)} to {show(high, unit)}"


def claim_verdict(claimed: float, low, high) -> tuple[str, str]:
    """(words, css class) of a claim against its true effect's 95 % interval."""
    if is_missing(claimed) or is_missing(low) or is_missing(high):
        return "no true effect measured", "none"
    if float(low) <= float(claimed) <= float(high):
        return "✓ the claim is inside the true effect's interval", "met"
    if float(claimed) > float(high):
        return "✗ overstates its true effect", "missed"
    return "understates its true effect", "none"


def claim_basis_words(r) -> str:
    """The claim's denominator in words (product-comparison.csv's claim_basis, from the specification), "" in a
    report written before issue 39."""
    basis = r["claim_basis"] if "claim_basis" in r.index else None
    if basis is None or is_missing(basis):
        return ""
    return CLAIM_BASES.get(str(basis), str(basis))


CLAIM_BASES = spec.value_labels("products", "claim_basis")


def products_lead(t: dict) -> str | None:
    """Above the chart: each product's claim beside its true effect on the same people (product-comparison.csv's
    claim rows), the claim's own words below. None without claims."""
    df = hp.product_rows(t)
    if df is None:
        return None
    claims = df[df["kind"] == "claim"]
    if claims.empty:
        return None
    none = hp.none_arm(df)
    rows = []
    for _, r in claims.iterrows():
        unit = r["unit"]
        same, low, high = hp.claim_true_effect(r)
        words, css = claim_verdict(r["mean"], low, high)
        rows.append(([r["arm"]] + ([none] if none else []), [
            f"<b>{esc(r['arm'])}</b>", f"{esc(label(r['kpi']))}<br><small>{esc(r['claim'])}</small>",
            f"<b>{fmt(r['mean'], unit)}</b><br><small>{interval(r['ci_low'], r['ci_high'], unit)}</small>",
            f"<b>{fmt(same, unit)}</b><br><small>{interval(low, high, unit)}</small>"
            + (f"<br><small>{esc(claim_basis_words(r))}</small>" if claim_basis_words(r) else ""),
            f"<b>{fmt(r['true_effect'], unit)}</b><br><small>"
            f"{interval(r['true_effect_ci_low'], r['true_effect_ci_high'], unit)}</small>",
            f'<span class="{css}">{words}</span>']))
    table = simple_table(["product", "claim", "claimed (the app's own figure, 95 % CI)",
                          f"true effect on the same people, against {none or 'no app'}, on the claim's denominator (95 % CI)",
                          "true effect per person-day of every installer to the horizon (95 % CI)", "verdict"],
                         rows, "claims-table", numeric_from=2, numeric_until=5)
    return f'<div class="claims"><h3>What each product claims, and its true effect</h3>{table}</div>'


def products_robustness_table(t: dict) -> str | None:
    """product-comparison-robustness.csv (a product comparison run with --robustness, issue 45): each product against
    none with the verdict across the plausible worlds, as experiment.csv's rows."""
    if "product-comparison-robustness" not in t:
        return None
    return "<h3>Each product against none, across the plausible worlds</h3>" + comparison_table(t["product-comparison-robustness"])


def products_table(t: dict) -> str | None:
    """The products section's tables: the comparison (`products_comparison_table`), then, with --robustness, each
    product against none across the plausible worlds."""
    parts = [products_comparison_table(t), products_robustness_table(t)]
    return "".join(p for p in parts if p) or None


def products_comparison_table(t: dict) -> str | None:
    """product-comparison.csv: the products side by side on each KPI (persona all): each arm's mean with its 95 %
    interval, its paired difference from the arm without an app and from the first product; effect against cost
    per product; then every persona's means (with the difference from no app) in one compact table. None without
    the file."""
    df = hp.product_rows(t, persona=None)
    if df is None:
        return None
    pooled = df[df["persona"].astype(str) == "all"]
    if pooled.empty:
        return None
    none = hp.none_arm(pooled)
    first = next((a for a in pooled["first_product_arm"].dropna().astype(str) if a.strip()), None)
    kpis = pooled[pooled["kind"] != "claim"]
    rows = []
    for (kpi, kind), sub in kpis.groupby(["kpi", "kind"], sort=False):
        for n, (_, r) in enumerate(sub.iterrows()):
            unit = r["unit"]
            head = [f"<b>{esc(label(kpi))}</b><br><code>{esc(kpi)}</code><br>"
                    f"<small>{esc(hp.PRODUCT_KINDS.get(kind, kind))}, {esc(UNIT_NAMES.get(unit, unit))}</small>"
                    if n == 0 else ""]
            rows.append((r["arm"], head + [
                f'<span class=arm>{esc(r["arm"])}</span>', f"<b>{fmt(r['mean'], unit)}</b>",
                interval(r["ci_low"], r["ci_high"], unit),
                signed(r["vs_none_diff"], unit), interval(r["vs_none_ci_low"], r["vs_none_ci_high"], unit, True),
                signed(r["vs_first_diff"], unit), interval(r["vs_first_ci_low"], r["vs_first_ci_high"], unit, True)]))
    side = simple_table(["KPI", "arm", "mean", "95 % CI", f"vs {none or 'no app'} (paired)", "95 % CI",
                         f"vs {first or 'first product'} (paired)", "95 % CI"], rows, "products-table", numeric_from=2)
    parts = [f"<h3>Each KPI, the products side by side</h3>{side}"
             f"<p class=note>Means over replications with 95 % intervals; differences paired person by person "
             f"(Student-t over the per-replication differences). Empty where undefined: an arm against itself, a "
             f"figure an arm without an app has not.</p>"]
    effects, costs = hp.product_effects(pooled), hp.PRODUCTS_CHART["costs"]
    points = {e["kpi"]: {p["arm"]: p for p in hp.effect_and_costs(pooled, e)} for e in effects}
    arms_with_effect = list(dict.fromkeys(a for e in effects for a in points[e["kpi"]]))
    if arms_with_effect:
        units = {c["kpi"]: str(pooled[pooled["kpi"] == c["kpi"]]["unit"].iloc[0])
                 for c in [*effects, *costs] if (pooled["kpi"] == c["kpi"]).any()}
        nothing = (np.nan, np.nan, np.nan)
        cost_rows = []
        for arm in arms_with_effect:
            mine = [points[e["kpi"]].get(arm) for e in effects]
            figures = [(e, p["effect"] if p else nothing) for e, p in zip(effects, mine)]
            paid = next(p["costs"] for p in mine if p)
            cells = [f'<span class=arm>{esc(arm)}</span>']
            for what, v in figures + list(zip(costs, paid)):
                unit = units.get(what["kpi"], "")
                cells.append(f"<b>{signed(v[0], unit) if what in effects[1:] else fmt(v[0], unit)}</b><br><small>"
                             f"{interval(v[1], v[2], unit, signs=what in effects[1:])}</small>")
            cost_rows.append(([arm] + ([none] if none else []), cells))
        parts.append("<h3>Effect against cost</h3>" + simple_table(
            ["product"] + [e["label"] for e in effects] + [c["label"] for c in costs], cost_rows, "effect-cost-table"))
    personas = [p for p in dict.fromkeys(df["persona"].astype(str)) if p != "all"]
    if personas:
        columns = list(dict.fromkeys(kpis["kpi"]))
        units = dict(zip(kpis["kpi"], kpis["unit"]))
        persona_rows = []
        for persona in personas:
            sub = df[(df["persona"].astype(str) == persona) & (df["kind"] != "claim")]
            for n, arm in enumerate(hp.comparison_arms(sub)):
                cells = [f"<b>{esc(persona)}</b>" if n == 0 else "", f'<span class=arm>{esc(arm)}</span>']
                for kpi in columns:
                    unit = units[kpi]
                    v = hp.figure_of(sub, arm, kpi)
                    d = hp.figure_of(sub, arm, kpi, "vs_none_diff")
                    if np.isnan(v[0]) and not ((sub["arm"].astype(str) == arm) & (sub["kpi"] == kpi)).any():
                        cells.append("")
                        continue
                    vs = "" if np.isnan(d[0]) else f"<br><small>{signed(d[0], unit)}</small>"
                    cells.append(f'<span title="95 % CI {interval(v[1], v[2], unit)}">{fmt(v[0], unit)}</span>{vs}')
                persona_rows.append((arm, cells))
        parts.append(f"<h3>By persona</h3>" + simple_table(
            ["persona", "arm"] + [label(k) for k in columns], persona_rows, "products-persona-table", numeric_from=2)
            + f"<p class=note>Each persona's mean over replications (its 95 % interval on hover); below it, the "
              f"paired difference from {none or 'the arm without an app'}.</p>")
    return "".join(parts)


def world_check_table(t: dict) -> str:
    df = t["worldcheck"]
    several = df["arm"].nunique() > 1
    rows = []
    for _, r in df.iterrows():
        unit = r["unit"]
        if r["applies"] != "yes":
            state = f"not measurable: {esc(r['applies'])}"
        else:
            state = "✓ inside" if str(r["inside"]).lower() == "true" else "✗ outside"
        css = "met" if state.startswith("✓") else "missed" if state.startswith("✗") else "none"
        rows.append((r["arm"], ([esc(r["arm"])] if several else []) + [
            f"{esc(r['figure'])}<br><small>{esc(r['source'])}</small>", esc(UNIT_NAMES.get(unit, unit)),
            f"{fmt(r['range_low'], unit)} – {fmt(r['range_high'], unit)}",
            fmt(r["simulated_mean"], unit),
            f"{fmt(r['ci_low'], unit)} to {fmt(r['ci_high'], unit)}" if not is_missing(r["ci_low"]) else "—",
            f'<span class="{css}">{state}</span>']))
    columns = (["arm"] if several else []) + ["figure (source)", "unit", "published range", "simulated", "95 % CI",
                                               "verdict"]
    return simple_table(columns, rows, "world-check-table", numeric_from=len(columns) - 4)


def funnel_table(t: dict) -> str:
    """activation-funnel.csv's pooled rows: people, share of installs, step conversion, and the target the file
    carries with its basis (the previous stage, or installs: issue 38) and its verdict (— where the product sets
    none)."""
    pooled = hp.file_targets(hp._pooled(t["funnel"]), "funnel").sort_values(["arm", "stage_order"], kind="stable")
    df = pd.concat([hp.funnel_basis(g.reset_index(drop=True)) for _, g in pooled.groupby("arm", sort=False)]) \
        if len(pooled) else pooled.assign(_basis=[], _measure=[])
    several = df["arm"].nunique() > 1
    rows = []
    for _, r in df.iterrows():
        target = target_text(r["_target_min"], r["_target_max"], "fraction")
        if target != "—" and r["_basis"] != "previous_stage":
            target += " " + hp.basis_words(r["_basis"]) + f" ({fmt(r['_measure'], 'fraction')})"
        text, css = verdict(r["_target_met"], r["_measure"])
        rows.append((r["arm"], ([esc(r["arm"])] if several else []) + [
            f"{esc(r['stage'])} {esc(r['stage_name'])}", f"{int(r['users']):,}", fmt(r["rate_from_start"], "fraction"),
            fmt(r["rate_from_previous"], "fraction"), target, f'<span class="{css}">{text}</span>']))
    columns = (["arm"] if several else []) + ["stage", "people", "of installs", "step conversion", "target",
                                              "met?"]
    return simple_table(columns, rows, "funnel-table", numeric_from=len(columns) - 5)


def decisions_table(t: dict) -> str | None:
    """decisions.csv's pooled rows, one row per decision kind (per arm) in file order: the event that allows it,
    opportunities, decisions, decisions per opportunity (— without opportunities) and each outcome's share of the
    decisions ("keep 48.0 % · cancel 52.0 %"; — without decisions). None when there is no such row."""
    if "decisions" not in t or t["decisions"].empty:
        return None
    df = hp._pooled(t["decisions"])
    if df.empty:
        return None
    several = df["arm"].nunique() > 1
    rows = []
    for (arm, decision), sub in df.groupby(["arm", "decision"], sort=False):
        first = sub.iloc[0]
        opportunities, decisions = first["opportunities"], first["decisions"]
        ratio = (f"{float(decisions) / float(opportunities):.2f}"
                 if not is_missing(opportunities) and float(opportunities) > 0 and not is_missing(decisions) else "—")
        most = first.get("per_opportunity")
        allowed = "" if is_missing(most) else f"<br><small>at most {int(float(most)):,} per opportunity</small>"
        outcomes = " · ".join(
            f'<span class=outcome title="{esc(count_text(r["count"]))} of {esc(count_text(decisions))}">'
            f'{esc(r["outcome"])} {fmt(r["share"], "fraction")}</span>' for _, r in sub.iterrows())
        rows.append((arm, ([esc(arm)] if several else []) + [
            esc(decision), f"{esc(first['opportunity'])}{allowed}", count_text(opportunities), count_text(decisions),
            ratio, outcomes]))
    columns = (["arm"] if several else []) + ["decision", "opportunity (the event)", "opportunities", "decisions",
                                              "decisions per opportunity", "outcomes (share of the decisions)"]
    return simple_table(columns, rows, "decisions-table", numeric_from=len(columns) - 4,
                        numeric_until=len(columns) - 1)   # the outcomes are words: left-aligned


def count_text(value) -> str:
    """A count as a person reads it (12,345), — if empty."""
    return "—" if is_missing(value) else f"{int(float(value)):,}"


def retention_table(t: dict) -> str:
    df = t["retention"]
    rows_df = df[(df["replication"] != "all") & (df["cohort"] == "all") & (df["segment"] == "all")]
    days = [d for d in (1, 7, 14, 30, 60, 90) if (rows_df["day"] == d).any()]
    readings = list(dict.fromkeys(rows_df["activity"])) if "activity" in rows_df.columns else [None]
    rows = []
    for arm in dict.fromkeys(rows_df["arm"]):
        for reading in readings:
            sub = rows_df[(rows_df["arm"] == arm) & ((rows_df["activity"] == reading) if reading else True)]
            mean, half = hp._mean_band(sub.pivot_table(index="day", columns="replication", values="retention"))
            cells = [fmt(mean.get(d), "fraction") + (f" ± {fmt(half[d], 'fraction')}" if half.get(d, 0) > 0 else "")
                     for d in days]
            rows.append((arm, [esc(arm), esc(hp.RETENTION_READINGS.get(reading, "opened the app that day"))] + cells))
    return simple_table(["arm", "active means"] + [f"day {d}" for d in days], rows, "retention-table", numeric_from=2)


def revenue_table(t: dict) -> str | None:
    """Per arm: the whole run's money — every usd column of revenue.csv, in file order (gross, refunds, store fee,
    net) — and paying people; then gross and net per month and source (means over replications, a replication
    without a row counting 0). None when the run has no money (no rows)."""
    if "revenue" not in t or t["revenue"].empty:
        return None
    all_rows = t["revenue"][t["revenue"]["replication"].astype(str) != "all"]
    totals = all_rows[all_rows["month"] == "total"]
    replications = hp._replications(t, all_rows)
    money = spec.columns_with_unit("revenue", "usd")

    def mean(sub: pd.DataFrame, column: str) -> float:
        return sub.groupby("replication")[column].sum().reindex(replications).fillna(0.0).mean()
    rows = []
    for arm in hc.arms_of(t):
        sub = totals[totals["arm"] == arm]
        rows.append((arm, [esc(arm)] + [fmt(mean(sub, c), "usd") for c in money] + [number(mean(sub, "paying_people"))]))
    monthly = all_rows[all_rows["month"] != "total"]
    by_month = []
    for arm in hc.arms_of(t):
        for (month, source), sub in monthly[monthly["arm"] == arm].groupby(["month", "source"], sort=True):
            by_month.append((arm, [esc(arm), esc(month), esc(source), fmt(mean(sub, "gross_usd"), "usd"),
                                   fmt(mean(sub, "net_usd"), "usd"), number(mean(sub, "paying_people"))]))
    n = len(replications)
    return (simple_table(["arm"] + [spec.label("revenue", c) for c in money] + ["paying people (by source, summed)"],
                         rows, "revenue-table") + f"<p class=note>Whole run, USD, mean of {n} replication"
                                                  f"{'s' if n != 1 else ''}.</p>"
            + simple_table(["arm", "month", "source", "gross", "net", "paying people"], by_month,
                           "revenue-month-table", numeric_from=3))







def lines_table(t: dict, chart: dict) -> str | None:
    """The table below a chart of kind `lines` (any file the specification describes): per arm and series of every
    panel, the mean over the chart's x (each x's mean over replications), its lowest and highest, and the first and
    last x's; None without rows."""
    series = hp.chart_series(t, chart)
    if not series:
        return None
    several = len({s["arm"] for s in series}) > 1
    rows = []
    for s in series:
        values = pd.Series(s["mean"], index=s["x"]).dropna()
        if values.empty:
            continue
        rows.append((s["arm"], ([esc(s["arm"])] if several else []) + [esc(s["label"])] + [
            number(v) for v in (values.mean(), values.min(), values.max())]
            + [f"{number(values.iloc[0])} ({esc(values.index[0])})", f"{number(values.iloc[-1])} ({esc(values.index[-1])})"]))
    x = chart.get("x_label", chart["x"])
    columns = (["arm"] if several else []) + ["series", f"mean over {x}", "lowest", "highest", "first", "last"]
    return simple_table(columns, rows, f"{chart['id']}-table", numeric_from=2 if several else 1)


def bars_table(t: dict, chart: dict) -> str | None:
    """The table below a chart of kind `bars` (any file the specification describes): per arm, series and x, the
    means over replications of the chart's `table` columns, the first panel's mean over replications with its 95 %
    interval, the ceiling the file carries and whether the mean is within it; None without rows."""
    summary = hp.bar_summary(t, chart, 0)
    if summary is None:
        return None
    several = summary["arm"].nunique() > 1
    rows = []
    for _, r in summary.iterrows():
        if is_missing(r["mean"]) or is_missing(r["ceiling"]):
            words, css = "—", "none"
        else:
            words, css = ("✓ within", "met") if r["mean"] <= r["ceiling"] else ("✗ over", "missed")
        value = "—" if is_missing(r["mean"]) else (
            f"<b>{number(r['mean'])}</b>" + (f"<br><small>± {number(r['half'])}</small>" if r["half"] > 0 else ""))
        rows.append((r["arm"], ([esc(r["arm"])] if several else []) + [esc(r["x"]), esc(r["label"])]
                     + [fmt(r[f"table:{c}"], spec.column(chart["key"], c).get("unit", "")) for c in chart.get("table", [])]
                     + [value, "—" if is_missing(r["ceiling"]) else number(r["ceiling"]),
                        f'<span class="{css}">{words}</span>']))
    columns = ((["arm"] if several else []) + [chart.get("x_label", chart["x"]), "series"]
               + [spec.label(chart["key"], c) for c in chart.get("table", [])]
               + [f"{chart['panels'][0].get('y_label', '')} (95 % CI)", "ceiling", "within?"])
    n = summary["replications"].max()
    return (simple_table(columns, rows, f"{chart['id']}-table", numeric_from=3 if several else 2)
            + f"<p class=note>Means over {n} replication{'s' if n != 1 else ''}.</p>")


def histogram_table(t: dict, chart: dict) -> str | None:
    """The table below a chart of kind `histogram` (any file the specification describes): per series value and arm,
    how many replications have each value of x (0 to the chart's top), the mean, the chart's mark and the share of
    replications at or above it. With fewer replications than its `min_replications` the table says plainly that a
    histogram needs many, and lists what each replication counted instead. None without rows."""
    summary = hp.histogram_summary(t, chart)
    if summary is None:
        return None
    several = len({s["arm"] for s in summary["series"]}) > 1
    top = summary["top"]
    if not summary["enough"]:
        df = hp.chart_rows(t, dict(chart, over="replications"))
        rows = []
        for s in summary["series"]:
            sub = df[(df["arm"].astype(str) == s["arm"]) & (df[chart["series"]].astype(str) == s["value"])]
            counted = ", ".join(f"{count_text(v)} of {count_text(p)}" for v, p in zip(
                pd.to_numeric(sub[chart["x"]], errors="coerce"),
                pd.to_numeric(sub[chart["x_max"]], errors="coerce") if chart.get("x_max") else [top] * len(sub)))
            rows.append((s["arm"], ([esc(s["arm"])] if several else []) + [esc(s["label"]), esc(counted)]))
        return (f'<p class="note histogram-too-few">{esc(hp.histogram_too_few(summary))}</p>'
                + simple_table((["arm"] if several else []) + ["figure", "what each replication counted"], rows,
                               f"{chart['id']}-table", numeric_from=len(rows[0][1]) if rows else 0))
    rows = []
    for s in summary["series"]:
        mark = s["mark"]
        rows.append((s["arm"], ([esc(s["arm"])] if several else []) + [esc(s["label"])]
                     + [count_text(v) for v in s["replications"]]
                     + ["—" if is_missing(s["mean"]) else number(s["mean"]),
                        esc(mark["label"]) if mark else "—", esc(hp.histogram_mark_text(s, top) or "—")]))
    columns = ((["arm"] if several else []) + ["figure"] + [f"{k}\u00a0of\u00a0{top}" for k in range(top + 1)]
               + ["mean", "marked", "simulated studies at or above the mark"])
    n = summary["replications"]
    return (simple_table(columns, rows, f"{chart['id']}-table", numeric_from=2 if several else 1,
                         numeric_until=len(columns) - 2)
            + f"<p class=note>Replications (simulated studies) counting each number of people, of {n} "
              f"replication{'s' if n != 1 else ''}; the pooled rows are not counted.</p>")


def scatter_table(t: dict, chart: dict) -> str | None:
    """The table below a chart of kind `scatter` (any file the specification describes): per arm, the mean over
    replications of the chart's x and y columns each with its 95 % interval, the replications, and the means of its
    `table` columns; None without rows."""
    points = hp.scatter_summary(t, chart)
    if not points:
        return None
    key = chart["key"]

    def cell(value: float, half: float, column: str) -> str:
        unit = spec.column(key, column).get("unit", "")
        if is_missing(value):
            return "—"
        return f"<b>{fmt(value, unit)}</b>" + (f"<br><small>± {fmt(half, unit)}</small>" if half > 0 else "")
    rows = [(p["arm"], [esc(p["arm"]), cell(p["x"], p["x_half"], chart["x"]), cell(p["y"], p["y_half"], chart["y"]),
                        count_text(p["replications"])]
             + [fmt(p["table"][c], spec.column(key, c).get("unit", "")) for c in chart.get("table", [])])
            for p in points]
    columns = (["arm", f"{spec.label(key, chart['x'])} (95 % CI)", f"{spec.label(key, chart['y'])} (95 % CI)",
                "replications"] + [spec.label(key, c) for c in chart.get("table", [])])
    n = max(p["replications"] for p in points)
    return (simple_table(columns, rows, f"{chart['id']}-table", numeric_from=1)
            + f"<p class=note>Means over {n} replication{'s' if n != 1 else ''} (the pooled rows are not used)"
              + ("; with one replication there is no interval" if n < 2 else "")
              + f"; the further columns are means per replication.</p>")


def section_table(t: dict, described: dict) -> str | None:
    """A page section's tables: this module's `<section>_table` where the section has one (a section of the generic
    specification), then the generic tables of the charts of generic kinds a product's fragment adds to it
    (`generic_tables`); a product's own section (from its fragment) has only those. None when nothing shows."""
    own = globals().get(f"{spec.function_name(described['id'])}_table")
    generic = [c for c in described.get("charts", [])
               if spec.spec()["chart_kinds"][spec.chart(c)["kind"]]["renderer"] == "generic"]
    parts = [own(t) if own else None, generic_tables(t, dict(described, charts=generic)) if generic else None]
    return "".join(p for p in parts if p) or None


def generic_tables(t: dict, described: dict) -> str | None:
    """The tables of a section without a table function of its own (a product's section, from its fragment): one per
    chart of a generic kind, by the kind's table function (`lines_table`, `bars_table`, `histogram_table`,
    `scatter_table`)."""
    parts = []
    for chart_id in described.get("charts", []):
        chart = spec.chart(chart_id)
        if spec.spec()["chart_kinds"][chart["kind"]]["renderer"] == "generic":
            parts.append(globals()[f"{spec.function_name(chart['kind'])}_table"](t, chart) or "")
    return "".join(parts) or None


def learning_table(t: dict) -> str | None:
    """learning.csv's pooled rows of people still using the product (status active), per arm and week: urges,
    shields, opens per person-day, the share of urges opened, urges against the untreated rate, the mean app habit,
    and (from the week's `all` row) the dormant share of shields — with pickups and target-app minutes a day where
    the file has them (issue 28); then, where it has them, the target-app minutes a day by status (active, dormant,
    untreated) week by week. None without such rows."""
    if "learning" not in t or t["learning"].empty:
        return None
    df = hp._pooled(t["learning"])
    several = df["arm"].nunique() > 1
    # Issue 28's columns (pickups, target-app minutes), where the file has them.
    extra = [c["name"] for c in spec.by_key()["learning"]["columns"] if c.get("label") and c["name"] in df.columns]
    rows = []
    for arm in dict.fromkeys(df["arm"]):
        sub = df[df["arm"] == arm]
        for _, r in sub[sub["status"] == "active"].iterrows():
            every = sub[(sub["status"] == "all") & (sub["week_since_install"] == r["week_since_install"])]
            dormant = every["dormant_shield_share"].iloc[0] if len(every) else ""

            def cell(v, pct=False):
                return "—" if is_missing(v) else (f"{float(v):.1%}" if pct else number(float(v)))
            rows.append((arm if several else None, ([esc(arm)] if several else []) + [
                esc(str(r["week_since_install"])), f"{int(float(r['person_days'])):,}", cell(r["urges_per_day"]),
                cell(r["shields_per_day"]), cell(r["opens_per_day"]), cell(r["opened_share"], True),
                cell(r["urges_vs_untreated"]), cell(r["mean_app_habit"]), cell(dormant, True)]
                + [cell(r[c]) for c in extra]))
    parts = []
    if rows:
        columns = (["arm"] if several else []) + ["week since install", "person-days (using it)", "urges a day",
                                                  "shields a day", "opens a day", "urges opened", "urges vs untreated",
                                                  "mean app habit", "dormant share of shields"] + [spec.label("learning", c) for c in extra]
        parts.append(simple_table(columns, rows, "learning-table", numeric_from=len(columns) - 8 - len(extra)))
    minutes = hp.learning_minutes(df)
    if minutes is not None:
        statuses = [s for s in hp.LEARNING_STATUSES if (minutes["status"] == s).any()]
        by_status = []
        for arm in dict.fromkeys(minutes["arm"]):
            sub = minutes[minutes["arm"] == arm]
            for week in dict.fromkeys(sub["week_since_install"]):
                cells = []
                for status in statuses:
                    r = sub[(sub["week_since_install"] == week) & (sub["status"] == status)]
                    cells.append("—" if r.empty else f"{fmt(r[hp.LEARNING_MINUTES].iloc[0], 'minutes')}"
                                 f"<br><small>{int(float(r['person_days'].iloc[0])):,} person-days</small>")
                by_status.append((arm, [esc(arm), esc(str(week))] + cells))
        parts.append("<h3>Minutes a day in the target apps, by status</h3>" + simple_table(
            ["arm", "week since install"] + [hp.LEARNING_STATUSES[s] for s in statuses], by_status,
            "learning-minutes-table", numeric_from=2))
    return "".join(parts) or None


def battery_table(t: dict) -> str:
    """battery-budget.csv's pooled rows against the budget the file carries."""
    df = hp.file_targets(hp._pooled(t["battery"]), "battery")
    several = df["arm"].nunique() > 1
    rows = []
    for _, r in df.iterrows():
        met = str(r["_target_met"]).lower() == "true"
        rows.append((r["arm"], ([esc(r["arm"])] if several else []) + [
            esc(r["device"]), esc(hp.BATTERY_METRICS.get(r["metric"], r["metric"])), fmt(r["mean"], "pct"),
            fmt(r["p90"], "pct"), fmt(r["p99"], "pct"), fmt(r["max"], "pct"), fmt(r["_target_max"], "pct"),
            fmt(r["share_within_budget"], "fraction"),
            f'<span class="{"met" if met else "missed"}">{"✓ within" if met else "✗ over"}</span>']))
    columns = (["arm"] if several else []) + ["device", "measure", "mean", "p90", "p99", "max", "budget",
                                              "person-days within", "budget met?"]
    return simple_table(columns, rows, "battery-table", numeric_from=len(columns) - 7)


def arms_table(t: dict) -> str | None:
    """experiment.csv's rows (runs with arms); with --robustness, which arm moves each KPI most and in how many of the
    plausible worlds it stays the one (robustness-leader.csv, issue 45)."""
    parts = [comparison_table(t["experiment"]) if "experiment" in t else None, leader_table(t)]
    return "".join(p for p in parts if p) or None


def leader_table(t: dict) -> str | None:
    """robustness-leader.csv: per KPI the arm whose paired difference is largest in size with the defaults, and the
    share of the plausible worlds in which the same arm leads."""
    if "robustness-leader" not in t:
        return None
    rows = []
    for _, r in t["robustness-leader"].iterrows():
        rows.append((r["arm"], [esc(r["kpi"]), esc(r["arm"]), esc(r["control_arm"]),
                                "—" if is_missing(r["leader_share"]) else fmt(r["leader_share"], "fraction"),
                                esc(r["worlds"]), robustness_verdict(r["verdict"])]))
    return ('<h3>Which arm moves each KPI most, across the plausible worlds</h3>'
            + simple_table(["KPI", "arm moving it most", "against", "same leader in", "worlds", "verdict"], rows,
                           "leader-table", numeric_from=3, numeric_until=5))


def is_check(df: pd.DataFrame) -> bool:
    """Whether a comparison CSV is `habitat check --out`'s: it has the check's own columns (the specification's)."""
    return set(spec.output_columns("check")) <= set(df.columns)


def comparison_table(df: pd.DataFrame) -> str:
    """experiment.csv's rows (or a compare / check CSV's); a check's tolerance and verdict where present."""
    checked = is_check(df)
    # issue 45, a run with --robustness: the difference's range over the plausible worlds, the share keeping its
    # sign and the verdict (experiment.csv's columns written only then)
    robust = all(c["name"] in df.columns for c in spec.conditional_columns(spec.by_key()["experiment"], ("robustness",)))
    rows = []
    for _, r in df.iterrows():
        unit = r["unit"]
        cells = [esc(r["arm"]), esc(r["kpi"]), fmt(r["control_mean"], unit), fmt(r["arm_mean"], unit),
                 fmt(r["diff"], unit), f"{fmt(r['diff_ci_low'], unit)} to {fmt(r['diff_ci_high'], unit)}",
                 f"{fmt(r['unpaired_ci_low'], unit)} to {fmt(r['unpaired_ci_high'], unit)}",
                 fmt(r["rel_diff"], "fraction"), esc(r["pairs"])]
        if robust:
            cells += [robustness_verdict(r["robustness"]) + (
                "" if is_missing(r["sign_share"]) else
                f"<br><small>sign kept in {fmt(r['sign_share'], 'fraction')} of {esc(r['robust_worlds'])} worlds; "
                f"{fmt(r['robust_diff_low'], unit)} to {fmt(r['robust_diff_high'], unit)}</small>")]
        if checked:
            beyond = str(r["beyond_tolerance"]).lower() == "true"
            cells += [f"± {fmt(r['tolerance'], unit)}",
                      f'<span class="{"missed" if beyond else "met"}">{"✗ beyond" if beyond else "✓ within"}</span>']
        rows.append(([r["arm"], r["control_arm"]], cells))
    columns = ["arm", "KPI", "control", "arm", "difference", "paired 95 % CI", "unpaired 95 % CI", "relative", "pairs"]
    columns += ["robustness across the plausible worlds"] if robust else []
    return simple_table(columns + (["tolerance", "verdict"] if checked else []), rows, "experiment-table",
                        numeric_from=2, numeric_until=len(columns) - 1 if robust else None)


def robustness_verdict(text) -> str:
    """experiment.csv's robustness verdict (issue 45), marked: robust green, depends on … red, no difference grey."""
    if is_missing(text):
        return '<span class="none">—</span>'
    words = str(text)
    css = "met" if words == "robust" else ("none" if words.startswith("no ") else "missed")
    return f'<span class="{css} robust">{esc(words)}</span>'


def forecast_table(t: dict) -> str | None:
    """Per arm and metric (the specification's): the first month's mean, the last month's with its 95 % band."""
    if "forecast" not in t:
        return None
    df = t["forecast"]
    df = df[df["month"] != "total"]
    rows = []
    for arm in dict.fromkeys(df["arm"]):
        for metric, (name, unit) in hp.FORECAST_METRICS.items():
            sub = df[(df["arm"] == arm) & (df["metric"] == metric)]
            if sub.empty:
                continue
            last = sub.iloc[-1]
            rows.append((arm, [esc(arm), esc(name), fmt(sub.iloc[0]["mean"], unit), esc(last["month"]),
                               fmt(last["mean"], unit), f"{fmt(last['ci_low'], unit)} to {fmt(last['ci_high'], unit)}"]))
    return simple_table(["arm", "metric", "first month", "last month", "mean", "95 % band"], rows, "forecast-table",
                        numeric_from=2)


# --- The page -------------------------------------------------------------------------------------------------


def d1_retention_text(t: dict, arm: str, charter_kpi: bool) -> str | None:
    """The headline's D1 retention, both readings named, from retention.csv's pooled rows (cohort and segment
    `all`, day 1) of `arm`: the product in use (the reading of the charter's KPIs — `charter_kpi` when the run's
    kpis.csv has the KPI the specification names for day-1 retention) and the app opened (the reading of the world
    check's retention_d1). None without a day-1 row (a run shorter than 2 days). Reports written before the
    `activity` column have the app-opened reading only."""
    if "retention" not in t:
        return None
    df = t["retention"]
    df = hp._pooled(df[(df["arm"].astype(str) == arm) & (df["cohort"] == "all") & (df["segment"] == "all")
                       & (df["day"] == 1)])
    readings = [("in_use", "product in use" + (" (the charter's KPI reading)" if charter_kpi else "")),
                ("app_opened", "app opened of the person's own accord (the world check's reading)")]
    parts = []
    for activity, words in readings:
        if "activity" in df.columns:
            row = df[df["activity"] == activity]
        else:
            row = df if activity == "app_opened" else df.iloc[0:0]
        if len(row) and not is_missing(row["retention"].iloc[0]):
            parts.append(f"<b>{fmt(row['retention'].iloc[0], 'fraction')}</b> {words}")
    return "D1 retention " + " · ".join(parts) if parts else None


def headline(t: dict) -> str:
    """The few lines a product manager reads first: targets met, world check, D1 retention (both readings, each
    named), money (the specification's headline KPIs)."""
    kpis = hp._pooled(t["kpis"])
    first = kpis[kpis["arm"] == kpis["arm"].iloc[0]]
    judged = first[first["meets_target"].astype(str).str.lower().isin(["true", "false"])]
    met = (judged["meets_target"].astype(str).str.lower() == "true").sum()
    items = [f"<b>{met} of {len(judged)}</b> KPI targets met" if len(judged) else "no KPI targets (the product sets none)"]
    if "worldcheck" in t:
        w = t["worldcheck"]
        w = w[(w["arm"] == w["arm"].iloc[0]) & (w["applies"] == "yes")]
        inside = (w["inside"].astype(str).str.lower() == "true").sum()
        items.append(f"<b>{inside} of {len(w)}</b> world-check figures inside their published ranges")
    day_one = [r["kpi"] for r in (spec.targets("retention") or {}).get("rows", []) if r["day"] == 1]
    retention = d1_retention_text(t, str(first["arm"].iloc[0]), charter_kpi=first["kpi"].isin(day_one).any())
    if retention:
        items.append(retention)
    for item in spec.headline_kpis():
        k, what = item["kpi"], item["label"]
        row = first[first["kpi"] == k]
        if len(row) and not is_missing(row["mean"].iloc[0]):
            items.append(f"{what} <b>{fmt(row['mean'].iloc[0], row['unit'].iloc[0])}</b>")
    arm = f" (arm {esc(first['arm'].iloc[0])})" if kpis["arm"].nunique() > 1 else ""
    return products_headline(t) + f'<p class="headline">{" · ".join(items)}{arm}</p>'


def products_headline(t: dict) -> str:
    """For a run whose arms are different products (product-comparison.csv): each product's effect against no app
    on the same people with its 95 % interval, and each claim against its true effect; "" otherwise."""
    df = hp.product_rows(t)
    if df is None:
        return ""
    none = hp.none_arm(df)
    items = []
    for n, effect in enumerate(hp.product_effects(df)):
        unit = next(iter(df[df["kpi"] == effect["kpi"]]["unit"]), "")
        show = signed if n else fmt   # a further effect is a difference: its sign shown
        effects = [f"<b>{esc(p['arm'])}</b> {show(p['effect'][0], unit)} "
                   f"({interval(p['effect'][1], p['effect'][2], unit, signs=bool(n))})"
                   for p in hp.effect_and_costs(df, effect)]
        if effects and none:
            what = effect.get("short", effect["label"]) if not n else effect["label"].split(":")[0]
            items.append(f"{esc(what[:1].upper() + what[1:])}, against {esc(none)} on the same people: "
                         + " · ".join(effects))
    for _, r in df[df["kind"] == "claim"].iterrows():
        same, low, high = hp.claim_true_effect(r)
        words, css = claim_verdict(r["mean"], low, high)
        basis = claim_basis_words(r)
        also = f" ({fmt(r['true_effect'], r['unit'])} per person-day to the horizon)" if basis else ""
        items.append(f"{esc(r['arm'])} claims {esc(label(r['kpi']).lower())} <b>{fmt(r['mean'], r['unit'])}</b>, "
                     f"true effect <b>{fmt(same, r['unit'])}</b>{' ' + esc(basis) if basis else ''}{also}"
                     f": <span class=\"{css}\">{words}</span>")
    return f'<p class="headline products">{"<br>".join(items)}</p>' if items else ""


def section(anchor: str, title: str, intro: str, charts: list[str], table: str = "", lead: str = "") -> str:
    """A titled section: what it leads with (e.g. the products' claims), its charts — each with the note the arm
    selector shows in its place when the chosen arm has nothing in it —, then its table (folded under "the numbers"
    when there are charts)."""
    divs = "".join(f'<div class="chart" data-chart="{c}" id="chart-{c}"></div>'
                   f'<p class="note chart-note" data-chart-note="{c}" hidden></p>' for c in charts)
    if table and charts:
        table = f"<details open><summary>The numbers</summary>{table}</details>"
    return f'<section id="{anchor}"><h2>{esc(title)}</h2><p class=intro>{intro}</p>{lead}{divs}{table}</section>'



def facts_table(facts: list[tuple[str, str]]) -> str:
    return ('<table id="run-table" class="facts">'
            + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts) + "</table>")


def render(*, title: str, name: str, product: str, headline_html: str, sections: list[tuple[str, str, str]],
           figures: dict, plotly_js: str, selector: str = "") -> str:
    """The page as text: `sections` are (anchor, link text or "" for no link, section HTML) in page order,
    `figures` the Plotly figures by chart name (drawn into the chart-NAME containers)."""
    nav = "".join(f'<a href="#{anchor}">{esc(link)}</a>' for anchor, link, _ in sections if link)
    data = chart_data(figures)
    return PAGE_TEMPLATE.format(
        generator=GENERATOR_MARK, title=esc(title), name=esc(name), product=esc(product), headline=headline_html,
        selector=selector, nav=nav, body="".join(html_ for _, _, html_ in sections),
        written=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), css=CSS,
        plotly=plotly_js.replace("</script", "<\\/script"),
        data=json.dumps(data, separators=(",", ":")).replace("</", "<\\/"), script=SCRIPT)


def chart_data(figures: dict) -> dict:
    """The page's chart data: {"templates": [...], "charts": [{"id", "figure", "template"}]}. Each distinct layout
    template (Plotly's plotly_white, ~7 KB of JSON) is written once and a chart names it by its index, rather than
    every figure carrying its own copy."""
    templates: list = []
    charts = []
    for name, fig in figures.items():
        figure = json.loads(fig.to_json())
        chart = {"id": f"chart-{name}", "figure": figure}
        template = (figure.get("layout") or {}).pop("template", None)
        if template is not None:
            if template not in templates:
                templates.append(template)
            chart["template"] = templates.index(template)
        charts.append(chart)
    return {"templates": templates, "charts": charts}


def run_table(t: dict) -> str:
    """What was run, from manifest.json (`t["manifest"]`, empty without one) and kpis.csv."""
    return facts_table(run_facts(t, t.get("manifest") or {}))


def build_page(t: dict, manifest: dict, plotly_js: str) -> str:
    """The whole page of a run as text: the specification's sections in its order. A section is there when the run
    holds its first file (manifest.json: always) and it has something to show — a chart drawn (by the
    habitat_charts function of the chart's name) or a table (by this module's `<section>_table`, None when the file
    has nothing for it)."""
    t = dict(t, manifest=manifest)
    figures = {}
    for name, draw in hc.CHARTS:
        fig = draw(t)
        if fig is not None:
            figures[name] = fig
    sections: list[tuple[str, str, str]] = []
    for described in spec.sections():
        first = described["files"][0]
        if first in spec.by_name() and spec.key_of(first) not in t:
            continue
        charts = [c for c in described.get("charts", []) if c in figures]
        table = section_table(t, described)
        if not charts and not table:
            continue
        lead = globals().get(f"{spec.function_name(described['id'])}_lead", lambda _: None)(t)
        sections.append((described["id"], described["link"],
                         section(described["id"], described["title"], described["intro"], charts, table or "",
                                 lead or "")))
    arms = hc.arms_of(t)
    selector = ""
    if len(arms) > 1:
        options = "".join(f'<option value="{esc(a)}">{esc(a)}</option>' for a in arms)
        selector = (f'<label class="arms">Arm: <select id="arm-select"><option value="">all arms</option>'
                    f'{options}</select></label>')
    name = manifest.get("scenario_name") or str(t["kpis"]["scenario"].iloc[0])
    return render(title=f"{name} — Habitat report", name=name, product=hp.product(t) or "several products",
                  headline_html=headline(t), sections=sections, figures=figures, plotly_js=plotly_js,
                  selector=selector)


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:18px 32px 14px}
header h1{margin:0 0 4px;font-size:24px} header .sub{color:#c5cad6;font-size:14px}
nav{position:sticky;top:0;z-index:10;background:#fff;border-bottom:1px solid #dde1e8;padding:8px 32px;
display:flex;gap:16px;align-items:center;flex-wrap:wrap;font-size:14px}
nav a{color:#1f5fbf;text-decoration:none} nav .arms{margin-left:auto}
main{max-width:1240px;margin:0 auto;padding:8px 32px 40px}
section{background:#fff;border:1px solid #e2e5ea;border-radius:8px;padding:8px 20px 16px;margin:18px 0}
h2{font-size:19px;margin:12px 0 4px} .intro,.note{color:#515a6b;font-size:14px;margin:4px 0 10px}
.headline{font-size:16px;background:#eef3fb;border-left:4px solid #1f5fbf;padding:10px 14px;margin:16px 0 0}
table.data,table.facts{border-collapse:collapse;font-size:13px;width:100%;margin:8px 0}
table.data th,table.data td{border-bottom:1px solid #e6e8ec;padding:4px 8px;text-align:left;vertical-align:top}
table.data thead th{background:#f0f2f5;position:sticky;top:38px}
table.data tbody tr:nth-child(even){background:#fafbfc} .num{text-align:right!important;white-space:nowrap}
table.facts{width:auto} table.facts th{text-align:left;padding:3px 16px 3px 0;color:#515a6b;font-weight:500}
table.facts td{padding:3px 0;font-family:ui-monospace,Menlo,monospace;font-size:12.5px}
code{font-size:11px;color:#6a7283} small{color:#7a8294}
.met{color:#1a7f37;font-weight:600} .missed{color:#c62828;font-weight:600} .none{color:#7a8294}
.chart{width:100%;min-height:120px;margin:6px 0} details summary{cursor:pointer;color:#1f5fbf;font-size:14px}
.outcome{white-space:nowrap}
.claims{background:#fff8e6;border-left:4px solid #d9a400;padding:4px 14px 8px;margin:8px 0 12px}
.claims h3{margin:8px 0 2px} h3{font-size:15px;margin:14px 0 2px}
.chart-note{font-style:italic} .arm{white-space:nowrap}
table.data th.num{white-space:normal}
footer{color:#7a8294;font-size:12px;text-align:center;padding:0 0 24px}
.robust{overflow-wrap:anywhere}
"""

SCRIPT = """
(function () {
  var payload = JSON.parse(document.getElementById('habitat-charts').textContent);
  var charts = payload.charts, byId = {};
  var config = {displaylogo: false, responsive: true, modeBarButtonsToRemove: ['sendDataToCloud']};
  // Charts are drawn lazily: those in (or near) the window when the page opens at once, the others when they are
  // scrolled near (IntersectionObserver); all at once where that is missing, and before printing. A chart waiting
  // to be drawn carries data-lazy, a drawn one data-drawn (what browser_check.py waits for as it scrolls).
  function draw(c) {
    if (!c.drawn) {
      var div = document.getElementById(c.id), layout = c.figure.layout || {};
      if (c.template !== undefined) layout.template = payload.templates[c.template];
      c.drawn = Plotly.newPlot(div, c.figure.data, layout, config).then(function () {
        div.style.minHeight = '';
        div.dataset.drawn = 'true';
        delete div.dataset.lazy;
      });
    }
    return c.drawn;
  }
  // The arms a trace belongs to (meta.arm, or meta.arms for an arm's difference from its control); null: all.
  function armsOf(trace) {
    if (!trace.meta) return null;
    if (trace.meta.arms) return trace.meta.arms.map(String);
    return trace.meta.arm !== undefined ? [String(trace.meta.arm)] : null;
  }
  // The arms a chart draws (for the note that stands in for it when the chosen arm has nothing in it).
  function armsIn(traces) {
    var seen = [];
    traces.forEach(function (t) {
      (armsOf(t) || []).forEach(function (a) { if (seen.indexOf(a) < 0) seen.push(a); });
    });
    return seen;
  }
  function showArm(arm) {
    charts.forEach(function (c) {
      var div = document.getElementById(c.id);
      var traces = div.data || c.figure.data;   // a chart not drawn yet gets the choice when it is drawn
      var visible = traces.map(function (t) { var a = armsOf(t); return a === null || arm === '' || a.indexOf(arm) >= 0; });
      var note = document.querySelector('[data-chart-note="' + div.dataset.chart + '"]');
      var empty = visible.indexOf(true) < 0;
      if (div.data) Plotly.restyle(div, {visible: visible});
      else traces.forEach(function (t, i) { t.visible = visible[i]; });
      // A chart with nothing of the chosen arm (a product's own report, an arm without an app) is hidden and a
      // note says so, rather than shown as empty axes.
      div.hidden = empty;
      if (note) {
        note.hidden = !empty;
        note.textContent = empty ? 'Arm ' + arm + ' has nothing in this chart; it draws ' + armsIn(traces).join(', ')
                                   + '. Choose "all arms" or one of those to see it.' : '';
      }
      if (!empty && div.data) Plotly.Plots.resize(div);
    });
    document.querySelectorAll('tr[data-arm], tr[data-arms]').forEach(function (row) {
      var arms = row.dataset.arms ? row.dataset.arms.split(' ') : [row.dataset.arm];
      row.style.display = (arm === '' || arms.indexOf(arm) >= 0) ? '' : 'none';
    });
  }
  var select = document.getElementById('arm-select');
  if (select) select.addEventListener('change', function () { showArm(select.value); });
  // The observer's first report on each chart says whether it is in or near the window as the page opens (it is
  // made once the page is laid out): those are drawn at once and the page is "rendered" when they are; the rest
  // wait, marked data-lazy, until scrolled near.
  var margin = 300, first = [], seen = 0, rendered = function () { document.body.dataset.rendered = 'true'; };
  charts.forEach(function (c) {
    byId[c.id] = c;
    var div = document.getElementById(c.id);
    div.style.minHeight = ((c.figure.layout || {}).height || 450) + 'px';   // its room, so the page does not jump
  });
  if ('IntersectionObserver' in window && charts.length) {
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        var c = byId[e.target.id], opening = !c.seen;
        if (opening) { c.seen = true; seen += 1; }
        if (e.isIntersecting) {
          observer.unobserve(e.target);
          var drawing = draw(c);
          if (opening) first.push(drawing);
        } else if (opening) {
          e.target.dataset.lazy = 'true';
        }
      });
      if (seen === charts.length && !document.body.dataset.rendered) Promise.all(first).then(rendered);
    }, {rootMargin: margin + 'px 0px'});
    charts.forEach(function (c) { observer.observe(document.getElementById(c.id)); });
  } else {
    Promise.all(charts.map(draw)).then(rendered);
  }
  window.addEventListener('beforeprint', function () { charts.forEach(draw); });
})();
"""

PAGE_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
{generator}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head><body>
<header><h1>{name}</h1><div class="sub">Habitat report · {product} · page written {written}</div></header>
<nav>{nav}{selector}</nav>
<main>
{headline}
<noscript><p class="note">JavaScript is off: the charts are not drawn, but every table below carries the figures.</p></noscript>
{body}
</main>
<footer>Written by Habitat's report page (Notebooks/report_page.py) from this folder's CSVs; charts by Plotly, inlined — no network needed.</footer>
<script>{plotly}</script>
<script type="application/json" id="habitat-charts">{data}</script>
<script>{script}</script>
</body></html>
"""


# --- Writing --------------------------------------------------------------------------------------------------


def plotly_bundle() -> str:
    from plotly.offline import get_plotlyjs
    return get_plotlyjs()


def write_text_safely(path: Path, text: str) -> None:
    """Writes `path` atomically, with the mode Habitat's CSVs get (`report_spec.report_file_mode`); refuses to
    replace a file this script did not write, a link or a folder."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise PageInputError(path, "exists and is not a regular file", "Habitat will not replace it")
    if path.exists():
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                head = f.read(4096)
        except OSError as e:
            raise PageInputError(path, "exists and cannot be read", f"{e.strerror or e}; Habitat replaces only a page "
                                 "it wrote, and cannot tell") from e
        if GENERATOR_MARK not in head:
            raise PageInputError(path, "exists and was not written by Habitat's report page", "move it away first")
    # Written beside the page under a short hidden name, then renamed over it: never a partial page; the temporary
    # file is removed on any error (a read-only or full disk, an interruption).
    try:
        fd, tmp = tempfile.mkstemp(prefix=".report-page.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise PageInputError(path, "cannot be written", f"{e.strerror or e} (in {spec.shown(str(path.parent), 120)})") from e
    try:
        spec.set_report_mode(tmp, fd)   # mkstemp makes it 0600: give it the CSVs' mode (0644 under umask 022)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise PageInputError(path, "cannot be written", f"{e.strerror or e}; nothing was written") from e
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# Files every run writes rows in (a row per KPI, a row per world-check figure): the page reads their first row.
ROWS_REQUIRED = ("kpis", "worldcheck")


def write_run_page(run_dir: Path, plotly_js: str | None = None) -> Path:
    """Writes RUN_DIR/report.html from the run's CSVs and manifest; returns its path."""
    if os.path.lexists(run_dir) and not run_dir.is_dir():
        raise PageInputError(run_dir, "not a folder", "give a run folder (habitat run --out) or a comparison CSV "
                             "(habitat compare --out, check --out)")
    manifest = read_manifest(run_dir) if run_dir.is_dir() else {}
    try:
        tables = hp.load_run(run_dir, strict=True)
    except FileNotFoundError as e:
        words = str(e)
        raise PageInputError(run_dir, words.removeprefix(f"{run_dir}: ")) from e
    for key in ROWS_REQUIRED:
        if key in tables and tables[key].empty:
            raise PageInputError(run_dir / hp.REPORTS[key], "no rows, only the header",
                                 "every run writes a row per KPI and per world-check figure")
    tables["kpis_text"] = pd.read_csv(run_dir / hp.REPORTS["kpis"], dtype=str, keep_default_na=False)
    page = build_page(tables, manifest, plotly_js or plotly_bundle())
    path = run_dir / PAGE_NAME
    write_text_safely(path, page)
    return path


def output_columns(output_id: str) -> list[dict]:
    """The columns (name, unit) of a command's one-file output (`comparison`, `check`): another file's, then its own."""
    o = spec.output(output_id)
    entry = spec.by_name()[o["columns_of"]]
    keys = spec.spec()["key_columns"] if entry.get("keys", True) else []
    return keys + entry["columns"] + o["extra_columns"]


def read_comparison(csv: Path) -> pd.DataFrame:
    """A `habitat compare --out` or `habitat check --out` CSV, read strictly (`habitat_data.read_checked`: UTF-8,
    well-formed, the columns of the specification's output, numbers where numbers go, at least one row)."""
    header = spec.check_csv_text(csv, spec.read_text(csv))
    checked = all(c["name"] in header for c in spec.output("check")["extra_columns"])
    try:
        df = hp.read_checked(csv, columns=output_columns("check" if checked else "comparison"),
                             rows_required="Habitat writes a row per KPI compared")
    except PageInputError as e:
        if e.what.startswith("missing column"):
            raise PageInputError(csv, e.what, "not a habitat compare CSV (nor a habitat check --out CSV)") from e
        raise
    return df.astype({c: str for c in ("replication", "arm", "control_arm") if c in df.columns})


def write_comparison_page(csv: Path, plotly_js: str | None = None) -> Path:
    """Writes NAME.html beside a `habitat compare` CSV (experiment.csv's columns): the forest plot and its table."""
    df = read_comparison(csv)
    checked = is_check(df)
    fig = hc.experiment({"comparison": df}, source="comparison", title=(
        "Now against the baseline: each KPI's difference relative to the baseline's mean, paired beside unpaired "
        "(95 %)" if checked else None))
    arm, control = str(df["arm"].iloc[0]), str(df["control_arm"].iloc[0])
    paired = "yes: the same people" if df["pairs"].fillna(0).astype(float).max() > 0 else "no"
    if checked:  # habitat check --out: the re-run against its baseline
        beyond = df[df["beyond_tolerance"].astype(str).str.lower() == "true"]
        mode = str(df["check"].iloc[0])
        title = f"Regression check ({mode}): {df['scenario'].iloc[0]}"
        facts = [("checked", f"{df['scenario'].iloc[0]} now against its baseline ({mode})"), ("KPI comparisons", str(len(df))),
                 ("beyond tolerance", str(len(beyond))), ("paired", paired), ("file", csv.name)]
        headline_html = (f'<p class="headline"><b>{"FAIL" if len(beyond) else "PASS"}</b> ({mode}): <b>{len(beyond)} of '
                         f'{len(df)}</b> KPI comparisons beyond tolerance</p>')
        intro = ("Each KPI's difference now − baseline, relative to the baseline's mean: the paired interval beside the "
                 "unpaired one; the table adds the tolerance and the verdict.")
    else:
        title = f"Comparison: {arm} vs {control}"
        facts = [("compared", f"{arm} (B) against {control} (A)"), ("KPIs", str(len(df))), ("paired", paired),
                 ("file", csv.name)]
        headline_html = ""
        intro = ("Each KPI's difference B − A, relative to A's mean: the paired interval beside the unpaired one.")
    sections = [("run", "", section("run", "What was compared", "From the comparison's CSV.", [], facts_table(facts))),
                ("arms", "", section("arms", "Differences", intro, ["comparison"] if fig is not None else [],
                                     comparison_table(df)))]
    page = render(title=f"{csv.stem} — Habitat", name=title, product="comparison", headline_html=headline_html,
                  sections=sections, figures={"comparison": fig} if fig is not None else {},
                  plotly_js=plotly_js or plotly_bundle())
    path = csv.with_suffix(".html")
    write_text_safely(path, page)
    return path


def maybe_number(value) -> str:
    """A number as the page shows it, or a dash where there is none (an output undefined at every point)."""
    return '<span class="none">—</span>' if is_missing(value) else number(float(value))


def sensitivity_parameters_table(df: pd.DataFrame) -> str:
    """The parameters a sensitivity analysis varied: each one's range and where the range comes from."""
    params = df.drop_duplicates("parameter")
    rows = [(None, [f"<code>{esc(r['parameter'])}</code>", maybe_number(r["low"]), maybe_number(r["high"]), esc(r["range_source"])])
            for _, r in params.iterrows()]
    return simple_table(["parameter", "low", "high", "range from"], rows, "parameters-table", numeric_from=1,
                        numeric_until=3)


def sensitivity_table(df: pd.DataFrame) -> str:
    """Per output (the tornado chart's order), the three parameters that matter most with their importance and
    95 % interval, and the output's mean and spread over the design."""
    rows = []
    for o in hp.sensitivity_outputs(df):
        summary = hp.tornado_summary(df, o, top=3)
        if summary is None:
            continue
        morris = summary["method"].iloc[0] == "morris"
        first = df[(df["kpi"].astype(str) == o["kpi"]) & (df["quantity"].astype(str) == o["quantity"])
                   & (df["arm"].astype(str) == o["arm"])].iloc[0]
        cells = [esc(hp.output_label(o)), f"{maybe_number(first['output_mean'])} ± {maybe_number(first['output_sd'])}"]
        for _, r in summary.iterrows():
            sign = ("+" if r["direction"] > 0 else "−" if r["direction"] < 0 else "") if morris else ""
            what = "μ*" if morris else "ST"
            cells.append(f"<code>{esc(hp.short_parameter(r['parameter']))}</code> {what} {maybe_number(r['value'])} {sign}"
                         f"<br><small>{maybe_number(r['low'])} to {maybe_number(r['high'])}</small>")
        cells += [""] * (5 - len(cells))
        rows.append((None, cells))
    return simple_table(["output", "mean ± sd over the design", "most important", "second", "third"], rows,
                        "sensitivity-table", numeric_from=1, numeric_until=2)


def write_sensitivity_page(folder: Path, plotly_js: str | None = None) -> Path:
    """Writes FOLDER/report.html for a `habitat sensitivity` folder (issue 45): what was varied, the tornado chart
    (a menu chooses the output: the paired differences first, then the world check's retention and revenue
    figures), and per output the parameters that matter most."""
    manifest = read_manifest(folder)
    try:
        df = hp.load_sensitivity(folder)
    except FileNotFoundError as e:
        raise PageInputError(folder, str(e).removeprefix(f"{folder}: ")) from e
    fig = hc.tornado({"sensitivity": df})
    method = str(df["method"].iloc[0])
    name = manifest.get("scenario_name") or str(df["scenario"].iloc[0])
    outputs = hp.sensitivity_outputs(df)
    facts = [("scenario", name), ("method", "Morris screening" if method == "morris" else "Sobol indices (Saltelli's design)"),
             ("design points", str(int(df["points"].max()))), ("parameters", str(df["parameter"].nunique())),
             ("outputs", str(len(outputs))), ("people, replications", f"{manifest.get('people', '—')}, "
                                                                       f"{manifest.get('replications', '—')}"),
             ("build", str(manifest.get("git_commit", "—")))]
    what = ("μ* is the mean absolute change of the output per parameter step across its range (Morris's elementary "
            "effects); its colour is μ's sign — the direction the parameter moves the output" if method == "morris" else
            "the total index is the share of the output's variance the parameter accounts for with its interactions "
            "(the first-order index: alone)")
    sections = [
        ("run", "run", section("run", "What was varied", "The analysis and each parameter's range (sensitivity.csv, "
                               "manifest.json).", [], facts_table(facts) + sensitivity_parameters_table(df))),
        ("tornado", "tornado", section("tornado", "What moves each output",
                                       f"For each output, the parameters that matter most, largest first, with their "
                                       f"95 % bootstrap intervals: {what}. Choose the output in the menu; the paired "
                                       "differences (does the experiment's conclusion move?) come first.",
                                       ["tornado"] if fig is not None else [])),
        ("outputs", "outputs", section("outputs", "Every output's most important parameters",
                                       "The three parameters ranked first for each output (sensitivity.csv's rank).",
                                       [], sensitivity_table(df))),
    ]
    page = render(title=f"{name} — Habitat sensitivity", name=f"{name}: sensitivity", product="sensitivity",
                  headline_html="", sections=sections, figures={"tornado": fig} if fig is not None else {},
                  plotly_js=plotly_js or plotly_bundle())
    path = folder / PAGE_NAME
    write_text_safely(path, page)
    return path


def write_page(target: Path, plotly_js: str | None = None) -> Path:
    """A run folder → report.html inside it; a `habitat sensitivity` folder → its page (issue 45); a comparison
    CSV → the same name with .html."""
    if target.suffix == ".csv" and not target.is_dir():   # a FIFO or a dangling link of that name is refused there
        return write_comparison_page(target, plotly_js)
    if target.is_dir() and hp.is_sensitivity_folder(target):
        return write_sensitivity_page(target, plotly_js)
    return write_run_page(target, plotly_js)


def one_line(text: str) -> str:
    """A message on one line: line breaks and other control characters shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def write_pages(targets: list, plotly_js: str | None = None) -> int:
    """Writes each target's page (see `write_page`), printing its path, size and time; a refused target is said on
    stderr in one line (`report_page: FILE: WHAT — WHY`). Returns 0, 2 when any was refused (an input not as Habitat
    writes it, a destination that cannot be written), 1 when a page failed for another reason (said in one line;
    REPORT_PAGE_DEBUG=1 shows the traceback)."""
    bundle = plotly_js or plotly_bundle()
    status = 0
    for target in targets:
        started = time.perf_counter()
        try:
            path = write_page(Path(target), bundle)
        except PageInputError as e:
            print(f"report_page: {one_line(str(e))}", file=sys.stderr)
            status = max(status, 2)
            continue
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:   # an input the checks above let through, or a bug: one line, not a traceback
            if os.environ.get("REPORT_PAGE_DEBUG"):
                raise
            print(f"report_page: {one_line(str(target))}: no page written — {type(e).__name__}: "
                  f"{one_line(str(e))[:200]} (an input report_page.py does not check, or a bug; "
                  "REPORT_PAGE_DEBUG=1 shows where)", file=sys.stderr)
            status = max(status, 1)
            continue
        print(f"  wrote {path} ({path.stat().st_size / 1e6:.1f} MB in {time.perf_counter() - started:.2f} s)")
    return status


def main(argv: list[str] | None = None) -> int:
    """The command line (ARGV without the program's name; sys.argv's when None): returns the exit status, as
    `write_pages` (2 for a usage error, raised by argparse as SystemExit). `RedTeam/lib/pagewriter_batch.py` calls it
    in-process for each red-team case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="+", help="run folders (habitat run / check --record) or compare CSVs")
    return write_pages(parser.parse_args(argv).targets)


if __name__ == "__main__":
    sys.exit(main())
