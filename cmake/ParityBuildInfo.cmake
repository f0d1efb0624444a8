# parity's provenance, compiled into parity_core (core/build_info.cpp): its version, the commit
# it was built from, the LibTorch it was built against and the CUDA it pairs with. The commit is
# read at every build (not only at configure): <build>/generated/parity_commit.h, rewritten only
# when it changes. Outside a git checkout (a copied working tree, e.g. on a GPU machine) it is
# $PARITY_COMMIT, else the file .parity-commit that ci/bundle writes, else "unknown".
set(parity_commit_header ${PROJECT_BINARY_DIR}/generated/parity_commit.h)
add_custom_target(parity_commit ALL
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUT=${parity_commit_header}
          -P ${PROJECT_SOURCE_DIR}/cmake/parity_commit.cmake
  BYPRODUCTS ${parity_commit_header} VERBATIM)

if(PARITY_CUDA)
  set(parity_cuda_build "${CMAKE_CUDA_COMPILER_VERSION}")
else()
  set(parity_cuda_build "")
endif()
set(PARITY_BUILD_INFO_DEFINITIONS
  "PARITY_VERSION=\"${PROJECT_VERSION}\""
  "PARITY_LIBTORCH_VERSION=\"${PARITY_TORCH_VERSION}\""
  "PARITY_LIBTORCH_CUDA=\"${PARITY_TORCH_CUDA}\""
  "PARITY_CUDA_BUILD=\"${parity_cuda_build}\"")
