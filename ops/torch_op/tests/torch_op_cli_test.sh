#!/usr/bin/env bash
# PyTorch operators as subjects by schema name (ops/torch_op/torch_op.hpp), through `parity check`
# and `parity replay` and through the property main as parity_add_subject_tests(TORCH_OP) runs it:
#   - mylib::rms_norm (examples/torch_op/mylib.cpp) holds every rms_norm property; the
#     mapping by --torch-arg and an argument's default work alike;
#   - mylib::rms_norm_broken (eps after the square root) fails, with a reproducer that still fails
#     on replay through either program and passes on mylib::rms_norm;
#   - bad input exits 2 naming the flag: an unknown operator, a library that does not load, an
#     argument without counterpart, a type that cannot take what maps to it, returns that are not
#     the declared outputs, a malformed or unknown --torch-arg, a family that is not an op, a flag
#     without --torch-op; a returned tensor of another dtype is the operator's failure (exit 1);
#   - a torch linear operator serves the model's float32 projections (parity check model and
#     trajectory --torch-op, and the property main): a batch-invariant one holds, one whose bits
#     depend on the row count fails the model's batch invariance and replays;
#   - with --kernel-op, a torch rms_norm operator serves every routine that runs RMSNorm, the same way;
#   - attention operators take sdpa's [B, H, S, D] tensors with the layout in their strides.
# usage: torch_op_cli_test.sh PARITY LIBRARY PROPERTY_MAIN
parity=$1 lib=$2 main=$3
source "$(dirname "$0")/../../../core/tests/expect.sh"
export PARITY_REPRO_DIR=$work/repros
check() { "$parity" check rms_norm --cases 12 --library "$lib" "$@"; }

