# The two commands a new user needs: `make run` and `make test`.
# Both install missing Debian packages first (scripts/setup.sh).
JOBS ?= $(shell nproc)

.PHONY: all setup build run test test-release test-asan test-clang test-fuzz bench clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

run: build
	@scripts/run.sh $(ARGS)

test: test-release test-asan test-clang test-fuzz

test-release: build
	@ctest --preset release -j $(JOBS)

# The unit tests once more under AddressSanitizer and UBSan.
test-asan: setup
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# The library, the command and the unit and scene tests built with Clang,
# warnings as errors, and its hashes against the GCC build's on every
# shipped scene at 1 and 2 threads (so `build` first: the GCC command).
test-clang: build
	@cmake --preset clang >/dev/null
	@cmake --build --preset clang -j $(JOBS)
	@ctest --preset clang -j $(JOBS)

# libFuzzer (Clang, ASan + UBSan) over the scene loader, throng check's reader
# and the command-line parsers, a few thousand inputs each from tests/fuzz/corpus.
test-fuzz: setup
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	@ctest --preset fuzz -j $(JOBS)

bench: build
	@build/release/tests/bench/throng_bench $(ARGS)

clean:
	rm -rf build
