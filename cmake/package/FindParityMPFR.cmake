# find_package(ParityMPFR): MPFR and the GMP it is built on, as the imported targets MPFR::MPFR
# (which links GMP::GMP) and GMP::GMP. Used by parity's build (the multiprecision oracle) and
# installed beside parityConfig.cmake, which finds them again on the consumer's machine: the
# export set names the targets, never the library files. Plain find_library/find_path, so that
# CMAKE_PREFIX_PATH (e.g. ci/bundle's Debian packages) is honoured and no pkg-config is needed.
# Sets ParityMPFR_FOUND; MPFR_LIBRARY, GMP_LIBRARY, MPFR_INCLUDE_DIR and GMP_INCLUDE_DIR are cached.
find_library(MPFR_LIBRARY mpfr)
find_library(GMP_LIBRARY gmp)
find_path(MPFR_INCLUDE_DIR mpfr.h)
find_path(GMP_INCLUDE_DIR gmp.h PATH_SUFFIXES ${CMAKE_LIBRARY_ARCHITECTURE})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ParityMPFR
  REQUIRED_VARS MPFR_LIBRARY GMP_LIBRARY MPFR_INCLUDE_DIR GMP_INCLUDE_DIR)
if(ParityMPFR_FOUND)
  if(NOT TARGET GMP::GMP)
    add_library(GMP::GMP UNKNOWN IMPORTED)
    set_target_properties(GMP::GMP PROPERTIES IMPORTED_LOCATION "${GMP_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${GMP_INCLUDE_DIR}")
  endif()
  if(NOT TARGET MPFR::MPFR)
    add_library(MPFR::MPFR UNKNOWN IMPORTED)
    set_target_properties(MPFR::MPFR PROPERTIES IMPORTED_LOCATION "${MPFR_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${MPFR_INCLUDE_DIR}" INTERFACE_LINK_LIBRARIES GMP::GMP)
  endif()
endif()
mark_as_advanced(MPFR_LIBRARY GMP_LIBRARY MPFR_INCLUDE_DIR GMP_INCLUDE_DIR)
