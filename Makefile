# Parallax: the two set-up commands are `make demo` and `make test`.
# Both install missing Debian packages first (scripts/install-deps).

JOBS       ?= 2
BUILD      ?= build
ASAN_BUILD ?= build-asan
WERROR     := $(if $(CI),ON,OFF)
PREFIX     ?= /usr/local

.PHONY: all deps web build build-asan test soak demo bench install package format clean

all: build

deps:
	@scripts/install-deps

# Release build with gcc: the CLI, the runtime, tests, benchmarks, examples,
# and the browser viewer (web/dist, served by `parallax serve`).
build: deps web
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DPLX_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The browser viewer alone: npm ci (when the lock file changed), then vite build.
web: deps
	@scripts/build-web

# Sanitizer build with clang (ASan + UBSan) that also builds the libFuzzer targets.
build-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DPLX_SANITIZE=ON -DPLX_FUZZ=ON -DPLX_BENCH=OFF -DPLX_WERROR=$(WERROR) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# Every test: the gcc build, then the same tests (plus fuzzers) under ASan+UBSan.
test: build build-asan
	@scripts/run-tests $(BUILD) $(ASAN_BUILD)

# The server under mixed load for 10 minutes (make test runs it for 5 s):
# API clients, viewers that never read, malformed and idle peers, live streams.
soak: build
	@PLX_SOAK_SECONDS=$${PLX_SOAK_SECONDS:-600} $(BUILD)/tests/server/server_serve_soak_test

# Build, trace the bundled demo program, show what it did, and serve the viewer on it.
demo: build
	@scripts/demo $(BUILD)

# Run the benchmarks and print the numbers that docs/PERFORMANCE.md records.
bench: build
	@scripts/bench $(BUILD)

# The program, libraries, headers, viewer, man pages and docs under PREFIX
# (docs/install.md); binaries stripped. The prefix can be moved afterwards.
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX) --strip

# A Debian package of the same: $(BUILD)/parallax_<version>_<arch>.deb.
package: build
	@cmake --build $(BUILD) --target package

format:
	@git ls-files '*.c' '*.cc' '*.h' '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
