#pragma once
// A PyTorch operator as a subject of an op, by its schema name, with no code of the user's: a
// kernel registered with PyTorch's dispatcher (TORCH_LIBRARY in C++) is loaded from its shared
// library, found by name (c10::Dispatcher::findSchema) and called boxed, on CPU tensors or, for
// the device cuda, CUDA tensors:
//
//   parity check rms_norm --torch-op mylib::rms_norm --library libmylib.so
//   parity_add_subject_tests(OP rms_norm TORCH_OP mylib::rms_norm LIBRARY mylib)   (CMake)
//
// Each schema argument takes, in this order of precedence:
//   - what --torch-arg gives it (ARGUMENT=VALUE; VALUE a literal or a declared name, below), or the
//     declared name --torch-arg maps to it (DECLARED=ARGUMENT);
//   - the declared input, parameter or extent of its own name;
//   - its default. An argument left with none of these is refused.
// A value converts only where it is exact: an input goes to a Tensor (its case's dtype, shape,
// strides and offset) or, where the input is optional (TensorDecl::present_if), to a Tensor? that
// is None where the case has no input; a parameter to a float, to an int where every value it
// takes is an integer, to a bool where every value is 0 or 1; an extent to an int or SymInt, a
// float, or a one-element int list. Literals: None (an optional argument), true/false, an int
// (to an int or a float), a float, a list of ints and extents ([D], [H,D]), a dtype (f32, bf16,
// f16, f64 or torch's names float32, bfloat16, ...), and cu_seqlens(EXT) for a ragged extent EXT
// (op_decl.hpp: sdpa_varlen's S): the rows' offsets in a packed operand, an int32 Tensor of B + 1
// (FlashAttention's cu_seqlens_q and cu_seqlens_k; the extent itself is the max_seqlen), which an
// operator of an op with a ragged extent must take (its operands are packed). A parameter that only says
// whether an optional input is present needs no argument when that input has one, nor does one that only orders an
// operand's dims in memory (TensorDecl::order_param, sdpa's layout: the tensors' strides say it).
// Inputs and outputs are of their declared dims (sdpa's [B, H, S, D]). Every declared input and every other
// parameter must reach an argument. The schema's returns are the declaration's outputs in order,
// as many as it returns, or those --torch-returns names (`_` ignoring a return); an output it does
// not return goes unchecked (OpSubject::unchecked_outputs), and its description says so.
//
// A name without an overload picks the overload without one; where there is none, the one
// overload whose arguments map. Plain C++: callers need no LibTorch headers (the LibTorch code is
// torch_op_subject.cpp).
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

// The backend (OpSubjectInfo::backend) of an operator's subject on CPU and on CUDA tensors.
inline constexpr const char* kTorchOpCpuBackend = "torch-op-cpu";
inline constexpr const char* kTorchOpCudaBackend = "torch-op-cuda";

struct TorchOpSpec {
  std::string schema;        // "mylib::rms_norm" or "mylib::rms_norm.overload" (--torch-op)
  std::string library = {};  // the shared library whose loading registers it; "" when already loaded (--library)
  std::map<std::string, std::string> args = {};  // DECLARED -> ARGUMENT or ARGUMENT -> VALUE (--torch-arg)
  std::string device = "cpu";                    // cpu or cuda (--torch-device)
  // For a family whose subjects run an op's kernels (gen::Family::kernel_ops: model, trajectory),
  // the op the operator is a kernel of; "" for the family's first (linear) (--kernel-op).
  std::string kernel_op = {};
  // Per return, the declared output it is, or "_" to ignore it; empty: the declared outputs in
  // order, as many as the operator returns (--torch-returns).
  std::vector<std::string> returns = {};
  // A file descriptor, a socket to the process the operator lives in (a Python session's,
  // parity.check: operator_channel.hpp), instead of this process's dispatcher; "" for none
  // (--torch-channel). This run's alone: no printed command carries it.
  std::string channel = {};
};

