// Unit checks of the bridge's pieces: SHA-256 against the FIPS 180-2 vectors, the source
// digests, the shared token validation (its messages name the field, every path refuses
// alike), the model's definition, bridge Cases, the finite-difference check of the manual
// backward, the probes that cannot change the function, and the reference record's shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <parity/core/case.hpp>
#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/oracles/tiny_gpt.hpp>
#include <parity/properties/bridge/bridge_properties.hpp>
#include <parity/properties/bridge/bridge_provenance.hpp>
#include <parity/properties/bridge/bridge_record.hpp>
#include <parity/properties/bridge/sha256.hpp>

namespace parity::properties::bridge {
namespace {

using nlohmann::json;
using oracles::TinyGptConfig;

TEST(BridgeSha256, FipsVectors) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(BridgeSha256, MissingFileIsNoDigest) { EXPECT_FALSE(sha256_file_hex("/nonexistent/parity/file").has_value()); }

TEST(BridgeSources, EveryListedSourceIsHashedAndAMissingOneIsListed) {
  const auto paths = bridge_source_paths();
  ASSERT_GE(paths.size(), 20u);
  const SourceDigests here = hash_sources(bridge_source_root(), paths);
  EXPECT_TRUE(here.missing.empty()) << here.missing.front();
  EXPECT_EQ(here.digests.size(), paths.size());
  const SourceDigests elsewhere = hash_sources("/nonexistent/tree", {paths.front()});
  ASSERT_EQ(elsewhere.missing.size(), 1u);
  EXPECT_TRUE(elsewhere.digests.empty());
}

// Each bad input of the reference model, the field its message names, and the message's tail.
TEST(BridgeValidation, MessagesNameTheField) {
  const TinyGptConfig c;
  const auto params = oracles::init_params(c, 31, 0.02);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"empty", "ids: empty"},
      {"length_mismatch", "targets: 1 value for 2 ids"},
      {"id_out_of_range", "ids[1]: 9 is outside [0, 9)"},
      {"boolean_id", "ids[0]: true is a boolean, not an integer id"},
      {"longer_than_max_len", "ids: 9 tokens for max_len 8 positions"},
      {"negative_id", "ids[0]: -1 is outside [0, 9)"},
      {"fractional_id", "ids[0]: 1.5 is not an integer"},
      {"target_out_of_range", "targets[0]: 9 is outside [0, 9)"},
  };
  const auto inputs = bad_inputs(c);
  ASSERT_EQ(inputs.size(), expected.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE(inputs[i].label);
    EXPECT_EQ(inputs[i].label, expected[i].first);
    const auto outcomes = run_paths(c, c, params, inputs[i].ids, inputs[i].targets);
    EXPECT_TRUE(refused_alike(outcomes));
    EXPECT_EQ(outcomes.front().message, std::string(oracles::kTokenRefusal) + ": " + expected[i].second);
  }
  EXPECT_TRUE(throws_input_error([&] { oracles::validate_tokens(json("1 3 1"), json::array({1}), c); },
                                 "ids: \"1 3 1\" is not a list"))
      << "a string was accepted as ids";
}

TEST(BridgeValidation, ValidTokensAreAcceptedByEveryPath) {
  const TinyGptConfig c;
  const auto params = oracles::init_params(c, 31, 0.02);
  for (const auto& o : run_paths(c, c, params, json::array({1, 3, 1, 5, 2}), json::array({3, 1, 5, 2, 6})))
    EXPECT_FALSE(o.refused) << o.path << ": " << o.message;
}

TEST(BridgeModel, ReferenceShapes) {
  const TinyGptConfig c;
  const auto p = oracles::init_params(c, 31, 0.02);
  EXPECT_EQ(oracles::param_elements(p), 268);  // the reference bridge: compared_gradient_elements
  const auto& slots = oracles::tiny_gpt_param_slots();
  EXPECT_STREQ(slots.front().name, "tok_emb");
  EXPECT_STREQ(slots.back().name, "b_out");
  EXPECT_EQ(c.scale(), 0.5);  // the reference bridge: attention_scale with one head of 4
  EXPECT_EQ(p, oracles::init_params(c, 31, 0.02));
  EXPECT_NE(p, oracles::init_params(c, 32, 0.02));
  TinyGptConfig bad = c;
  bad.heads = 3;
  EXPECT_THROW(oracles::validate_config(bad), InputError);
}

