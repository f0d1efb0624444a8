#include <parity/properties/gen/transition_cases.hpp>

#include <algorithm>
#include <cmath>

#include <parity/properties/gen/values.hpp>
#include <parity/properties/transition/transition_problem.hpp>

namespace parity::gen {
namespace {

struct RowShape {
  std::int64_t tokens, channels;
};

// tokens x channels: small edge sizes, the reference shapes' (257 x 96, 4096 x 96, 8192 x 32),
// or a single channel of 2^k + d tokens, each within the caps (2^20 + 1 is not a case).
rc::Gen<RowShape> row_shape(const TransitionCaps& caps) {
  std::vector<RowShape> references;
  for (const RowShape r : {RowShape{257, 96}, RowShape{4096, 96}, RowShape{8192, 32}})
    if (r.tokens <= caps.max_tokens && r.channels <= caps.max_channels) references.push_back(r);
  if (references.empty()) references.push_back({std::min<std::int64_t>(257, caps.max_tokens), 1});
  int max_k = 0;
  while (max_k < 20 && (std::int64_t{1} << (max_k + 1)) <= caps.max_tokens) ++max_k;
  const auto small = rc::gen::construct<RowShape>(extent(std::min<std::int64_t>(300, caps.max_tokens), {257}),
                                                  extent(caps.max_channels, {32, 96}));
  if (max_k < 8) return small;
  return rc::gen::weightedOneOf<RowShape>({{6, small},
                                           {1, shrinking_element(references)},
                                           {2, rc::gen::apply(
                                                   [max = caps.max_tokens](int k, int d) {
                                                     return RowShape{std::min((std::int64_t{1} << k) + d, max), 1};
                                                   },
                                                   rc::gen::inRange(8, max_k + 1), rc::gen::inRange(-1, 2))}});
}

// The batch sizes: 2..8 then 1 (batch invariance needs other rows; one row stays an edge), or
// one in three a threshold above 8.
rc::Gen<SizedExtent> batch_size(std::int64_t max_B) {
  std::vector<std::int64_t> small;
  for (std::int64_t b = 2; b <= std::min<std::int64_t>(max_B, 8); ++b) small.push_back(b);
  small.push_back(1);
  std::vector<std::int64_t> large = threshold_extents(max_B, {9, 15, 16, 17});
  std::erase_if(large, [](std::int64_t b) { return b <= 8; });
  if (large.empty()) large.push_back(small.front());
  return rc::gen::construct<SizedExtent>(shrinking_element(small), shrinking_element(large),
                                         rc::gen::map(shrinking_element<int>({0, 0, 1}), [](int t) { return t == 1; }));
}

// sigma in (0, 1] (1, a few float steps below 1, near 0, or anywhere) and sigma_prev in
// [0, sigma): a fraction of sigma, 0 (the last step), or one float step below sigma.
rc::Gen<std::pair<double, double>> schedule_row() {
  const auto sigma = rc::gen::weightedOneOf<double>(
      {{2, rc::gen::just(1.0)},
       {4, rc::gen::map(rc::gen::inRange(1, 1000), [](int k) { return k / 1000.0; })},
       {1, shrinking_element<double>({0.999, 1e-3, 1e-4, 1.0 - 0x1p-24, 1.0 - 0x1p-22})}});
  return rc::gen::mapcat(sigma, [](double s) {
    return rc::gen::map(shrinking_element<double>({0.5, 0.9, 0.97, 0.999, 0.0, -1.0}), [s](double f) {
      const float sf = static_cast<float>(s);
      const float prev = f < 0 ? std::nextafter(sf, 0.0f) : static_cast<float>(s * f);
      return std::pair<double, double>{s, static_cast<double>(prev)};
    });
  });
}

}  // namespace

rc::Gen<Case> transition_case(TransitionCaps caps) {
  struct Dims {
    SizedExtent B;
    RowShape row;
  };
  const auto dims = rc::gen::construct<Dims>(batch_size(caps.max_B), row_shape(caps));
  return rc::gen::mapcat(dims, [caps](Dims d) {
    const std::int64_t n = d.row.tokens * d.row.channels;
    // B within max_elements: a large B is halved, then any B cut to fit.
    while (d.B.is_large && d.B.value() * n > caps.max_elements) {
      d.B.large /= 2;
      if (d.B.large <= 8) d.B.is_large = false;
    }
    std::int64_t B = std::max<std::int64_t>(1, std::min(d.B.value(), caps.max_elements / std::max<std::int64_t>(n, 1)));
    return rc::gen::apply(
        [B, d, n, strided = caps.strided_layouts](std::uint64_t seed, std::int64_t probe_row,
                                                  std::vector<std::pair<double, double>> schedule, double sigma_max,
                                                  double noise_level, int kind, bool bf16, Layout lx, Layout lv,
                                                  Layout le, std::vector<Patch> patches) {
          Case c;
          c.family = "transition";
          c.seed = seed;
          c.dims = {{"B", B}, {"tokens", d.row.tokens}, {"channels", d.row.channels}};
          c.probe_row = probe_row;
          for (std::int64_t b = 0; b < B; ++b) {
            c.params["sigma." + std::to_string(b)] = static_cast<float>(schedule[static_cast<std::size_t>(b)].first);
            c.params["sigma_prev." + std::to_string(b)] = schedule[static_cast<std::size_t>(b)].second;
          }
          c.params["sigma_max"] = sigma_max;
          c.params["noise_level"] = noise_level;
          if (kind == 1) c.params["cps"] = 1;
          if (kind == 2) c.params["normaliser"] = 0;
          if (bf16) c.params["bf16_inputs"] = 1;
          for (const auto& [name, l] : {std::pair{"x", lx}, {"v", lv}, {"eps", le}})
            if (strided && !l.is_contiguous()) c.layouts[name] = l;
          for (Patch& p : patches) p.index %= B * n;
          c.patches = std::move(patches);
          return c;
        },
        rc::gen::arbitrary<std::uint64_t>(), rc::gen::inRange<std::int64_t>(0, B),
        rc::gen::container<std::vector<std::pair<double, double>>>(static_cast<std::size_t>(B), schedule_row()),
        shrinking_element<double>({0.995, 0.98, 0.9997}), shrinking_element<double>({0.7, 0.5, 1.0}),
        rc::gen::weightedOneOf<int>({{6, rc::gen::just(0)}, {2, rc::gen::just(1)}, {1, rc::gen::just(2)}}),
        rc::gen::weightedOneOf<bool>({{2, rc::gen::just(false)}, {1, rc::gen::just(true)}}), layout(), layout(),
        layout(), rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 4), [](std::size_t count) {
          return rc::gen::container<std::vector<Patch>>(
              count,
              rc::gen::build<Patch>(rc::gen::set(&Patch::operand, shrinking_element<std::string>({"x", "v", "eps"})),
                                    rc::gen::set(&Patch::index, rc::gen::inRange<std::int64_t>(0, 1 << 30)),
                                    rc::gen::set(&Patch::bits, rc::gen::cast<std::uint64_t>(patch_bits()))));
        }));
  });
}

