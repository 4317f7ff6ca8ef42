# The two commands a new user needs: `make run` and `make test`.
# Both install missing Debian packages first (scripts/setup.sh).
JOBS ?= $(shell nproc)

.PHONY: all setup build run test test-release test-asan bench clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

run: build
	@scripts/run.sh $(ARGS)

test: test-release test-asan

test-release: build
	@ctest --preset release -j $(JOBS)

# The unit tests once more under AddressSanitizer and UBSan.
test-asan: setup
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

bench: build
	@build/release/tests/bench/throng_bench $(ARGS)

clean:
	rm -rf build
