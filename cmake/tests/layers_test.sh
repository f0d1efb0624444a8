#!/usr/bin/env bash
# The stack of docs/design.md kept true (layers_test.py): first that the check fails where it
# must, on a copy of the picture and of three small folders with an include that points up and
# two libraries that link each other; then that the tree passes.
# usage: layers_test.sh SOURCE_DIR
set -euo pipefail
src=$1
check=$src/cmake/tests/layers_test.py
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/docs" "$t/core" "$t/properties" "$t/ops/framework"
cp "$src/docs/design.md" "$t/docs/"
echo '#include <parity/properties/gen/family.hpp>' > "$t/core/tensor.hpp"
mkdir -p "$t/properties/gen" && echo '// the family' > "$t/properties/gen/family.hpp"
printf 'add_library(parity_gen a.cpp)\ntarget_link_libraries(parity_gen PUBLIC parity_ops)\n' > "$t/properties/CMakeLists.txt"
printf 'add_library(parity_ops b.cpp)\ntarget_link_libraries(parity_ops PUBLIC parity_gen)\n' > "$t/ops/CMakeLists.txt"
if out=$(python3 "$check" "$t"); then
  echo "FAIL: the check passed a tree whose core includes properties/ and whose libraries link in a cycle"
  exit 1
fi
for expected in "core/tensor.hpp (core) includes <parity/properties/gen/family.hpp> (properties)" \
                "parity_gen (properties/CMakeLists.txt) links parity_ops (ops/CMakeLists.txt), which lies above it" \
                "libraries link in a cycle: parity_gen -> parity_ops -> parity_gen"; do
  grep -qF "$expected" <<< "$out" || { echo "$out"; echo "FAIL: the check did not report: $expected"; exit 1; }
done
python3 "$check" "$src"
