#!/bin/bash -eu
# ClusterFuzzLite build: configures parity with PARITY_FUZZ=ON, instrumenting only the code the
# harnesses run (fuzz/CMakeLists.txt) with the builder's flags, builds the harnesses and copies
# each to $OUT with its seed corpus, dictionary and options.
# Without the builder's -stdlib=libc++: op_fuzzer links Debian's RapidCheck (the Dockerfile's
# librapidcheck-dev), which is built against libstdc++ (not tried here: no Docker on this project's
# machines).
fuzz_flags="${CXXFLAGS//-stdlib=libc++/}"
link_flags="$fuzz_flags $LIB_FUZZING_ENGINE"
# Everything else (LibTorch's users, the parity command, tests) is built plainly.
export CFLAGS="" CXXFLAGS=""
cmake -S "$SRC/parity" -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX" \
  -DPARITY_FUZZ=ON -DPARITY_FUZZ_FLAGS="$fuzz_flags" -DPARITY_FUZZ_LINK_FLAGS="$link_flags"
cmake --build build --target parity_fuzzers -j "$(nproc)"

# harness, max_len, dictionary (as ci/fuzz).
for entry in "repro_parser_fuzzer 4096 json.dict" "bridge_case_fuzzer 4096 json.dict" "op_fuzzer 200 floats.dict"; do
  read -r h max_len dict <<< "$entry"
  cp "build/fuzz/$h" "$OUT/"
  (cd "$SRC/parity/corpus/$h" && zip -q -r "$OUT/${h}_seed_corpus.zip" .)
  cp "$SRC/parity/fuzz/$dict" "$OUT/$h.dict"
  printf '[libfuzzer]\nmax_len = %s\n' "$max_len" > "$OUT/$h.options"
done
