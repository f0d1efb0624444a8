# parity_add_test(NAME <name> (SOURCES <src...> [LIBS <lib...>] | COMMAND <cmd> <arg...>)
#                 LABELS <label...> [GPU] [WILL_FAIL] [TIMEOUT <s>] [ARGS <arg...>])
# The one helper that registers every test of parity with ctest. With SOURCES it builds an
# executable of that name; with COMMAND it runs an existing target or program. GPU tests are
# labelled `gpu` and exit 77 when no device is present, which ctest reports as skipped.
# Every test writes its reproducers under <build>/repros, never into the source tree.
# Each label has a target, parity_label_<label>, that builds the programs its tests run (the
# SOURCES executable, and every target named in COMMAND or ARGS, as itself or as
# $<TARGET_FILE:...>): `cmake --build <build> --target parity_label_unit` builds what
# `ctest -L unit` needs and nothing else.
# parity_label_needs(<labels> <targets>): parity_label_<label> builds <targets>, for each label.
function(parity_label_needs labels targets)
  foreach(label ${labels})
    if(NOT TARGET parity_label_${label})
      add_custom_target(parity_label_${label})
    endif()
    if(targets)
      add_dependencies(parity_label_${label} ${targets})
    endif()
  endforeach()
endfunction()

function(parity_add_test)
  cmake_parse_arguments(T "GPU;WILL_FAIL" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ARGS;COMMAND" ${ARGN})
  if(T_SOURCES)
    add_executable(${T_NAME} ${T_SOURCES})
    target_link_libraries(${T_NAME} PRIVATE ${T_LIBS})
    add_test(NAME ${T_NAME} COMMAND ${T_NAME} ${T_ARGS})
  elseif(T_COMMAND)
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND} ${T_ARGS})
  else()
    message(FATAL_ERROR "parity_add_test(${T_NAME}): give SOURCES or COMMAND")
  endif()
  set(labels ${T_LABELS})
  if(T_GPU)
    list(APPEND labels gpu)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77
                       ENVIRONMENT "PARITY_REPRO_DIR=${CMAKE_BINARY_DIR}/repros/${T_NAME}")
  set(needs)
  if(T_SOURCES)
    list(APPEND needs ${T_NAME})
  endif()
  foreach(word ${T_COMMAND} ${T_ARGS})
    if(word MATCHES "^\\$<TARGET_FILE:([^>]+)>$")
      list(APPEND needs ${CMAKE_MATCH_1})
    elseif(TARGET "${word}")
      list(APPEND needs ${word})
    endif()
  endforeach()
  parity_label_needs("${labels}" "${needs}")
  if(T_TIMEOUT)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
  if(T_WILL_FAIL)
    set_tests_properties(${T_NAME} PROPERTIES WILL_FAIL TRUE)
  endif()
endfunction()
