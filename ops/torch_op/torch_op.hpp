#pragma once
// A PyTorch operator as a subject of an op, by its schema name, with no code of the user's: a
// kernel registered with PyTorch's dispatcher (TORCH_LIBRARY in C++) is loaded from its shared
// library, found by name (c10::Dispatcher::findSchema) and called boxed, on CPU tensors or, for
// the device cuda, CUDA tensors:
//
//   parity check rms_norm --torch-op mylib::rms_norm --library libmylib.so
//   parity_add_subject_tests(OP rms_norm TORCH_OP mylib::rms_norm LIBRARY mylib)   (CMake)
//
// The declaration's inputs, parameters and extents go to the schema's arguments of the same name,
// or of the name --torch-arg gives (DECLARED=ARGUMENT): a Tensor argument takes an input (its
// case's dtype, shape, strides and offset), a float argument a parameter, an int argument an
// extent or a parameter; an argument nothing maps to takes its default. The schema's returns are
// the declaration's outputs in order. Plain C++: callers need no LibTorch headers (the LibTorch
// code is torch_op_subject.cpp).
#include <map>
#include <string>
#include <vector>

#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

// The backend (OpSubjectInfo::backend) of an operator's subject on CPU and on CUDA tensors.
inline constexpr const char* kTorchOpCpuBackend = "torch-op-cpu";
inline constexpr const char* kTorchOpCudaBackend = "torch-op-cuda";

struct TorchOpSpec {
  std::string schema;   // "mylib::rms_norm" or "mylib::rms_norm.overload" (--torch-op)
  std::string library;  // the shared library whose loading registers it; "" when already loaded (--library)
  std::map<std::string, std::string> args = {};  // declared name -> schema argument (--torch-arg)
  std::string device = "cpu";                    // cpu or cuda (--torch-device)
  // For a family whose subjects run an op's kernels (gen::Family::kernel_ops: model, trajectory),
  // the op the operator is a kernel of; "" for the family's first (linear) (--kernel-op).
  std::string kernel_op = {};
};

// The spec of the flags' values: `args` is "DECLARED=ARGUMENT,..." (may be empty), `device` cpu or
// cuda, `kernel_op` an op name or "". Throws InputError naming the flag for a malformed value.
TorchOpSpec torch_op_spec(const std::string& schema, const std::string& library, const std::string& args,
                          const std::string& device, const std::string& kernel_op = "");

// The subject's name: the schema name, with "@cuda" for the device cuda.
std::string torch_op_subject_name(const TorchOpSpec& spec);

// The flags that give `spec` back, for a printed command: " --torch-op S [--library F]
// [--torch-arg A=B,...] [--torch-device cuda] [--kernel-op OP]", each value shell-quoted where it
// needs it.
std::string torch_op_flag_words(const TorchOpSpec& spec);

// The subject that calls `spec`'s operator as an implementation of `decl`: loads the library
// (RTLD_GLOBAL: its static initialisers register the operator), finds the schema and maps its
// arguments now. Throws InputError naming the flag (--library, --torch-op, --torch-arg,
// --torch-device) for a library that does not load, an operator the dispatcher does not have
// (listing those of its namespace), a declared name that matches no argument, an argument
// without a counterpart or default, an argument whose type cannot take what maps to it (a Tensor
// for a parameter, a float for an input), or returns that are not the declaration's outputs.
// The subject runs each call through the dispatcher; a returned tensor whose dtype or shape is
// not the declared output's is its failure (an exception naming the output).
OpSubjectInfo torch_op_subject(const OpDecl& decl, const TorchOpSpec& spec);

class OpFamily;

// Registers torch_op_subject(op's declaration, spec) as a subject of the op family `op`, unless
// one of that name is registered already; returns the subject's name. Must come before the
// family's subjects are first listed. Throws InputError naming --kernel-op when spec.kernel_op
// names another op (the operator is the op's subject, not a kernel inside it), and as
// torch_op_subject does. A family whose subjects run an op's kernels (the model) takes an
// operator through registry/torch_op_registration.hpp, which calls this for the kernel's op.
std::string register_torch_op_subject(const OpFamily& op, const TorchOpSpec& spec);

}  // namespace parity::ops
