#include "properties/gen/lora_cases.hpp"

#include "properties/gen/values.hpp"
#include "properties/lora/lora_problem.hpp"
#include "properties/lora/straddle.hpp"

namespace parity::gen {
namespace {

struct Shape {
  std::int64_t T, N, K, r;
};

rc::Gen<Patch> patch(const Shape& s) {
  return rc::gen::mapcat(shrinking_element<std::string>({"x", "W", "dy", "A", "B"}), [s](const std::string& op) {
    const std::int64_t size = properties::lora::operand_size(op, s.T, s.N, s.K, s.r);
    return rc::gen::build<Patch>(rc::gen::set(&Patch::operand, rc::gen::just(op)),
                                 rc::gen::set(&Patch::index, rc::gen::inRange<std::int64_t>(0, size)),
                                 rc::gen::set(&Patch::bits, rc::gen::cast<std::uint64_t>(patch_bits())));
  });
}

}  // namespace

// The case before output-straddling patches.
rc::Gen<Case> lora_case_without_straddles(LoraCaps caps) {
  // Reference extents (docs/reference.md, "lora_gate"): T 70, 257, 33; N 512, 2048, 5120; K 384, 1024, 5120.
  const auto shape = rc::gen::construct<Shape>(extent(caps.max_T, {33, 70}), extent(caps.max_N, {512}),
                                               extent(caps.max_K, {384}), extent(caps.max_r, {4, 16}));
  return rc::gen::mapcat(shape, [strided = caps.strided_layouts](const Shape& s) {
    return rc::gen::apply(
        [s, strided](std::uint64_t seed, std::int64_t probe_row, Layout lx, Layout lw, Layout la, Layout lb,
            Layout ldy, double alpha, std::vector<Patch> patches) {
          Case c;
          c.family = "lora";
          c.seed = seed;
          c.dims = {{"T", s.T}, {"N", s.N}, {"K", s.K}, {"r", s.r}};
          c.probe_row = probe_row;
          for (const auto& [name, l] : {std::pair{"x", lx}, {"W", lw}, {"A", la}, {"B", lb}, {"dy", ldy}})
            if (strided && !l.is_contiguous()) c.layouts[name] = l;
          c.params["alpha"] = alpha;
          c.patches = std::move(patches);
          return c;
        },
        rc::gen::arbitrary<std::uint64_t>(), rc::gen::inRange<std::int64_t>(0, s.T), layout(), layout(),
        layout(), layout(), layout(),
        shrinking_element<double>({static_cast<double>(s.r), 2.0 * static_cast<double>(s.r), 16.0, 1.0}),
        rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 4), [s](std::size_t count) {
          return rc::gen::container<std::vector<Patch>>(count, patch(s));
        }));
  });
}

rc::Gen<Case> lora_case(LoraCaps caps) {
  return rc::gen::mapcat(lora_case_without_straddles(caps), [](const Case& c) {
    return rc::gen::map(rc::gen::weightedOneOf<int>({{1, rc::gen::just(0)}, {2, rc::gen::inRange(1, 17)}}),
                        [c](int straddles) {
                          Case out = c;
                          for (Patch& p : properties::lora::straddle_output_patches(c, straddles))
                            out.patches.push_back(p);
                          return out;
                        });
  });
}

const CaseRules& lora_rules() {
  static const CaseRules rules{&properties::lora::check_contract, [](Case c) {
    const std::int64_t T = std::max<std::int64_t>(c.dim("T"), 1);
    c.probe_row = std::min(c.probe_row, T - 1);
    for (Patch& p : c.patches)
      p.index %= std::max<std::int64_t>(properties::lora::operand_size(p.operand, T, c.dim("N"), c.dim("K"), c.dim("r")), 1);
    return c;
  }};
  return rules;
}

}  // namespace parity::gen
