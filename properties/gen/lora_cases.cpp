#include <parity/properties/gen/lora_cases.hpp>

#include <algorithm>

#include <parity/properties/gen/values.hpp>
#include <parity/properties/lora/lora_problem.hpp>

namespace parity::gen {
namespace {

struct Shape {
  std::int64_t T, N, K, r;
};

// The extents below which a case counts as small: the caps of the generator before sizes
// reached the kernels' thresholds, where every probe of small thresholds is found quickly.
constexpr std::int64_t kSmallT = 80, kSmallN = 130, kSmallK = 400, kSmallR = 17;

// W's elements at most: materialising a case draws every one (Philox and Box-Muller, ~50 ns
// each), whatever T, so a wide, deep W costs even in a case of one row.
constexpr std::int64_t kMaxWeightElements = std::int64_t{1} << 20;

double work(std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  const double t = static_cast<double>(T), n = static_cast<double>(N), k = static_cast<double>(K),
               rr = static_cast<double>(r);
  return t * k * (n + rr) + t * n * rr;
}

// The drawn extents, demoted to fit caps.max_work (the header says how).
Shape fit(SizedExtent T, SizedExtent N, SizedExtent K, SizedExtent r, const LoraCaps& caps) {
  SizedExtent* demotion_order[] = {&N, &K, &r, &T};
  const auto shape = [&] { return Shape{T.value(), N.value(), K.value(), r.value()}; };
  const auto fits = [&](const Shape& s) {
    return work(s.T, s.N, s.K, s.r) <= static_cast<double>(caps.max_work) && s.N * s.K <= kMaxWeightElements;
  };
  for (SizedExtent* e : demotion_order)
    while (e->is_large && !fits(shape())) {
      e->large /= 2;
      if (e->large <= e->small) e->is_large = false;
    }
  return shape();
}

rc::Gen<Patch> patch(const Shape& s) {
  return rc::gen::mapcat(shrinking_element<std::string>({"x", "W", "dy", "A", "B"}), [s](const std::string& op) {
    const std::int64_t size = properties::lora::operand_size(op, s.T, s.N, s.K, s.r);
    return rc::gen::build<Patch>(rc::gen::set(&Patch::operand, rc::gen::just(op)),
                                 rc::gen::set(&Patch::index, rc::gen::inRange<std::int64_t>(0, size)),
                                 rc::gen::set(&Patch::bits, rc::gen::cast<std::uint64_t>(patch_bits())));
  });
}

}  // namespace

rc::Gen<Case> lora_case(LoraCaps caps) {
  // Reference extents (docs/reference.md, "lora_gate"): T 70, 257, 33; N 512, 2048, 5120; K 384, 1024, 5120.
  const auto shape = rc::gen::apply(
      [caps](SizedExtent T, SizedExtent N, SizedExtent K, SizedExtent r) { return fit(T, N, K, r, caps); },
      sized_extent(caps.max_T, kSmallT, {33, 70, 257}), sized_extent(caps.max_N, kSmallN, {512, 2048, 5120}),
      sized_extent(caps.max_K, kSmallK, {384, 1024, 5120}), sized_extent(caps.max_r, kSmallR, {4, 16}));
  return rc::gen::mapcat(shape, [strided = caps.strided_layouts](const Shape& s) {
    return rc::gen::apply(
        [s, strided](std::uint64_t seed, std::int64_t probe_row, Layout lx, Layout lw, Layout la, Layout lb, Layout ldy,
                     double alpha, std::vector<Patch> patches) {
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
        rc::gen::arbitrary<std::uint64_t>(), rc::gen::inRange<std::int64_t>(0, s.T), layout(), layout(), layout(),
        layout(), layout(),
        shrinking_element<double>({static_cast<double>(s.r), 2.0 * static_cast<double>(s.r), 16.0, 1.0}),
        rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 4),
                        [s](std::size_t count) { return rc::gen::container<std::vector<Patch>>(count, patch(s)); }));
  });
}

const std::vector<CapField<LoraCaps>>& lora_cap_fields() {
  namespace lora = properties::lora;
  static const std::vector<CapField<LoraCaps>> fields = {{"T", &LoraCaps::max_T, lora::kMaxExtent},
                                                         {"N", &LoraCaps::max_N, lora::kMaxExtent},
                                                         {"K", &LoraCaps::max_K, lora::kMaxExtent},
                                                         {"r", &LoraCaps::max_r, lora::kMaxExtent},
                                                         {"work", &LoraCaps::max_work, lora::kMaxWork}};
  return fields;
}

const std::vector<ExtentCap>& lora_extent_caps() {
  static const std::vector<ExtentCap> caps = extent_caps_of(lora_cap_fields());
  return caps;
}

LoraCaps lora_caps(const ExtentMaxima& maxima) { return caps_from(lora_cap_fields(), maxima); }

const CaseRules& lora_rules() {
  static const CaseRules rules{&properties::lora::check_contract, [](Case c) {
                                 const std::int64_t T = std::max<std::int64_t>(c.dim("T"), 1);
                                 c.probe_row = std::min(c.probe_row, T - 1);
                                 for (Patch& p : c.patches)
                                   p.index %= std::max<std::int64_t>(
                                       properties::lora::operand_size(p.operand, T, c.dim("N"), c.dim("K"), c.dim("r")),
                                       1);
                                 return c;
                               }};
  return rules;
}

}  // namespace parity::gen
