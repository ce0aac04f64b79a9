# Habitat — two commands on a fresh machine:
#   make run    set up (installs libgsl-dev if missing), build in release, run the main job
#   make test   set up and run the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
BIN := .build/release/habitat
SHARED_BENCH ?= ../shared/bench
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build run test check-baselines redteam notebooks plots bench bench-kernel bench-run clean

## setup: install the system packages Habitat needs (GNU Scientific Library) when they are missing.
setup:
	@if ! pkg-config --exists gsl 2>/dev/null; then \
		echo "setup: installing libgsl-dev and pkg-config with apt-get"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libgsl-dev pkg-config >/dev/null; \
	fi
	@pkg-config --exists gsl || { echo "setup: GSL still missing (pkg-config gsl)"; exit 1; }
	@echo "setup: GSL $$(pkg-config --modversion gsl) ready"
	@if ! python3 -c 'import nbclient, nbformat, ipykernel, pandas, matplotlib' 2>/dev/null; then \
		echo "setup: installing the notebooks' Python packages (Notebooks/requirements.txt) with pip"; \
		python3 -m pip install -q --disable-pip-version-check -r Notebooks/requirements.txt; \
	fi

## build: release build of the habitat command.
build: setup
	$(SWIFT) build -c release --product habitat

## run: the main job: the default scenario (Scroll Off baseline); reports in Reports/scroll-off-baseline/.
run: build
	$(BIN) run
	python3 Notebooks/plot_run.py Reports/scroll-off-baseline
	@echo "Open Reports/scroll-off-baseline/ (kpis.csv, activation-funnel.csv, retention.csv, ...; figures in plots/)"

## test: every test (unit, statistical, golden, CLI), then the regression gate over every committed baseline.
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory check-baselines HABITAT=.build/debug/habitat
	$(MAKE) --no-print-directory redteam HABITAT=.build/debug/habitat
	$(MAKE) --no-print-directory notebooks HABITAT=.build/debug/habitat

## notebooks: execute every notebook against small real runs (baseline, an experiment, a forecast).
NB_RUNS := .build/notebook-runs
notebooks:
	python3 Notebooks/test_habitat_plots.py
	$(HABITAT) run --people 200 --days 30 --replications 2 --out $(NB_RUNS)/baseline --progress never > /dev/null
	$(HABITAT) run Scenarios/premium-price-test.yaml --people 200 --days 30 --replications 2 --out $(NB_RUNS)/price --progress never > /dev/null
	$(HABITAT) run Scenarios/launch-forecast-12m.yaml --people 200 --days 100 --replications 2 --out $(NB_RUNS)/forecast --progress never > /dev/null
	python3 Notebooks/run_notebooks.py $(NB_RUNS)/baseline $(NB_RUNS)/price $(NB_RUNS)/forecast

## plots: the same figures as PNG beside a run, for people without Jupyter: make plots RUN=Reports/scroll-off-baseline
RUN ?= Reports/scroll-off-baseline
plots: setup
	python3 Notebooks/plot_run.py $(RUN)

## check-baselines: `habitat check` against every baseline in Reports/baselines/ (a changed rule without a
## re-recorded baseline fails here with a readable diff).
HABITAT ?= $(BIN)
check-baselines:
	@status=0; for d in Reports/baselines/*/; do \
		$(HABITAT) check --baseline "$$d" --progress never || status=1; \
	done; exit $$status

## redteam: the red-team suite (RedTeam/README.md): malformed scenarios, output-path safety, interruption,
## corrupted baselines, a full disk, usage errors and messages, each case in a throw-away sandbox with canaries,
## every command under a 20 s / 2048 MB watchdog. FILTER=text keeps the cases whose name contains it.
REDTEAM_TIMEOUT ?= 20
REDTEAM_RSS_MB ?= 2048
redteam:
	TIMEOUT=$(REDTEAM_TIMEOUT) RSS_MB=$(REDTEAM_RSS_MB) RedTeam/all.sh $(HABITAT) $(FILTER)

## bench-kernel: Habitat, the plain-C reference and (if installed) SimPy side by side on the same workloads.
bench-kernel: build
	@if [ -f $(SHARED_BENCH)/peer_c.c ]; then \
		cc -O2 -o .build/peer_c $(SHARED_BENCH)/peer_c.c -lm && \
		.build/peer_c mm1 1000000 && .build/peer_c agents 100000 1; \
	else echo "bench-kernel: $(SHARED_BENCH)/peer_c.c not found, skipping the C reference"; fi
	$(BIN) bench kernel --workload mm1
	$(BIN) bench kernel --workload agents --agents 100000 --days 1
	$(BIN) bench kernel --workload agents --agents 100000 --days 30
	@if python3 -c 'import simpy' 2>/dev/null && [ -f $(SHARED_BENCH)/peer_simpy.py ]; then \
		python3 $(SHARED_BENCH)/peer_simpy.py mm1 100000; \
	else echo "bench-kernel: SimPy not installed (pip install simpy==4.1.2) — skipping"; fi

## bench-run: the full simulation's speed (person-days/s) and peak memory.
bench-run: build
	$(BIN) bench run --people 10000 --days 90
	$(BIN) bench run --people 100000 --days 90 --progress never

bench: bench-kernel bench-run

clean:
	rm -rf .build
