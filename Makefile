# Habitat — two commands on a fresh machine:
#   make run    set up what the main job needs (GSL, pandas, matplotlib, plotly), build in release, run the main job
#   make test   set up that and what only the tests need (setup-test: Chromium, valgrind, Ray…), run the whole suite
SHELL := /bin/bash
## `--manifest-cache none`: Package.swift finds the products by their folders (Sources/Products/<Name>/, issue 42), and
## SwiftPM's manifest cache would hide a folder added since Package.swift last changed; evaluating it costs about a second.
SWIFT ?= swift
SWIFTPM_FLAGS ?= --manifest-cache none
BIN := .build/release/habitat
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
## HABITAT: the binary the checks run (default: the release build, built first when it is missing).
HABITAT ?= $(BIN)
## HABITAT_DEP: $(BIN) when HABITAT is the release build (a target that builds it only when it is missing).
HABITAT_DEP := $(if $(filter $(BIN),$(HABITAT)),$(BIN))

.PHONY: setup setup-test build run test swift-suite swift-suite-run test-checks test-oracles check-baselines redteam notebook-runs notebooks pages test-distributed plots bench bench-kernel bench-kernel-pairs bench-check speed-gate bench-run bench-scale fuzz-build fuzz-smoke fuzz clean

## setup: what `make run` needs, installed when missing: the GNU Scientific Library (libgsl-dev, pkg-config) and the
## Python packages of the run's PNGs and page (Notebooks/requirements-run.txt: pandas, matplotlib, plotly). Silent when
## everything is there; a failed apt-get or pip stops with a line saying what could not be installed.
setup:
	@$(SETUP_SH); \
	pkg-config --exists gsl 2>/dev/null || apt_install "the GNU Scientific Library" libgsl-dev pkg-config; \
	pkg-config --exists gsl 2>/dev/null || fail "GSL is still missing after apt-get (pkg-config gsl)"; \
	has_py pandas matplotlib plotly || pip_install Notebooks/requirements-run.txt; \
	has_py pandas matplotlib plotly || fail "pandas, matplotlib or plotly is still missing after pip"

## setup-test: what only the tests need, on top of setup, installed when missing: headless Chromium (the pages' browser
## check), valgrind and binutils (the speed gate: callgrind, strip, nm), the notebooks' executor (nbclient, nbformat,
## ipykernel: Notebooks/requirements.txt), Ray and the habitat-ray launcher (Distributed/requirements.txt), the oracles'
## SALib (Tests/Oracles/requirements.txt: test-only, never installed by setup). The fuzzer
## needs nothing more: libFuzzer comes with the Swift toolchain.
setup-test: setup
	@$(SETUP_SH); missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v valgrind >/dev/null 2>&1 || missing="$$missing valgrind"; \
	{ command -v strip && command -v nm; } >/dev/null 2>&1 || missing="$$missing binutils"; \
	[ -z "$$missing" ] || apt_install "the browser check and the speed gate" $$missing; \
	command -v chromium >/dev/null 2>&1 || fail "chromium is still missing after apt-get"; \
	command -v valgrind >/dev/null 2>&1 || fail "valgrind is still missing after apt-get"; \
	{ command -v strip && command -v nm; } >/dev/null 2>&1 || fail "strip or nm (binutils) is still missing after apt-get"; \
	has_py nbclient nbformat ipykernel || pip_install Notebooks/requirements.txt; \
	has_py nbclient nbformat ipykernel || fail "nbclient, nbformat or ipykernel is still missing after pip"; \
	if ! has_py ray habitat_ray; then \
		pip_install Distributed/requirements.txt; \
		echo "setup: installing the habitat-ray launcher (./Distributed) with pip"; \
		$(PYTHON) -m pip install -q --disable-pip-version-check --no-deps -e ./Distributed \
			|| fail "pip could not install ./Distributed (its messages are above)"; \
	fi; \
	has_py ray habitat_ray || fail "ray or habitat_ray is still missing after pip"; \
	has_py SALib || pip_install Tests/Oracles/requirements.txt; \
	has_py SALib || fail "SALib is still missing after pip"

