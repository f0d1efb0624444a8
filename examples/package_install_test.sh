#!/usr/bin/env bash
# parity's install as a package, moved: installs the build to a staging prefix and moves that
# prefix elsewhere, then checks
#   - `cmake --install` left the build tree as it was: no file added, removed or rewritten (path,
#     size, mode and modification time of every file, but ctest's Testing/ and CMake's own
#     install_manifest.txt); ctest runs this test alone (RUN_SERIAL);
#   - no installed CMake file names a path of the build machine (the source and build trees, the
#     staging prefix, LibTorch's and the CUDA toolkit's roots, /usr/lib, /usr/include, /usr/local);
#   - the installed `parity` command runs from the moved prefix (`--help`, `list`);
#   - examples/package_core (the Core component only) configures, builds and runs from the moved
#     prefix where neither a CUDA toolkit nor LibTorch can be found, and links none of
#     LibTorch, libcudart, MPFR, GMP, OpenSSL, RapidCheck, GoogleTest;
#   - the CUDA component: found with a toolkit (parity::cudart is then the toolkit's CUDA::cudart)
#     when parity was built with CUDA; refused, with the reason, when it was not.
# (examples/readme_snippet_test.sh consumes a moved prefix with the LibTorch component.)
# usage: package_install_test.sh BUILD_DIR SOURCE_DIR TORCH_ROOT nvcc=[NVCC] [-DVAR=VALUE...]
# (nvcc= is never an empty argument: ctest drops those, which would shift the -D options.)
set -euo pipefail
build=$(readlink -f "$1") source=$(readlink -f "$2") torch_root=$3 nvcc=${4#nvcc=}
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }

listing() {
  find "$build" -path "$build/Testing" -prune -o -type f ! -path "$build/install_manifest.txt" \
    -printf '%P %s %m %T@\n' | LC_ALL=C sort
}
listing > "$work/before"
cmake --install "$build" --prefix "$work/stage" > "$work/install.log"
listing > "$work/after"
diff "$work/before" "$work/after" > "$work/changed" || { head -n 40 "$work/changed"; fail "cmake --install changed the build tree"; }
mkdir "$work/elsewhere"
mv "$work/stage" "$work/elsewhere/prefix"
prefix=$work/elsewhere/prefix

forbidden=("$source" "$build" "$work/stage" "$torch_root" /usr/lib /usr/include /usr/local)
[ -n "$nvcc" ] && forbidden+=("$(dirname "$(dirname "$(readlink -f "$nvcc")")")")
for path in "${forbidden[@]}"; do
  if grep -rnF -- "$path" "$prefix/lib/cmake/parity"; then fail "an installed CMake file names $path"; fi
done

"$prefix/bin/parity" --help > "$work/help.log" 2>&1 || { cat "$work/help.log"; fail "installed parity --help failed"; }
"$prefix/bin/parity" list > "$work/list.log" 2>&1 || { cat "$work/list.log"; fail "installed parity list failed"; }
grep -q "parity-host" "$work/list.log" || { cat "$work/list.log"; fail "installed parity list does not list parity-host"; }

# Neither a CUDA toolkit nor LibTorch to be found: no nvcc on PATH, the toolkit's and LibTorch's
# directories ignored, no python3 with torch on PATH.
ignore=()
[[ $torch_root == /usr ]] || ignore+=("$torch_root")   # Debian's LibTorch: /usr cannot be hidden
path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v "/.venv/bin$" | paste -sd:)
if [ -n "$nvcc" ]; then
  root=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  ignore+=("$root")
  path=$(printf '%s' "$path" | tr ':' '\n' | grep -vxF "$(dirname "$nvcc")" | grep -vxF "$root/bin" | paste -sd:)
fi
ignore_list=$(IFS=';'; echo "${ignore[*]}")
env -u CUDACXX -u CUDA_HOME -u CUDA_PATH -u CMAKE_PREFIX_PATH PATH="$path" \
  cmake -S "$source/examples/package_core" -B "$work/core" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_IGNORE_PREFIX_PATH="$ignore_list" -DTorch_DIR="$work/no-torch" -DCUDAToolkit_ROOT="$work/no-toolkit" "$@" \
    > "$work/core-configure.log" 2>&1 || { cat "$work/core-configure.log"; fail "the Core component did not configure"; }
found=$(grep -E '^(CUDAToolkit_BIN_DIR|CUDAToolkit_INCLUDE_DIR|Caffe2_DIR|TORCH_LIBRARY|parity_TORCH_[A-Za-z0-9_]*|MPFR_LIBRARY|OpenSSL_[A-Z_]*|GTest_DIR|rapidcheck_DIR):[A-Z]+=' \
  "$work/core/CMakeCache.txt" || true)
[ -z "$found" ] || { echo "$found"; fail "the Core component looked for more than nlohmann_json"; }
env PATH="$path" cmake --build "$work/core" > "$work/core-build.log" 2>&1 ||
  { cat "$work/core-build.log"; fail "the Core component's example did not build"; }
links=$(sed -n '/^build run_my_lora:/,/^$/p' "$work/core/build.ninja" | grep -oE 'torch|c10|cudart|mpfr|gmp|crypto|rapidcheck|gtest' | sort -u || true)
[ -z "$links" ] || fail "the Core component's program links $(echo $links)"
"$work/core/run_my_lora" > "$work/core-run.log" 2>&1 || { cat "$work/core-run.log"; fail "run_my_lora failed"; }
for subject in my-lora-host my-lora-host-broken; do
  grep -q "^$subject: " "$work/core-run.log" || { cat "$work/core-run.log"; fail "run_my_lora did not run $subject"; }
done

mkdir "$work/cuda"
cat > "$work/cuda/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(parity_cuda_component LANGUAGES CXX)
find_package(parity REQUIRED COMPONENTS CUDA)
get_target_property(cudart parity::cudart INTERFACE_LINK_LIBRARIES)
message(STATUS "parity::cudart=${cudart}")
CMAKE
if [ -n "$nvcc" ]; then
  cmake -S "$work/cuda" -B "$work/cuda/build" -DCMAKE_PREFIX_PATH="$prefix;$torch_root" "$@" > "$work/cuda.log" 2>&1 ||
    { cat "$work/cuda.log"; fail "configure with the CUDA component failed"; }
  grep -q "parity::cudart=CUDA::cudart" "$work/cuda.log" || { cat "$work/cuda.log"; fail "the CUDA component's parity::cudart is not CUDA::cudart"; }
else
  if cmake -S "$work/cuda" -B "$work/cuda/build" -DCMAKE_PREFIX_PATH="$prefix" "$@" > "$work/cuda.log" 2>&1 ||
     ! grep -q "built without CUDA" "$work/cuda.log"; then
    cat "$work/cuda.log"; fail "the CUDA component of a build without CUDA was not refused with its reason"
  fi
fi
echo "package: install left the build tree untouched; the moved prefix names no build-machine path; its parity"
echo "command runs; the Core component builds and runs without LibTorch or a CUDA toolkit; the CUDA component ${nvcc:+is found}${nvcc:-is refused}"
