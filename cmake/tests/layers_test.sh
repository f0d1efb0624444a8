#!/usr/bin/env bash
# The stack of docs/design.md kept true (layers_test.py): first that the check fails where it
# must, on a small tree with docs/design.md's picture and one breach of each kind it reports; then
# that the tree passes.
# usage: layers_test.sh SOURCE_DIR
set -euo pipefail
src=$1
check=$src/cmake/tests/layers_test.py
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/docs" "$t/core/tests" "$t/oracles" "$t/properties/gen" "$t/ops/linear"
cp "$src/docs/design.md" "$t/docs/"
echo '// the family' > "$t/properties/gen/family.hpp"
echo '// an op' > "$t/ops/linear/linear_op.hpp"
echo '#include <parity/properties/gen/family.hpp>' > "$t/core/tensor.hpp"
echo '#include "../../ops/linear/linear_op.hpp"' > "$t/core/tests/tensor_test.cpp"
echo '#include <properties/gen/family.hpp>' > "$t/core/case.hpp"
printf 'target_sources(parity_ops PRIVATE linear_family.cpp)\n' > "$t/ops/linear/CMakeLists.txt"
printf 'add_library(parity_gen a.cpp)\ntarget_link_libraries(parity_gen PUBLIC parity_ops)\n' > "$t/properties/CMakeLists.txt"
printf 'add_library(parity_ops b.cpp)\ntarget_link_libraries(parity_ops PUBLIC\n  parity_gen)\n' > "$t/ops/CMakeLists.txt"
printf 'parity_add_test(NAME core_x_test SOURCES x.cpp LIBS $<LINK_ONLY:parity_gen> GTest::gtest_main LABELS unit)\n' \
  > "$t/core/CMakeLists.txt"
printf 'add_library(parity_oracles o.cpp ${PROJECT_SOURCE_DIR}/ops/linear/l.cpp)\n' > "$t/oracles/CMakeLists.txt"
if out=$(python3 "$check" "$t"); then
  echo "$out"
  echo "FAIL: the check passed a tree that breaks the stack"
  exit 1
fi
for expected in "core/tensor.hpp (core) includes <parity/properties/gen/family.hpp> (properties)" \
                'core/tests/tensor_test.cpp (core) includes "../../ops/linear/linear_op.hpp" (ops/*)' \
                "core/case.hpp (core) includes <properties/gen/family.hpp> (properties)" \
                "parity_ops (ops/CMakeLists.txt) compiles ops/linear/linear_family.cpp (ops/*), which lies above it" \
                "parity_gen (properties/CMakeLists.txt) links parity_ops (ops/CMakeLists.txt), which lies above it" \
                "core_x_test (core/CMakeLists.txt) links parity_gen (properties/CMakeLists.txt), which lies above it" \
                "parity_oracles (oracles/CMakeLists.txt) compiles ops/linear/l.cpp (ops/*), which lies above it" \
                "libraries link in a cycle: parity_gen -> parity_ops -> parity_gen"; do
  grep -qF "$expected" <<< "$out" || { echo "$out"; echo "FAIL: the check did not report: $expected"; exit 1; }
done
echo "the check reports each kind of breach on a small tree"
python3 "$check" "$src"
