#!/usr/bin/env bash
# Bad input and hostile paths (issue 13, items 10-13): every one exits 2 with a message naming
# the flag, variable, file or field, quickly, without allocating what the input asks for, and
# without replacing anything that is not a regular file.
# usage: robustness_test.sh PATH/TO/parity
set -u
parity=$1
source "$(dirname "$0")/../../core/tests/expect.sh"
cd "$work"
# Whatever a refused input asks for, nothing here may need more than this (KiB of virtual memory).
limit_memory() { ulimit -v 8000000; "$@"; }

# A reproducer on parity's kernel, its case's JSON fields given (after "family":"FAMILY"): the
# valid one (base_frozen) passes now, each bad one is refused.
repro() {  # repro FILE SUBJECT PROPERTY CASE-FIELDS
  printf '{"schema":"parity.repro/1","subject":"%s","property":"%s","case":{%s},"observed":{"property":"%s","outcome":"fails"}}\n' \
    "$2" "$3" "$4" "$3" > "$1"
}
lora_dims='"family":"lora","seed":0,"dims":{"T":2,"N":1,"K":1,"r":1}'
lora_params='"scale":1,"dtype.act":16,"dtype.adapter":32'
lora="$lora_dims"',"params":{'"$lora_params"'}'
repro ok.json parity-host base_frozen "$lora"
expect 0 "passes now" -- "$parity" replay ok.json

# 13: numbers are plain decimal, in flags and in the environment.
for bad in 010 0x10 ' 5' +5 5x '' 1e3 4294967297000000000000; do
  expect 2 "--cases: '$bad' is not a non-negative integer in plain decimal" -- "$parity" check lora --cases "$bad"
done
expect 2 "--seed: ' -1' is not a non-negative integer" -- "$parity" check lora --seed ' -1'
expect 2 "--seed: '18446744073709551616' is not" -- "$parity" check lora --seed 18446744073709551616
expect 2 "--steps: '010' is not" -- "$parity" trajectory --steps 010
expect 2 "--seeds: '+2' is not" -- "$parity" trajectory --seeds 1,+2
expect 2 "--seeds: '' is not" -- "$parity" trajectory --seeds 1,,2
expect 2 "--max-checks: '0x10' is not" -- "$parity" fuzz-repro transition_step ok.json --max-checks 0x10
expect 2 "PARITY_SEED: '18446744073709551616' is not" -- env PARITY_SEED=18446744073709551616 "$parity" replay ok.json
expect 2 "PARITY_SEED: '010' is not" -- env PARITY_SEED=010 "$parity" replay ok.json
expect 2 "PARITY_CASES: 'lots' is not" -- env PARITY_CASES=lots "$parity" replay ok.json
expect 2 "PARITY_CASES: '0x10' is not" -- env PARITY_CASES=0x10 "$parity" replay ok.json
expect 2 "PARITY_THREADS: 'many' is not" -- env PARITY_THREADS=many "$parity" replay ok.json
expect 2 "PARITY_THREADS: ' 2' is not" -- env PARITY_THREADS=' 2' "$parity" replay ok.json
expect 2 "PARITY_THREADS: 0 is outside [1, 1024]" -- env PARITY_THREADS=0 "$parity" replay ok.json
expect 2 "RC_PARAMS:" -- env RC_PARAMS=seed=abc "$parity" replay ok.json
expect 2 "RC_PARAMS:" -- env RC_PARAMS=seed=abc "$parity" check lora --seed 1 --cases 1 --property base_frozen
expect 0 "passes now" -- env PARITY_THREADS=1 PARITY_CASES=3 PARITY_SEED=0 "$parity" replay ok.json

# 13: a property that does not apply to the subject asked for is a usage error, never the
# subject's failure: the host twin has no twin to compare with, a self-check of parity's oracles
# runs under parity-oracles only, and a subject-facing property never under it.
op='"family":"lora_forward","seed":0,"dims":{"T":1,"N":1,"K":1,"r":1},"params":{"scale":1,"dtype.act":16,"dtype.adapter":32}'
repro cross.json parity-host cross_backend_bitwise "$op"
expect 2 "cross.json: cross_backend_bitwise does not apply to parity-host: the subject has no host twin" -- \
  "$parity" replay cross.json
repro self.json parity-oracles oracle_agreement "$op"
expect 2 "self.json: oracle_agreement checks parity's own oracles and calls no subject" -- \
  "$parity" replay --subject parity-host self.json
repro opok.json parity-host repeatable "$op"
expect 2 "repeatable tests a subject: parity-oracles runs only the self-checks" -- \
  "$parity" replay --subject parity-oracles opok.json
expect 2 "op lora_forward has no subject 'parity-oracles'" -- \
  "$parity" fuzz-repro lora_forward opok.json --subject parity-oracles --out repros

