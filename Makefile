# tiadash: a plain Makefile. `make` builds ./tiadash; `make check` runs every
# test; `make SANITIZE=1 check` runs them under ASan+UBSan; `make bench`
# measures the SPEC section 9 targets; `make demo` opens the sample week.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
CC ?= cc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config
PYTHON ?= python3

PKGS = ncursesw sqlite3 libcjson libgit2 libcurl libpcre2-8 expat yaml-0.1 libzip libcrypto
TEST_PKGS = cmocka

# Evaluated once, on first use (git's lazy-eval form), so `make clean` and
# `make deps` work before the libraries are installed.
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell $(PKG_CONFIG) --cflags $(PKGS)))$(PKG_CFLAGS)
# libcurl is not linked: core/libcurl.c loads it when a command first fetches.
LINK_PKGS = $(filter-out libcurl,$(PKGS))
PKG_LIBS = $(eval PKG_LIBS := $$(shell $(PKG_CONFIG) --libs $(LINK_PKGS)))$(PKG_LIBS)
TEST_CFLAGS = $(eval TEST_CFLAGS := $$(shell $(PKG_CONFIG) --cflags $(TEST_PKGS)))$(TEST_CFLAGS)
TEST_LIBS = $(eval TEST_LIBS := $$(shell $(PKG_CONFIG) --libs $(TEST_PKGS)))$(TEST_LIBS)

WARNINGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-format-nonliteral -Wvla -Wundef \
	-Wold-style-definition
override CFLAGS += -std=c11 $(WARNINGS) -I. -MMD -MP -pthread
ifdef DEVELOPER
override CFLAGS += -Werror
endif

# GROW_STRESS=1: every array growth moves its block (core/util.c xrealloc),
# so with SANITIZE=1 a pointer kept across a growth is caught at once.
ifdef GROW_STRESS
override CFLAGS += -DGROW_STRESS
GROW_SUFFIX = -grow
endif

ifdef SANITIZE
BUILD ?= build/sanitize$(GROW_SUFFIX)
override CFLAGS += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
override LDFLAGS += -fsanitize=address,undefined
BIN = $(BUILD)/tiadash
else ifdef GROW_STRESS
BUILD ?= build/grow
BIN = $(BUILD)/tiadash
else
BUILD ?= build/default
BIN = tiadash
endif

# ./tiadash allocates with mimalloc (NO_MIMALLOC=1: glibc's malloc; the
# sanitizers bring their own). libgit2 makes about six allocations for
# each object it reads and zlib one of 7 kB: on the bench's 10^4 commits
# glibc's malloc and free were a sixth of replay's time, and replay -j 2
# takes 0.17-0.18 s with mimalloc where it took 0.20-0.22 (make bench).
ifndef SANITIZE
ifndef NO_MIMALLOC
MALLOC_LIBS = -lmimalloc
endif
endif

