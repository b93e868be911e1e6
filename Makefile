# capaudit — eBPF capability-usage auditor.
#   make            build build/capaudit
#   make help       the targets below, in short
#   make demo       install what is missing, build, record the demo workload, report
#   make check      the tier for every change (a few minutes, no root needed): build,
#                   unit tests, fuzz corpus replay, end-to-end tests of record files,
#                   options and documents
#   make test       install what is missing, build, run every test (CI's command):
#                   also the end-to-end tests on the real kernel, the ASan+UBSan pass
#                   and the kernel matrix; T=NAME runs only the parts named NAME
#   make screenshot docs/images/report.png, the README's picture of the html
#                   report: the demo workload recorded, shown by headless Chromium
#   make fuzz       libFuzzer on the record and baseline readers (FUZZ_TIME s each)
#   make vmtest     the kernel matrix: Debian's 6.1 and 6.12 (amd64, arm64) and 5.10
#                   (amd64) under qemu, and the host
#   make install    binary (file capabilities for a group), manual pages, completion, docs
#                   (PREFIX=/usr/local, DESTDIR); make uninstall removes them
#   make deb        build/capaudit_VERSION_amd64.deb (debhelper)
#   make static     build-static/capaudit, statically linked (no libmicrohttpd)
#   make ARCH=arm64 build-static-arm64/capaudit: the same, cross-built for
#                   aarch64 (Debian's cross toolchain and :arm64 libraries)
#   make bench-costs start-up by phase, BPF time a process start, the monitor's
#                   share of a core, memory (make bench runs it too)
#   make bench-real real workloads (nginx under wrk, perf bench sched messaging) with
#                   nothing attached, monitor -a and bpftrace (BENCH_QUICK=1: about 2 min)
#   make bench-objects BEFORE=PATH
#                   what reading a check's object costs the slow path: this build
#                   against the capaudit at PATH (CALLS, ROUNDS)
#   V=1             show the commands
#
# Outputs go to build/, never beside the sources. Header dependencies are
# tracked with -MMD -MP.

BUILD     ?= build
CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= bpftool
LLVM_STRIP ?= llvm-strip
# The architecture built for, as the kernel names it (x86, arm64; x86_64
# and aarch64 are taken too). Another than this machine's cross-builds the
# static binaries (make ARCH=arm64: tools/vm/build-static.sh).
HOST_ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
ARCH      := $(HOST_ARCH)
override ARCH := $(subst x86_64,x86,$(subst aarch64,arm64,$(ARCH)))
VERSION   := 0.1.0

CXX       ?= g++
CFLAGS    ?= -O2 -g
CFLAGS    += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
             -DCAPAUDIT_VERSION='"$(VERSION)"' -I$(BUILD) -Ibpf -Iuser -MMD -MP
CXXFLAGS  ?= -O2 -g
CXXFLAGS  += -Wall -Wextra -Wno-unused-parameter -std=c++17 -D_GNU_SOURCE -Iuser -MMD -MP
# monitor --listen serves /metrics with libmicrohttpd (user/lib/httpd.c).
# HTTPD=0 builds without it (--listen then says so): the static build of
# the kernel matrix, whose libmicrohttpd.a would pull in GnuTLS.
HTTPD     ?= 1
ifeq ($(HTTPD),1)
# (loaded with dlopen() when --listen asks for it: httpd.c; only the header
# is needed to build)
HTTPD_LIBS :=
else
CFLAGS    += -DCAPAUDIT_NO_HTTPD
HTTPD_LIBS :=
endif
# STATIC=1 (tools/vm/build-static.sh): linked with -static; users and groups
# from /etc/passwd and /etc/group only (user/cli/main.c says why)
STATIC    ?= 0
ifeq ($(STATIC),1)
CFLAGS    += -DCAPAUDIT_STATIC
endif
LDLIBS    := -lbpf -ldw -lelf -lz -lcap -ljansson -lsimdjson $(HTTPD_LIBS)
# what the analysis side (and so the unit tests and fuzz targets) links
ANALYSIS_LIBS := -ldw -lelf -lcap -ljansson -lsimdjson $(HTTPD_LIBS)
# SANITIZE=1: AddressSanitizer and UndefinedBehaviorSanitizer (make test builds
# them in build-asan/ too); FUZZ=1: clang's libFuzzer instrumentation.
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
endif
ifeq ($(FUZZ),1)
SAN_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
             -fno-omit-frame-pointer
