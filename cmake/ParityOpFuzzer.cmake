# parity_add_op_fuzzer(TARGET <lib> [SUBJECT <name> [WILL_FAIL] [OP <op>] [RUNS <n>]])
#
# Needs parity's LibTorch component (parity::op_fuzzer_harness).
# Builds <lib>_op_fuzzer once per library: parity's op harness (every op the program has, its own
# and parity's: bytes -> a case of an op -> one of the op's properties on $PARITY_FUZZ_SUBJECT;
# fuzz/README.md in parity's sources) with the plain driver, whose command line is libFuzzer's
# (-runs, -seed, -dict, -max_len, -artifact_prefix, files and directories), linked with <lib>,
# whole-archive when <lib> is a static library so that its registrations are kept. Fuzz a kernel
# continuously with it as
#   mkdir -p crashes && PARITY_FUZZ_SUBJECT=<name> <lib>_op_fuzzer -seed=$RANDOM -runs=1000000 \
#     -max_len=200 -dict=${parity_FUZZ_DIR}/floats.dict -artifact_prefix=crashes/ ${parity_FUZZ_DIR}/corpus/op_fuzzer
# (PARITY_FUZZ_OP=<op> fixes the op; crashes/ must exist, as for libFuzzer; the driver keeps its
# mutations in memory and follows -seed, so each run of continuous fuzzing takes another seed): a
# violated property prints the failure, writes a reproducer
# to $PARITY_REPRO_DIR and the input to <artifact_prefix>crash-<hash>, prints the command that
# replays the reproducer (<lib>_parity_tests --replay FILE: the program parity_add_subject_tests
# builds for <lib>) and stops the program (a signal).
# With SUBJECT, adds the ctest test <name>.op_fuzzer, label fuzz-smoke: RUNS (default 2000)
# executions from the installed seeds, which passes when the subject holds every property on every
# input (skipped, exit 77, when it cannot run here), or, with WILL_FAIL (a deliberately broken
# copy), only when some property is violated on it with a reproducer written.
function(parity_add_op_fuzzer)
  cmake_parse_arguments(F "WILL_FAIL" "TARGET;SUBJECT;OP;RUNS" "" ${ARGN})
  if(F_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "parity_add_op_fuzzer: unknown arguments: ${F_UNPARSED_ARGUMENTS} "
                        "(TARGET SUBJECT OP WILL_FAIL RUNS)")
  endif()
  if(NOT F_TARGET OR NOT TARGET ${F_TARGET})
    message(FATAL_ERROR "parity_add_op_fuzzer: TARGET '${F_TARGET}' is not a target")
  endif()
  if(NOT TARGET parity::op_fuzzer_harness)
    message(FATAL_ERROR "parity_add_op_fuzzer: parity::op_fuzzer_harness is missing: find_package(parity) with the "
                        "LibTorch component (the default; COMPONENTS Core leaves it out)")
  endif()
  if(NOT parity_FUZZ_DIR OR NOT EXISTS "${parity_FUZZ_DIR}/driver_main.cpp")
    message(FATAL_ERROR "parity_add_op_fuzzer: parity_FUZZ_DIR ('${parity_FUZZ_DIR}') does not hold the op fuzzer's "
                        "driver: find_package(parity) sets it to the install's share/parity/fuzz")
  endif()
  if((F_WILL_FAIL OR DEFINED F_OP OR DEFINED F_RUNS) AND NOT F_SUBJECT)
    message(FATAL_ERROR "parity_add_op_fuzzer: WILL_FAIL, OP and RUNS are the SUBJECT's test: name the SUBJECT")
  endif()
  if(NOT DEFINED F_RUNS)
    set(F_RUNS 2000)
  elseif(NOT F_RUNS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "parity_add_op_fuzzer: RUNS ${F_RUNS} is not a positive whole number")
  endif()

  set(exe ${F_TARGET}_op_fuzzer)
  if(NOT TARGET ${exe})
    add_executable(${exe} "${parity_FUZZ_DIR}/driver_main.cpp")
    parity_link_registrations(${exe} ${F_TARGET})  # ParitySubjectTests.cmake
    target_link_libraries(${exe} PRIVATE parity::op_fuzzer_harness)
    # A violation's replay line: the program parity_add_subject_tests builds for <lib>, which
    # knows its ops and subjects (`parity replay` does not).
    set(tests ${F_TARGET}_parity_tests)
    # (Not $<IF:...>, which evaluates both arms: a TARGET_FILE of no target fails to generate.)
    set(found "$<TARGET_EXISTS:${tests}>")
    set(program "$<TARGET_FILE:${tests}> --replay")
    set(no_program "${tests} (parity_add_subject_tests(TARGET ${F_TARGET} ...)) --replay")
    target_compile_definitions(${exe} PRIVATE
                               "PARITY_FUZZ_REPLAY_COMMAND=\"$<${found}:${program}>$<$<NOT:${found}>:${no_program}>\"")
  endif()
  if(NOT F_SUBJECT)
    return()
  endif()

  set(name ${F_SUBJECT}.op_fuzzer)
  if(TEST ${name})
    message(FATAL_ERROR "parity_add_op_fuzzer: SUBJECT ${F_SUBJECT} has its op fuzzer test ${name} already")
  endif()
  set(scratch ${CMAKE_CURRENT_BINARY_DIR}/op_fuzzer/${F_SUBJECT})
  file(MAKE_DIRECTORY ${scratch}/new)
  set(command $<TARGET_FILE:${exe}> -runs=${F_RUNS} -seed=1 -max_len=200 -dict=${parity_FUZZ_DIR}/floats.dict
              -artifact_prefix=${scratch}/ ${scratch}/new ${parity_FUZZ_DIR}/corpus/op_fuzzer)
  set(environment "PARITY_FUZZ_SUBJECT=${F_SUBJECT}" "PARITY_REPRO_DIR=${CMAKE_BINARY_DIR}/repros/${F_SUBJECT}_op_fuzzer")
  if(F_OP)
    list(APPEND environment "PARITY_FUZZ_OP=${F_OP}")
  endif()
  if(F_WILL_FAIL)
    # The violation stops the program by a signal, which ctest reports as a failure whatever
    # WILL_FAIL says: a script runs it and judges the output.
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DPARITY_SUBJECT=${F_SUBJECT}" -P
                                  ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/parity_op_fuzzer_violation.cmake -- ${command})
    set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "op_fuzzer: subject [^\n]* cannot run here")
  else()
    add_test(NAME ${name} COMMAND ${command})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS fuzz-smoke SKIP_RETURN_CODE 77 TIMEOUT 900
                       ENVIRONMENT "${environment}")
endfunction()
