# parity_add_subject_tests(TARGET <lib> FAMILY <family> SUBJECT <name>
#                          [BACKEND <backend>] [WILL_FAIL] [TIMEOUT <s>]
#                          [MAX_T <n>] [MAX_N <n>] [MAX_K <n>] [MAX_R <n>]
#                          [MAX_B <n>]
#                          [MAX <EXT>=<n>...] [DTYPES <dtype>...] [PARAMS <name>=<value>...])
# parity_add_subject_tests(OP <op>|FAMILY <family> TORCH_OP <schema> LIBRARY <lib>
#                          [TORCH_ARGS <name>=<value>...] [TORCH_RETURNS <output>|_...] [DEVICE cpu|cuda]
#                          [KERNEL_OP <op>]
#                          [WILL_FAIL] [TIMEOUT <s>] [MAX <EXT>=<n>...] [DTYPES <dtype>...]
#                          [PARAMS <name>=<value>...])
#
# Needs parity's LibTorch component (parity::property_main).
# Registers with ctest every property of <family> (lora, transition, an op such as rms_norm)
# against the subject <name> that the library <lib> registers (PARITY_REGISTER_OP_SUBJECT; lora's
# subjects are lora_backward's, transition's transition_step's). OP is another name for FAMILY.
# Builds <lib>_parity_tests once per library: parity's property main (parity::property_main)
# linked with <lib>, whole-archive when <lib> is a static library so that its registrations
# are kept. Adds one test per property, <name>.<family>.<property>, labelled `properties`, and `gpu` when
# BACKEND (default host) names a CUDA backend; it exits 77, reported as skipped, when the
# subject cannot run here. Properties the subject lacks a capability for are reported as not
# applicable. Reproducers go under <build>/repros/<name>_<family>_properties; PARITY_CASES sets the cases per property.
# MAX_<EXTENT> caps an extent of the family's generator for this test (lora: T, N, K, R;
# transition: B, N for its n), set as PARITY_MAX_<EXTENT> in the test's
# environment; a cap the family lacks is ignored by it, a bad value fails the test (exit 2).
# MAX <EXT>=<n>... caps any extent by its name, an op family's among them (FAMILY rms_norm
# MAX T=4096 D=8192), set as PARITY_MAX_<EXT in upper case>=<n> the same way.
# DTYPES and PARAMS restrict an op's generated cases to what the subject supports (DTYPES f32:
# a float32-only kernel; PARAMS bias=1, or layout=0 for sdpa: declared parameters fixed), as `parity check
# --dtypes --param` does; another family refuses them (exit 2).
#
# TORCH_OP: the subject is the PyTorch operator <schema> (e.g. mylib::rms_norm, registered with
# TORCH_LIBRARY), called through the dispatcher with no code of the user's (parity check
# --torch-op, ops/torch_op/torch_op.hpp); with FAMILY model or trajectory
# (registry/torch_op_registration.hpp), the family's runtime
# with its float32 projections on the operator, as a kernel of the op linear
# (runtime-host+linear=<schema>, bound-all+linear=<schema>; the trajectory's on CPU only), or
# with KERNEL_OP <op> (rms_norm, rope, swiglu, sdpa; transition_step on model) the routines that run
# that op on it (runtime-host+<op>=<schema>, bound-all+<op>=<schema>; --kernel-op; tests named
# <schema>+<op>.<family>.<property>; the backward ops stay parity's). LIBRARY (a shared-library target, or a
# file) is loaded first; TORCH_ARGS are --torch-arg's NAME=VALUE pairs (a declared name to a schema
# argument, or an argument to a literal such as dim=-1 or normalized_shape=[D]); TORCH_RETURNS are
# --torch-returns' names, the declared output each return is (_ ignores one); DEVICE
# cuda gives it CUDA tensors (subject <schema>@cuda, label gpu). The program is parity_torch_op_tests, the
# property main alone, built once per project.
#
# WILL_FAIL: the subject is a deliberately broken copy that parity must catch. The test passes
# only when some property fails on it; a usage or registration error still fails it.
function(parity_add_subject_tests)
  set(caps MAX_T MAX_N MAX_K MAX_R MAX_B)
  cmake_parse_arguments(S "WILL_FAIL" "TARGET;FAMILY;OP;SUBJECT;BACKEND;TIMEOUT;TORCH_OP;LIBRARY;DEVICE;KERNEL_OP;${caps}"
                        "TORCH_ARGS;TORCH_RETURNS;MAX;DTYPES;PARAMS" ${ARGN})
  if(S_UNPARSED_ARGUMENTS)
    string(REPLACE ";" " " unknown "${S_UNPARSED_ARGUMENTS}")
    string(REPLACE ";" ", " cap_names "${caps}")
    message(FATAL_ERROR "parity_add_subject_tests: unknown arguments: ${unknown} (caps are ${cap_names} "
                        "and MAX <EXT>=<n>; the transition family's former MAX_TOKENS, MAX_CHANNELS and MAX_ELEMENTS "
                        "are MAX_N and MAX_B; the lora family's former MAX_WORK is its op's declared work)")
  endif()
  if(S_OP)
    set(S_FAMILY ${S_OP})
  endif()
  set(args)
  if(S_TORCH_OP)
    if(NOT S_LIBRARY)
      message(FATAL_ERROR "parity_add_subject_tests: TORCH_OP ${S_TORCH_OP} needs LIBRARY (the library that registers it)")
    endif()
    set(S_TARGET parity_torch_op)
    set(S_SUBJECT ${S_TORCH_OP})
    set(library ${S_LIBRARY})
    if(TARGET ${S_LIBRARY})
      set(library $<TARGET_FILE:${S_LIBRARY}>)
    endif()
    list(APPEND args --torch-op ${S_TORCH_OP} --library ${library})
    if(S_TORCH_ARGS)
      string(REPLACE ";" "," torch_args "${S_TORCH_ARGS}")
      list(APPEND args --torch-arg ${torch_args})
    endif()
    if(S_TORCH_RETURNS)
      string(REPLACE ";" "," torch_returns "${S_TORCH_RETURNS}")
      list(APPEND args --torch-returns ${torch_returns})
    endif()
    if(S_DEVICE STREQUAL "cuda")
      set(S_SUBJECT ${S_TORCH_OP}@cuda)
      set(S_BACKEND cuda)
      list(APPEND args --torch-device cuda)
    elseif(S_DEVICE AND NOT S_DEVICE STREQUAL "cpu")
      message(FATAL_ERROR "parity_add_subject_tests: DEVICE ${S_DEVICE} is neither cpu nor cuda")
    endif()
    if(S_KERNEL_OP)
      if(S_OP AND NOT S_KERNEL_OP STREQUAL S_OP)
        message(FATAL_ERROR "parity_add_subject_tests: KERNEL_OP ${S_KERNEL_OP} with OP ${S_OP}: the operator is a "
                            "subject of the op ${S_OP} itself; KERNEL_OP is for FAMILY model or trajectory")
      endif()
      list(APPEND args --kernel-op ${S_KERNEL_OP})
    endif()
  elseif(S_KERNEL_OP)
    message(FATAL_ERROR "parity_add_subject_tests: KERNEL_OP ${S_KERNEL_OP} needs TORCH_OP (the operator it is about)")
  elseif(S_TORCH_RETURNS)
    message(FATAL_ERROR "parity_add_subject_tests: TORCH_RETURNS needs TORCH_OP (the operator it is about)")
  endif()
  foreach(required TARGET FAMILY SUBJECT)
    if(NOT S_${required})
      message(FATAL_ERROR "parity_add_subject_tests: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET parity::property_main)
    message(FATAL_ERROR "parity_add_subject_tests: parity::property_main is missing: find_package(parity) with the "
                        "LibTorch component (the default; COMPONENTS Core leaves it out)")
  endif()
  if(NOT TARGET ${S_TARGET} AND NOT S_TORCH_OP)
    message(FATAL_ERROR "parity_add_subject_tests: TARGET ${S_TARGET} is not a target")
  endif()

  set(exe ${S_TARGET}_parity_tests)
  if(S_TORCH_OP)
    if(NOT TARGET ${exe})
      add_executable(${exe})
      target_link_libraries(${exe} PRIVATE parity::property_main)
    endif()
    if(TARGET ${S_LIBRARY})
      add_dependencies(${exe} ${S_LIBRARY})
    endif()
  elseif(NOT TARGET ${exe})
    add_executable(${exe})
    parity_link_registrations(${exe} ${S_TARGET})
    target_link_libraries(${exe} PRIVATE parity::property_main)
  endif()

  # The tests' names: the subject's, with the kernel's op where KERNEL_OP makes one operator two
  # subjects of a family (runtime-host+linear=S and runtime-host+rms_norm=S).
  set(prefix ${S_SUBJECT})
  if(S_KERNEL_OP)
    set(prefix ${S_SUBJECT}+${S_KERNEL_OP})
  endif()
  set(name ${prefix}_${S_FAMILY}_properties)
  set(labels properties)
  if(S_BACKEND MATCHES "cuda")
    list(APPEND labels gpu)
  endif()
  if(S_DTYPES)
    string(REPLACE ";" "," dtypes "${S_DTYPES}")
    list(APPEND args --dtypes ${dtypes})
  endif()
  if(S_PARAMS)
    string(REPLACE ";" "," params "${S_PARAMS}")
    list(APPEND args --param ${params})
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
  foreach(item IN LISTS S_MAX)
    if(NOT item MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
      message(FATAL_ERROR "parity_add_subject_tests: MAX ${item}: expected <EXT>=<n>")
    endif()
    string(TOUPPER "${CMAKE_MATCH_1}" extent)
    list(APPEND environment "PARITY_MAX_${extent}=${CMAKE_MATCH_2}")
  endforeach()
  if(NOT S_WILL_FAIL)
    parity_add_property_tests(EXECUTABLE ${exe} FAMILY ${S_FAMILY} SUBJECT ${S_SUBJECT} PREFIX ${prefix}
                              LABELS ${labels} TIMEOUT ${S_TIMEOUT} ENVIRONMENT ${environment} ARGS ${args})
    return()
  endif()
  add_test(NAME ${name} COMMAND ${exe} ${S_FAMILY} ${S_SUBJECT} ${args})
  if(COMMAND parity_label_needs)  # in parity's own build (ParityTesting.cmake); not installed
    parity_label_needs("${labels}" ${exe})
  endif()
  # The property main's last line: "parity: every applicable property holds ...", "parity: error: ..."
  # or "parity: skipped" (the subject cannot run here, exit 77). The first two, inverted by
  # WILL_FAIL, fail the test.
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77 TIMEOUT ${S_TIMEOUT}
                       ENVIRONMENT "${environment}" WILL_FAIL TRUE
                       PASS_REGULAR_EXPRESSION "parity: every applicable property holds;parity: error")
endfunction()

# parity_add_property_tests(EXECUTABLE <exe> FAMILY <family> [SUBJECT <name>] PREFIX <prefix>
#                           LABELS <label...> TIMEOUT <s> ENVIRONMENT <VAR=value...> [ARGS <arg...>])
# One ctest test per property that the property main <exe> registers for <family> and <subject>
# (default: the family's own kernel), named <prefix>.<family>.<property>, so that a failing
# property is a failing test of its own. The names are read from `<exe> --gtest_list_tests`
# (every family's subject-facing properties; those of <family> are kept) when ctest starts
# (GoogleTest's gtest_discover_tests, PRE_TEST), so listing needs no device even for a CUDA
# subject. Each test runs `<exe> --gtest_filter=<family>.<property> <family> <subject>`: its
# property alone, in a process of its own; it is skipped when the subject cannot run here (exit 77) or the property does
# not apply to it (gtest's SKIPPED). Every test gets LABELS, TIMEOUT and ENVIRONMENT (PARITY_REPRO_DIR
# and the test's PARITY_MAX_* caps); ARGS follow <family> <subject> on every command line.
include(GoogleTest)
function(parity_add_property_tests)
  cmake_parse_arguments(P "" "EXECUTABLE;FAMILY;SUBJECT;PREFIX;TIMEOUT" "LABELS;ENVIRONMENT;ARGS" ${ARGN})
  set(list_var parity_tests_${P_PREFIX}_${P_FAMILY})
  string(MAKE_C_IDENTIFIER "${list_var}" list_var)
  gtest_discover_tests(${P_EXECUTABLE} EXTRA_ARGS ${P_FAMILY} ${P_SUBJECT} ${P_ARGS} TEST_FILTER "${P_FAMILY}.*"
                       TEST_PREFIX "${P_PREFIX}."
                       TEST_LIST ${list_var} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 120
                       PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${P_TIMEOUT})
  # gtest_discover_tests passes PROPERTIES on as a flat list, so a list value (two labels, two
  # variables) would be split: labels and environment are set by a script of their own,
  # included after the discovered tests.
  set(labels_script "${CMAKE_CURRENT_BINARY_DIR}/${list_var}_labels.cmake")
  file(WRITE "${labels_script}" "foreach(test IN LISTS ${list_var})\n"
                                "  set_tests_properties(\"\${test}\" PROPERTIES LABELS \"${P_LABELS}\"\n"
                                "                      ENVIRONMENT \"${P_ENVIRONMENT}\")\n"
                                "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_script}")
  if(COMMAND parity_label_needs)  # in parity's own build (ParityTesting.cmake); not installed
    parity_label_needs("${P_LABELS}" ${P_EXECUTABLE})
  endif()
endfunction()

# parity_link_registrations(<exe> <lib>): links the library <lib> into <exe> with every
# registration it makes at static initialisation (PARITY_REGISTER_OP, PARITY_REGISTER_OP_SUBJECT):
# whole-archive when <lib> is a static library, whose unreferenced objects the linker would drop.
function(parity_link_registrations exe lib)
  get_target_property(type ${lib} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    target_link_libraries(${exe} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
  else()
    target_link_libraries(${exe} PRIVATE ${lib})
  endif()
endfunction()
