#!/usr/bin/env python3
"""`make speed-gate`: what one simulated person-day costs each product, in instructions, against the committed figures.

    python3 Benchmarks/speed_gate.py HABITAT                              # the gate (part of `make test`)
    python3 Benchmarks/speed_gate.py HABITAT --record --reason "why"      # write the measured figures
    python3 Benchmarks/speed_gate.py HABITAT --symbols-only               # the specialisation check alone (a second)
    python3 Benchmarks/speed_gate.py HABITAT --jobs 1                     # one product at a time (default: 2 at once)

HABITAT is an unstripped release build (`swift build -c release --product habitat`). For every product the binary
lists with an engine (`habitat list --format csv`):

1. The specialisation check: the binary must hold the compiler's specialised copy, for the product's adapter, of the
   life's event loop (`PersonLife.run()`) and of the run's hot path (`SimulationRun.livePeople`, the body of the
   `LifeKernel` the registry makes for each product). Without them a run goes through generic code, with metadata
   look-ups and witness calls per event (6.6× the wall time in the review of issue 26; 2.55× the instructions per
   person-day when Earned Access's specialisation was taken out). Matched on the adapter's type name
   (`ScrollOffAdapter<ScrollOffEngine>`), not on its module.
2. The instruction count: `habitat bench run --product P --people 300 --days 56 --threads 1` under callgrind, on a
   copy without debug information (`strip --strip-debug`: valgrind 3.19 cannot read Swift 6.3's; the symbols stay,
   so the profiles kept in .build/speed-gate/ name the functions), with a fixed environment
   (SWIFT_DETERMINISTIC_HASHING=1: Swift seeds its hashing per process otherwise, which moves the count by up to
   about 1e-4). Total instructions (callgrind's `summary:`, start-up included, 3–4 %) ÷ the run's person-days.

The gate fails (exit 1) when a product costs more than 5 % more than Benchmarks/instructions.csv says, when a
product has no row there or one taken at another size, or when a specialisation is missing; it warns when a product
got more than 5 % cheaper. `--record --reason TEXT` writes the measured figures of those products (every product
with `--all`) with the reason, the build and the date; commit the file with the change that moved them.
"""
from __future__ import annotations

import argparse
import csv
import datetime
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIGURES = REPO / "Benchmarks" / "instructions.csv"
PROFILES = REPO / ".build" / "speed-gate"
PEOPLE, DAYS = 300, 56
TOLERANCE = 0.05
COLUMNS = ["product", "people", "days", "person_days", "events", "instructions", "instructions_per_person_day",
           "build", "toolchain", "recorded", "reason"]
# The functions that must exist specialised for every product's adapter: the life's event loop and the run's hot
# path, which the registry's `RegisteredProduct(Adapter.self)` specialises through `LifeKernel`
# (docs/ARCHITECTURE.md, "Speed across modules"). Each is matched as the end of the demangled function's qualified
# name (modules and enclosing types may vary).
SPECIALISED = [
    ("PersonLife.run()", "PersonLife.run()", "the life's event loop"),
    ("SimulationRun.livePeople(", "SimulationRun.livePeople(…)", "a run's hot path, made by the registry's LifeKernel"),
]
# The environment of the measured runs: nothing from the caller's (its size and contents move the count a little).
RUN_ENV = {"PATH": "/usr/bin:/bin", "SWIFT_DETERMINISTIC_HASHING": "1", "LC_ALL": "C"}


class GateError(Exception):
    """A problem that stops the gate before it can judge (missing tool, unreadable binary)."""


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, **kw)
    except FileNotFoundError as e:
        raise GateError(f"cannot run {cmd[0]}: {e.strerror} (make setup-test installs valgrind and binutils: strip, nm)")
    except subprocess.TimeoutExpired:
        raise GateError(f"`{' '.join(cmd)}` did not finish in {kw.get('timeout')} s")


def require_tools() -> list[str]:
    """The tools the gate needs; returns the demangler's command."""
    missing = [t for t in ("valgrind", "strip", "nm") if shutil.which(t) is None]
    if missing:
        raise GateError(f"missing {', '.join(missing)} — `make setup-test` installs valgrind and binutils (strip, nm)")
    if shutil.which("swift-demangle"):
        return ["swift-demangle"]
    if shutil.which("swift"):
        return ["swift", "demangle"]
    raise GateError("neither swift-demangle nor swift is on PATH (the Swift toolchain ships them)")


