# parity_install_package(ENTRY <target>...)
#
# What `cmake --install` puts under the prefix, as the CMake package `parity`:
#   lib/                       the libraries the ENTRY targets need (their link closure within
#                              this project, so a library added later is installed with them)
#   include/parity/            every header of core/, oracles/, subjects/, properties/ in the
#                              source tree's layout: #include "core/tensor.hpp" works installed
#   lib/cmake/parity/          parityConfig.cmake (finds the dependencies), parityTargets.cmake
#                              (the targets as parity::<name without parity_>), the version
#                              file, and ParitySubjectTests.cmake (parity_add_subject_tests)
# Targets that name the source tree as an include directory get include/parity when installed.
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

function(parity_install_package)
  cmake_parse_arguments(P "" "" "ENTRY" ${ARGN})
  parity_link_closure(targets ${P_ENTRY})
  set(include_dir ${CMAKE_INSTALL_INCLUDEDIR}/parity)
  foreach(t ${targets})
    get_target_property(dirs ${t} INTERFACE_INCLUDE_DIRECTORIES)
    if(dirs)
      list(TRANSFORM dirs REPLACE "^(${PROJECT_SOURCE_DIR})$" "$<BUILD_INTERFACE:\\1>;$<INSTALL_INTERFACE:${include_dir}>")
      set_target_properties(${t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dirs}")
    endif()
    string(REGEX REPLACE "^parity_" "" export_name ${t})
    set_target_properties(${t} PROPERTIES EXPORT_NAME ${export_name})
  endforeach()
  install(TARGETS ${targets} EXPORT parityTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/parity-objects
          INCLUDES DESTINATION ${include_dir})
  foreach(dir core oracles subjects properties)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} DESTINATION ${include_dir}
            FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" PATTERN "tests" EXCLUDE)
  endforeach()

  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/parity)
  install(EXPORT parityTargets NAMESPACE parity:: DESTINATION ${cmake_dir})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/parityConfig.cmake.in
                                ${PROJECT_BINARY_DIR}/parityConfig.cmake INSTALL_DESTINATION ${cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/parityConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/parityConfig.cmake ${PROJECT_BINARY_DIR}/parityConfigVersion.cmake
                ${PROJECT_SOURCE_DIR}/cmake/ParitySubjectTests.cmake DESTINATION ${cmake_dir})
endfunction()
