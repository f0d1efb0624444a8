#pragma once
// A routine: one deterministic implementation of one operation of a model (the model's are
// composed of op kernels), registered for the boundaries (or node kinds) it can serve. The runtime
// binds a boundary to a routine, or leaves it to the provider (LibTorch), per call. Routines see
// plain parity Tensors only.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <parity/core/dtype.hpp>
#include <parity/core/tensor.hpp>

namespace parity::runtime {

// Where a routine runs: parity's host twin or its CUDA kernel.
enum class Backend { host, cuda };
std::string backend_name(Backend b);

// The dtype and shape of one operand of a call, what a routine's acceptance test looks at.
struct TensorSpec {
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;
  static TensorSpec of(const Tensor& t) { return {t.dtype(), t.shape()}; }
};

// One call at one boundary. `boundary` is the full name ("audio_proj_in",
// "blocks.0.attention"); `kind` is what routines register for ("audio_proj_in", "attention");
// `node` is true for a node inside a block.
struct BoundaryCall {
  std::string boundary;
  std::string kind;
  bool node = false;
  std::vector<TensorSpec> operands;
  // A gradient will flow back through this call (an operand requires one): a routine without a
  // backward cannot take it.
  bool needs_backward = false;
};

// An instantiated routine. forward and backward must be deterministic and stateless across
// calls: the same operands give the same bits, whatever came before.
class Routine {
 public:
  virtual ~Routine() = default;
  // The outputs for `operands` (activations first, then weights, as the routine documents).
  virtual std::vector<Tensor> forward(const std::vector<Tensor>& operands) const = 0;
  // Gradients with respect to each operand (an empty Tensor where the routine gives none), for
  // the gradients `grad_outputs` of forward's outputs. Routines without a backward throw.
  virtual std::vector<Tensor> backward(const std::vector<Tensor>& operands,
                                       const std::vector<Tensor>& grad_outputs) const = 0;
};

// When a routine binds without being asked: always, or only when its group is requested.
enum class OptIn { none, video_projections, all };

struct RoutineInfo {
  std::string name;                 // "audio_input_projection_fp32"
  std::string op;                   // "linear", "attention", ...
  std::string dtypes;               // what it takes, in words: "x f32, W f32 -> y f32"
  std::string shapes;               // what shapes it takes, in words
  std::vector<std::string> serves;  // boundary or node kinds it can be bound to
  OptIn opt_in = OptIn::none;
  bool has_backward = false;
  // Why this routine cannot take `call` on `backend` (dtype, shape or device), or empty.
  std::function<std::string(const BoundaryCall& call, Backend backend)> cannot_take;
  std::function<std::unique_ptr<Routine>(Backend backend)> make;
  // The routine's check of itself on `backend` before auto mode binds it: empty when it passes,
  // else why not (device missing, not repeatable, not equal to its host twin, ...).
  std::function<std::string(Backend backend)> self_check;
};

}  // namespace parity::runtime