expect 0 "forward_accuracy              holds" -- check --torch-op mylib::rms_norm
expect 0 "layout_invariant              holds" -- check --torch-op parity_test::renamed --torch-arg x=input,w=weight,eps=epsilon
expect 0 "rows_independent              holds" -- check --torch-op parity_test::defaulted --property rows_independent
expect 1 "FAILS" -- check --torch-op mylib::rms_norm_broken --property forward_accuracy
repro=$(ls "$work"/repros/*.json 2>/dev/null | head -n 1)
[ -n "$repro" ] || { fail "no reproducer of mylib::rms_norm_broken"; }
expect 1 "STILL FAILS" -- "$parity" replay "$repro" --torch-op mylib::rms_norm_broken --library "$lib"
expect 0 "passes now" -- "$parity" replay "$repro" --torch-op mylib::rms_norm --library "$lib" --subject mylib::rms_norm
expect 2 "unknown rms_norm subject 'mylib::rms_norm_broken'" -- "$parity" replay "$repro"
# printed_lines_fail OUTPUT: the rerun: and replay: lines a failure printed run as printed (they
# load the operator again) and fail again.
printed_lines_fail() {
  local line command
  for line in rerun replay; do
    command=$(printf '%s\n' "$1" | sed -n "s/^  $line: *parity //p" | head -n 1)
    if [ -z "$command" ]; then
      fail "the failure printed no $line: line"
    else
      eval "expect 1 FAIL -- \"\$parity\" $command"
    fi
  done
}
printed_lines_fail "$(check --torch-op mylib::rms_norm_broken --property forward_accuracy 2>&1)"

expect 2 "--torch-op: PyTorch's dispatcher has no operator mylib::rms_nrm after loading $lib (the nearest names: mylib::rms_norm" \
  -- check --torch-op mylib::rms_nrm
# Returns: fewer than the declared outputs (the rest unchecked, and said so), mapped by name, or
# more with the extra ignored; a mapping that reaches the operator (log values checked as y fail).
softmax() { "$parity" check softmax --cases 12 --library "$lib" "$@"; }
expect 0 "it returns no log_y, which goes unchecked" -- softmax --torch-op parity_test::softmax_only \
  --property forward_accuracy
expect 0 "forward_accuracy              holds" -- softmax --torch-op parity_test::log_softmax_only --torch-returns log_y \
  --property forward_accuracy
expect 1 "FAILS" -- softmax --torch-op parity_test::log_softmax_only --property forward_accuracy
expect 0 "batch_vs_batch                holds" -- softmax --torch-op parity_test::softmax_and_count --torch-returns y,_ \
  --property batch_vs_batch
# LibTorch's own softmax and log-softmax by name, one output each: they run (exit 0 or 1); their
# verdicts are findings about LibTorch, never asserted.
for row in "aten::_softmax y" "aten::_log_softmax log_y"; do
  read -r op output <<<"$row"
  softmax --torch-op "$op" --torch-arg x=self,dim=-1,half_to_float=false --torch-returns "$output" \
    --property forward_accuracy >"$work/aten.out" 2>&1
  status=$?
  if [ "$status" = 0 ] || [ "$status" = 1 ]; then
    echo "ok:   $op by name ran (exit $status)"
  else
    fail "$op by name exited $status:"
    tail -5 "$work/aten.out"
  fi
done
expect 2 "--torch-returns: y is named twice" -- softmax --torch-op parity_test::softmax_and_count --torch-returns y,y
expect 2 "--torch-returns: z is not an output of softmax" -- softmax --torch-op parity_test::softmax_only --torch-returns z
expect 2 "--torch-returns: names 1 returns, parity_test::softmax_and_count returns 2" -- \
  softmax --torch-op parity_test::softmax_and_count --torch-returns y
expect 2 "--torch-returns: no return of parity_test::softmax_only is an output of softmax" -- \
  softmax --torch-op parity_test::softmax_only --torch-returns _
expect 2 "--torch-returns: 'y,,_' has an empty name" -- softmax --torch-op parity_test::softmax_and_count --torch-returns y,,_
expect 2 "--torch-returns needs --torch-op SCHEMA" -- "$parity" check softmax --torch-returns y
expect 2 "--torch-op: 'rms_norm' is not a schema name" -- check --torch-op rms_norm
expect 2 "--library: cannot load $work/none.so" -- "$parity" check rms_norm --torch-op mylib::rms_norm --library "$work/none.so"
expect 2 "--torch-arg: argument groups (int) of parity_test::extra has no default and no counterpart in rms_norm" \
  -- check --torch-op parity_test::extra
expect 2 "--torch-arg: argument w (float) of parity_test::float_weight cannot take rms_norm's input w, a tensor" \
  -- check --torch-op parity_test::float_weight
expect 2 "--torch-op: parity_test::two returns 2 values, rms_norm declares 1 outputs" -- check --torch-op parity_test::two
expect 2 "--torch-arg: argument input (Tensor) of parity_test::renamed has no default and no counterpart in rms_norm" \
  -- check --torch-op parity_test::renamed
expect 2 "--torch-arg: rms_norm's input w goes to no argument of parity_test::no_weight(Tensor x, float eps)" \
  -- check --torch-op parity_test::no_weight
expect 2 "--torch-arg: 'x' is not NAME=VALUE" -- check --torch-op parity_test::renamed --torch-arg x
expect 2 "--torch-arg: input=input: input is neither a value (None, true, false, a number, [EXTENT,...], a dtype such as f32) nor declared by rms_norm (inputs x, w; parameters eps; extents T, D)" \
  -- check --torch-op parity_test::renamed --torch-arg input=input
expect 2 "--torch-arg: nothing is neither declared by rms_norm (inputs x, w; parameters eps; extents T, D) nor an argument of parity_test::renamed(Tensor input, Tensor weight, float epsilon)" \
  -- check --torch-op parity_test::renamed --torch-arg nothing=1
expect 2 "--torch-arg: parity_test::renamed(Tensor input, Tensor weight, float epsilon) has no argument X" \
  -- check --torch-op parity_test::renamed --torch-arg x=X
# Arguments as the schema has them: literals, lists of extents, dtypes and None, each of which the
# operator checks reached it exactly (it throws otherwise); an extent as an int and as a
# one-element list; a 0/1 parameter as a bool; an optional input's presence parameter needing no
# argument. A wrong literal is the operator's failure, by its message without c10's backtrace.
literal_args=dim=-1,flag=false,shape=[D],dtype=f32,scale=0.5,unused=None,D=d,ds=D
expect 0 "forward_accuracy              holds" -- check --torch-op parity_test::literals --torch-arg "$literal_args"
out=$(check --torch-op parity_test::literals --torch-arg "${literal_args/dim=-1/dim=-2}" --property repeatable 2>&1)
expect 1 "literals: dim is -2, not -1" -- check --torch-op parity_test::literals --torch-arg "${literal_args/dim=-1/dim=-2}" --property repeatable
if printf '%s' "$out" | grep -q "Exception raised from"; then
  fail "the operator's error printed c10's backtrace"; fi
expect 0 "repeatable                    holds" -- \
  "$parity" check linear --cases 30 --library "$lib" --torch-op parity_test::presence --torch-arg has_bias=bias --property repeatable
expect 0 "repeatable                    holds" -- \
  "$parity" check linear --cases 30 --library "$lib" --torch-op parity_test::presence_only --property repeatable
expect 2 "--torch-arg: argument dim (int) of parity_test::literals cannot take the float 0.5" -- \
  check --torch-op parity_test::literals --torch-arg "${literal_args/dim=-1/dim=0.5}"
expect 2 "--torch-arg: argument flag (bool) of parity_test::literals cannot take the int 1" -- \
  check --torch-op parity_test::literals --torch-arg "${literal_args/flag=false/flag=1}"
expect 2 "--torch-arg: argument shape (int[]) of parity_test::literals cannot take the list [D,Q]: 'Q' is neither an int nor an extent of rms_norm" -- \
  check --torch-op parity_test::literals --torch-arg "${literal_args/shape=\[D\]/shape=[D,Q]}"
expect 2 "--torch-arg: argument flag (bool) of parity_test::literals cannot take None: it is not optional" -- \
  check --torch-op parity_test::literals --torch-arg "${literal_args/flag=false/flag=None}"
expect 2 "--torch-arg: argument dtype (ScalarType?) of parity_test::literals cannot take the float 1.5" -- \
  check --torch-op parity_test::literals --torch-arg "${literal_args/dtype=f32/dtype=1.5}"
expect 2 "--torch-arg: argument d of parity_test::literals is given twice" -- \
  check --torch-op parity_test::literals --torch-arg "$literal_args,d=4"
expect 2 "--torch-arg: argument flag (bool) of parity_test::literals cannot take rms_norm's extent T, an int" -- \
  check --torch-op parity_test::literals --torch-arg "${literal_args/flag=false/flag=T}"
expect 2 "--torch-arg: argument has_bias (bool) of parity_test::presence cannot take linear's extent N, an int" -- \
  "$parity" check linear --library "$lib" --torch-op parity_test::presence --torch-arg has_bias=N
# Overloads: the one whose arguments map is picked; none mapping lists them.
expect 0 "forward_accuracy              holds" -- check --torch-op parity_test::picked
expect 2 "--torch-op: parity_test::overloaded has the overloads parity_test::overloaded.Dimname(Tensor x, str dim, ScalarType? dtype), parity_test::overloaded.int(Tensor x, int dim, ScalarType? dtype); the arguments of none map to rms_norm" -- \
  check --torch-op parity_test::overloaded
expect 2 "rms_norm's input w goes to no argument of parity_test::overloaded.int" -- \
  check --torch-op parity_test::overloaded --torch-arg dim=-1
# What the operator supports: --dtypes and --param restrict the generated cases (and the rerun
# line carries them); without them a float32-only kernel and one that needs a bias throw.
expect 1 "the subject threw" -- check --torch-op parity_test::f32_only --property repeatable --cases 30
expect 0 "repeatable                    holds" -- check --torch-op parity_test::f32_only --property repeatable --cases 30 --dtypes f32
expect 1 "the subject threw" -- "$parity" check linear --library "$lib" --torch-op parity_test::needs_bias --property repeatable --cases 30
expect 0 "repeatable                    holds" -- \
  "$parity" check linear --library "$lib" --torch-op parity_test::needs_bias --property repeatable --cases 30 --param bias=1
# A float32-only broken kernel: the printed rerun line applies --dtypes f32 (it fails again on a
# value, not by throwing on a bf16 case), from parity check and from the property main.
out=$(check --torch-op parity_test::f32_only_broken --property forward_accuracy --cases 30 --dtypes f32 2>&1)
rerun=$(printf '%s\n' "$out" | sed -n 's/^  rerun: *parity //p' | head -n 1)
case "$rerun" in *"--dtypes f32"*) echo "ok:   the rerun line carries --dtypes f32" ;;
  *) fail "the rerun line lacks --dtypes f32: $rerun" ;; esac
eval "expect 1 \"forward_accuracy              FAILS\" -- \"\$parity\" $rerun"
if eval "\"\$parity\" $rerun" 2>&1 | grep -q "the subject threw"; then
  fail "the rerun line drew a case the kernel does not support"; fi
printed_lines_fail "$out"
out=$(env PARITY_CASES=30 "$main" rms_norm --torch-op parity_test::f32_only_broken --library "$lib" --dtypes f32 \
  --gtest_filter=rms_norm.forward_accuracy 2>&1)
case "$out" in *"--gtest_filter=rms_norm.forward_accuracy --dtypes f32"*) echo "ok:   the property main's rerun carries --dtypes f32" ;;
  *) fail "the property main's rerun lacks --dtypes f32:"; printf '%s\n' "$out" | tail -5 ;; esac
expect 0 "parity: every applicable property holds" -- env PARITY_CASES=12 "$main" rms_norm --torch-op parity_test::f32_only \
  --library "$lib" --dtypes f32 --gtest_filter=rms_norm.repeatable
expect 2 "--dtypes: no dtype group of rms_norm takes f64" -- check --torch-op mylib::rms_norm --dtypes f32,f64
expect 2 "--dtypes: unknown dtype 'f8'" -- check --torch-op mylib::rms_norm --dtypes f32,f8
expect 2 "--param: rms_norm declares no parameter epsilon (its parameters: eps)" -- check --torch-op mylib::rms_norm --param epsilon=0
expect 2 "--param bias: expected an integer in [0, 1]" -- "$parity" check linear --param bias=0.5
expect 2 "--param eps: expected a float32 value in [0, 1]" -- check --torch-op mylib::rms_norm --param eps=2
expect 2 "--param: 'eps' is not NAME=VALUE" -- check --torch-op mylib::rms_norm --param eps
expect 2 "--dtypes: lora is not an op family" -- "$parity" check lora --dtypes f32
expect 2 "--param: model is not an op family" -- env "$main" model --param eps=0

# LibTorch's own operators by schema name, with flags only (docs/your-kernel.md's commands): each runs
# its cases through the dispatcher. Their verdicts are findings (exit 0 or 1), never asserted; only
# that every argument reached the operator in a form it takes (no case threw).
aten() {
  local out rc
  out=$("$parity" check "$@" --cases 8 2>&1); rc=$?
  if [ "$rc" -gt 1 ] || printf '%s' "$out" | grep -q "the subject threw"; then
    fail "parity check $* exited $rc:"; printf '%s\n' "$out" | tail -5
  else echo "ok:   parity check $* -> $rc (a finding)"; fi
}
aten layer_norm --torch-op aten::layer_norm --torch-arg 'x=input,w=weight,b=bias,normalized_shape=[D]'
aten linear --torch-op aten::linear --torch-arg x=input,W=weight,b=bias
if "$parity" check rms_norm --torch-op aten::rms_norm --cases 1 2>&1 | grep -q "has no operator aten::rms_norm"; then
  echo "ok:   this LibTorch has no aten::rms_norm (2.4 and later have)"
else
  aten rms_norm --torch-op aten::rms_norm --torch-arg 'x=input,w=weight,normalized_shape=[D]'
fi
# Attention on [B, H, S, D] tensors (k, v [B, Hkv, S, D]), sdpa's dims, by name: LibTorch's (causal
# and not; a finding), and mylib::attention (examples/torch_op: float32 only, its own argument
# names, read through its strides, grouped-query heads), which holds every property; its copy that
# reads its tensors as if contiguous fails where the case's layout is [B, S, H, D] memory (layout=1,
# which reaches an operator as strides only) and where padded or transposed memory does; an o
# returned as a matrix is refused by shape.
if "$parity" check sdpa --torch-op aten::scaled_dot_product_attention --cases 1 2>&1 | grep -q "has no operator"; then
  echo "ok:   this LibTorch has no aten::scaled_dot_product_attention (2.0 and later have)"
else
  # Grouped-query heads (k, v with Hkv of the H heads) need enable_gqa (LibTorch 2.5 on); before,
  # the cases keep to multi-head attention (G = 1).
  args=q=query,k=key,v=value,causal=is_causal,enable_gqa=true grouped=()
  "$parity" check sdpa --torch-op aten::scaled_dot_product_attention --torch-arg "$args" --cases 1 >/dev/null 2>&1
  [ $? -le 1 ] || { args=q=query,k=key,v=value,causal=is_causal grouped=(--max G=1); }
  for causal in 0 1; do
    aten sdpa --torch-op aten::scaled_dot_product_attention --torch-arg "$args" "${grouped[@]}" --param causal=$causal
  done
fi
attention() {
  "$parity" check sdpa --library "$lib" --torch-arg q=query,k=key,v=value,scale=softmax_scale --dtypes f32 "$@"
}
# Every property at 4 cases here (op_examples_package_test runs each at 25 on the installed package).
expect 0 "forward_accuracy              holds" -- attention --torch-op mylib::attention --cases 4
expect 0 "it returns no lse, which goes unchecked" -- attention --torch-op mylib::attention --param layout=1 \
  --property forward_accuracy --cases 12
expect 1 "forward_accuracy              FAILS" -- attention --torch-op mylib::attention_assumes_contiguous \
  --param layout=1 --property forward_accuracy --cases 12
expect 1 "layout_invariant              FAILS" -- attention --torch-op mylib::attention_assumes_contiguous \
  --param layout=0 --property layout_invariant --cases 12
expect 1 "returned o as [1, 1], where sdpa declares [1, 1, 1, 1]" -- "$parity" check sdpa --library "$lib" \
  --torch-op parity_test::attention_flat --max B=1,Hkv=1,G=1,S=1,D=1 --property repeatable --cases 1
# A varlen attention with FlashAttention's arguments: cu_seqlens(S) the offsets as an int32 tensor,
# S the max_seqlen; the properties hold on it (one sequence at a time: batch invariant). A
# cu_seqlens of an extent that is not ragged is refused, and so is an operator that takes no offsets.
varlen=(check sdpa_varlen --library "$lib" --torch-op parity_test::attention_varlen --cases 20
        --torch-arg "cu_seqlens=cu_seqlens(S),max_seqlen=S")
expect 0 "forward_accuracy              holds" -- "$parity" "${varlen[@]}" --property forward_accuracy
expect 0 "rows_padded                   holds" -- "$parity" "${varlen[@]}" --property rows_padded
expect 2 "D is not a ragged extent of sdpa_varlen" -- "$parity" check sdpa_varlen --library "$lib" \
  --torch-op parity_test::attention_varlen --torch-arg "cu_seqlens=cu_seqlens(D),max_seqlen=S" --cases 1
# An operator that takes no offsets (sdpa's attention_flat) cannot read packed operands: refused
# by the flag, before any case runs, not judged on wrong values.
expect 2 "--torch-arg ARGUMENT=cu_seqlens(S)" -- "$parity" check sdpa_varlen --library "$lib" \
  --torch-op parity_test::attention_flat --cases 1
expect 2 "--torch-device: 'tpu' is neither cpu nor cuda" -- check --torch-op mylib::rms_norm --torch-device tpu
expect 2 "--torch-op: lora is not an op family" -- "$parity" check lora --torch-op mylib::rms_norm --library "$lib"
expect 2 "--library needs --torch-op SCHEMA" -- "$parity" check rms_norm --library "$lib"
expect 1 "returned y as f32, the rms_norm declaration wants bf16" -- check --torch-op parity_test::always_f32 --property repeatable

# A torch operator as the model's float32 projections (op linear's kernel inside the model's and
# the trajectory's subjects): parity_test::linear (one fma chain per output, whatever the batch)
# holds every model property and the trajectory's; parity_test::linear_by_rows (another order
# for an even row count) fails the model's batch invariance and the trajectory's single vs
# batched, with a reproducer that replays (and passes on parity_test::linear) and printed rerun
# and replay lines that run as printed; a device the trajectory cannot run is refused.
linear=(--torch-op parity_test::linear --library "$lib")
broken=(--torch-op parity_test::linear_by_rows --library "$lib")
expect 0 "batch_invariant_bound         holds" -- "$parity" check model --cases 6 "${linear[@]}"
expect 0 "parity check trajectory on bound-all+linear=parity_test::linear" -- "$parity" check trajectory --cases 3 "${linear[@]}"
expect 1 "single_equals_batched         FAILS" -- "$parity" check trajectory --cases 10 "${broken[@]}" --property single_equals_batched
rm -rf "$work/repros"
expect 1 "batch_invariant_bound         FAILS" -- "$parity" check model --cases 20 "${broken[@]}" --property batch_invariant_bound
repro=$(ls "$work"/repros/*.json 2>/dev/null | head -n 1)
[ -n "$repro" ] || { fail "no reproducer of parity_test::linear_by_rows in the model"; }
expect 1 "STILL FAILS" -- "$parity" replay "$repro" "${broken[@]}"
expect 0 "passes now" -- "$parity" replay "$repro" "${linear[@]}" --subject runtime-host+linear=parity_test::linear
printed_lines_fail "$("$parity" check model --cases 20 "${broken[@]}" --property batch_invariant_bound 2>&1)"
expect 2 "--torch-device: trajectory runs the model's routines on the host" -- \
  "$parity" check trajectory "${linear[@]}" --torch-device cuda
expect 0 "parity: every applicable property holds" -- \
  env PARITY_CASES=4 "$main" model parity_test::linear "${linear[@]}" --gtest_filter=model.audit_equals_strict

# A torch operator as the kernel of another op in the model's routines (--kernel-op): mylib::rms_norm
# in every routine that runs RMSNorm holds every model property; parity_test::rms_norm_by_rows (bf16
# y for an even row count) fails the model's batch invariance, and its reproducer replays with
# the printed flags; an op the family runs no kernel of is refused.
norm=(--torch-op mylib::rms_norm --library "$lib" --kernel-op rms_norm)
norm_broken=(--torch-op parity_test::rms_norm_by_rows --library "$lib" --kernel-op rms_norm)
expect 0 "parity check model on runtime-host+rms_norm=mylib::rms_norm" -- "$parity" check model --cases 6 "${norm[@]}"
expect 0 "parity check trajectory on bound-all+rms_norm=mylib::rms_norm" -- \
  "$parity" check trajectory --cases 3 "${norm[@]}"
rm -rf "$work/repros"
expect 1 "batch_invariant_bound         FAILS" -- \
  "$parity" check model --cases 20 "${norm_broken[@]}" --property batch_invariant_bound
repro=$(ls "$work"/repros/*.json 2>/dev/null | head -n 1)
[ -n "$repro" ] || { fail "no reproducer of parity_test::rms_norm_by_rows in the model"; }
expect 1 "STILL FAILS" -- "$parity" replay "$repro" "${norm_broken[@]}"
# Without --kernel-op, the replay takes the op from the recorded subject.
expect 1 "STILL FAILS" -- "$parity" replay "$repro" --torch-op parity_test::rms_norm_by_rows --library "$lib"
expect 0 "passes now" -- "$parity" replay "$repro" "${norm[@]}" --subject runtime-host+rms_norm=mylib::rms_norm
printed_lines_fail "$("$parity" check model --cases 20 "${norm_broken[@]}" --property batch_invariant_bound 2>&1)"
expect 2 "--kernel-op: model runs kernels of linear, rms_norm, rope, swiglu, sdpa, transition_step, not of adaln" -- \
  "$parity" check model --torch-op mylib::rms_norm --library "$lib" --kernel-op adaln
expect 2 "--kernel-op: rms_norm is an op family: the operator is its subject, not a kernel of linear" -- \
  "$parity" check rms_norm --torch-op mylib::rms_norm --library "$lib" --kernel-op linear
expect 2 "--kernel-op: trajectory runs kernels of linear, rms_norm, rope, swiglu, sdpa, not of transition_step" -- \
  "$parity" check trajectory --torch-op mylib::rms_norm --library "$lib" --kernel-op transition_step
expect 2 "--kernel-op needs --torch-op SCHEMA" -- "$parity" check model --kernel-op rms_norm
expect 2 "(on model the operator is a kernel of linear unless --kernel-op names another of linear, rms_norm" -- \
  "$parity" check model --torch-op mylib::rms_norm --library "$lib"
expect 2 "--kernel-op needs --torch-op SCHEMA" -- "$main" model --kernel-op rms_norm
expect 0 "parity: every applicable property holds" -- \
  env PARITY_CASES=4 "$main" model mylib::rms_norm "${norm[@]}" --gtest_filter=model.audit_equals_strict

# The property main, as parity_add_subject_tests(OP rms_norm TORCH_OP ...) runs it.
torch_op=(--torch-op mylib::rms_norm_broken --library "$lib")
rm -rf "$work/repros"
expect 1 "$main --replay ${torch_op[*]} $work/repros/" -- \
  env PARITY_CASES=12 "$main" rms_norm "${torch_op[@]}" --gtest_filter=rms_norm.forward_accuracy
expect 1 "STILL FAILS" -- "$main" --replay "${torch_op[@]}" "$work/repros"
expect 0 "parity: every applicable property holds" -- \
  env PARITY_CASES=12 "$main" rms_norm --torch-op mylib::rms_norm --library "$lib" --gtest_filter=rms_norm.repeatable
expect 2 "--torch-op: PyTorch's dispatcher has no operator mylib::nothing" -- "$main" rms_norm --torch-op mylib::nothing --library "$lib"

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "torch_op_cli: operators by schema name hold, fail, replay and are refused as documented"
