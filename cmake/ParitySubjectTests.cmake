# parity_add_subject_tests(TARGET <lib> FAMILY <family> SUBJECT <name>
#                          [BACKEND <backend>] [WILL_FAIL] [TIMEOUT <s>]
#                          [MAX_T <n>] [MAX_N <n>] [MAX_K <n>] [MAX_R <n>] [MAX_WORK <n>]
#                          [MAX_B <n>] [MAX_TOKENS <n>] [MAX_CHANNELS <n>] [MAX_ELEMENTS <n>])
#
# Registers with ctest every property of <family> (lora, transition) against the subject <name>
# that the library <lib> registers (PARITY_REGISTER_SUBJECT, subjects/subject_registry.hpp).
# Builds <lib>_parity_tests once per library: parity's property main (parity::property_main)
# linked with <lib>, whole-archive when <lib> is a static library so that its registrations
# are kept. Adds the test <name>_<family>_properties, labelled `properties`, and `gpu` when
# BACKEND (default host) names a CUDA backend; it exits 77, reported as skipped, when the
# subject cannot run here. Properties the subject lacks a capability for are reported as not
# applicable. Reproducers go under <build>/repros/<test>; PARITY_CASES sets the cases per property.
# MAX_<EXTENT> caps an extent of the family's generator for this test (lora: T, N, K, R, WORK;
# transition: B, TOKENS, CHANNELS, ELEMENTS), set as PARITY_MAX_<EXTENT> in the test's
# environment; a cap the family lacks is ignored by it, a bad value fails the test (exit 2).
#
# WILL_FAIL: the subject is a deliberately broken copy that parity must catch. The test passes
# only when some property fails on it; a usage or registration error still fails it.
function(parity_add_subject_tests)
  set(caps MAX_T MAX_N MAX_K MAX_R MAX_WORK MAX_B MAX_TOKENS MAX_CHANNELS MAX_ELEMENTS)
  cmake_parse_arguments(S "WILL_FAIL" "TARGET;FAMILY;SUBJECT;BACKEND;TIMEOUT;${caps}" "" ${ARGN})
  foreach(required TARGET FAMILY SUBJECT)
    if(NOT S_${required})
      message(FATAL_ERROR "parity_add_subject_tests: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET ${S_TARGET})
    message(FATAL_ERROR "parity_add_subject_tests: TARGET ${S_TARGET} is not a target")
  endif()

  set(exe ${S_TARGET}_parity_tests)
  if(NOT TARGET ${exe})
    add_executable(${exe})
    get_target_property(type ${S_TARGET} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      target_link_libraries(${exe} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${S_TARGET}>")
    else()
      target_link_libraries(${exe} PRIVATE ${S_TARGET})
    endif()
    target_link_libraries(${exe} PRIVATE parity::property_main)
  endif()

  set(name ${S_SUBJECT}_${S_FAMILY}_properties)
  add_test(NAME ${name} COMMAND ${exe} ${S_FAMILY} ${S_SUBJECT})
  set(labels properties)
  if(S_BACKEND MATCHES "cuda")
    list(APPEND labels gpu)
  endif()
  if(COMMAND parity_label_needs)  # in parity's own build (ParityTesting.cmake); not installed
    parity_label_needs("${labels}" ${exe})
  endif()
  if(NOT S_TIMEOUT)
    set(S_TIMEOUT 900)
  endif()
  set(environment "PARITY_REPRO_DIR=${CMAKE_BINARY_DIR}/repros/${name}")
  foreach(cap ${caps})
    if(DEFINED S_${cap})
      list(APPEND environment "PARITY_${cap}=${S_${cap}}")
    endif()
  endforeach()
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77 TIMEOUT ${S_TIMEOUT}
                       ENVIRONMENT "${environment}")
  if(S_WILL_FAIL)
    # The property main's last line: "parity: every applicable property holds ..." or
    # "parity: error: ...". Either one, inverted by WILL_FAIL, fails the test.
    set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE
                         PASS_REGULAR_EXPRESSION "parity: every applicable property holds;parity: error")
  endif()
endfunction()