TEST(BridgeCase, ReferenceCaseRoundTripsAndMaterialises) {
  const Case c = reference_bridge_case();
  EXPECT_EQ(case_from_json(case_to_json(c)), c);
  const BridgeProblem p = materialise_bridge(c);
  EXPECT_EQ(p.ids, json::array({1, 3, 1, 5, 2}));
  EXPECT_EQ(p.targets, json::array({3, 1, 5, 2, 6}));
  EXPECT_EQ(p.config, TinyGptConfig{});
}

TEST(BridgeCase, BadCasesNameTheField) {
  Case c = reference_bridge_case();
  c.params.erase("ids.4");
  EXPECT_TRUE(throws_input_error([&] { materialise_bridge(c); }, "case.params.ids.4: missing"))
      << "a case without ids.4 was accepted";
  c = reference_bridge_case();
  c.dims["heads"] = 3;
  EXPECT_TRUE(throws_input_error([&] { materialise_bridge(c); }, "case.dims.heads: 3 does not divide d = 4"))
      << "heads 3 of d 4 was accepted";
}

// The comparator's rule, |manual - autograd| <= 1e-10 + 1e-8 |autograd|, at its edges.
TEST(BridgeCompare, ToleranceEdges) {
  const TinyGptConfig c;
  oracles::TinyGptOutput a;
  a.logits.assign(45, 0.0);
  a.logits[7] = 1.0;
  a.loss = 2.0;
  a.grads = oracles::zero_params(c);
  const Tolerance tol;
  auto with = [&](auto edit) {
    oracles::TinyGptOutput m = a;
    edit(m);
    return compare_bridge(m, a, tol);
  };
  EXPECT_TRUE(with([](auto&) {}).passed());
  EXPECT_TRUE(with([](auto& m) { m.grads.Wq.values[3] = 0.9e-10; }).passed());
  EXPECT_FALSE(with([](auto& m) { m.grads.Wq.values[3] = 1.1e-10; }).passed());
  EXPECT_TRUE(with([](auto& m) { m.logits[7] = 1.0 + 1.0e-8; }).passed());
  EXPECT_FALSE(with([](auto& m) { m.logits[7] = 1.0 + 1.2e-8; }).passed());
  const auto nan = with([](auto& m) { m.grads.b_out.values[0] = std::nan(""); });
  EXPECT_FALSE(nan.passed());
  EXPECT_EQ(nan.worst().name, "b_out");
  EXPECT_TRUE(std::isinf(nan.worst().max_abs_error));
  EXPECT_EQ(nan.first_failure(tol).rfind("grad b_out: 1 of 9 elements", 0), 0u) << nan.first_failure(tol);
  // All-zero gradients on both sides agree, so the comparison alone cannot see them: the
  // non-degeneracy rule does.
  const auto zero = with([](auto&) {});
  EXPECT_EQ(zero.nonzero_manual_gradient_tensors, 0);
  EXPECT_EQ(zero.zero_manual_gradients.size(), 18u);
  EXPECT_EQ(zero.compared_gradient_elements, 268);
}

TEST(BridgeCompare, RequiredNonZeroGradients) {
  TinyGptConfig c;
  EXPECT_EQ(required_nonzero_gradients(c, 5, {0.3, -0.2}).size(), 18u);
  const auto one_token = required_nonzero_gradients(c, 1, {0.3});
  EXPECT_EQ(one_token.size(), 16u);
  EXPECT_EQ(std::count(one_token.begin(), one_token.end(), "Wq"), 0);
  const auto saturated = required_nonzero_gradients(c, 5, {-40.0, -10.0});  // tanh(z) == -1 in double
  EXPECT_EQ(saturated.size(), 13u);
  EXPECT_EQ(std::count(saturated.begin(), saturated.end(), "W1"), 0);
  EXPECT_EQ(std::count(saturated.begin(), saturated.end(), "b2"), 1);
  c.d = 1;
  EXPECT_EQ(required_nonzero_gradients(c, 5, {0.3}), (std::vector<std::string>{"lnf_b", "W_out", "b_out"}));
}

