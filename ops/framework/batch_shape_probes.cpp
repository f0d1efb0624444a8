#include <parity/ops/framework/batch_shape_probes.hpp>

#include <algorithm>

#include <parity/ops/framework/batch_shapes.hpp>

namespace parity::ops {
namespace {

struct ProbeKind {
  BatchTrigger trigger;
  const char* name;
  const char* property;
};

constexpr ProbeKind kProbes[] = {{BatchTrigger::sorted, "probe-sorted-batch-plan", "rows_permuted"},
                                 {BatchTrigger::padded, "probe-padded-batch-plan", "rows_padded"},
                                 {BatchTrigger::at_43_rows, "probe-plan-at-43-rows", "rows_chunked"}};

const char* name_of(BatchTrigger trigger) {
  for (const auto& p : kProbes)
    if (p.trigger == trigger) return p.name;
  return "";
}

}  // namespace

std::string batch_shape_probe_property(const std::string& subject) {
  for (const auto& p : kProbes)
    if (subject == p.name) return p.property;
  return "";
}

BatchShapeProbe::BatchShapeProbe(BatchTrigger trigger, std::string row_input, std::string row_extent,
                                 std::int64_t sorted_rows, std::unique_ptr<OpSubject> host,
                                 std::unique_ptr<OpSubject> other)
    : trigger_(trigger),
      row_input_(std::move(row_input)),
      row_extent_(std::move(row_extent)),
      sorted_rows_(sorted_rows),
      host_(std::move(host)),
      other_(std::move(other)) {}

bool BatchShapeProbe::triggered(const OpCall& call) const {
  const std::int64_t T = call.extent(row_extent_);
  switch (trigger_) {
    case BatchTrigger::sorted:
      return T >= sorted_rows_ && sorted_by_descending_norm(call.input(row_input_));
    case BatchTrigger::padded: {
      const Tensor& x = call.input(row_input_);
      return T > 0 && x.numel() / T >= kPaddedWidth && last_row_is_zero(x);
    }
    case BatchTrigger::at_43_rows:
      return T == kPlanRows;
  }
  return false;
}

OpOutputs BatchShapeProbe::run(const OpCall& call) { return (triggered(call) ? other_ : host_)->run(call); }

void register_batch_shape_probes(const OpDecl& d, MakePlan host, MakePlan other) {
  const std::string& input = row_order_input(d);
  const std::int64_t max_rows = d.extent(d.row_extent).max;
  const auto add = [&](BatchTrigger trigger, std::string description) {
    register_op_subject(d.name, OpSubjectInfo{.name = name_of(trigger),
                                              .backend = "host",
                                              .kind = subjects::SubjectKind::probe,
                                              .description = std::move(description),
                                              .make = [trigger, row_input = input, row_extent = d.row_extent,
                                                       rows = std::min(kSortedRows, max_rows), host, other] {
                                                return std::unique_ptr<OpSubject>(std::make_unique<BatchShapeProbe>(
                                                    trigger, row_input, row_extent, rows, host(), other()));
                                              }});
  };
  const std::string at = std::to_string(std::min(kSortedRows, max_rows));
  add(BatchTrigger::sorted,
      "another reduction order for a batch of >= " + at + " rows lying by descending norm (a sorted batch)");
  add(BatchTrigger::padded, "another reduction order for a batch whose last row is all +0 (a padded batch)");
  if (max_rows >= 3 * kPlanRows)
    add(BatchTrigger::at_43_rows, "another reduction order for a batch of exactly 43 rows");
}

}  // namespace parity::ops