// The flags that give a TorchOpSpec, as every program that takes them spells them (parity's
// commands, its worker, a property test program): --torch-op SCHEMA, --library FILE, --torch-arg
// NAME=VALUE,..., --torch-device cpu|cuda, --kernel-op OP, --torch-returns OUTPUT|_,...,
// --torch-channel FD
inline constexpr std::array<std::string_view, 7> kTorchOpFlags = {
    "--torch-op", "--library", "--torch-arg", "--torch-device", "--kernel-op", "--torch-returns", "--torch-channel"};
bool is_torch_op_flag(std::string_view flag);

// The spec of the flags' values, by flag (kTorchOpFlags; one left out takes its default: no
// library, no --torch-arg, the device cpu, the family's first kernel op, the returns in order), or
// nullopt where there is no --torch-op. --torch-arg is "NAME=VALUE,..." (a comma inside brackets
// belongs to the value), --torch-returns "OUTPUT|_,...", --torch-channel a file
// descriptor. Throws InputError naming the flag for a malformed value, a flag that is none of
// kTorchOpFlags, one given without --torch-op, and --library with --torch-channel.
std::optional<TorchOpSpec> torch_op_spec_of(const std::map<std::string, std::string>& values);

// The subject's name: the schema name, with "@cuda" for the device cuda.
std::string torch_op_subject_name(const TorchOpSpec& spec);

// The flags that give `spec` back, for a printed command: " --torch-op S [--library F]
// [--torch-arg A=B,...] [--torch-device cuda] [--kernel-op OP] [--torch-returns O,...]", each
// value shell-quoted where it needs it.
std::string torch_op_flag_words(const TorchOpSpec& spec);

// The declared outputs of `decl` that the operator `spec` names does not return (loaded and mapped
// as torch_op_subject does; InputError as it throws): what goes unchecked.
std::vector<std::string> torch_op_unreturned(const OpDecl& decl, const TorchOpSpec& spec);
// The same flags as a program's arguments, unquoted: what a worker is started with
// (properties/gen/case_worker.hpp).
std::vector<std::string> torch_op_flag_args(const TorchOpSpec& spec);

// The subject that calls `spec`'s operator as an implementation of `decl`: loads the library
// (RTLD_GLOBAL: its static initialisers register the operator), finds the schema and maps its
// arguments now. With spec.channel, the operator is the one at the channel's other end
// (operator_channel.hpp): its schema is asked for there, and each call goes there. Throws InputError naming the flag
// (--library, --torch-op, --torch-arg,
// --torch-device) for a library that does not load, an operator the dispatcher does not have
// (with the five nearest names), a name whose overloads none or several map (listing them), a
// name that is neither declared nor an argument, an argument given twice, an argument without a
// value or default, a value its type cannot take exactly, or returns that are not the
// declaration's outputs. The subject runs each call through the dispatcher; the operator's error
// is its failure, by its message (without c10's backtrace), and so is a returned tensor whose
// dtype or shape is not the declared output's.
OpSubjectInfo torch_op_subject(const OpDecl& decl, const TorchOpSpec& spec);

// LibTorch's operator `spec` (an aten:: operator by schema name) as the reference subject of one of
// parity's own ops (BuiltinSubjects::torch, builtin_subjects.hpp), described by `description`: found
// and mapped as torch_op_subject does at the first question, and unavailable, with the refusal as
// the reason, where this LibTorch lacks the operator or its arguments do not map.
OpSubjectInfo torch_op_reference(OpDecl decl, TorchOpSpec spec, std::string description);

class OpFamily;

// Registers torch_op_subject(op's declaration, spec) as a subject of the op family `op`, unless
// one of that name is registered already; returns the subject's name. Must come before the
// family's subjects are first listed. Throws InputError naming --kernel-op when spec.kernel_op
// names another op (the operator is the op's subject, not a kernel inside it), and as
// torch_op_subject does. A family whose subjects run an op's kernels (the model) takes an
// operator through registry/torch_op_registration.hpp, which calls this for the kernel's op.
std::string register_torch_op_subject(const OpFamily& op, const TorchOpSpec& spec);

}  // namespace parity::ops
