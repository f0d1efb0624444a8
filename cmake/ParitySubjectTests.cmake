# parity_add_subject_tests(TARGET <lib> FAMILY <family> SUBJECT <name>
#                          [BACKEND <backend>] [WILL_FAIL] [TIMEOUT <s>])
#
# Needs parity's LibTorch component (parity::property_main).
# Registers with ctest every property of <family> (lora, transition) against the subject <name>
# that the library <lib> registers (PARITY_REGISTER_SUBJECT, subjects/subject_registry.hpp).
# Builds <lib>_parity_tests once per library: parity's property main (parity::property_main)
# linked with <lib>, whole-archive when <lib> is a static library so that its registrations
# are kept. Adds the test <name>_<family>_properties, labelled `properties`, and `gpu` when
# BACKEND (default host) names a CUDA backend; it exits 77, reported as skipped, when the
# subject cannot run here. Properties the subject lacks a capability for are reported as not
# applicable. Reproducers go under <build>/repros/<test>; PARITY_CASES sets the cases per property.
#
# WILL_FAIL: the subject is a deliberately broken copy that parity must catch. The test passes
# only when some property fails on it; a usage or registration error still fails it.
function(parity_add_subject_tests)
  cmake_parse_arguments(S "WILL_FAIL" "TARGET;FAMILY;SUBJECT;BACKEND;TIMEOUT" "" ${ARGN})
  foreach(required TARGET FAMILY SUBJECT)
    if(NOT S_${required})
      message(FATAL_ERROR "parity_add_subject_tests: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET parity::property_main)
    message(FATAL_ERROR "parity_add_subject_tests: parity::property_main is missing: find_package(parity) with the "
                        "LibTorch component (the default; COMPONENTS Core leaves it out)")
  endif()
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
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77 TIMEOUT ${S_TIMEOUT}
                       ENVIRONMENT "PARITY_REPRO_DIR=${CMAKE_BINARY_DIR}/repros/${name}")
  if(S_WILL_FAIL)
    # The property main's last line: "parity: every applicable property holds ..." or
    # "parity: error: ...". Either one, inverted by WILL_FAIL, fails the test.
    set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE
                         PASS_REGULAR_EXPRESSION "parity: every applicable property holds;parity: error")
  endif()
endfunction()
