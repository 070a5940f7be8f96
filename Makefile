# SPDX-License-Identifier: Apache-2.0
# Front door of the ANE bit-exact model. `make help` lists every target.
# Every target that builds first installs missing Debian packages (scripts/install-deps.sh).

BUILD    ?= build
JOBS     ?= $(shell nproc)
SUITE    ?= sim/regress/default.yaml
ENGINE   ?= both
CTEST_ARGS ?=
FUZZ_BUILD ?= build-fuzz
FUZZ_RUNS ?= 1000000
FUZZ_SECONDS ?= 3600
COV_BUILD ?= build-cov
SHARD    ?= 1/1

.PHONY: help deps configure build run nightly nightly-onnx test lint synth synth-smoke wave results tables diagram soak fuzz coverage coverage-build coverage-shard coverage-report mutate mutate-shard mutate-report clean

help: ## list every target
	@echo "ANE bit-exact model -- make targets"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 22
	@echo "variables: BUILD=$(BUILD) JOBS=$(JOBS) SUITE=$(SUITE) TEST=<gtest name> CYCLES=<n> for wave"

deps: ## install missing Debian packages (apt, as root)
	@scripts/install-deps.sh

# A new build directory uses Ninja: it compiles a target's objects while the libraries it links
# are still building (Make waits for them: the tests waited for all 44 Verilated models). An
# existing one keeps the generator it was made with.
GENERATOR = $(if $(wildcard $(BUILD)/CMakeCache.txt),,-G Ninja)

configure: deps ## configure the CMake build in $(BUILD)/
	@cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)
	@echo "configured $(BUILD)/ (log: $(BUILD).configure.log)"

build: configure ## build the oracle, the Verilated models, the tests and build/ane
	@cmake --build $(BUILD) -j $(JOBS)

run: build ## the main job: the default regression on the RTL and the oracle, compared bit for bit (SUITE=..., ENGINE=oracle|rtl|both)
	@$(BUILD)/ane regress $(SUITE) --engine $(ENGINE) -j $(JOBS) --junit $(BUILD)/regress.xml --wave-dir $(BUILD)/regress-waves

nightly: build ## the nightly suite: real-sized layers on the 256-lane core, then the networks at 224 x 224 (about an hour; CI does not run it)
	@$(BUILD)/ane regress sim/regress/nightly.yaml --engine $(ENGINE) -j $(JOBS) --junit $(BUILD)/nightly.xml --wave-dir $(BUILD)/nightly-waves
	@python3 scripts/onnx_networks.py --build $(BUILD)

nightly-onnx: build ## the networks at 224 x 224 alone: ONNX on the oracle and the RTL, the compiled ResNet-18 as a program, bit for bit
	@python3 scripts/onnx_networks.py --build $(BUILD)

test: build ## the whole test suite (oracle, RTL, CLI, lint and synth smoke) through ctest
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

lint: deps ## verilator --lint-only -Wall on every RTL top, and the C++ style (.clang-format)
	@scripts/lint.sh
	@scripts/format.sh

synth: deps ## Yosys + OpenSTA (OSU 0.18um) + nextpnr (iCE40) on every top, gate-level check, docs/results.md
	@scripts/synth.sh

synth-smoke: deps ## quick synthesis of every top with the gate-level check (what make test runs)
	@scripts/synth.sh --smoke

wave: build ## rerun one test with FST tracing and open GTKWave: make wave TEST=Suite.Name [CYCLES=N: the first N cycles only]
	@$(if $(CYCLES),ANE_WAVE_CYCLES=$(CYCLES)) scripts/wave.sh $(BUILD) "$(TEST)"

results: build ## regenerate docs/results.md (benchmarks and synthesis figures)
	@scripts/results.sh $(BUILD)

tables: configure ## regenerate the activation tables (tb/oracle/act_tables.inc) with the table generator
	@cmake --build $(BUILD) -j $(JOBS) --target ane_tablegen
	@$(BUILD)/ane_tablegen tb/oracle/act_tables.inc