TEST(BridgeOracle, ManualBackwardIsTheDerivativeOfTheForward) {
  for (const auto& s : bridge_subjects()) {
    const Verdict v = check_finite_differences(reference_bridge_case(), s);
    EXPECT_TRUE(v.holds()) << s.name << ": " << v.detail;
  }
}

// A probe that cannot change the function on a case computes the same bits there, which is
// why probe_caught discards such cases rather than failing them.
TEST(BridgeProbes, MootWhereTheStructureSaysSo) {
  auto run = [](const TinyGptConfig& c, std::vector<int> ids, std::vector<int> targets) {
    return oracles::tiny_gpt_forward_backward(c, oracles::init_params(c, 7, 0.3), json(ids), json(targets));
  };
  TinyGptConfig c;
  TinyGptConfig no_mask = c;
  no_mask.causal = false;
  TinyGptConfig unscaled = c;
  unscaled.attention_scale = 1.0;
  // One token: one key per query.
  EXPECT_EQ(run(c, {4}, {2}).logits, run(no_mask, {4}, {2}).logits);
  EXPECT_EQ(run(c, {4}, {2}).grads, run(unscaled, {4}, {2}).grads);
  // d_head 1: the default scale is 1 already.
  TinyGptConfig per_channel = c;
  per_channel.heads = 4;
  TinyGptConfig per_channel_unscaled = per_channel;
  per_channel_unscaled.attention_scale = 1.0;
  EXPECT_EQ(run(per_channel, {1, 3}, {3, 1}).grads, run(per_channel_unscaled, {1, 3}, {3, 1}).grads);
  // d 1: every LayerNorm output is its bias, whatever epsilon.
  TinyGptConfig narrow = c;
  narrow.d = 1;
  TinyGptConfig narrow_eps = narrow;
  narrow_eps.ln_eps = 1e-3;
  EXPECT_EQ(run(narrow, {1, 3}, {3, 1}).logits, run(narrow_eps, {1, 3}, {3, 1}).logits);
  // ... and with more than one token the causal mask does matter.
  EXPECT_NE(run(c, {4, 2}, {2, 1}).logits, run(no_mask, {4, 2}, {2, 1}).logits);
}

TEST(BridgeRecord, ReferenceRecordHasTheReferenceShape) {
  const BridgeRecord r = build_bridge_record(reference_bridge_case(), {"parity", "bridge"});
  for (const auto& p : r.problems) ADD_FAILURE() << p;
  EXPECT_TRUE(r.passed);
  const auto& j = r.json;
  for (const char* key : {"execution_mode", "command", "exit_status", "config", "ids", "targets", "dtype", "device",
                          "dropout_p", "is_causal", "attention_scale", "layernorm_eps", "loss_reduction",
                          "sdpa_backend", "tolerance", "comparisons", "failures", "environment", "sources"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["exit_status"], 0);
  EXPECT_EQ(j["attention_scale"], 0.5);
  const auto& ex = j["comparisons"]["explicit"];
  EXPECT_EQ(ex["compared_gradient_elements"], 268);
  EXPECT_EQ(ex["nonzero_manual_gradient_tensors"], 18);
  EXPECT_EQ(ex["parameter_gradients"].size(), 18u);
  EXPECT_EQ(ex["parameter_gradients"].begin().key(), "tok_emb");  // the reference's order
  EXPECT_TRUE(ex["passed"].get<bool>());
  for (const char* probe : {"no_causal_mask", "unscaled_attention", "wrong_layernorm_epsilon"}) {
    ASSERT_TRUE(j["failures"]["mismatch_probes"].contains(probe)) << probe;
    EXPECT_FALSE(j["failures"]["mismatch_probes"][probe]["passed"].get<bool>()) << probe;
  }
  EXPECT_EQ(j["failures"]["refused_inputs"].size(), 8u);
  EXPECT_TRUE(j["sources_missing"].empty());
  for (const auto& [path, digest] : j["sources"].items()) EXPECT_EQ(digest.get<std::string>().size(), 64u) << path;
}

}  // namespace
}  // namespace parity::properties::bridge
