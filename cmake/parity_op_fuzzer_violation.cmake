# cmake -DPARITY_SUBJECT=<name> -P parity_op_fuzzer_violation.cmake -- <fuzzer> <argument>...
# The test of parity_add_op_fuzzer(... WILL_FAIL) (ParityOpFuzzer.cmake): runs the op fuzzer's
# command (everything after --), prints its output, and holds (exit 0) when it stopped at a
# violated property of PARITY_SUBJECT with a reproducer written, or when the subject cannot run
# here (the fuzzer's exit 77: its message makes the test skipped); fails otherwise.
set(command)
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "parity_op_fuzzer_violation.cmake: no command after --")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(result STREQUAL "77")
  return()
endif()
string(FIND "${out}" " violated on ${PARITY_SUBJECT}\n" violation)
string(FIND "${out}" "\n  reproducer: " reproducer)
if(result STREQUAL "0" OR violation EQUAL -1 OR reproducer EQUAL -1)
  message(FATAL_ERROR "parity_add_op_fuzzer: the fuzzer did not catch ${PARITY_SUBJECT} (exit: ${result})")
endif()
message("parity_add_op_fuzzer: caught ${PARITY_SUBJECT}")
