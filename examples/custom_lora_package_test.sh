#!/usr/bin/env bash
# parity as a user gets it: installs the build to a temporary prefix, configures and builds
# examples/custom_lora against it, and runs the example's `ctest -L properties`. Holds when every
# LoRA property holds on the example's host path and its broken copy is caught: a property
# failed on it, shrunk, with a reproducer written.
# usage: custom_lora_package_test.sh BUILD_DIR EXAMPLE_DIR [-DVAR=VALUE...]   (for the example)
set -euo pipefail
build=$1 example=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$example" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" "$@" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j 2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
ctest --test-dir "$work/build" -L properties --output-on-failure -V > "$work/ctest.log" 2>&1 || status=$?
cat "$work/ctest.log"
[[ ${status:-0} -eq 0 ]] || { echo "FAIL: the example's ctest failed"; exit 1; }

fail() { echo "FAIL: $1"; exit 1; }
grep -q "parity: every applicable property holds" "$work/ctest.log" || fail "no property run held on my-lora-host"
grep -q "FAILED lora/.* on my-lora-host-broken" "$work/ctest.log" || fail "no property failed on the broken copy"
ls "$work/build/repros/my-lora-host-broken_lora_properties/"*.json > /dev/null 2>&1 ||
  fail "no reproducer was written for the broken copy"
echo "custom_lora: every property holds on my-lora-host; my-lora-host-broken caught with a reproducer"