const std::vector<CapField<TransitionCaps>>& transition_cap_fields() {
  namespace tr = properties::transition;
  static const std::vector<CapField<TransitionCaps>> fields = {
      {"B", &TransitionCaps::max_B, tr::kMaxB},
      {"tokens", &TransitionCaps::max_tokens, tr::kMaxTokens},
      {"channels", &TransitionCaps::max_channels, tr::kMaxChannels},
      {"elements", &TransitionCaps::max_elements, tr::kMaxElements}};
  return fields;
}

const std::vector<ExtentCap>& transition_extent_caps() {
  static const std::vector<ExtentCap> caps = extent_caps_of(transition_cap_fields());
  return caps;
}

TransitionCaps transition_caps(const ExtentMaxima& maxima) { return caps_from(transition_cap_fields(), maxima); }

const CaseRules& transition_rules() {
  static const CaseRules rules{
      &properties::transition::check_contract, [](Case c) {
        const std::int64_t B = std::max<std::int64_t>(c.dim("B"), 1);
        c.probe_row = std::min(c.probe_row, B - 1);
        // Shrinks only remove rows: drop the schedules of rows B, B + 1, ...
        for (std::int64_t b = B;
             c.params.erase("sigma." + std::to_string(b)) + c.params.erase("sigma_prev." + std::to_string(b)); ++b) {
        }
        const std::int64_t size = std::max<std::int64_t>(B * c.dim("tokens") * c.dim("channels"), 1);
        for (Patch& p : c.patches) p.index %= size;
        return c;
      }};
  return rules;
}

}  // namespace parity::gen