# 13: a case holds only what its family reads, within the kernel's dtype; echoed text is escaped.
repro bad.json parity-host base_frozen "$lora_dims"',"params":{'"$lora_params"',"bogus":1}'
expect 2 "case.params.bogus: unknown parameter" -- "$parity" replay bad.json
repro bad.json parity-host base_frozen "$lora"',"mode":"audit"'
expect 2 "case.mode: the lora family (lora_backward's cases) reads no runtime mode" -- "$parity" replay bad.json
repro bad.json parity-host base_frozen "$lora"',"ablations":["node:attention"]'
expect 2 "case.ablations: the lora family (lora_backward's cases) reads no ablations" -- "$parity" replay bad.json
repro bad.json parity-host base_frozen "$lora_dims"',"params":{"scale":3.5e38,"dtype.act":16,"dtype.adapter":32}'
expect 2 "case.params.scale: expected a float32 value in [0, 1024]" -- "$parity" replay bad.json
repro bad.json parity-host base_frozen "$lora_dims"',"params":{"alpha":4}'
expect 2 "case.params: a lora case of the family's former format" -- "$parity" replay bad.json
repro bad.json parity-host base_frozen '"family":"lo\u001b[31mra\n\u0000","seed":0,"dims":{}'
expect 2 'lo\x1b[31mra\n\x00' -- "$parity" replay bad.json
if "$parity" replay bad.json 2>&1 | tr -d '\n' | grep -q $'\x1b'; then fail "an escape character from the file reached the terminal"; fi
# A transition case is transition_step's (dims B, n; each row's sigma), of family transition.
transition_params='"type":0,"step":0.125,"sigma_max":0.875,"noise_level":0.75,"normaliser":1,"dtype.act":32,"dtype.f32":32'
transition='"family":"transition","seed":0,"dims":{"B":1,"n":1},"params":{'"$transition_params"',"sigma.0":0.5}'
repro bad.json parity-host matches_formula '"family":"transition","seed":0,"dims":{"B":1,"n":1},"params":{'"$transition_params"',"sigma.0":0.5,"sigma.7":0.5}'
expect 2 "case.params.sigma.7: unknown parameter" -- "$parity" replay bad.json
repro bad.json parity-host matches_formula '"family":"transition","seed":0,"dims":{"B":1,"n":1},"params":{'"${transition_params/\"type\":0/\"type\":\"nan\"}"',"sigma.0":0.5}'
expect 2 "case.params.type: expected a float32 value in [0, 1]" -- "$parity" replay bad.json
# A transition reproducer of a property its ops took is refused, naming the op property.
for moved in batch_invariant:rows_independent batch_vs_batch:batch_vs_batch accuracy:forward_accuracy \
  cross_backend_bitwise:cross_backend_bitwise; do
  repro old.json parity-host "${moved%%:*}" "$transition"
  expect 2 "transition property '${moved%%:*}' is now the ops': transition_step's and transition_score's ${moved#*:}" -- \
    "$parity" replay old.json
done
# A transition reproducer of the family's former case format (dims tokens, channels; a
# sigma_prev.<b> per row) is refused naming what replaces it, and transition_fuzzer's byte inputs
# alike; the family's own case passes.
repro old.json parity-host matches_formula '"family":"transition","seed":0,"dims":{"B":1,"tokens":1,"channels":1},"params":{"sigma.0":0.5,"sigma_prev.0":0.25}'
expect 2 "case.dims: a transition case of the family's former format" -- "$parity" replay old.json
expect 2 "family 'transition' has no fuzz harness: transition_fuzzer and its byte format are retired" -- \
  "$parity" fuzz-repro transition old.json
repro now.json parity-host matches_formula "$transition"
expect 0 "passes now" -- "$parity" replay now.json
# `parity check transition` refuses them alike, and the command either names runs (exit 0),
# oracle_agreement's with --subject parity-oracles; the transition family lists no parity-oracles.
for moved in accuracy oracle_agreement; do
  expect 2 "transition property '$moved' is now the ops'" -- "$parity" check transition --property "$moved"
  suggested=$("$parity" check transition --property "$moved" 2>&1 | sed -n 's/.* (parity \(check transition_step [^,]*\),.*/\1/p')
  [ -n "$suggested" ] || fail "the refusal of $moved names no command"
  # shellcheck disable=SC2086 # the suggested command's words
  PARITY_CASES=2 expect 0 "" -- "$parity" $suggested --max n=64