def products(habitat: str) -> list[dict[str, str]]:
    """The products with an engine, as `habitat list --format csv` names them."""
    r = run([habitat, "list", "--format", "csv"])
    if r.returncode != 0:
        raise GateError(f"`{habitat} list --format csv` failed (exit {r.returncode}): {r.stderr.strip()}")
    rows = [row for row in csv.DictReader(io.StringIO(r.stdout)) if row["engine"] == "true"]
    if not rows:
        raise GateError(f"`{habitat} list --format csv` lists no product with an engine")
    return rows


def type_name(s: str) -> str:
    """A type's name without modules or enclosing types: `Simulation.ScrollOffAdapter<ScrollOffRules.ScrollOffEngine>`
    → `ScrollOffAdapter<ScrollOffEngine>`."""
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", s).replace(" ", "")


def specialisations(habitat: str, demangle: list[str]) -> list[tuple[str, str]]:
    """Every `generic specialization <T> of F` in the binary's symbol table: (T without modules, F as demangled)."""
    nm = run(["nm", "--defined-only", habitat])
    if nm.returncode != 0 or not nm.stdout.strip():
        raise GateError(f"nm found no symbols in {habitat} ({nm.stderr.strip() or 'stripped?'}): the check needs the unstripped build")
    names = "\n".join(line.split(" ", 2)[-1] for line in nm.stdout.splitlines())
    dm = run(demangle, input=names)
    if dm.returncode != 0:
        raise GateError(f"{' '.join(demangle)} failed: {dm.stderr.strip()}")
    found = []
    marker = "generic specialization <"
    for line in dm.stdout.splitlines():
        start = 0
        while (i := line.find(marker, start)) >= 0:
            j, depth = i + len(marker), 1
            while j < len(line) and depth:
                depth += {"<": 1, ">": -1}.get(line[j], 0)
                j += 1
            args, rest = line[i + len(marker):j - 1], line[j:]
            if rest.startswith(" of "):
                found.append((type_name(args), rest[4:]))
            start = j
    return found


def check_specialisations(habitat: str, demangle: list[str], rows: list[dict[str, str]]) -> list[str]:
    """One message per product × function whose specialised copy is missing."""
    found = specialisations(habitat, demangle)
    failures = []
    for row in rows:
        adapter = type_name(row["adapter"])
        if not adapter:
            failures.append(f"{row['product']}: `habitat list --format csv` names no adapter type")
            continue
        missing = []
        for function, shown, role in SPECIALISED:
            # The function itself, or — when the optimiser inlined it into its caller — a closure in it (the
            # per-person body of `livePeople` is its closure #3).
            pattern = re.compile(r"(?:^|^closure #\d+ .* in )(?:[A-Za-z_]\w*\.)*" + re.escape(function))
            if not any(t == adapter and pattern.match(f) for t, f in found):
                missing.append(shown)
                failures.append(f"{row['product']}: no specialisation of {shown} for {adapter} ({role})")
        if not missing:
            print(f"speed-gate: {row['product']}: specialised for {adapter}: " + ", ".join(shown for _, shown, _ in SPECIALISED))
    return failures


def callgrind_summary(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise GateError(f"no summary line in {path}")


def measure(stripped: Path, work: Path, product: str, profiles: Path) -> dict[str, object]:
    """One product under callgrind, run in `work`, its profile written to `profiles`: instructions, person-days,
    events, wall seconds."""
    out = profiles / f"callgrind.{product}.out"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(stripped), "bench", "run", "--product", product,
           "--people", str(PEOPLE), "--days", str(DAYS), "--threads", "1", "--progress", "never"]
    env = dict(RUN_ENV)
    if "VALGRIND_LIB" in os.environ:
        env["VALGRIND_LIB"] = os.environ["VALGRIND_LIB"]
    start = time.monotonic()
    r = run(cmd, cwd=work, env=env, timeout=900)
    wall = time.monotonic() - start
    if r.returncode != 0:
        raise GateError(f"{product}: `{' '.join(cmd)}` failed (exit {r.returncode}):\n{r.stderr[-3000:]}")
    line = next((l for l in r.stdout.splitlines() if l.startswith("workload=run")), None)
    if line is None:
        raise GateError(f"{product}: bench run printed no figures:\n{r.stdout}")
    fields = dict(kv.split("=", 1) for kv in line.split())
    person_days = int(fields["person_days"])
    if person_days <= 0:
        raise GateError(f"{product}: the run simulated no person-day")
    instructions = callgrind_summary(out)
    return {"product": product, "people": PEOPLE, "days": DAYS, "person_days": person_days, "events": int(fields["events"]),
            "instructions": instructions, "per_day": instructions / person_days, "wall": wall}


