#!/usr/bin/env bash
# seeds_current_test.sh PARITY_FUZZ_SEEDS CORPUS_DIR
# The committed seed corpora are the generator's output: parity_fuzz_seeds (make_seeds.cpp)
# runs to completion and writes exactly the files under corpus/<harness>/, byte for byte.
# Files the generator does not write stay allowed (corpus/regressions, crashes kept as seeds).
# Fails with the files that differ or are missing: rerun `parity_fuzz_seeds corpus`.
set -u
seeds=$1
corpus=$2
tmp=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$tmp" "$log"' EXIT
"$seeds" "$tmp" > "$log" 2>&1 || { echo "FAIL: parity_fuzz_seeds exited $?:"; cat "$log"; exit 1; }
generated=$(find "$tmp" -type f | wc -l)
[ "$generated" -gt 0 ] || { echo "FAIL: parity_fuzz_seeds wrote no seed"; exit 1; }
stale=0
while IFS= read -r -d '' f; do
  rel=${f#"$tmp"/}
  if ! cmp -s "$f" "$corpus/$rel"; then
    echo "FAIL: corpus/$rel is not what parity_fuzz_seeds writes"
    stale=1
  fi
done < <(find "$tmp" -type f -print0)
[ "$stale" -eq 0 ] || { echo "rerun: parity_fuzz_seeds corpus"; exit 1; }
echo "every one of the $generated generated seeds is committed as generated"
