# parity_install_package(CORE <target>... LIBTORCH <target>... PROGRAMS <target>...)
#
# What `cmake --install` puts under the prefix:
#   bin/                       the PROGRAMS (the `parity` command), which find LibTorch where it
#                              was at build time (their RUNPATH names the directories of the
#                              libraries they link outside this build)
#   lib/                       the libraries the CORE and LIBTORCH targets need (their link
#                              closure within this project, so a library added later is
#                              installed with them)
#   include/parity/DIR/        the headers of PARITY_INSTALLED_HEADER_DIRS (ParityIncludeRoot.cmake),
#                              for #include <parity/core/tensor.hpp>
#   lib/cmake/parity/          parityConfig.cmake (components, dependencies), parityTargets.cmake
#                              (the Core component: CORE's closure), parityLibTorchTargets.cmake (the
#                              rest of LIBTORCH's closure), the version file, the find modules it
#                              uses (cmake/package/), ParitySubjectTests.cmake and
#                              ParityOpFuzzer.cmake with its test script
#   share/parity/fuzz/         the op fuzzer's plain driver (driver_main.cpp), its dictionary
#                              (floats.dict) and seeds (corpus/op_fuzzer), for parity_add_op_fuzzer
# The targets are exported as parity::<name without parity_>, with no path of this machine: a
# dependency is an imported target that parityConfig.cmake finds again on the consumer's.
# Installing writes nothing into the build tree but CMake's own install_manifest.txt: every file
# installed is generated at configure or build time.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

# The project's own (non-imported) targets that `targets` link, directly or not, into `out`.
function(parity_link_closure out)
  set(closure)
  set(todo ${ARGN})
  while(todo)
    list(POP_FRONT todo t)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" t "${t}")
    if(NOT TARGET ${t} OR t IN_LIST closure)
      continue()
    endif()
    get_target_property(imported ${t} IMPORTED)
    if(imported)
      continue()
    endif()
    list(APPEND closure ${t})
    foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(libs ${t} ${prop})
      if(libs)
        list(APPEND todo ${libs})
      endif()
    endforeach()
  endwhile()
  set(${out} ${closure} PARENT_SCOPE)
endfunction()

# Installs `targets` as the export set `set` (file <set>.cmake).
function(parity_install_export set)
  set(include_root ${CMAKE_INSTALL_INCLUDEDIR})
  foreach(t ${ARGN})
    get_target_property(dirs ${t} INTERFACE_INCLUDE_DIRECTORIES)
    if(dirs)
      list(TRANSFORM dirs REPLACE "^(${PROJECT_SOURCE_DIR})$"
           "$<BUILD_INTERFACE:\\1>;$<BUILD_INTERFACE:${PARITY_INCLUDE_ROOT}>;$<INSTALL_INTERFACE:${include_root}>")
      set_target_properties(${t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dirs}")
    endif()
    string(REGEX REPLACE "^parity_" "" export_name ${t})
    set_target_properties(${t} PROPERTIES EXPORT_NAME ${export_name})
  endforeach()
  install(TARGETS ${ARGN} EXPORT ${set}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/parity-objects)
  install(EXPORT ${set} NAMESPACE parity:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/parity)
endfunction()

function(parity_install_package)
  cmake_parse_arguments(P "" "" "CORE;LIBTORCH;PROGRAMS" ${ARGN})
  parity_link_closure(core ${P_CORE})
  parity_link_closure(libtorch ${P_LIBTORCH})
  list(REMOVE_ITEM libtorch ${core})
  parity_install_export(parityTargets ${core})
  parity_install_export(parityLibTorchTargets ${libtorch})

  # LibTorch by its real directory: CMake leaves out of the install RUNPATH every directory
  # under the source tree, which holds the venv's torch (.venv).
  get_filename_component(torch_lib "${PARITY_TORCH_ROOT}/lib" REALPATH)
  set_target_properties(${P_PROGRAMS} PROPERTIES INSTALL_RPATH "${torch_lib}" INSTALL_RPATH_USE_LINK_PATH TRUE)
  install(TARGETS ${P_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  foreach(dir ${PARITY_INSTALLED_HEADER_DIRS})
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/parity
            FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "tests" EXCLUDE)
  endforeach()

  if(PARITY_CUDA)
    set(parity_cuda_version "${CMAKE_CUDA_COMPILER_VERSION}")
  else()
    set(parity_cuda_version "")
  endif()
  set(PARITY_FUZZ_DIR ${CMAKE_INSTALL_DATADIR}/parity/fuzz)
  install(FILES ${PROJECT_SOURCE_DIR}/fuzz/driver_main.cpp ${PROJECT_SOURCE_DIR}/fuzz/floats.dict
          DESTINATION ${PARITY_FUZZ_DIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/corpus/op_fuzzer DESTINATION ${PARITY_FUZZ_DIR}/corpus)
  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/parity)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/parityConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/parityConfig.cmake INSTALL_DESTINATION ${cmake_dir}
                                PATH_VARS PARITY_FUZZ_DIR)
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/parityConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/parityConfig.cmake ${PROJECT_BINARY_DIR}/parityConfigVersion.cmake
                ${PROJECT_SOURCE_DIR}/cmake/ParitySubjectTests.cmake ${PROJECT_SOURCE_DIR}/cmake/ParityOpFuzzer.cmake
                ${PROJECT_SOURCE_DIR}/cmake/parity_op_fuzzer_violation.cmake
                ${PROJECT_SOURCE_DIR}/cmake/package/FindParityMPFR.cmake
                ${PROJECT_SOURCE_DIR}/cmake/package/parityFindLibTorch.cmake
          DESTINATION ${cmake_dir})
endfunction()
