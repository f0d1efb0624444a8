#include <parity/properties/gen/case_shrink.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace parity::gen {
namespace {

template <class T, class Set>
rc::Seq<Case> each(const Case& c, rc::Seq<T> values, Set set) {
  return rc::seq::map(std::move(values), [c, set](T v) {
    Case d = c;
    set(d, std::move(v));
    return d;
  });
}

rc::Seq<Case> layout_shrinks(const Case& c) {
  std::vector<Case> out;
  for (const auto& [name, l] : c.layouts) {
    Case d = c;
    d.layouts.erase(name);
    out.push_back(d);
    for (auto simpler : {&Layout::offset, &Layout::ld_pad})
      if (l.*simpler != 0) {
        d = c;
        d.layouts[name].*simpler = 0;
        out.push_back(d);
      }
    if (l.transposed) {
      d = c;
      d.layouts[name].transposed = false;
      out.push_back(d);
    }
  }
  return rc::seq::fromContainer(std::move(out));
}

// A dimension's smaller values: RapidCheck's towards 0 (0, then v - v/2, v - v/4, ..., v - 1:
// halving rounded up, and one less), then the halvings rounded down that those miss (v/2, v/4,
// ..., 1), so that an odd threshold is reached from an odd value too (255 -> 127 -> ... -> 1,
// where the first list holds only even values).
rc::Seq<std::int64_t> smaller_extents(std::int64_t v) {
  std::vector<std::int64_t> towards, down;
  for (std::int64_t d = v; d > 0; d /= 2) towards.push_back(v - d);
  for (std::int64_t h = v / 2; h > 0; h /= 2)
    if (std::find(towards.begin(), towards.end(), h) == towards.end()) down.push_back(h);
  return rc::seq::concat(rc::shrink::towards<std::int64_t>(v, 0), rc::seq::fromContainer(std::move(down)));
}

// The dimensions named in `first`, in that order, then the others in name order.
rc::Seq<Case> dim_shrinks(const Case& c, const std::vector<std::string>& first) {
  std::vector<std::string> order;
  for (const auto& name : first)
    if (c.dims.count(name)) order.push_back(name);
  for (const auto& [name, v] : c.dims)
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  std::vector<rc::Seq<Case>> per_dim;
  for (const auto& name : order)
    per_dim.push_back(each(c, smaller_extents(c.dims.at(name)), [name](Case& d, std::int64_t x) { d.dims[name] = x; }));
  return rc::seq::join(rc::seq::fromContainer(std::move(per_dim)));
}

rc::Seq<Case> param_shrinks(const Case& c) {
  std::vector<Case> out;
  for (const auto& [name, v] : c.params) {
    Case d = c;
    d.params.erase(name);
    out.push_back(d);
  }
  return rc::seq::fromContainer(std::move(out));
}

}  // namespace

rc::Seq<Case> case_shrinks(const Case& c, const ShrinkOptions& options) {
  rc::Seq<Case> all = options.dims_only
                          ? dim_shrinks(c, options.dims_first)
                          : rc::seq::concat(each(c, rc::shrink::removeChunks(c.patches),
                                                 [](Case& d, std::vector<Patch> p) { d.patches = std::move(p); }),
                                            layout_shrinks(c),
                                            each(c, rc::shrink::towards<std::int64_t>(c.probe_row, 0),
                                                 [](Case& d, std::int64_t p) { d.probe_row = p; }),
                                            dim_shrinks(c, options.dims_first), param_shrinks(c),
                                            each(c, rc::shrink::towards<std::uint64_t>(c.seed, 0),
                                                 [](Case& d, std::uint64_t s) { d.seed = s; }));
  if (!options.conform) return all;
  return rc::seq::map(std::move(all), options.conform);
}

ShrinkResult shrink_case(const Case& c, const std::function<bool(const Case&)>& still_fails,
                         const ShrinkOptions& options) {
  ShrinkResult result;
  const auto tree = rc::shrinkable::shrinkRecur(c, [options](const Case& x) { return case_shrinks(x, options); });
  const auto [shrunk, steps] = rc::shrinkable::findLocalMin(tree, [&](const Case& candidate) {
    if (result.evaluations >= options.max_evaluations) {
      result.exhausted = true;
      return false;
    }
    ++result.evaluations;
    return still_fails(candidate);
  });
  result.shrunk = shrunk;
  result.steps = static_cast<int>(steps);
  return result;
}

}  // namespace parity::gen
