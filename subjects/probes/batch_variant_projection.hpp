#pragma once
// A probe for the trajectory family: the model's rows with the video projections (proj_in,
// proj_out) replaced by a linear row that reduces over K in reverse order when the call holds
// more than one sample, the way a kernel that picks split-K by batch size would. Each result
// is as accurate as the forward order's; only the bits depend on the batch.
#include <parity/subjects/runtime/row_registry.hpp>

namespace parity::subjects::probes {

const runtime::RowRegistry& rows_with_batch_variant_projections();

}  // namespace parity::subjects::probes
