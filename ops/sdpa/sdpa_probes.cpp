// Mismatch probes of sdpa: the kernel with one realistic step changed, each of which the
// generic properties must catch (parity probes sdpa). They inherit the kernel's declared
// arithmetic: a probe that breaks that promise is exactly what must be caught.
#include <algorithm>
#include <vector>

#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/ops/sdpa/sdpa_subjects.hpp>

namespace parity::ops::sdpa {
namespace {

// exp(s) / sum exp(s) without the maximum subtracted: overflows once a logit passes ~88.
struct NoMax : Standard {
  static float row(const RowCall& c) {
    for (std::int64_t j = 0; j < c.n; ++j) c.p[j] = score(c.q, c.k, c.i, j, c.D, c.scale);
    const float l = exp_sum(c.p, c.n, 0.0f);
    for (std::int64_t d = 0; d < c.D; ++d) c.o[d] = weighted(c.p, c.v, 0, c.n, d);
    normalise(c.o, c.D, l);
    return logsumexp({0.0f, l});
  }
};

// The causal mask one key late: query i also sees key i + 1.
struct CausalOffByOne : Standard {
  static std::int64_t keys(bool causal, std::int64_t i, std::int64_t S) { return causal ? std::min(i + 2, S) : S; }
};

// The scale applied to the output instead of the logits: softmax(q k^T) v * scale.
struct ScaleAfterSoftmax : Standard {
  static float row(const RowCall& c) {
    const Partial r = attend(c.q, c.k, c.v, c.i, 0, c.n, c.D, 1.0f, c.p, c.o);
    normalise(c.o, c.D, r.l);
    for (std::int64_t d = 0; d < c.D; ++d) c.o[d] = c.o[d] * c.scale;
    return logsumexp(r);
  }
};

// Flash-decoding: for few heads in the batch (B*H < 8) and 128 keys or more, the keys split in
// two halves whose partial results are combined, to fill the device. `Rescale` false: the
// partial sums are added without bringing them to the common maximum.
template <bool Rescale>
struct SplitKeys : Standard {
  static float row(const RowCall& c) {
    if (c.BH >= 8 || c.n < 128) return Standard::row(c);
    const std::int64_t half = c.n / 2;
    std::vector<float> o2(static_cast<std::size_t>(c.D));
    const Partial a = attend(c.q, c.k, c.v, c.i, 0, half, c.D, c.scale, c.p, c.o);
    const Partial b = attend(c.q, c.k, c.v, c.i, half, c.n - half, c.D, c.scale, c.p + half, o2.data());
    const float m = std::max(a.m, b.m);
    const float wa = Rescale ? detmath::exp_f32(a.m - m) : 1.0f, wb = Rescale ? detmath::exp_f32(b.m - m) : 1.0f;
    const float l = a.l * wa + b.l * wb;
    for (std::int64_t d = 0; d < c.D; ++d) c.o[d] = (c.o[d] * wa + o2[static_cast<std::size_t>(d)] * wb) / l;
    return logsumexp({m, l});
  }
};

}  // namespace

void register_probes() {
  const HostProbes<SdpaHost> probes{"sdpa"};
  probes.add<NoMax>("probe-no-max", "exp(s) / sum exp(s): the row maximum not subtracted");
  probes.add<CausalOffByOne>("probe-causal-off-by-one", "causal mask one key late: query i sees key i + 1");
  probes.add<ScaleAfterSoftmax>("probe-scale-after-softmax", "softmax(q k^T) v * scale: the scale after the softmax");
  probes.add<SplitKeys<true>>("probe-split-keys",
                              "B*H < 8 and S >= 128: keys in two halves, combined (flash-decoding)");
  probes.add<SplitKeys<false>>("probe-split-no-rescale",
                               "B*H < 8 and S >= 128: two key halves added without rescaling");
}

}  // namespace parity::ops::sdpa
