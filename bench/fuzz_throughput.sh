#!/usr/bin/env bash
# bench/fuzz_throughput.sh [BUILD_DIR...] - executions per CPU second of the property harness
# transition_fuzzer in each libFuzzer build, three ways (bench/README.md, "Fuzzing throughput"):
#   default  3,000 inputs of random bytes at the harness's default sizes (B <= 8 and a short row),
#            each run once;
#   format   3,000 inputs of random bytes over the whole format (long rows one in 4), each run once;
#   session  a libFuzzer session from the seed corpus (corpus/<harness>, -dict, -max_len),
#            RUNS executions (default 20,000), -seed=1: what a fuzzing run does.
# Each figure is inputs / (user + system CPU seconds of the process, its start included),
# PARITY_THREADS=1. The inputs are drawn from a fixed seed, so every build runs the same ones.
# BUILD_DIRs default to build/fuzz, build/fuzz-ubsan and build/fuzz-nosan, those that have the
# harnesses (cmake --preset P && cmake --build --preset P). After the builds' figures, each
# sanitised build's as a share of the last build's (the baseline, fuzz-nosan by default).
set -euo pipefail
builds=()
for b in "$@"; do builds+=("$(realpath -m -- "$b")"); done  # named from the caller's directory
cd "$(dirname "$0")/.."
root=$PWD
runs=${RUNS:-20000}
if [ ${#builds[@]} -eq 0 ]; then
  for b in build/fuzz build/fuzz-ubsan build/fuzz-nosan; do [ -x "$b/fuzz/transition_fuzzer" ] && builds+=("$b"); done
fi
[ ${#builds[@]} -gt 0 ] || { echo "fuzz_throughput: no fuzz build (cmake --preset fuzz && cmake --build --preset fuzz)" >&2; exit 2; }
for b in "${builds[@]}"; do
  [ -x "$b/fuzz/transition_fuzzer" ] || { echo "fuzz_throughput: $b has no fuzz/transition_fuzzer" >&2; exit 2; }
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz_throughput: RUNS must be a positive whole number (got '$runs')" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The byte layout is fuzz/decode_transition.hpp's.
python3 - "$tmp" <<'EOF'
import os, random, sys
root = sys.argv[1]
r = random.Random(20261202)
for harness, shortest, longest in (("transition_fuzzer", 18, 170),):
    for kind in ("default", "format"):
        d = os.path.join(root, f"{harness}.{kind}")
        os.makedirs(d)
        for i in range(3000):
            b = bytearray(r.getrandbits(8) for _ in range(r.randint(shortest, longest)))
            if kind == "default" and harness == "transition_fuzzer":
                b[1] %= 248                         # B = 1 + b % 8
                if b[3] | b[4] << 8 >= 0xC000:
                    b[4] &= 0x7F                    # a short row
            with open(os.path.join(d, f"{i:05d}"), "wb") as f:
                f.write(b)
EOF

export PARITY_THREADS=1
# per_cpu_second INPUTS COMMAND...: runs it, prints INPUTS / its CPU seconds.
per_cpu_second() {
  local n=$1
  shift
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" > "$tmp/log" 2>&1 || { echo "fuzz_throughput: $* failed:" >&2; tail -5 "$tmp/log" >&2; exit 1; }
  awk -v n="$n" '{printf "%.0f", n / ($1 + $2)}' "$tmp/time"
}

declare -A figure
printf '%-22s %-18s %8s %8s %8s\n' build harness default format session
for b in "${builds[@]}"; do
  for entry in "transition_fuzzer 170"; do
    read -r h max_len <<< "$entry"
    row=()
    for kind in default format; do
      figure[$b.$h.$kind]=$(per_cpu_second 3000 "$b/fuzz/$h" -runs=0 "$tmp/$h.$kind")
      row+=("${figure[$b.$h.$kind]}")
    done
    rm -rf "$tmp/corpus" && mkdir "$tmp/corpus" && cp corpus/"$h"/* "$tmp/corpus"/
    figure[$b.$h.session]=$(per_cpu_second "$runs" "$b/fuzz/$h" -runs="$runs" -seed=1 -max_len="$max_len" \
      -dict=fuzz/floats.dict "$tmp/corpus")
    row+=("${figure[$b.$h.session]}")
    printf '%-22s %-18s %8s %8s %8s\n' "${b#"$root"/}" "$h" "${row[@]}"
  done
done
base=${builds[-1]}
if [ ${#builds[@]} -gt 1 ]; then
  echo "share of ${base#"$root"/}'s figure:"
  for b in "${builds[@]::${#builds[@]}-1}"; do
    for h in transition_fuzzer; do
      line=$(printf '%-22s %-18s' "${b#"$root"/}" "$h")
      for kind in default format session; do
        line+=$(awk -v a="${figure[$b.$h.$kind]}" -v z="${figure[$base.$h.$kind]}" 'BEGIN {printf " %8.2f", a / z}')
      done
      echo "$line"
    done
  done
fi