def read_figures(path: Path) -> dict[str, dict[str, str]]:
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        return {row["product"]: row for row in csv.DictReader(f)}


def committed_per_day(row: dict[str, str]) -> float:
    return int(row["instructions"]) / int(row["person_days"])


def toolchain() -> str:
    r = subprocess.run(["swift", "--version"], capture_output=True, text=True) if shutil.which("swift") else None
    m = re.search(r"\((swift-[^)]*)\)", r.stdout + r.stderr) if r else None
    return m.group(1) if m else ""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("habitat", help="an unstripped release build of habitat")
    p.add_argument("--figures", type=Path, default=FIGURES, help="the committed figures (default: %(default)s)")
    p.add_argument("--product", action="append", help="measure only this product (repeatable; default: every product with an engine)")
    p.add_argument("--record", action="store_true", help="write the measured figures of the products that moved beyond 5 %%, "
                   "have no row, or were taken at another size (needs --reason)")
    p.add_argument("--all", action="store_true", help="with --record: write every measured product's figures")
    p.add_argument("--reason", help="with --record: why the cost changed (written beside the figures)")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="products measured at once (default: %(default)s, the cores up to 2; counts do not depend on it)")
    p.add_argument("--symbols-only", action="store_true", help="only the specialisation check (no valgrind)")
    p.add_argument("--profiles", type=Path, default=PROFILES, help="where the callgrind profiles are kept, "
                   "callgrind.PRODUCT.out (default: %(default)s)")
    a = p.parse_args(argv)
    if a.record and not (a.reason and a.reason.strip()):
        p.error("--record needs --reason \"why the cost changed\" (it is written beside the figures)")
    if a.reason and "\n" in a.reason:
        p.error("--reason must be one line")
    habitat = str(Path(a.habitat).resolve())

    try:
        demangle = require_tools()
        rows = products(habitat)
        if a.product:
            unknown = set(a.product) - {r["product"] for r in rows}
            if unknown:
                raise GateError(f"no product with an engine named {', '.join(sorted(unknown))}")
            rows = [r for r in rows if r["product"] in a.product]
        failures = check_specialisations(habitat, demangle, rows)
        if failures:
            print("speed-gate: FAIL — a registered product's run is not specialised (the generic code is several times slower):", file=sys.stderr)
            for f in failures:
                print(f"  {f}", file=sys.stderr)
            print("Each product is registered with its concrete adapter type (`RegisteredProduct(MyAdapter.self)` in "
                  "Products.registered), which specialises its run there (docs/ARCHITECTURE.md, \"Speed across modules\").",
                  file=sys.stderr)
            return 1
        if a.symbols_only:
            return 0

        registered = [r["product"] for r in products(habitat)] if a.product else [r["product"] for r in rows]
        committed = read_figures(a.figures)
        build = run([habitat, "--version"]).stdout.strip().split("(")[-1].rstrip(")")
        measured = {}
        with tempfile.TemporaryDirectory(prefix="speed-gate.") as tmp:
            work = Path(tmp)
            stripped = work / "habitat"
            r = run(["strip", "--strip-debug", "-o", str(stripped), habitat])
            if r.returncode != 0:
                raise GateError(f"strip failed: {r.stderr.strip()}")
            a.profiles.mkdir(parents=True, exist_ok=True)
            # The products are measured side by side, `--jobs` at a time (each run is one thread under callgrind, and
            # an instruction count does not depend on what else the machine runs), then reported in the list's order.
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
                futures = [pool.submit(measure, stripped, work, row["product"], a.profiles.resolve()) for row in rows]
                results = [f.result() for f in futures]
            for m in results:
                measured[m["product"]] = m
                print(f"speed-gate: {m['product']}: {m['instructions']:,} instructions / {m['person_days']:,} person-days "
                      f"= {m['per_day']:,.0f} per person-day ({PEOPLE} people × {DAYS} days, {m['wall']:.1f} s under callgrind)")
    except GateError as e:
        print(f"speed-gate: ERROR {e}", file=sys.stderr)
        return 2

    figures_name = "Benchmarks/instructions.csv" if a.figures == FIGURES else str(a.figures)
    record_cmd = f"python3 Benchmarks/speed_gate.py {a.habitat}{'' if a.figures == FIGURES else f' --figures {a.figures}'} " \
        "--record --reason \"why it costs more\""
    profiles_name = ".build/speed-gate" if a.profiles == PROFILES else str(a.profiles)
    failed, to_record = [], []
    for product, m in measured.items():
        row = committed.get(product)
        if row is None:
            failed.append(f"{product}: no committed figure in {figures_name} (a registered product is measured from its first commit)")
            to_record.append(product)
            continue
        if (int(row["people"]), int(row["days"])) != (PEOPLE, DAYS):
            failed.append(f"{product}: the committed figure was taken at {row['people']} people × {row['days']} days, the gate measures "
                          f"{PEOPLE} × {DAYS}")
            to_record.append(product)
            continue
        before = committed_per_day(row)
        ratio = m["per_day"] / before
        where = f"committed {before:,.0f} on {row['recorded']} at {row['build'][:12]} ({row['reason']})"
        people_note = "" if int(row["person_days"]) == m["person_days"] else \
            f"; person-days {int(row['person_days']):,} → {m['person_days']:,}: the simulated people live differently"
        if ratio > 1 + TOLERANCE:
            failed.append(f"{product}: {m['per_day']:,.0f} instructions per person-day, {where}: ×{ratio:.3f}, "
                          f"{(ratio - 1) * 100:.1f} % more expensive (limit {TOLERANCE * 100:.0f} %){people_note}")
            to_record.append(product)
        elif ratio < 1 - TOLERANCE:
            print(f"speed-gate: WARNING {product}: {m['per_day']:,.0f} instructions per person-day, {where}: ×{ratio:.3f}, "
                  f"{(1 - ratio) * 100:.1f} % cheaper{people_note} — record it so the gate holds the gain: "
                  f"{record_cmd.replace('why it costs more', 'why it is cheaper')}")
            to_record.append(product)
        else:
            print(f"speed-gate: ok {product}: ×{ratio:.3f} against the committed {before:,.0f}{people_note}")
    stale = sorted(set(committed) - set(registered))
    for product in stale:
        print(f"speed-gate: WARNING {figures_name} has a row for {product}, which has no engine in this build (--record drops it)")

    if a.record:
        for f in failed:
            print(f"speed-gate: recording {f}")
        chosen = list(measured) if a.all else to_record
        today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        tool = toolchain()
        out = {k: v for k, v in committed.items() if k not in stale}
        for product in chosen:
            m = measured[product]
            out[product] = {"product": product, "people": PEOPLE, "days": DAYS, "person_days": m["person_days"], "events": m["events"],
                            "instructions": m["instructions"], "instructions_per_person_day": round(m["per_day"]),
                            "build": build, "toolchain": tool, "recorded": today, "reason": a.reason.strip()}
        with a.figures.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            for product in sorted(out, key=lambda k: registered.index(k)):
                w.writerow(out[product])
        kept = [k for k in measured if k not in chosen]
        print(f"speed-gate: recorded {', '.join(chosen) or 'nothing'} in {figures_name}"
              + (f"; kept the committed rows of {', '.join(kept)} (within {TOLERANCE * 100:.0f} %; --all records them too)" if kept else "")
              + (f"; dropped {', '.join(stale)}" if stale else "") + " — commit it with the change")
        return 0

    if failed:
        print("speed-gate: FAIL", file=sys.stderr)
        for f in failed:
            print(f"  {f}", file=sys.stderr)
        print("If the new cost is meant, record it in the same commit, saying why:\n"
              f"  {record_cmd}\n  (or: make speed-gate REASON=\"why it costs more\")\n"
              f"A regression nobody meant: this build's profiles are in {profiles_name}/callgrind.PRODUCT.out; compare them with the\n"
              "committed build's (callgrind_annotate FILE | swift demangle --simplified; Benchmarks/README.md, \"The speed gate\").",
              file=sys.stderr)
        return 1
    print(f"speed-gate: every product within {TOLERANCE * 100:.0f} % of {figures_name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
