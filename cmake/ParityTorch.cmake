# LibTorch for parity: parity_find_torch() finds it as PARITY_TORCH says and defines
#   parity::libtorch          the imported target every torch-facing library links (its headers
#                             are system headers, so -Werror applies to parity's code alone)
#   PARITY_TORCH_VERSION      e.g. "2.11.0+cu130", "1.13.0"
#   PARITY_TORCH_CUDA         the CUDA version LibTorch was built with ("13.0"), "" for a CPU build
#   PARITY_TORCH_WHERE        one line saying which LibTorch it is, for messages
#   PARITY_TORCH_ROOT         its root, above include/torch (the package tests' LibTorch prefix)
#   PARITY_TORCH_LIBRARY_NAMES, PARITY_TORCH_KEEP_NAMES  what the installed package needs to
#                             define parity::libtorch again without loading LibTorch's own CMake
#                             files (cmake/package/parityFindLibTorch.cmake): LibTorch's CUDA
#                             builds look for the whole CUDA toolkit, which a consumer that builds
#                             no CUDA must not need.
#
# PARITY_TORCH chooses:
#   venv    (default) the torch that ci/setup installs into the project's virtual environment,
#           .venv, found through torch.utils.cmake_prefix_path
#   debian  Debian's libtorch-dev (1.13, CPU only), found on the system prefix
#   <python3 executable>  that interpreter's torch, through torch.utils.cmake_prefix_path
#           (e.g. the GPU machine's python3, which ci/device uses)
include(ParityCudaPair)

set(PARITY_TORCH "venv" CACHE STRING "LibTorch: venv (.venv from ci/setup), debian (libtorch-dev), or a python3 path")

# The torch of the Python interpreter `python`: its CMake prefix, version and CUDA version.
function(parity_query_python_torch python)
  execute_process(
    COMMAND "${python}" -c "import torch, torch.utils; print(torch.utils.cmake_prefix_path); print(torch.__version__); print(torch.version.cuda or '')"
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "PARITY_TORCH: '${python}' cannot import torch (exit ${rc}): ${err}\n"
                        "Run ci/setup (it installs torch into .venv), or set PARITY_TORCH to debian or to a python3 "
                        "that has torch.")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  list(LENGTH lines n)
  if(n LESS 2)
    message(FATAL_ERROR "PARITY_TORCH: '${python}' printed '${out}', not torch's prefix and version")
  endif()
  list(GET lines 0 prefix)
  list(GET lines 1 version)
  set(cuda "")
  if(n GREATER 2)
    list(GET lines 2 cuda)
  endif()
  set(parity_torch_prefix "${prefix}" PARENT_SCOPE)
  set(PARITY_TORCH_VERSION "${version}" PARENT_SCOPE)
  set(PARITY_TORCH_CUDA "${cuda}" PARENT_SCOPE)
endfunction()

# The library file of imported target `t` (its one configuration's location), or "".
function(parity_imported_file out t)
  set(file "")
  if(TARGET ${t})
    get_target_property(file ${t} IMPORTED_LOCATION)
    if(NOT file)
      get_target_property(configs ${t} IMPORTED_CONFIGURATIONS)
      foreach(c ${configs})
        get_target_property(file ${t} IMPORTED_LOCATION_${c})
        if(file)
          break()
        endif()
      endforeach()
    endif()
  endif()
  if(NOT file)
    set(file "")
  endif()
  set(${out} "${file}" PARENT_SCOPE)
endfunction()

