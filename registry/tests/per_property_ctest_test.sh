#!/usr/bin/env bash
# per_property_ctest_test.sh PROGRAM SOURCE_DIR
# parity_add_property_tests (cmake/ParitySubjectTests.cmake) in a project of its own, on PROGRAM
# (run_property_subjects: parity's property main with deliberately wrong subjects): ctest must
# list one test per lora_forward property (the op every LoRA subject is), labelled, and running
# them must fail the property the subject breaks (test-wrong-from-t16: rows_independent, and the
# others its nudge shows) as a test of its own, while a property it keeps (repeatable: it is
# deterministic) passes as another.
prog=$1 source_dir=$2
source "$source_dir/core/tests/expect.sh"
mkdir -p "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(per_property NONE)
enable_testing()
include("$source_dir/cmake/ParitySubjectTests.cmake")
add_executable(subjects IMPORTED)
set_target_properties(subjects PROPERTIES IMPORTED_LOCATION "$prog")
parity_add_property_tests(EXECUTABLE subjects FAMILY lora_forward SUBJECT test-wrong-from-t16 PREFIX wrong
                          LABELS properties extra TIMEOUT 600 REPRO_DIR "$work/repros")
CMAKE
cmake -S "$work/project" -B "$work/build" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
listed=$(ctest --test-dir "$work/build" -N -L extra | grep -c 'Test *#[0-9]*: wrong\.lora_forward\.')
want=$("$prog" --gtest_list_tests | grep -c '^  ')
want_lora=$("$prog" --gtest_list_tests | awk '/^[^ ]/ {suite=$1} /^  / && suite == "lora_forward." {n++} END {print n}')
if [ "$listed" -eq "$want_lora" ] && [ "$want_lora" -ge 2 ] && [ "$want" -gt "$want_lora" ]; then
  echo "ok:   $listed lora_forward properties listed as tests (of $want properties of every family)"
else
  fail "$listed tests listed with label extra, want $want_lora (the lora_forward properties)"
fi
ctest --test-dir "$work/build" -L properties >"$work/ctest.log" 2>&1
failed=$(sed -n '/The following tests FAILED/,$p' "$work/ctest.log" | grep -o 'wrong\.lora_forward\.[a-z_]*' | sort -u | tr '\n' ' ')
if [[ " $failed" == *" wrong.lora_forward.rows_independent "* && " $failed" != *" wrong.lora_forward.repeatable "* ]]; then
  echo "ok:   failed as tests of their own: $failed"
else
  fail "failed tests '${failed}', want wrong.lora_forward.rows_independent among them"; tail -30 "$work/ctest.log"
fi
grep -q 'wrong\.lora_forward\.repeatable .*Passed' "$work/ctest.log" || fail "wrong.lora_forward.repeatable did not pass"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "per_property_ctest_test: one ctest test per property; the broken property fails alone"