diagram: deps ## redraw the block diagram docs/architecture.svg from docs/architecture.dot (graphviz)
	@dot -Tsvg docs/architecture.dot -o docs/architecture.svg

soak: build ## the randomized unit tests with 20x the iterations (ANE_SOAK=1); CI does not run it
	@cd $(BUILD) && ANE_SOAK=1 ctest --output-on-failure -j $(JOBS) -L unit

fuzz: deps ## libFuzzer + ASan/UBSan on the input readers (.npy, op files, suites, values, JUnit merge, .hwx/TDs, ONNX models), FUZZ_RUNS=10^6 runs each; CI does not run it
	@mkdir -p $(FUZZ_BUILD)
	@cmake -S tb/fuzz -B $(FUZZ_BUILD) -DCMAKE_CXX_COMPILER=clang++-14 > $(FUZZ_BUILD)/configure.log 2>&1 || (cat $(FUZZ_BUILD)/configure.log; exit 1)
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@status=0; for t in npy value operation suite junit hwx tdyaml; do \
	  tb/fuzz/run.sh $(FUZZ_BUILD) $$t $(FUZZ_RUNS) $(FUZZ_SECONDS) || status=1; done; exit $$status

coverage-build: deps ## the coverage build in $(COV_BUILD)/: every model with line, toggle and cover counters, the RTL tests and ane
	@cmake -S . -B $(COV_BUILD) $(if $(wildcard $(COV_BUILD)/CMakeCache.txt),,-G Ninja) -DCMAKE_BUILD_TYPE=Release -DANE_COVERAGE=ON > $(COV_BUILD).configure.log 2>&1 || (cat $(COV_BUILD).configure.log; exit 1)
	@cmake --build $(COV_BUILD) -j $(JOBS) --target ane $$(sed -n 's/^ane_test(\(rtl_[a-z0-9_]*\) .*/\1/p' tb/tests/CMakeLists.txt)

coverage-shard: coverage-build ## one shard of the coverage run: make coverage-shard SHARD=I/N (data in out/coverage/shard-I.dat)
	@python3 scripts/coverage.py run --build $(COV_BUILD) --out out/coverage --shard $(SHARD) -j $(JOBS)

coverage-report: ## merge the shards' data: out/coverage/html, line.info, the per-block table in docs/results.md
	@python3 scripts/coverage.py report --out out/coverage --update docs/results.md

MUT_BUILD ?= build-mut
MUT_SEED ?= 1
MUT_PER_BLOCK ?= 20
MUT_SECONDS ?= 7200
mutate-shard: deps ## one shard of the mutation run: make mutate-shard SHARD=I/N (out/mutate/shard-I.json)
	@python3 scripts/mutate.py run --build $(MUT_BUILD) --out out/mutate --shard $(SHARD) --seed $(MUT_SEED) \
	  --per-block $(MUT_PER_BLOCK) --time-limit $(MUT_SECONDS) -j $(JOBS)

mutate-report: ## merge the mutation shards: out/mutate/report.md and the table in docs/results.md
	@python3 scripts/mutate.py report --out out/mutate --update docs/results.md

mutate: ## mutation score of the MAC lane, post-processor, planar engine and TD blocks (about 2 h; CI does not run it)
	@rm -f out/mutate/shard-*.json
	@$(MAKE) --no-print-directory mutate-shard SHARD=1/1
	@$(MAKE) --no-print-directory mutate-report

coverage: ## line, toggle and functional coverage of the RTL by its tests and the default suite (CI does not run it)
	@rm -f out/coverage/shard-*.dat
	@$(MAKE) --no-print-directory coverage-shard SHARD=1/1
	@$(MAKE) --no-print-directory coverage-report

clean: ## remove build outputs
	rm -rf $(BUILD) $(BUILD).configure.log $(FUZZ_BUILD) $(COV_BUILD) $(COV_BUILD).configure.log $(MUT_BUILD) out
