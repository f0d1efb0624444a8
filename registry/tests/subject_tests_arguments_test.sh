#!/usr/bin/env bash
# subject_tests_arguments_test.sh SOURCE_DIR
# parity_add_subject_tests (cmake/ParitySubjectTests.cmake) refuses an argument it does not know,
# naming it, rather than dropping it: the transition family's former cap MAX_TOKENS among them,
# whose message names the caps that replace it.
source_dir=$1
source "$source_dir/core/tests/expect.sh"
mkdir -p "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(subject_tests_arguments NONE)
include("$source_dir/cmake/ParitySubjectTests.cmake")
parity_add_subject_tests(TARGET none FAMILY transition SUBJECT parity-host MAX_TOKENS 64)
CMAKE
if cmake -S "$work/project" -B "$work/build" >"$work/configure.log" 2>&1; then
  fail "MAX_TOKENS 64 configured"
elif message=$(tr -s ' \n' ' ' <"$work/configure.log") &&
  [[ "$message" == *"parity_add_subject_tests: unknown arguments: MAX_TOKENS 64 ("* ]] &&
  [[ "$message" == *"MAX_ELEMENTS are MAX_N and MAX_B"* ]]; then
  echo "ok:   MAX_TOKENS 64 refused, naming it and MAX_N, MAX_B"
else
  fail "the refusal names neither MAX_TOKENS nor its replacements"; cat "$work/configure.log"
fi
[ "$failures" -eq 0 ]