endif
CFLAGS    += $(SAN_FLAGS)
CXXFLAGS  += $(SAN_FLAGS)
# the kernel types of ARCH (vmlinux/README.md) and its pt_regs (bpf/arch.bpf.h)
VMLINUX_H := vmlinux/$(ARCH)/vmlinux.h
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) -Ibpf -Wall

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# The layers, from the bottom (docs/development.md, "Where things are"; make check-layers
# enforces the direction of includes):
#   lib      capaudit-agnostic helpers     facts    tables about Linux
#   recfile  the record format, both ways  analyze  record -> conclusions
#   output   how conclusions look          tracer   libbpf and the BPF ABI: load, attach, maps
#   record   one recording (record.h)      monitor  capaudit monitor, on record.h
#   engines  verify and doctor             cli      parsing and wiring, one file per subcommand
LAYERS := lib facts recfile analyze output tracer record monitor engines cli
layer_srcs = $(wildcard user/$(1)/*.c user/$(1)/*.cpp)
# Analysis: pure C, no libbpf; shared with the unit tests.
ANALYSIS_SRCS := $(foreach l,lib facts recfile analyze output,$(call layer_srcs,$(l)))
# Loader and CLI.
LOADER_SRCS   := $(foreach l,tracer record monitor engines cli,$(call layer_srcs,$(l)))
UNIT_SRCS     := $(wildcard tests/unit/*.c)
FUZZ_OBJS     := $(BUILD)/tests/fuzz/targets.o

ANALYSIS_OBJS := $(patsubst %.cpp,$(BUILD)/%.o,$(ANALYSIS_SRCS:%.c=$(BUILD)/%.o))
LOADER_OBJS   := $(patsubst %.cpp,$(BUILD)/%.o,$(LOADER_SRCS:%.c=$(BUILD)/%.o))
UNIT_OBJS     := $(UNIT_SRCS:%.c=$(BUILD)/%.o)

.PHONY: all deps demo screenshot check test help vmtest fuzz fuzz-merge install uninstall deb man completion \
	bench bench-real bench-costs bench-objects clean check-layers static
ifeq ($(ARCH),$(HOST_ARCH))
all: $(BUILD)/capaudit man completion
else
# another architecture: its static binaries (man and completion need to run one)
all: static
endif

# what each target needs from Debian (tools/deps.sh says why each package)
deps:
	$(Q)tools/deps.sh test

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile

# includes run down the layers of user/ (tools/check-layers.sh; make test runs it)
check-layers:
	$(Q)tools/check-layers.sh

# -g for BTF; DWARF is then stripped (.BTF and .BTF.ext stay, CO-RE works)
$(BUILD)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(VMLINUX_H) | $(BUILD)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

# the benchmark's floor: an empty program on the same hook
$(BUILD)/bench_empty.bpf.o: tools/bench/bench_empty.bpf.c $(VMLINUX_H) | $(BUILD)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@
	$(Q)$(LLVM_STRIP) -g $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

# Named explicitly, so that make never treats them as disposable intermediates.
$(BUILD)/capaudit.skel.h: $(BUILD)/capaudit.bpf.o
$(BUILD)/tasks.skel.h: $(BUILD)/tasks.bpf.o
$(BUILD)/bench_empty.skel.h: $(BUILD)/bench_empty.bpf.o

# Objects that include generated headers must wait for them.
# The kernel's capability sites (docs/capsites.md), tables kept in the tree
$(BUILD)/capsites_data.h: $(wildcard user/facts/capsites/linux-*.tsv) tools/capsites/tsv2c.awk | $(BUILD)
	$(call msg,GEN,$@)
	$(Q)awk -F'\t' -f tools/capsites/tsv2c.awk $(sort $(wildcard user/facts/capsites/linux-*.tsv)) > $@.tmp && mv $@.tmp $@
$(BUILD)/user/facts/capsites.o: $(BUILD)/capsites_data.h
$(BUILD)/user/tracer/tracer.o: $(BUILD)/capaudit.skel.h
$(BUILD)/user/tracer/ksyms_iter.o: $(BUILD)/tasks.skel.h
$(BUILD)/user/tracer/tasks_iter.o: $(BUILD)/tasks.skel.h

$(BUILD)/%.o: %.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cpp | $(BUILD)
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

# linked by the C++ driver: the record reader uses simdjson (C++).
# CPPFLAGS and LDFLAGS: dpkg-buildflags' hardening in the Debian package.
$(BUILD)/capaudit: $(LOADER_OBJS) $(ANALYSIS_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CXX) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Manual pages (capaudit(8), capaudit-COMMAND(8)) and bash and zsh
# completion, generated from the option tables (capaudit COMMAND
# --list-options=full) and the prose in man/ (tools/cligen.py). The pages
# go to $(BUILD)/man/man8, the layout man searches: `man -M build/man
# capaudit-record` reads them before make install.
MAN_PROSE := $(wildcard man/*.md)
man: $(BUILD)/man/man8/capaudit.8
completion: $(BUILD)/completion/capaudit $(BUILD)/completion/_capaudit
$(BUILD)/man/man8/capaudit.8: $(BUILD)/capaudit tools/cligen.py $(MAN_PROSE)
	$(call msg,GEN,$(BUILD)/man/man8/*.8)
	$(Q)rm -rf $(BUILD)/man && mkdir -p $(BUILD)/man/man8
	$(Q)tools/cligen.py man $(BUILD)/capaudit man $(BUILD)/man/man8
$(BUILD)/completion/capaudit: $(BUILD)/capaudit tools/cligen.py
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)tools/cligen.py bash $(BUILD)/capaudit $@
$(BUILD)/completion/_capaudit: $(BUILD)/capaudit tools/cligen.py
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)tools/cligen.py zsh $(BUILD)/capaudit $@

# Example workloads (the demo, and programs the end-to-end tests run).
EXAMPLES := $(BUILD)/demo-workload $(BUILD)/set-pid $(BUILD)/bpf-ops $(BUILD)/privops
$(EXAMPLES): $(BUILD)/%: examples/%.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(EXAMPLE_CFLAGS) $< -o $@
# privops: the user-stack tests need its debug info and frame pointers
$(BUILD)/privops: EXAMPLE_CFLAGS := -g -fno-omit-frame-pointer

# monfold.o: the monitor's tables, proofranges.o: the proofs' text ranges,
# both libbpf-free (monitor/monfold.h and monobjs.c, tracer/proofranges.h). The record
# layer's process table and collect step are tested against a fake tracer
# (tests/unit/fake_tracer.h): their objects, linked with it instead of
# tracer.o and tasks_iter.o, need no libbpf.
UNIT_RECORD_OBJS := $(addprefix $(BUILD)/user/,record/proctable.o record/attribute.o \
	record/collect.o record/procinfo.o record/procset.o record/exeid.o record/containers.o \
	record/ustacks.o record/ptrace_targets.o record/command.o record/symbols.o \
	record/launch.o record/service.o record/scope.o record/objects.o \
	tracer/tasks.o tracer/aggtab.o tracer/privs.o)
$(BUILD)/unit-tests: $(UNIT_OBJS) $(ANALYSIS_OBJS) $(BUILD)/user/monitor/monfold.o $(BUILD)/user/monitor/monobjs.o \
		$(BUILD)/user/tracer/proofranges.o $(UNIT_RECORD_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CXX) $(CFLAGS) $^ $(ANALYSIS_LIBS) -o $@

$(BUILD):
	$(Q)mkdir -p $@

NPROC := $(shell nproc 2>/dev/null || echo 2)

demo:
	$(Q)tools/deps.sh demo
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/demo-workload
	$(Q)tools/demo.sh

# README's picture (tools/screenshot.sh says what it shows); root, as demo
screenshot:
	$(Q)tools/deps.sh demo chromium
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/demo-workload
	$(Q)BUILD=$(BUILD) tools/screenshot.sh

# The tiers (tools/run-tests.sh says what runs where). Each prints its own
# time; the last line is "N passed, N failed, N skipped".
# make check: what needs no root and no waiting, against the plain build.
check:
	$(Q)tools/deps.sh check
	$(Q)t0=$$(date +%s) && \
	$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/unit-tests $(BUILD)/fuzz-replay && \
	CAPAUDIT_T0=$$t0 BUILD=$(BUILD) tools/run-tests.sh check $(if $(T),-t $(T))

# make test: every test. The plain pass runs all of them; the ASan+UBSan
# pass (capaudit, the unit tests and the fuzz replay built with ASan and
# UBSan in build-asan/; the example workloads stay the plain ones) runs
# what sanitizers can find, the kernel matrix beside them.
# SANITIZE=0 skips the ASan pass (a quicker local run; CI runs both).
ASAN_BUILD := build-asan
test:
	$(Q)tools/deps.sh test
	$(Q)t0=$$(date +%s) && \
	$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/unit-tests $(BUILD)/fuzz-replay \
		$(EXAMPLES) $(BUILD)/bench-workload $(BUILD)/churn $(BUILD)/shapes && \
	{ [ "$(SANITIZE)" = 0 ] || $(MAKE) --no-print-directory -j$(NPROC) BUILD=$(ASAN_BUILD) \
		SANITIZE=1 $(ASAN_BUILD)/capaudit $(ASAN_BUILD)/unit-tests $(ASAN_BUILD)/fuzz-replay; } && \
	CAPAUDIT_T0=$$t0 BUILD=$(BUILD) ASAN_BUILD=$(ASAN_BUILD) SANITIZE=$(SANITIZE) \
		tools/run-tests.sh test $(if $(T),-t $(T))

# The kernel matrix (tools/vmtest.sh; make test runs it too): the static
# capaudit (make static, and make ARCH=arm64 static for arm64) in Debian's
# own 6.1 and 6.12 kernels, amd64 and arm64, and 5.10 (Debian 11, amd64),
# under qemu, every attach
# mode, compared with the host. Kernels are cached in
# CAPAUDIT_VM_CACHE (default /var/cache/capaudit-vm).
vmtest:
	$(Q)tools/deps.sh vmtest
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)BUILD=$(BUILD) tools/vmtest.sh

# A statically linked capaudit for other distributions and the matrix's
# guests: build-static/capaudit (and set-pid, churn), built by this Makefile
# with BUILD=build-static HTTPD=0 (monitor --listen needs libmicrohttpd, whose
# .a pulls in GnuTLS: it says so instead) by tools/vm/build-static.sh, which
# also makes the libsimdjson.a Debian does not ship (needs network once).
# With ARCH=arm64 on another machine: build-static-arm64/, cross-built with
# aarch64-linux-gnu-gcc against Debian's :arm64 libraries (tools/deps.sh).
static:
	$(Q)+ARCH=$(ARCH) tools/vm/build-static.sh

# The fuzz targets without libFuzzer: make test replays the committed corpus.
$(BUILD)/fuzz-replay: $(BUILD)/tests/fuzz/replay.o $(FUZZ_OBJS) $(ANALYSIS_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CXX) $(CFLAGS) $^ $(ANALYSIS_LIBS) -o $@

# make fuzz: libFuzzer on each reader for FUZZ_TIME seconds (clang), starting
# from the committed corpus; new inputs land in build-fuzz/corpus/ (make
# fuzz-merge adds the ones that reach new code to tests/fuzz/corpus/).
FUZZ_BUILD := build-fuzz
FUZZ_TIME  ?= 60
FUZZ_TARGETS := record baseline
$(BUILD)/fuzz-%: tests/fuzz/entry.c $(FUZZ_OBJS) $(ANALYSIS_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -DFUZZ_TARGET=fuzz_$* -c $< -o $@.o
	$(Q)$(CXX) $(CFLAGS) -fsanitize=fuzzer $@.o $(FUZZ_OBJS) $(ANALYSIS_OBJS) \
		$(ANALYSIS_LIBS) -o $@

fuzz:
	$(Q)tools/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) FUZZ=1 CC=clang CXX=clang++ \
		$(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
		echo "  FUZZ     $$t for $(FUZZ_TIME) s"; \
		$(FUZZ_BUILD)/fuzz-$$t -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 \
			-rss_limit_mb=4096 -dict=tests/fuzz/$$t.dict -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/$$t- \
			$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t || exit 1; \
	done

fuzz-merge:
	$(Q)for t in $(FUZZ_TARGETS); do \
		$(FUZZ_BUILD)/fuzz-$$t -merge=1 tests/fuzz/corpus/$$t $(FUZZ_BUILD)/corpus/$$t || exit 1; \
	done

# make bench: ratios measured in one run (tools/bench/bench.c); BENCH_QUICK=1
# keeps it under 45 s.
# the objects benchmark's workload (make bench-objects)
$(BUILD)/objwork: tools/bench/objwork.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< -o $@

$(BUILD)/bench-workload: tools/bench/workload.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< -o $@

# process churn with known check counts (robustness tests, load test)
$(BUILD)/churn: tools/bench/churn.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -pthread $< -o $@

# checks that share a call-site cache tag across kernel call sites
# (tests/e2e/cache.bats compares the cache with --exact-stacks on them)
$(BUILD)/shapes: tools/bench/shapes.c | $(BUILD)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< -o $@

$(BUILD)/tools/bench/bench.o: $(BUILD)/bench_empty.skel.h
# progstats: the kernel's accounting of the check programs; machine: the
# header's CPU, kernel and mitigations
$(BUILD)/bench: $(BUILD)/tools/bench/bench.o $(BUILD)/tools/bench/progstats.o \
		$(BUILD)/tools/bench/machine.o $(ANALYSIS_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CXX) $(CFLAGS) $^ $(LDLIBS) -o $@

# bpftrace: the bench's comparison rows (its kstack aggregation is the
# "10x" target's reference)
bench:
	$(Q)tools/deps.sh bench
	$(Q)$(MAKE) --no-print-directory all $(BUILD)/bench $(BUILD)/bench-workload $(BUILD)/churn
	$(Q)$(BUILD)/bench

# make bench-costs: what a user meets outside the check's hit path (issue
# 45; make bench runs it last): start-up by phase, BPF time a process start,
# the monitor's share of a core at fixed rates, memory (tools/bench/costs.py;
# BENCH_QUICK=1: about 1.5 min)
bench-costs:
	$(Q)$(MAKE) --no-print-directory $(BUILD)/capaudit
	$(Q)CAPAUDIT=$(BUILD)/capaudit tools/bench/costs.py

# make bench-objects BEFORE=PATH: the slow path's cost of reading a check's
# object, this build against the capaudit at PATH (one built before objects:
# tools/bench/objcost.sh)
bench-objects:
	$(Q)test -n "$(BEFORE)" || { echo "make bench-objects BEFORE=path/to/capaudit" >&2; exit 2; }
	$(Q)$(MAKE) --no-print-directory all $(BUILD)/objwork
	$(Q)OBJWORK=$(BUILD)/objwork tools/bench/objcost.sh $(BEFORE) $(BUILD)/capaudit $(CALLS) $(ROUNDS)

# make bench-real: real Debian workloads (nginx under wrk, perf bench sched
# messaging) with nothing attached, with monitor -a and with bpftrace's
# capable one-liners (tools/bench/realwork.sh; BENCH_QUICK=1: about 2 min)
bench-real:
	$(Q)tools/deps.sh bench
	$(Q)$(MAKE) --no-print-directory $(BUILD)/capaudit
	$(Q)CAPAUDIT=$(BUILD)/capaudit tools/bench/realwork.sh

# make install: the binary with file capabilities cap_bpf,cap_perfmon+ep
# for the members of one group (root:$(CAPAUDIT_GROUP), mode 0750; the
# group is created when missing; SETCAP= installs a plain binary; with
# DESTDIR neither: the commands are printed), the manual pages, bash and zsh
# completion, the documentation and the examples. make uninstall removes
# the same files (tools/install.sh has the one list).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/capaudit
# bash-completion's directory for PREFIX (it also reads /usr/local/share's);
# Debian's zsh reads vendor-completions under /usr, site-functions elsewhere
BASHCOMPDIR ?= $(if $(filter /usr,$(PREFIX)),$(or $(shell pkg-config --variable=completionsdir \
		bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions),$(PREFIX)/share/bash-completion/completions)
ZSHCOMPDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
SETCAP ?= setcap
CAPAUDIT_GROUP ?= capaudit
INSTALL_VARS = BUILD="$(BUILD)" DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" \
	MANDIR="$(MANDIR)" DOCDIR="$(DOCDIR)" BASHCOMPDIR="$(BASHCOMPDIR)" ZSHCOMPDIR="$(ZSHCOMPDIR)" \
	CAPAUDIT_GROUP="$(CAPAUDIT_GROUP)" SETCAP="$(SETCAP)"
install: $(BUILD)/capaudit man completion
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)$(INSTALL_VARS) tools/install.sh install

uninstall:
	$(call msg,UNINSTALL,$(DESTDIR)$(PREFIX))
	$(Q)$(INSTALL_VARS) tools/install.sh uninstall

# make deb: build/capaudit_$(VERSION)_amd64.deb with debhelper (debian/),
# built in a copy of the tree under build/deb (tools/build-deb.sh)
deb:
	$(Q)BUILD=$(BUILD) VERSION=$(VERSION) tools/build-deb.sh

clean:
	$(Q)rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) build-static build-static-*

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
