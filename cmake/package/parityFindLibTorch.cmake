# Included by parityConfig.cmake for the LibTorch component: defines parity::libtorch from the
# LibTorch found on the consumer's machine, the one parity was built against (same major.minor
# version, parity_LIBTORCH). LibTorch's own CMake files are located but not loaded: those of a
# LibTorch built with CUDA look for the whole CUDA toolkit, which a consumer that builds no CUDA
# must not need. Where TorchConfig.cmake is looked for, in this order (the first of parity's
# version wins; others are named if none is):
#   Torch_DIR; each CMAKE_PREFIX_PATH entry (the variable, then the environment), as <p>,
#   <p>/Torch or <p>/{share,lib,lib/<arch>}/cmake/Torch; torch.utils.cmake_prefix_path of the
#   python3 on PATH (a virtual environment's); the system prefixes (Debian's libtorch-dev).
# LibTorch's root is the directory above TorchConfig.cmake that holds include/torch/csrc/api;
# the libraries parity was linked with (parity_TORCH_LIBRARY_NAMES, file names; those in
# parity_TORCH_KEEP_NAMES linked even when unreferenced, so that LibTorch's CUDA backend
# registers itself) are looked for under its lib/, then on the default paths.
# Defines parity_TORCH_ROOT.
function(parity_torch_version out config)
  get_filename_component(dir "${config}" DIRECTORY)
  set(version "")
  if(EXISTS "${dir}/TorchConfigVersion.cmake")
    file(STRINGS "${dir}/TorchConfigVersion.cmake" line REGEX "^set\\(PACKAGE_VERSION \"[^\"]*\"\\)" LIMIT_COUNT 1)
    string(REGEX REPLACE "^set\\(PACKAGE_VERSION \"([^\"]*)\"\\)$" "\\1" version "${line}")
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

function(parity_find_libtorch)
  set(prefixes)
  if(Torch_DIR)
    list(APPEND prefixes "${Torch_DIR}")
  endif()
  string(REPLACE ":" ";" env_prefixes "$ENV{CMAKE_PREFIX_PATH}")
  list(APPEND prefixes ${CMAKE_PREFIX_PATH} ${env_prefixes})
  find_program(parity_PYTHON3 python3)
  if(parity_PYTHON3)
    execute_process(COMMAND "${parity_PYTHON3}" -c "import torch.utils; print(torch.utils.cmake_prefix_path)"
                    OUTPUT_VARIABLE python_prefix RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      list(APPEND prefixes "${python_prefix}")
    endif()
  endif()
  list(APPEND prefixes ${CMAKE_SYSTEM_PREFIX_PATH})
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" want "${parity_LIBTORCH}")
  set(config "")
  set(seen)
  foreach(p ${prefixes})
    foreach(suffix "" Torch share/cmake/Torch lib/cmake/Torch lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/Torch)
      set(candidate "${p}/${suffix}/TorchConfig.cmake")
      if(EXISTS "${candidate}")
        get_filename_component(candidate "${candidate}" REALPATH)
        parity_torch_version(version "${candidate}")
        string(REGEX MATCH "^[0-9]+\\.[0-9]+" have "${version}")
        if(have STREQUAL want)
          set(config "${candidate}")
          break()
        endif()
        list(APPEND seen "${version} at ${candidate}")
      endif()
    endforeach()
    if(config)
      break()
    endif()
  endforeach()
  if(NOT config)
    list(REMOVE_DUPLICATES seen)
    string(REPLACE ";" ", " seen "${seen}")
    string(CONCAT message
        "parity was built against LibTorch ${parity_LIBTORCH} and needs that version (${want}.x): put its CMake prefix "
        "(python3 -c 'import torch.utils; print(torch.utils.cmake_prefix_path)') on CMAKE_PREFIX_PATH or set Torch_DIR "
        "(found: ${seen}), or leave out the LibTorch component (find_package(parity COMPONENTS Core))")
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "${message}" PARENT_SCOPE)
    set(parity_LibTorch_FOUND FALSE PARENT_SCOPE)
    return()
  endif()

  get_filename_component(root "${config}" DIRECTORY)
  foreach(i RANGE 4)
    get_filename_component(root "${root}" DIRECTORY)
    if(EXISTS "${root}/include/torch/csrc/api/include")
      break()
    endif()
  endforeach()
  if(NOT EXISTS "${root}/include/torch/csrc/api/include")
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "no LibTorch headers (include/torch/csrc/api/include) above ${config}" PARENT_SCOPE)
    set(parity_LibTorch_FOUND FALSE PARENT_SCOPE)
    return()
  endif()
  set(libs stdc++)
  foreach(name ${parity_TORCH_LIBRARY_NAMES})
    string(MAKE_C_IDENTIFIER "parity_TORCH_${name}" var)
    find_library(${var} NAMES ${name} HINTS "${root}/lib" "${root}/lib/${CMAKE_LIBRARY_ARCHITECTURE}" NO_DEFAULT_PATH)
    find_library(${var} NAMES ${name})
    if(NOT ${var})
      set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "LibTorch at ${root} has no ${name}, which parity was linked with" PARENT_SCOPE)
      set(parity_LibTorch_FOUND FALSE PARENT_SCOPE)
      return()
    endif()
    if(name IN_LIST parity_TORCH_KEEP_NAMES)
      list(APPEND libs "-Wl,--no-as-needed,${${var}}")
    else()
      list(APPEND libs "${${var}}")
    endif()
  endforeach()
  # libstdc++ first: PyPI's LibTorch exports a broken copy of std::filesystem (cmake/ParityTorch.cmake).
  add_library(parity::libtorch INTERFACE IMPORTED)
  set_target_properties(parity::libtorch PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${root}/include;${root}/include/torch/csrc/api/include"
    INTERFACE_COMPILE_OPTIONS "${parity_TORCH_CXX_FLAGS}" INTERFACE_LINK_LIBRARIES "${libs}")
  set(parity_TORCH_ROOT "${root}" PARENT_SCOPE)
endfunction()