# The shell helpers of setup and setup-test: fail MESSAGE; apt_install WHY PACKAGE...; pip_install REQUIREMENTS;
# has_py MODULE... (true when every module is importable; found, not imported, so the check stays fast).
SETUP_SH := fail() { echo "setup: $$1" >&2; exit 1; }; \
	apt_install() { why="$$1"; shift; \
		command -v apt-get >/dev/null 2>&1 || fail "no apt-get on this machine: install $$* ($$why) with its package manager"; \
		echo "setup: installing $$* ($$why) with apt-get"; \
		{ $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$$@" >/dev/null; } \
			|| fail "apt-get could not install $$* (its messages are above)"; }; \
	pip_install() { echo "setup: installing the Python packages of $$1 with pip"; \
		$(PYTHON) -m pip install -q --disable-pip-version-check -r "$$1" \
			|| fail "pip could not install $$1 (its messages are above; by hand: $(PYTHON) -m pip install -r $$1)"; }; \
	has_py() { $(PYTHON) -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in sys.argv[1:]))' "$$@" 2>/dev/null; }

## $(BIN) alone: the release build when it is missing (what the checks above need on a fresh machine; `make build`
## rebuilds whatever changed).
$(BIN):
	$(MAKE) --no-print-directory build

## build: release build of the habitat command.
build: setup
	$(SWIFT) build $(SWIFTPM_FLAGS) -c release --product habitat

## run: the main job: the default scenario (Scroll Off baseline); reports in Reports/scroll-off-baseline/.
run: build
	$(BIN) run
	python3 Notebooks/plot_run.py Reports/scroll-off-baseline
	@echo "The run's page: $(abspath Reports/scroll-off-baseline/report.html)"
	@echo "(its CSVs beside it: kpis.csv, activation-funnel.csv, retention.csv, ...; figures as PNG in plots/)"

## test: every test. The release binary first: the CLI tests run it (HABITAT_TEST_BINARY), and so does every check.
## Then the Swift suite on the debug build (swift-suite-run: the simulation's modules optimised in it: Package.swift,
## optimisedInDebug), then the checks that need only the release binary, two at a time (make -j2, each one's output
## kept together). Running the suite beside the checks was measured and dropped: on 2 cores it saved nothing (three
## CPU-bound jobs on two cores; Tests/README.md, "How make test runs").
test: setup-test
	$(SWIFT) build $(SWIFTPM_FLAGS) -c release --product habitat
	$(MAKE) --no-print-directory swift-suite-run
	$(MAKE) --no-print-directory -j2 --output-sync=target test-checks HABITAT=$(BIN)

## swift-suite: the debug build with the tests, then the Swift suite with the CLI tests on the release binary
## (swift-suite-run: the same without set-up, which make test has done).
swift-suite: setup-test
	$(MAKE) --no-print-directory swift-suite-run
swift-suite-run:
	$(SWIFT) build $(SWIFTPM_FLAGS) --build-tests
	HABITAT_TEST_BINARY=$(abspath $(BIN)) $(SWIFT) test $(SWIFTPM_FLAGS) --skip-build

## test-checks: the checks of make test after the Swift suite (each needs only the release binary, so none of them
## builds but the fuzzer). Longest first, so that two at a time end together: the pages (about 8 min: the report tools
## against the specification, every small run's page in Chromium), the red team (about 5.5 min), the fuzzer's build
## and smoke run, the notebooks, the speed gate, habitat-ray, the baselines, the kernel trajectories, the SALib oracle.
test-checks: pages redteam fuzz-smoke notebooks speed-gate test-distributed check-baselines bench-check test-oracles

## notebook-runs: ten small real runs for the notebooks and the pages (baseline, an experiment, a forecast, Earned
## Access's baseline, products compared on the same people: Scroll Off, Earned Access, Nudge, Lazuri and none, Nudge's
## baseline, Lazuri's baseline and its user study replicated 200 times, Clavis's baseline and its match policy swept
## over nine arms), a comparison of the
## experiment's arms (habitat compare) and a regression check's comparison (habitat check --out); issue 45: a small
## sensitivity analysis (Morris, 3 trajectories, premium-price-test's two arms, two purchase parameters the price acts
## through and two unpinned ones: about 5 s) and a run with --robustness over 3 worlds of the shipped plausible set,
## both made by habitat_runs (sensitivity_run, robustness_run) so the notebooks and the page tests read the same runs.
NB_RUNS := .build/notebook-runs
notebook-runs: setup $(HABITAT_DEP)
	$(HABITAT) run --people 200 --days 30 --replications 2 --out $(NB_RUNS)/baseline --progress never > /dev/null
	$(HABITAT) run Scenarios/premium-price-test.yaml --people 200 --days 30 --replications 2 --out $(NB_RUNS)/price --progress never > /dev/null
	$(HABITAT) run Scenarios/launch-forecast-12m.yaml --people 200 --days 100 --replications 2 --out $(NB_RUNS)/forecast --progress never > /dev/null
	$(HABITAT) run Scenarios/earned-access-baseline.yaml --people 200 --days 30 --replications 2 --out $(NB_RUNS)/earned-access --progress never > /dev/null
	$(HABITAT) run Scenarios/product-comparison.yaml --people 200 --days 30 --replications 3 --out $(NB_RUNS)/products --progress never > /dev/null
	$(HABITAT) run Scenarios/nudge-baseline.yaml --people 200 --days 30 --replications 2 --out $(NB_RUNS)/nudge --progress never > /dev/null
	$(HABITAT) run Scenarios/lazuri-baseline.yaml --people 200 --days 30 --replications 2 --out $(NB_RUNS)/lazuri --progress never > /dev/null
	$(HABITAT) run Scenarios/lazuri-user-study.yaml --replications 200 --out $(NB_RUNS)/lazuri-study --progress never > /dev/null
	$(HABITAT) run Scenarios/clavis-baseline.yaml --people 200 --days 30 --replications 2 --out $(NB_RUNS)/clavis --progress never > /dev/null
	$(HABITAT) run Scenarios/clavis-threshold-sweep.yaml --people 200 --days 14 --replications 2 --out $(NB_RUNS)/clavis-sweep --progress never > /dev/null
	rm -rf $(NB_RUNS)/sensitivity $(NB_RUNS)/robustness
	HABITAT=$(HABITAT) $(PYTHON) -c 'import sys; sys.path.insert(0, "Notebooks"); import habitat_runs; habitat_runs.sensitivity_run(sys.argv[1]); habitat_runs.robustness_run(sys.argv[1])' $(NB_RUNS)
	$(HABITAT) compare $(NB_RUNS)/price --out $(NB_RUNS)/price-comparison.csv > /dev/null
	$(HABITAT) check --baseline Reports/baselines/premium-price-test --out $(NB_RUNS)/price-check.csv --progress never > /dev/null

## notebooks: execute every notebook against the small real runs.
notebooks: setup-test notebook-runs
	python3 Notebooks/test_habitat_plots.py
	HABITAT_ROBUSTNESS_DIR=$(NB_RUNS)/robustness python3 Notebooks/run_notebooks.py --require-all $(NB_RUNS)/baseline $(NB_RUNS)/price $(NB_RUNS)/forecast $(NB_RUNS)/earned-access $(NB_RUNS)/products $(NB_RUNS)/nudge $(NB_RUNS)/lazuri $(NB_RUNS)/lazuri-study $(NB_RUNS)/clavis $(NB_RUNS)/clavis-sweep $(NB_RUNS)/sensitivity

## pages: check that every report tool reads docs/report-spec.json (test_report_spec.py; it and test_report_page.py
## make more small runs with $(HABITAT): arms of different products, none, Nudge, Lazuri, Clavis), write each small run's
## report.html (and the comparison's page) and load them in headless Chromium with
## networking off: no console error, no request, every chart drawn, the KPI table equal to kpis.csv, readable with
## JavaScript off; a full-page screenshot PNG beside each page (Notebooks/README.md).
## The runs of many arms — the products compared (nine arms, each product's own sections on one page: 5.52 MB with
## Clavis's) and Clavis's match policy swept (nine arms and the scenario's own: 5.50 MB) — have pages of that many arms'
## KPI tables, forest plots and series, over the 5.5 MB budget of the others (plotly.min.js is 4.56 MB of each); they
## are checked the same way under a budget of their own.
WIDE_PAGES := $(NB_RUNS)/products $(NB_RUNS)/clavis-sweep
WIDE_PAGE_BYTES := 5750000
PAGES := $(NB_RUNS)/baseline $(NB_RUNS)/price $(NB_RUNS)/forecast $(NB_RUNS)/earned-access $(NB_RUNS)/products $(NB_RUNS)/nudge $(NB_RUNS)/lazuri $(NB_RUNS)/lazuri-study $(NB_RUNS)/clavis $(NB_RUNS)/clavis-sweep $(NB_RUNS)/sensitivity $(NB_RUNS)/robustness
pages: setup-test notebook-runs
	HABITAT=$(HABITAT) python3 Notebooks/test_report_page.py
	HABITAT=$(HABITAT) python3 Notebooks/test_report_spec.py
	python3 Notebooks/test_browser_check.py
	python3 Notebooks/report_page.py $(PAGES) $(NB_RUNS)/price-comparison.csv $(NB_RUNS)/price-check.csv
	python3 Notebooks/browser_check.py $(addsuffix /report.html,$(filter-out $(WIDE_PAGES),$(PAGES))) $(NB_RUNS)/price-comparison.html $(NB_RUNS)/price-check.html
	python3 Notebooks/browser_check.py --max-bytes $(WIDE_PAGE_BYTES) $(addsuffix /report.html,$(WIDE_PAGES))

## test-distributed: habitat-ray end to end on a local Ray cluster the test starts and stops (a head and two worker
## nodes): 4 shards merged byte for byte against a whole run, a killed shard worker retried, stops, bad input.
test-distributed: setup-test $(HABITAT_DEP)
	python3 Distributed/tests/test_habitat_ray.py $(HABITAT)

## test-oracles: habitat sensitivity's Sobol and Morris indices against SALib on habitat's own designs of its test
## functions, and the Sobol indices against the analytic ones (Tests/Oracles/README.md; a few seconds).
test-oracles: setup-test $(HABITAT_DEP)
	$(PYTHON) Tests/Oracles/test_salib_oracle.py $(HABITAT)

## plots: the same figures as PNG beside a run, for people without Jupyter, and the run's page (report.html):
## make plots RUN=Reports/scroll-off-baseline
RUN ?= Reports/scroll-off-baseline
plots: setup
	python3 Notebooks/plot_run.py $(RUN)

## check-baselines: `habitat check` against every baseline in Reports/baselines/ (a changed rule without a
## re-recorded baseline fails here with a readable diff).
check-baselines: $(HABITAT_DEP)
	@status=0; for d in Reports/baselines/*/; do \
		$(HABITAT) check --baseline "$$d" --progress never || status=1; \
	done; exit $$status

## redteam: the red-team suite (RedTeam/README.md): malformed scenarios, output-path safety, interruption,
## corrupted baselines, a full disk, usage errors and messages, each case in a throw-away sandbox with canaries,
## every command under a 120 s / 2048 MB watchdog (a ceiling against hangs, not a measure: a busy machine must not trip it). FILTER=text keeps the cases whose name contains it.
REDTEAM_TIMEOUT ?= 120
REDTEAM_RSS_MB ?= 2048
redteam: setup $(HABITAT_DEP)
	TIMEOUT=$(REDTEAM_TIMEOUT) RSS_MB=$(REDTEAM_RSS_MB) RedTeam/all.sh $(HABITAT) $(FILTER)

## The plain-C kernel reference (Benchmarks/peer_c.c). No floating-point contraction, so its arithmetic is Python's
## bit for bit (the trajectory check relies on it). The Swift toolchain's clang serves when there is no cc.
PEER_CC ?= $(shell command -v cc >/dev/null 2>&1 && echo cc || echo clang)
PEER_C := .build/peer_c
$(PEER_C): Benchmarks/peer_c.c
	@mkdir -p $(@D)
	$(PEER_CC) -O2 -ffp-contract=off -o $@ $< -lm

## bench-kernel: Habitat, the plain-C reference and (if installed) the SimPy reference side by side on the same
## workloads (Benchmarks/README.md).
bench-kernel: build $(PEER_C)
	$(PEER_C) mm1 1000000
	$(PEER_C) agents 100000 1
	$(BIN) bench kernel --workload mm1
	$(BIN) bench kernel --workload agents --agents 100000 --days 1
	$(BIN) bench kernel --workload agents --agents 100000 --days 30
	@if $(PYTHON) -c 'import simpy' 2>/dev/null; then \
		$(PYTHON) Benchmarks/peer_simpy.py mm1 100000; \
	else echo "bench-kernel: SimPy not installed (pip install simpy==4.1.2) — skipping the SimPy reference"; fi

## bench-kernel-pairs: the kernel against the plain-C reference on mm1 (1 M customers), five interleaved pairs (C then
## Habitat) in one run: each pair's events/s and ratio, and the median ratio (issue 41 holds it at 0.8 or better); then
## instructions per event of both under callgrind (start-up cancelled). HABITAT=… measures another binary.
bench-kernel-pairs: $(HABITAT_DEP) $(PEER_C)
	$(PYTHON) Benchmarks/kernel_pairs.py $(HABITAT) $(PEER_C) --pairs 5 --customers 1000000 --instructions

## bench-check: the C reference draws Python's random stream exactly and, when SimPy is installed, follows the same
## trajectory as the SimPy reference (small sizes, about a second; part of make test, skips SimPy cleanly).
bench-check: $(PEER_C)
	$(PYTHON) Benchmarks/check_trajectories.py $(PEER_C)

## speed-gate: instructions per simulated person-day of every product (callgrind, 300 people × 56 days, one thread)
## against Benchmarks/instructions.csv — more than 5 % more fails — and every product's specialised event loop in the
## release build (Benchmarks/README.md, "The speed gate"; about a minute). A cost that is meant is recorded in the same
## commit: make speed-gate REASON="why it changed" (REASON is read from the command line only, never the environment).
## Alone it builds the release binary first; given HABITAT=… (make test) it measures that binary and builds nothing.
speed-gate: setup-test $(HABITAT_DEP)
	$(if $(filter command line,$(origin HABITAT)),,$(SWIFT) build $(SWIFTPM_FLAGS) -c release --product habitat)
	python3 Benchmarks/speed_gate.py $(HABITAT) $(if $(filter command line,$(origin REASON)),--record --reason "$(REASON)")

## bench-run: the full simulation's speed (person-days/s) and peak memory.
bench-run: build
	$(BIN) bench run --people 10000 --days 90
	$(BIN) bench run --people 100000 --days 90 --progress never

## bench-scale: person-days/s on 1 and 2 threads at 365 days, memory at two population sizes, the same people as
## Ray shards on this machine, and what 1,000,000 people × 365 days costs in core-hours (Benchmarks/scale.py).
bench-scale: build
	python3 Benchmarks/scale.py $(BIN) --people 10000 --days 365 --shards 2

bench: bench-kernel bench-run

## fuzz-smoke: libFuzzer on the scenario loader (Fuzz/README.md): replays Fuzz/regressions/, then fuzzes a scratch
## copy of Fuzz/corpus/ for FUZZ_SMOKE_SECONDS; any crash, leak, timeout or out-of-memory fails (input kept in FUZZ_OUT).
## fuzz: the same for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=3600); new inputs collect in FUZZ_OUT/corpus across runs.
FUZZER := Fuzz/.build/release/ScenarioFuzzer
FUZZ_OUT := Fuzz/.build/fuzz
FUZZ_SMOKE_SECONDS ?= 60
FUZZ_SECONDS ?= 600
FUZZ_ENV := SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1
FUZZ_FLAGS := -timeout=10 -rss_limit_mb=2048

fuzz-build:
	$(SWIFT) build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

# $(call fuzz-run,NAME,SECONDS,CORPUS DIRS): fuzz, log to FUZZ_OUT/NAME.log, print executions and time, fail as libFuzzer does.
define fuzz-run
	@mkdir -p $(FUZZ_OUT)/$(1)-artifacts
	@echo "$(1): fuzzing for $(2) s (log: $(FUZZ_OUT)/$(1).log)"
	@start=$$(date +%s); status=0; \
	$(FUZZ_ENV) $(FUZZER) $(FUZZ_FLAGS) -max_len=8192 -dict=Fuzz/yaml.dict -print_final_stats=1 -max_total_time=$(2) -artifact_prefix=$(FUZZ_OUT)/$(1)-artifacts/ $(3) \
		> $(FUZZ_OUT)/$(1).log 2>&1 || status=$$?; \
	grep '^stat::' $(FUZZ_OUT)/$(1).log; \
	echo "$(1): $$(grep -m1 '^stat::number_of_executed_units' $(FUZZ_OUT)/$(1).log | awk '{print $$2}') executions in $$(( $$(date +%s) - start )) s, exit $$status"; \
	if [ $$status != 0 ]; then grep -v -E '^#[0-9]+|NEW_FUNC' $(FUZZ_OUT)/$(1).log | tail -60; ls -l $(FUZZ_OUT)/$(1)-artifacts; fi; \
	exit $$status
endef

fuzz-smoke: fuzz-build
	@rm -rf $(FUZZ_OUT)/smoke-corpus $(FUZZ_OUT)/smoke-artifacts && mkdir -p $(FUZZ_OUT) && cp -R Fuzz/corpus $(FUZZ_OUT)/smoke-corpus
	$(FUZZ_ENV) $(FUZZER) $(FUZZ_FLAGS) Fuzz/regressions/* > $(FUZZ_OUT)/regressions.log 2>&1 \
		|| { tail -60 $(FUZZ_OUT)/regressions.log; exit 1; }
	@echo "fuzz-smoke: $$(ls Fuzz/regressions | wc -l) regression inputs replayed"
	$(call fuzz-run,smoke,$(FUZZ_SMOKE_SECONDS),$(FUZZ_OUT)/smoke-corpus)

fuzz: fuzz-build
	@mkdir -p $(FUZZ_OUT)/corpus
	$(call fuzz-run,fuzz,$(FUZZ_SECONDS),$(FUZZ_OUT)/corpus Fuzz/corpus Fuzz/regressions)

clean:
	rm -rf .build Fuzz/.build