done
expect 2 "unknown transition subject 'parity-oracles'" -- "$parity" check transition --subject parity-oracles
# The transition family's former caps are refused, naming the caps that replace them.
for former in PARITY_MAX_TOKENS PARITY_MAX_CHANNELS PARITY_MAX_ELEMENTS; do
  expect 2 "$former: a cap of the transition family's former cases (tokens x channels), which this parity no longer reads: its cases are transition_step's, B rows of n elements; cap them with PARITY_MAX_N and PARITY_MAX_B" -- \
    env "$former=64" "$parity" check transition --property matches_formula --cases 1
done
# The lora family's former work cap is refused, naming the caps that replace it.
expect 2 "PARITY_MAX_WORK: a cap of the lora family's former cases, which this parity no longer reads" -- \
  env PARITY_MAX_WORK=64 "$parity" check lora --property base_frozen --cases 1
# The former cap flags are refused, naming the --max EXT=N that replaces them.
for former in T N K r; do
  expect 2 "--max-$former: a former cap, which this parity no longer reads: cap $former with --max $former=N" -- \
    "$parity" check lora --max-$former 4
done
expect 2 "--max-work: a former cap, which this parity no longer reads: cap the extents with --max T=N" -- \
  "$parity" check lora --max-work 64
expect 2 "--max-T: a former cap" -- "$parity" probes lora --max-T=4
# A lora reproducer of a property its ops took is refused by replay and by check, naming the op
# property; the commands named for forward_accuracy, gradient_accuracy and oracle_agreement run.
for moved in repeatable:"lora_forward's and lora_backward's repeatable" \
  rows_independent:"lora_forward's and lora_backward's rows_independent" \
  batch_vs_batch:"lora_forward's and lora_backward's batch_vs_batch" \
  layout_invariant:"lora_forward's and lora_backward's layout_invariant" \
  forward_accuracy:"lora_forward's forward_accuracy" gradient_accuracy:"lora_backward's forward_accuracy" \
  oracle_agreement:"lora_forward's and lora_backward's oracle_agreement" \
  cross_backend_bitwise:"lora_forward's and lora_backward's cross_backend_bitwise"; do
  repro old.json parity-host "${moved%%:*}" "$lora"
  expect 2 "lora property '${moved%%:*}' is now the ops': ${moved#*:}" -- "$parity" replay old.json
  expect 2 "lora property '${moved%%:*}' is now the ops': ${moved#*:}" -- "$parity" check lora --property "${moved%%:*}"
done
for moved in forward_accuracy gradient_accuracy oracle_agreement; do
  suggested=$("$parity" check lora --property "$moved" 2>&1 | sed -n 's/.* (parity \(check lora_[a-z]* [^,)]*\)[,)].*/\1/p')
  [ -n "$suggested" ] || fail "the refusal of $moved names no command"
  # shellcheck disable=SC2086 # the suggested command's words
  PARITY_CASES=2 expect 0 "" -- "$parity" $suggested --max T=8,N=8,K=8
done
for family in lora transition; do
  if "$parity" list subjects | grep -q "^  $family  parity-oracles"; then
    fail "the $family family lists parity-oracles, with no self-check to run"
  fi
done

# 10: a case over its family's work or memory limit is refused before anything is allocated.
pad='{"transposed":false,"ld_pad":1048576,"offset":1048576}'
repro big.json parity-host base_frozen '"family":"lora","seed":0,"dims":{"T":1024,"N":1024,"K":1,"r":1024},"params":{'"$lora_params"'},"layouts":{"x":'$pad',"W":'$pad',"A":'$pad',"B":'$pad',"dy":'$pad'}'
expect 2 "case.layouts.A: its storage would exceed 16777216 elements" -- limit_memory timeout 60 "$parity" replay big.json
repro big.json parity-host base_frozen '"family":"lora","seed":0,"dims":{"T":16384,"N":1024,"K":8192,"r":64},"params":{'"$lora_params"'}'
expect 2 "case.dims: x would hold more than 67108864 elements" -- limit_memory timeout 60 "$parity" replay big.json
# A transition case beyond the contract's limit (an operand of at most 2^26 elements), of the family
# and of either op: refused before anything is allocated.
for family in transition transition_step transition_score; do
  repro big.json parity-host "$( [ $family = transition ] && echo matches_formula || echo forward_accuracy)" \
    '"family":"'$family'","seed":0,"dims":{"B":1024,"n":1048576},"params":{'"$transition_params"'}'
  expect 2 "case.dims: x would hold more than 67108864 elements" -- limit_memory timeout 60 "$parity" replay big.json
