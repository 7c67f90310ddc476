# Per-vector softirq masking campaign: every entry point.
# `make` runs the whole campaign and prints a summary; `make check` runs the
# tests; `make help` lists the targets.  Stages write into $(WORK)/out/.

WORK     ?= $(HOME)/.cache/softirq-mask
JOBS     ?= $(shell nproc)
VARIANT  ?= base
PLAN     ?= default
APPEND   ?=
FILES    ?=
OLD      ?= base
NEW      ?= core
FROM     ?= base
TO       ?= series
GOOD     ?= base
BAD      ?= series
TEST     ?= boot
BOOTS    ?= 10
SERIES_ONLY ?=
FORCE    ?= 0
SUBSYS   ?= net
FILE     ?=
MASKS    ?=
OVERRIDES ?=
WORLD    ?=
KERNELS  ?= base core
CCACHE_DIR     ?= $(HOME)/.cache/ccache
CCACHE_MAXSIZE ?= 20G

export WORK JOBS APPEND FORCE CCACHE_DIR CCACHE_MAXSIZE SERIES_ONLY OVERRIDES EXTRA_KFRAGMENTS

S := scripts

.PHONY: all help check check-full deps tree initramfs build boot sparse core rt-check series series-check bisect bench bench-e2e kunit-loop \
	cocci-test analyze convert-file convert

all: ## the whole campaign with a summary (deps, tree, base and core kernels, boots)
	@$(S)/run-campaign.sh

help: ## list the targets and variables
	@echo "targets:"
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | \
		sed 's/:.*## /\t/' | awk -F'\t' '{printf "  %-13s %s\n", $$1, $$2}'
	@echo "variables: WORK=$(WORK) JOBS=$(JOBS) VARIANT=$(VARIANT) PLAN=$(PLAN)"
	@echo "           APPEND= FILES= OLD=$(OLD) NEW=$(NEW) FORCE=$(FORCE) SUBSYS=$(SUBSYS) FILE= MASKS="
	@echo "           FROM=$(FROM) TO=$(TO) SERIES_ONLY= GOOD=$(GOOD) BAD=$(BAD) TEST=$(TEST) OVERRIDES= WORLD= BOOTS=$(BOOTS)"

check: deps tree ## the test suite within its budget (installs what it needs; ends with "N passed, N failed")
	@tests/run-tests.sh

check-full: deps tree ## make check plus the suites beyond its budget (the three bisect suites)
	@CHECK=full tests/run-tests.sh

deps: ## install missing Debian packages (apt)
	@$(S)/install-deps.sh

tree: ## unpack linux-source-6.1 into $(WORK)/linux as a git repo (tag base); FORCE=1 discards local changes
	@$(S)/kernel/setup-tree.sh

initramfs: tree ## build the guest initramfs (busybox, init, plans, guest programs)
	@$(S)/kernel/make-initramfs.sh

build: ## build kernel VARIANT (base, core, ...: a tag of the work tree)
	@$(S)/kernel/build-kernel.sh $(VARIANT)

boot: initramfs ## boot VARIANT in QEMU with PLAN (default, smoke, fail-step), extra cmdline APPEND=
	@$(S)/kernel/boot-kernel.sh $(VARIANT) $(PLAN)

sparse: ## sparse the .c files changed between OLD and NEW, plus FILES="a.c ..."; fails on new warnings
	@$(S)/kernel/sparse-check.sh $(OLD) $(NEW) $(FILES)

core: ## apply core-patches/ on base, tag core
	@$(S)/kernel/apply-patches.sh core-patches base core

rt-check: ## compile the core objects with CONFIG_PREEMPT_RT=y (at tag core)
	@$(S)/kernel/check-rt-build.sh core

series: ## stack base + core-patches + conversions/*/ as commits (tags core, conv-SUBSYS, series)
	@$(S)/series/make-series.sh

series-check: initramfs ## build and boot (PLAN) every commit FROM..TO (SERIES_ONLY="1 3" or last for fewer; EXTRA_KFRAGMENTS=scripts/kconfig/campaign.config)
	@$(S)/series/check-series.sh $(FROM) $(TO) $(PLAN)

kunit-loop: initramfs ## boot VARIANT BOOTS times (10) and count every KUnit case's results (flaky or stable)
	@$(S)/kernel/kunit-loop.sh $(VARIANT) $(BOOTS)

bisect: ## first bad commit in GOOD..BAD with TEST=boot|kunit|traffic (git bisect run)
	@$(S)/bisect/bisect-boot.sh $(GOOD) $(BAD) $(TEST)

bench: deps tree series initramfs ## overhead, latency and deferral benchmarks in QEMU: pristine 6.1 vs the series (tags bench-base, bench, bench-net); writes results/
	@$(S)/bench/run-bench.sh

bench-e2e: deps tree series initramfs ## block completions and soft hrtimers raised in hard irq under network load: base, defer, core, net, hand; interleaved rounds; results/e2e.md
	@$(S)/bench/build-e2e-kernels.sh
	@$(S)/bench/run-bench-e2e.sh $(KERNELS)
	@# the hand masks are not wrong: the hand kernel with lockdep, under the load
	@$(S)/bench/build-e2e-kernels.sh e2e-hand-lockdep
	@$(S)/kernel/boot-kernel.sh e2e-hand-lockdep e2e-load

cocci-test: ## semantic patch tests (tests/NAME.c -> NAME.res)
	@tests/test-cocci.sh

analyze: ## vector masks of the campaign kernel (LLVM IR of every unit); WORLD=dir: of a small world of C files
	@if [ -n "$(WORLD)" ]; then $(S)/analysis/analyze-world.sh "$(WORLD)"; \
	else $(S)/analysis/analyze-kernel.sh; fi

convert-file: ## print FILE converted with the mask table MASKS
	@test -n "$(FILE)" -a -n "$(MASKS)" || { echo 'usage: make convert-file FILE=x.c MASKS=table' >&2; exit 2; }
	@$(S)/convert/convert-file.sh $(FILE) $(MASKS)

convert: ## analysis (cached per unit) + conversion of SUBSYS into conversions/SUBSYS/ (OVERRIDES=call edges to cut, as for analyze)
	@test -n "$(SUBSYS)" || { echo 'usage: make convert SUBSYS=net' >&2; exit 2; }
	@$(S)/analysis/analyze-kernel.sh
	@$(S)/convert/convert-subsys.sh $(SUBSYS)
