// parity_fuzz_seeds CORPUS_DIR: writes the harnesses' seed corpora under CORPUS_DIR
// (corpus/<harness>/), from the reference shapes (capped to each harness's budget) and the
// properties' edge cases: each op's extents small and at their plan thresholds, in each dtype,
// strided inputs and special values. Binary seeds are encoded in op_fuzzer's byte format
// (decode_op.hpp); JSON seeds for the validators are Cases, reproducers and a few inputs each
// validator must refuse. Deterministic: rerun it after changing a byte format and
// commit what it writes.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/reproducer.hpp>
#include <parity/families/transition/transition_cases.hpp>
#include <parity/fuzz/byte_reader.hpp>
#include <parity/fuzz/decode_op.hpp>
#include <parity/fuzz/fuzz_values.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/properties/bridge/bridge_problem.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/registry/families.hpp>

namespace {

namespace fs = std::filesystem;
using namespace parity;
using nlohmann::json;

fs::path root;

void write(const std::string& harness, const std::string& name, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(root / harness);
  std::ofstream(root / harness / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void write_text(const std::string& harness, const std::string& name, const std::string& text) {
  write(harness, name, std::vector<std::uint8_t>(text.begin(), text.end()));
}

// A transition family case (transition_step's format, family "transition"): B rows from sigma = 1
// downwards, as the gate's, each of n elements.
Case transition_case(std::int64_t B, std::int64_t n) {
  std::vector<double> sigmas;
  for (std::int64_t b = 0; b < B; ++b) sigmas.push_back(b == 0 ? 1.0 : 1.0 - 0.125 * static_cast<double>(b));
  Case c = transition::family_case(sigmas, n, 0.02);
  c.probe_row = B / 2;
  return c;
}

// op_fuzzer's seeds (decode_op.hpp), for each op and each property: small extents, then each
// extent at its first plan threshold, in each dtype of the shared list (a group with a list of
// its own takes its dt % size-th), straddling the probe row's outputs; and one with strided
// inputs and special values.
void op_seeds() {
  for (std::size_t o = 0; o < fuzz::op_fuzz_ops().size(); ++o) {
    const std::string& op = fuzz::op_fuzz_ops()[o];
    const gen::Family& family = registry::find_family(op);
    const ops::OpDecl& d = dynamic_cast<const ops::OpFamily&>(family).def().decl;
    const auto properties = fuzz::op_fuzz_properties(op, "parity-host");
    std::size_t groups = 0, scaled = 0;
    std::set<std::string> seen;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& t : *list) groups += seen.insert(t.group()).second ? 1 : 0;
    for (const auto& t : d.inputs) scaled += t.scales.size() > 1 ? 1 : 0;
    for (std::size_t p = 0; p < properties.size(); ++p)
      for (std::size_t dt = 0; dt < d.dtypes.size(); ++dt)
        for (const bool at_threshold : {false, true}) {
          fuzz::ByteWriter w;
          w.u8(fuzz::op_slot(op));
          w.u8(static_cast<std::uint8_t>(p));
          for (std::size_t e = 0; e < d.extents.size(); ++e) {
            w.u8(at_threshold ? 255 : 0);
            w.u8(static_cast<std::uint8_t>(at_threshold ? 1 : 2 + 3 * e));  // threshold 0 itself; or small
          }
          for (std::size_t g = 0; g < groups; ++g) w.u8(static_cast<std::uint8_t>(dt));
          for (std::size_t k = 0; k < d.params.size() + scaled; ++k) w.u8(0);
          w.u16(1);  // probe row 1 (of at least 2 rows where the extent allows)
          for (std::size_t k = 0; k < d.inputs.size(); ++k) w.u8(0);
          w.u64(static_cast<std::uint64_t>(17 + p));
          w.u8(4);  // straddles
          write("op_fuzzer",
                op + "_" + properties[p] + "_" + std::string(dtype_name(d.dtypes[dt])) +
                    (at_threshold ? "_thresholds" : "_small"),
                w.bytes());
        }
    fuzz::ByteWriter w;
    w.u8(fuzz::op_slot(op));
    w.u8(3);  // layout_invariant, where it applies
    for (std::size_t e = 0; e < d.extents.size(); ++e) w.u8(0), w.u8(5);
    for (std::size_t k = 0; k < groups + d.params.size() + scaled; ++k) w.u8(0);
    w.u16(0);
    for (std::size_t k = 0; k < d.inputs.size(); ++k) w.u8(0x25);  // padded, offset
    w.u64(3);
    w.u8(0);
    for (const std::uint32_t bits : {0x7FC00000u, 0x7F800000u, 0x00000001u, 0x80000000u}) {
      w.u8(0);
      w.u24(bits % 5);
      fuzz::encode_float_bits(w, bits);
    }
    write("op_fuzzer", op + "_special_values_strided", w.bytes());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: parity_fuzz_seeds CORPUS_DIR\n";
    return 2;
  }
  root = argv[1];
  op_seeds();
  // The transition cases of the parser's seeds: one with special values patched in, one without.
  Case patched = transition_case(2, 64);
  patched.patches = {{"x", 3, 0x7FC00000u}, {"v", 70, 0x7F800000u}, {"eps", 1, 0x00000001u}};
  // Refusals each validator must give cleanly.
  write_text("bridge_case_fuzzer", "reference.json", case_to_json(properties::bridge::reference_bridge_case()).dump(1));
  json bad = case_to_json(properties::bridge::reference_bridge_case());
  bad["params"]["ids.2"] = 1.5;
  bad["params"]["targets.4"] = 9;
  write_text("bridge_case_fuzzer", "refused_tokens.json", bad.dump(1));
  bad["dims"]["heads"] = 3;
  write_text("bridge_case_fuzzer", "refused_heads.json", bad.dump(1));
  // Reproducers for the parser: valid ones (one with non-finite parameters), and damaged ones.
  Verdict v = Verdict::fail("scoring_reproduces_sampling", "logp[0, 3]: 1.5 differs");
  v.metrics["bound_utilisation"] = 2.5;
  Case odd = transition_case(4, 4096);
  odd.params["noise_level"] = std::numeric_limits<double>::infinity();
  odd.params["nan"] = std::numeric_limits<double>::quiet_NaN();
  // Without "environment" (the build's provenance, which the reader ignores), so that the seeds
  // are the same from every build.
  const auto seed_reproducer = [](const Reproducer& r) {
    json j = reproducer_to_json(r);
    j.erase("environment");
    return j.dump(1);
  };
  const std::string good = seed_reproducer({"parity-host", "scoring_reproduces_sampling", patched, v});
  write_text("repro_parser_fuzzer", "patched.json", good);
  write_text("repro_parser_fuzzer", "transition.json",
             seed_reproducer({"parity-host", "scoring_reproduces_sampling", transition_case(3, 96), v}));
  // A LoRA family reproducer of the format corpus/retired keeps (params alpha; float32 patches):
  // the parser reads any family's case, the family refuses this one when it is replayed.
  Case lora;
  lora.family = "lora";
  lora.seed = 7;
  lora.dims = {{"T", 3}, {"N", 6}, {"K", 8}, {"r", 2}};
  lora.probe_row = 1;
  lora.params["alpha"] = 4.0;
  lora.patches = {{"dy", 2, 0x7f7f0000}, {"x", 1, 0x3f800000}, {"A", 5, 0x7fc00000}};
  write_text(
      "repro_parser_fuzzer", "lora.json",
      seed_reproducer({"parity-host", "zero_adapter_gradients", lora,
                       Verdict::fail("zero_adapter_gradients", "B = 0 but dA[0, 1] = 0.5 (must be exactly 0)")}));
  write_text("repro_parser_fuzzer", "non_finite_params.json",
             seed_reproducer({"probe-sum-not-mean", "scoring_reproduces_sampling", odd, v}));
  write_text("repro_parser_fuzzer", "truncated.json", good.substr(0, good.size() / 2));
  write_text("repro_parser_fuzzer", "wrong_schema.json", json{{"schema", "parity.repro/0"}}.dump());
  write_text("repro_parser_fuzzer", "bits_not_hex.json", std::string(good).replace(good.find("\"0x"), 3, "\"0y"));
  std::cout << "wrote seeds under " << root.string() << "\n";
  return 0;
}
