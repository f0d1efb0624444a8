#!/usr/bin/env bash
# parity as a user gets it: installs the build to a temporary prefix, moves the prefix elsewhere
# (an install is relocatable), configures and builds examples/custom_lora against it with the
# LibTorch at TORCH_ROOT on CMAKE_PREFIX_PATH, and runs the example's `ctest -L properties`. Holds when every
# LoRA property holds on the example's host path and its broken copy is caught: a property
# failed on it, shrunk, with a reproducer written, and the replay command printed with it (the
# example's own test program, which knows its subjects) still fails on that reproducer, which
# passes on the good host path (--subject).
# usage: custom_lora_package_test.sh BUILD_DIR EXAMPLE_DIR TORCH_ROOT [-DVAR=VALUE...]   (for the example)
set -euo pipefail
build=$1 example=$2 torch_root=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/stage" > "$work/install.log"
mkdir "$work/moved"
mv "$work/stage" "$work/moved/prefix"
cmake -S "$example" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/moved/prefix;$torch_root" "$@" > "$work/configure.log" ||
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
repros="$work/build/repros/my-lora-host-broken_lora_properties"
program="$work/build/my_lora_parity_tests"

# expect STATUS TEXT -- COMMAND...: COMMAND exits STATUS and prints TEXT.
expect() {
  local want=$1 text=$2 got=0
  shift 3
  "$@" > "$work/out.log" 2>&1 || got=$?
  [[ $got -eq $want ]] && grep -qF -- "$text" "$work/out.log" ||
    { cat "$work/out.log"; fail "'$*' exited $got (want $want, printing '$text')"; }
}
# The replay command the failure printed, run as printed.
replay=$(grep -m 1 -o "replay: .*" "$work/ctest.log" | sed 's/^replay: *//')
[[ $replay == "$program --replay $repros/"*.json ]] || fail "the failure printed '$replay', not $program --replay FILE"
read -r -a replay_words <<< "$replay"
expect 1 "STILL FAILS" -- "${replay_words[@]}"
expect 1 "on my-lora-host-broken" -- "$program" --replay "$repros"
expect 0 "passes now" -- "$program" --replay --subject my-lora-host "$repros"
grep -q "STILL FAILS\|discarded" "$work/out.log" && { cat "$work/out.log"; fail "a reproducer does not pass on my-lora-host"; }
expect 2 "no such file" -- "$program" --replay "$work/missing.json"
expect 2 "unknown lora subject 'nobody'" -- "$program" --replay --subject nobody "$repros"
echo "custom_lora: every property holds on my-lora-host; my-lora-host-broken caught with a reproducer that"
echo "replays failing through $(basename "$program") and passes on my-lora-host"