done
repro big.json runtime-host strict_repeatable '"family":"model","seed":0,"dims":{"tokens":1048576,"batch":64,"blocks":64,"refiner_blocks":16,"width":4096,"heads":64}'
expect 2 "case.dims: the multiply-adds of the forwards is" -- limit_memory timeout 60 "$parity" replay big.json
repro big.json runtime-host strict_repeatable '"family":"model","seed":0,"dims":{"tokens":65536,"batch":1,"blocks":0,"refiner_blocks":0,"width":2,"heads":1}'
expect 2 "attention scores, in bytes, is 1.72e+10, more than the limit of 2^30 bytes" -- limit_memory timeout 60 "$parity" replay big.json
seeds=$(for i in $(seq 0 2999); do printf '"seed.%d":%d,' "$i" "$i"; done)
repro big.json strict single_equals_batched '"family":"trajectory","seed":0,"dims":{"steps":1,"tokens":3,"blocks":0,"straddles":0},"params":{'"${seeds%,}"'}'
expect 2 "case.params: the number of seeds (seed.<i>, the batch) is 3e+03, more than the limit of 64" -- \
  limit_memory timeout 60 "$parity" replay big.json
repro big.json strict single_equals_batched '"family":"trajectory","seed":0,"dims":{"steps":64,"tokens":1048576,"blocks":64,"straddles":0},"params":{"seed.0":1}'
expect 2 "case.dims/case.params: the multiply-adds of the forwards is" -- limit_memory timeout 60 "$parity" replay big.json
repro big.json torch-autograd matches_autograd '"family":"bridge","seed":0,"dims":{"vocab":4096,"d":512,"heads":512,"hidden":4096,"max_len":4096,"len":4096}'
expect 2 "case.dims: the multiply-adds of one pass is" -- limit_memory timeout 60 "$parity" replay big.json

# 11: input files are regular files of at most 4 MiB, refused before they are read.
expect 2 "/dev/zero: not a regular file" -- limit_memory timeout 60 "$parity" fuzz-repro transition_step /dev/zero
expect 2 "/dev/zero: not a regular file" -- limit_memory timeout 60 "$parity" replay /dev/zero
mkfifo in.fifo
expect 2 "in.fifo: not a regular file" -- timeout 20 "$parity" replay in.fifo
expect 2 "in.fifo: not a regular file" -- timeout 20 "$parity" fuzz-repro transition_step in.fifo
mkdir -p crashes
expect 2 "crashes: is a directory" -- "$parity" fuzz-repro transition_step crashes
truncate -s 5M big.json
expect 2 "big.json: 5242880 bytes, larger than the limit of 4194304 bytes" -- "$parity" replay big.json

# 12: output paths are checked before the work, and anything but a regular file is written in
# place, never replaced.
echo plain > afile
expect 2 "--out: afile/gate.json: afile is not a directory" -- timeout 20 "$parity" gate --out afile/gate.json
expect 2 "--repro-dir: afile/repros: afile is not a directory" -- timeout 20 "$parity" check lora --repro-dir afile/repros
expect 2 "PARITY_REPRO_DIR" -- env PARITY_REPRO_DIR=afile timeout 20 "$parity" check lora
expect 2 "--json: crashes: is a directory" -- timeout 20 "$parity" trajectory --json crashes
expect 2 "--record: crashes: is a directory" -- timeout 20 "$parity" bridge --record crashes
expect 2 "--out: afile/x: afile is not a directory" -- timeout 20 "$parity" fuzz-repro transition_step ok.json --out afile/x
# A character device (a copy of /dev/full where we may make one, so nothing of the system's is at
# risk) is written in place: the write fails, naming the file and the reason.
if mknod full c 1 7 2> /dev/null; then full=$work/full; else full=/dev/full; fi
expect 2 "$full: write failed: No space left on device" -- "$parity" bridge --record "$full"
[ -c "$full" ] || fail "$full was replaced"
# stdout, as "-" and /dev/stdout: the record is in the pipe, and no file named "-" appears.
expect 0 '"schema": "parity.bridge/1"' -- "$parity" bridge --record -
[ ! -e ./- ] || fail "--record - wrote a file named -"
expect 0 '"schema": "parity.bridge/1"' -- "$parity" bridge --record /dev/stdout
[ -L /dev/stdout ] || fail "/dev/stdout is no longer a link"
# A FIFO gets the record through it; a symbolic link is written through, and stays a link.
mkfifo out.fifo
(timeout 60 cat out.fifo > fifo.txt) &
reader=$!
expect 0 "record: out.fifo" -- timeout 60 "$parity" bridge --record out.fifo
wait "$reader"
[ -p out.fifo ] && grep -q '"schema": "parity.bridge/1"' fifo.txt || fail "out.fifo replaced or record not received"
ln -s target.json link.json
expect 0 "record: link.json" -- "$parity" bridge --record link.json
[ -L link.json ] && grep -q '"schema": "parity.bridge/1"' target.json || fail "link.json not written through"
ls ./*.tmp* > /dev/null 2>&1 && fail "temporary files left: $(ls ./*.tmp*)"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