SRC_DIRS = core adapters ingest metrics replay seed tui
SRCS = $(sort $(wildcard $(addsuffix /*.c,$(SRC_DIRS))))
MAIN_SRC = core/main.c
LIB_SRCS = $(filter-out $(MAIN_SRC),$(SRCS))
LIB_OBJS = $(LIB_SRCS:%.c=$(BUILD)/%.o) $(MAN_OBJ)
MAIN_OBJ = $(MAIN_SRC:%.c=$(BUILD)/%.o)
# The man page, compiled in for `tiadash help COMMAND` (core/manpage.h).
MAN_C = $(BUILD)/gen/manpage.c
MAN_OBJ = $(BUILD)/gen/manpage.o

UNIT_SRCS = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS = $(UNIT_SRCS:%.c=$(BUILD)/%)
HELPER_BINS = $(BUILD)/tests/helper/tt

# Rebuild everything when the flags change (git's GIT-CFLAGS).
FLAGS_STAMP = $(BUILD)/.flags
FLAGS_NOW = $(CC) $(CFLAGS) $(LDFLAGS) $(MALLOC_LIBS)

# Quiet by default; `make V=1` shows the commands.
ifndef V
QUIET_CC = @echo '   ' CC $@;
QUIET_LINK = @echo '   ' LINK $@;
endif

.PHONY: all check test unit e2e bench demo deps test-deps install uninstall clean \
	sampledata fuzz pages test-tools FORCE
.DEFAULT_GOAL := all

all: $(BIN)

$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then \
		echo '$(FLAGS_NOW)' > $@; fi

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(MAN_C): man/tiadash.1
	@mkdir -p $(@D)
	@{ echo '/* Generated from man/tiadash.1 by the Makefile: do not edit. */'; \
	  echo '#include "core/manpage.h"'; echo 'const char tiadash_man_page[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/\t"/' \
	      -e 's/$$/\\n"/' $<; echo ';'; } >$@

$(MAN_OBJ): $(MAN_C) $(FLAGS_STAMP)
	$(QUIET_CC)$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BIN): $(MAIN_OBJ) $(LIB_OBJS)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -pthread -o $@ $^ $(MALLOC_LIBS) $(PKG_LIBS) -lm

$(BUILD)/tests/unit/%: tests/unit/%.c $(LIB_OBJS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< \
		$(LIB_OBJS) $(PKG_LIBS) $(TEST_LIBS) -lm

$(BUILD)/tests/helper/%: tests/helper/%.c $(LIB_OBJS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) \
		$(PKG_LIBS) -lm

# The sample shadow week: a git repository and its CI artifacts.
SAMPLE = sampledata/build
$(SAMPLE)/.built: sampledata/make-week.py
	$(PYTHON) sampledata/make-week.py --out $(SAMPLE)
	@touch $@
sampledata: $(SAMPLE)/.built

# The real tools the tests run: the selectors they replay through (vitest,
# turbo, moon) and a JUnit producer (jest with jest-junit), pinned
# in tests/npm/package-lock.json and installed by npm ci into build/; without
# npm (or the registry) their tests say so and skip. .ci/run requires them.
TOOLS = build/test-tools
test-tools:
	@if [ "$$(cat $(TOOLS)/.installed 2>/dev/null)" = "$$(cat tests/npm/package-lock.json | cksum)" ]; then :; \
	elif ! command -v npm >/dev/null 2>&1; then \
		echo "npm not found: the tests of real selectors (vitest, turbo, moon) skip" >&2; \
	else mkdir -p $(TOOLS) && cp tests/npm/package.json tests/npm/package-lock.json $(TOOLS)/ && \
		(cd $(TOOLS) && npm ci --no-audit --no-fund --loglevel=error >/dev/null) && \
		cat tests/npm/package-lock.json | cksum >$(TOOLS)/.installed || \
		echo "npm ci failed: the tests of real selectors skip" >&2; fi

# The sample week's store, ingested once for the tests that only read it
# (tests/lib.sh's sample_week copies it), by the binary under test.
SAMPLE_DB = $(BUILD)/sample.db

TEST_ENV = TIADASH_BIN='$(abspath $(BIN))' TT_BIN='$(abspath $(BUILD)/tests/helper/tt)' \
	TEST_TOOLS='$(abspath $(TOOLS))' \
	UNIT_DIR='$(abspath $(BUILD)/tests/unit)' SAMPLE='$(abspath $(SAMPLE))' \
	SAMPLE_DB='$(abspath $(SAMPLE_DB))' TEST_RESULTS='$(BUILD)/test-results'

$(SAMPLE_DB): $(BIN) $(SAMPLE)/.built tests/sample-db.sh tests/lib.sh
	@$(TEST_ENV) tests/sample-db.sh $@

check test: test-deps
	@echo "check: building tiadash, the unit tests and the test helpers"
	@$(MAKE) --no-print-directory DEVELOPER=1 $(BIN) $(UNIT_BINS) $(HELPER_BINS)
	@echo "check: the sample week and its store, and the real selectors the tests run (npm)"
	@$(MAKE) --no-print-directory DEVELOPER=1 sampledata test-tools $(SAMPLE_DB)
	@echo "check: running the tests (each file's line as it finishes)"
	@$(TEST_ENV) tests/run $(TESTS)

# One test file: make tests/t1000-ingest-sample.sh
tests/t%.sh: FORCE
	@$(MAKE) --no-print-directory $(BIN) $(HELPER_BINS) sampledata test-tools $(SAMPLE_DB)
	@$(TEST_ENV) tests/run $@

bench: $(BIN) $(HELPER_BINS) sampledata test-tools
	@$(TEST_ENV) tests/bench/run

# The demo installs (and builds) only what the build needs, and dates its
# own copy of the sample week to end now (sampledata/demo-week).
demo: deps
	@echo "demo: building ./tiadash"
	@$(MAKE) --no-print-directory $(BIN)
	@sampledata/demo

# The README's pictures of the sample week's HTML pages (committed; run
# this whenever the pages change).
pages: test-deps
	@$(MAKE) --no-print-directory $(BIN) sampledata
	@scripts/render-pages '$(abspath $(BIN))' '$(abspath $(SAMPLE))' doc

# Fuzzing (STYLE 10, SPEC 9): `make fuzz` builds every tests/fuzz/fuzz_*.c
# as a libFuzzer binary in build/fuzz, linked with the library objects built
# by clang under ASan and UBSan; tests/fuzz/run-all.sh runs them. Targets
# link an archive, so each takes only the objects it uses (never tui/). The
# LD_PRELOAD shim of the I/O-failure tests is built with the test helpers.
FUZZ_BUILD = build/fuzz
FUZZ_SRCS = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS = $(FUZZ_SRCS:%.c=$(FUZZ_BUILD)/%)
FUZZ_LIB = $(FUZZ_BUILD)/libtiadash-fuzz.a
FAILIO = $(BUILD)/tests/fuzz/failio.so
HELPER_BINS += $(FAILIO)
# The fuzz targets always move every growth (GROW_STRESS above).
ifdef FUZZ
override CFLAGS += -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=all -DGROW_STRESS
override LDFLAGS += -fsanitize=address,undefined
endif

fuzz:
	@$(MAKE) --no-print-directory FUZZ=1 CC=clang BUILD=$(FUZZ_BUILD) $(FUZZ_BINS)

$(FUZZ_LIB): $(filter-out $(BUILD)/tui/%,$(LIB_OBJS))
	$(QUIET_LINK)rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIB) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_LIB) $(PKG_LIBS) -lm

# Plain flags, never the sanitizers: it is preloaded into any build.
$(FAILIO): tests/fuzz/failio.c
	@mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -O2 -g -std=c11 -Wall -Wextra -fPIC -shared -o $@ $< -ldl

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --tests

install: $(BIN)
	install -Dm755 $(BIN) '$(DESTDIR)$(BINDIR)/tiadash'
	install -Dm644 man/tiadash.1 '$(DESTDIR)$(MANDIR)/man1/tiadash.1'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/tiadash' '$(DESTDIR)$(MANDIR)/man1/tiadash.1'

clean:
	rm -rf build tiadash $(SAMPLE) sampledata/demo-week

FORCE:

-include $(shell find build -name '*.d' 2>/dev/null)
