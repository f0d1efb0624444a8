# parity_check_cuda_pair(TORCH_CUDA <x.y or ""> TOOLKIT <x.y or ""> TOOLKIT_WHAT <text> TORCH_WHAT <text>)
#
# One CUDA runtime per process: parity's kernels link the CUDA toolkit's libcudart, and a
# LibTorch built with CUDA loads its own libcudart. The two share one runtime only when they
# are the same major version (libcudart.so.<major>, which the loader finds once); otherwise a
# process would hold two runtimes, with two sets of contexts and streams. Fails configure with
# both versions named when the majors differ. A LibTorch without CUDA (TORCH_CUDA "") or a build
# without a toolkit (TOOLKIT "") pairs with anything.
function(parity_check_cuda_pair)
  cmake_parse_arguments(P "" "TORCH_CUDA;TOOLKIT;TOOLKIT_WHAT;TORCH_WHAT" "" ${ARGN})
  if("${P_TORCH_CUDA}" STREQUAL "" OR "${P_TOOLKIT}" STREQUAL "")
    return()
  endif()
  string(REGEX MATCH "^[0-9]+" torch_major "${P_TORCH_CUDA}")
  string(REGEX MATCH "^[0-9]+" toolkit_major "${P_TOOLKIT}")
  if(NOT torch_major STREQUAL toolkit_major)
    message(FATAL_ERROR
      "parity: one CUDA runtime per process: ${P_TORCH_WHAT} was built with CUDA ${P_TORCH_CUDA}, but "
      "${P_TOOLKIT_WHAT} is CUDA ${P_TOOLKIT}. parity's kernels would load libcudart.so.${toolkit_major} beside "
      "LibTorch's libcudart.so.${torch_major}. Use a toolkit of CUDA ${torch_major}.x (CUDACXX or PATH), or a "
      "torch build for CUDA ${toolkit_major} (docs/build.md, \"LibTorch and the CUDA toolkit\").")
  endif()
endfunction()
