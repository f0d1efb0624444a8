#pragma once
// The batch-shape probes an op with another plan gets (BuiltinSubjects::other_plan): its host twin,
// switching to the other plan (another reduction order, as accurate, other bits) on one batch shape
// that one batch property (op_checks.hpp) produces and generated batches rarely are, as a kernel
// that picks its plan from the batch it is given does. Each is meant for that property; another
// may see it on a batch that happens to have the shape (by rate, not by construction):
//   probe-sorted-batch-plan  a batch of at least kSortedRows rows (the row extent's max where
//                            smaller) whose first row-led input lies by descending norm
//                            (batch_shapes.hpp), what rows_permuted runs and a random batch almost
//                            never is: rows_permuted's
//   probe-padded-batch-plan  a batch whose last row holds +0 in all of at least kPaddedWidth
//                            elements of that input, what rows_padded appends: rows_padded's (a
//                            generated all-+0 row sorts last and shows it to rows_permuted too)
//   probe-plan-at-43-rows    a batch of exactly 43 rows, a chunk of rows_chunked's batch of 127 to
//                            129: rows_chunked's (a generated batch of 42 or 43 rows shows it to
//                            rows_independent, batch_vs_batch and rows_padded too); registered
//                            where the row extent reaches 129
// Each is a correct kernel alone: its plan's bits on any batch are one correct evaluation.
#include <cstdint>
#include <memory>
#include <string>

#include <parity/ops/framework/op_decl.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

inline constexpr std::int64_t kSortedRows = 16;
inline constexpr std::int64_t kPaddedWidth = 16;
inline constexpr std::int64_t kPlanRows = 43;

enum class BatchTrigger { sorted, padded, at_43_rows };

// The property the batch-shape probe named `subject` is built for ("rows_permuted",
// "rows_padded", "rows_chunked"), or "" where `subject` names no batch-shape probe.
std::string batch_shape_probe_property(const std::string& subject);

class BatchShapeProbe final : public OpSubject {
 public:
  // `host` runs every batch but those of `trigger`, which `other` runs; `row_input` is the op's
  // first row-led input, `row_extent` its row extent and `sorted_rows` the sorted trigger's rows.
  BatchShapeProbe(BatchTrigger trigger, std::string row_input, std::string row_extent, std::int64_t sorted_rows,
                  std::unique_ptr<OpSubject> host, std::unique_ptr<OpSubject> other);
  Arithmetic arithmetic() const override { return host_->arithmetic(); }
  std::vector<std::string> unchecked_outputs() const override { return host_->unchecked_outputs(); }
  OpOutputs run(const OpCall& call) override;
  // Whether `call` is a batch of the trigger's shape (the other plan runs it).
  bool triggered(const OpCall& call) const;

 private:
  BatchTrigger trigger_;
  std::string row_input_, row_extent_;
  std::int64_t sorted_rows_;
  std::unique_ptr<OpSubject> host_, other_;
};

using MakePlan = std::unique_ptr<OpSubject> (*)();

// Registers the batch-shape probes of op `d` (header comment) over the host twin `host` and its
// other plan `other`.
void register_batch_shape_probes(const OpDecl& d, MakePlan host, MakePlan other);

}  // namespace parity::ops
