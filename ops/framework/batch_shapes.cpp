#include <parity/ops/framework/batch_shapes.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace parity::ops {

std::vector<double> row_squared_norms(const Tensor& x) {
  const std::int64_t T = x.dim(0), width = T ? x.numel() / T : 0;
  std::vector<double> out(static_cast<std::size_t>(T), 0.0);
  for (std::int64_t t = 0; t < T; ++t) {
    double s = 0;
    for (std::int64_t i = 0; i < width; ++i) {
      const double v = x.value_at(t * width + i);
      s += v * v;
    }
    out[static_cast<std::size_t>(t)] = std::isnan(s) ? std::numeric_limits<double>::infinity() : s;
  }
  return out;
}

std::vector<std::int64_t> descending_norm_order(const Tensor& x) {
  const std::vector<double> norm = row_squared_norms(x);
  std::vector<std::int64_t> order(norm.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return norm[static_cast<std::size_t>(a)] > norm[static_cast<std::size_t>(b)];
  });
  return order;
}

const std::string& row_order_input(const OpDecl& d) {
  const auto input = std::find_if(d.inputs.begin(), d.inputs.end(),
                                  [&](const TensorDecl& t) { return d.has_rows(t) && t.present_if.empty(); });
  if (input == d.inputs.end()) throw std::logic_error(d.name + " has no input led by its row extent");
  return input->name;
}

bool sorted_by_descending_norm(const Tensor& x) {
  const std::vector<std::int64_t> order = descending_norm_order(x);
  return std::is_sorted(order.begin(), order.end());
}

std::vector<std::int64_t> permuted_order(const Tensor& x) {
  std::vector<std::int64_t> order = descending_norm_order(x);
  if (std::is_sorted(order.begin(), order.end())) std::reverse(order.begin(), order.end());
  return order;
}

bool last_row_is_zero(const Tensor& x) {
  const std::int64_t T = x.dim(0);
  if (T == 0) return false;
  const std::int64_t width = x.numel() / T;
  for (std::int64_t i = (T - 1) * width; i < T * width; ++i)
    if (x.bits_at(i) != 0) return false;
  return true;
}

std::int64_t padded_rows(std::int64_t rows) {
  std::int64_t bucket = 1;
  while (bucket <= rows) bucket *= 2;
  return bucket;
}

std::int64_t chunk_rows(std::int64_t rows) { return (rows + kChunks - 1) / kChunks; }

}  // namespace parity::ops