macro(parity_find_torch)
  if(PARITY_TORCH STREQUAL "debian")
    find_package(Torch REQUIRED CONFIG)
    set(PARITY_TORCH_VERSION "${Torch_VERSION}")
    set(PARITY_TORCH_CUDA "")
    if(TARGET torch_cuda)
      message(FATAL_ERROR "PARITY_TORCH=debian found a LibTorch with CUDA at ${Torch_DIR}; Debian's libtorch-dev is CPU only")
    endif()
  else()
    if(PARITY_TORCH STREQUAL "venv")
      set(parity_python "${PROJECT_SOURCE_DIR}/.venv/bin/python3")
      if(NOT EXISTS "${parity_python}")
        message(FATAL_ERROR "PARITY_TORCH=venv: ${parity_python} is missing; run ci/setup, which installs torch into .venv")
      endif()
    else()
      set(parity_python "${PARITY_TORCH}")
    endif()
    parity_query_python_torch("${parity_python}")
    # A LibTorch with CUDA enables CUDA and looks for the toolkit itself: check the pair first,
    # when parity's own nvcc is already known, so that the reason is this one.
    if(PARITY_CUDA)
      parity_check_cuda_pair(TORCH_CUDA "${PARITY_TORCH_CUDA}" TOOLKIT "${CMAKE_CUDA_COMPILER_VERSION}"
                             TOOLKIT_WHAT "nvcc (${CMAKE_CUDA_COMPILER})"
                             TORCH_WHAT "torch ${PARITY_TORCH_VERSION} (${parity_python})")
    endif()
    # LibTorch's CMake files for a CUDA build enable CUDA themselves, probe the GPUs for an
    # architecture list unless TORCH_CUDA_ARCH_LIST names one, and then rewrite
    # CMAKE_CUDA_FLAGS and CMAKE_CUDA_ARCHITECTURES for their own kernels. parity's kernels keep
    # their flags: both are restored after, and the list is parity's ("90" -> "9.0").
    set(parity_saved_cuda_flags "${CMAKE_CUDA_FLAGS}")
    set(parity_saved_cuda_architectures "${PARITY_CUDA_ARCHITECTURES}")
    if(PARITY_TORCH_CUDA)
      set(CMAKE_CUDA_ARCHITECTURES ${PARITY_CUDA_ARCHITECTURES})
      if(NOT DEFINED TORCH_CUDA_ARCH_LIST)
        string(REGEX REPLACE "([0-9]+)([0-9][a-z]?)(-real|-virtual)?" "\\1.\\2" TORCH_CUDA_ARCH_LIST "${PARITY_CUDA_ARCHITECTURES}")
      endif()
    endif()
    # torch.utils.cmake_prefix_path (<torch>/share/cmake) and <torch> itself go first on the
    # prefix path: LibTorch's CMake files look for Caffe2 and its libraries on the default path,
    # where a system LibTorch (Debian's /usr) would otherwise win.
    get_filename_component(parity_torch_root "${parity_torch_prefix}/../.." ABSOLUTE)
    set(parity_saved_prefix_path "${CMAKE_PREFIX_PATH}")
    list(PREPEND CMAKE_PREFIX_PATH "${parity_torch_prefix}" "${parity_torch_root}")
    find_package(Torch REQUIRED CONFIG PATHS "${parity_torch_prefix}" NO_DEFAULT_PATH)
    set(CMAKE_PREFIX_PATH "${parity_saved_prefix_path}")
    set(CMAKE_CUDA_FLAGS "${parity_saved_cuda_flags}")
    if(PARITY_CUDA)
      set(CMAKE_CUDA_ARCHITECTURES ${parity_saved_cuda_architectures})
    else()
      unset(CMAKE_CUDA_ARCHITECTURES)
    endif()
    if(NOT TORCH_LIBRARY MATCHES "^${parity_torch_root}/")
      message(FATAL_ERROR "PARITY_TORCH: LibTorch's CMake files at ${Torch_DIR} found ${TORCH_LIBRARY}, "
                          "not the library beside them: clear the cache (rm -rf the build directory)")
    endif()
  endif()
  set(PARITY_TORCH_WHERE "LibTorch ${PARITY_TORCH_VERSION} at ${Torch_DIR}")
  # LibTorch's CUDA build found a toolkit of its own (for the libraries it links): that one too
  # must pair with the runtime LibTorch loads.
  if(PARITY_TORCH_CUDA AND CUDAToolkit_VERSION)
    parity_check_cuda_pair(TORCH_CUDA "${PARITY_TORCH_CUDA}" TOOLKIT "${CUDAToolkit_VERSION}"
                           TOOLKIT_WHAT "the CUDA toolkit that LibTorch's CMake files found (${CUDAToolkit_BIN_DIR})"
                           TORCH_WHAT "${PARITY_TORCH_WHERE}")
  endif()
  # parity's libraries pass std::string to and from its LibTorch subjects: both must use one ABI.
  if(TORCH_CXX_FLAGS MATCHES "_GLIBCXX_USE_CXX11_ABI=0")
    message(FATAL_ERROR "${PARITY_TORCH_WHERE} was built with the pre-C++11 string ABI "
            "(_GLIBCXX_USE_CXX11_ABI=0), which parity's libraries cannot be linked with: use a LibTorch built "
            "with the C++11 ABI (Debian's libtorch-dev; PyTorch 2.7 and later wheels; the cxx11-abi LibTorch zips)")
  endif()

  # PyPI's LibTorch (2.11) exports a copy of std::filesystem from libtorch.so and libtorch_cpu.so
  # that crashes (std::filesystem::remove_all calls through a null pointer); the dynamic linker
  # binds a program's calls to the first library in its needed list that defines a symbol, so
  # libstdc++ is named before LibTorch: parity's calls then reach libstdc++'s own.
  add_library(parity::libtorch INTERFACE IMPORTED GLOBAL)
  set_target_properties(parity::libtorch PROPERTIES INTERFACE_LINK_LIBRARIES "stdc++;${TORCH_LIBRARIES}"
                        INTERFACE_INCLUDE_DIRECTORIES "${TORCH_INCLUDE_DIRS}"
                        INTERFACE_COMPILE_OPTIONS "${TORCH_CXX_FLAGS}")
  # For the installed package, which finds LibTorch again on the consumer's machine
  # (cmake/package/parityFindLibTorch.cmake): the file names of its libraries, and those linked
  # even where the linker would drop them as unneeded (as LibTorch's own targets do), so that
  # LibTorch's CUDA backend registers itself in a program that calls no CUDA symbol of it.
  list(GET TORCH_INCLUDE_DIRS 0 parity_torch_include)
  get_filename_component(PARITY_TORCH_ROOT "${parity_torch_include}" DIRECTORY)
  set(PARITY_TORCH_LIBRARY_NAMES)
  set(PARITY_TORCH_KEEP_NAMES)
  foreach(t torch torch_cpu torch_cuda c10 c10_cuda gflags glog::glog)
    parity_imported_file(file ${t})
    if(file)
      get_filename_component(name "${file}" NAME)
      list(APPEND PARITY_TORCH_LIBRARY_NAMES "${name}")
      if(t MATCHES "^torch")
        list(APPEND PARITY_TORCH_KEEP_NAMES "${name}")
      endif()
    endif()
  endforeach()
  if(PARITY_TORCH_CUDA)
    message(STATUS "parity: ${PARITY_TORCH_WHERE}, built with CUDA ${PARITY_TORCH_CUDA}")
  else()
    message(STATUS "parity: ${PARITY_TORCH_WHERE}, CPU only")
  endif()
endmacro()
