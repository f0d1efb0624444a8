// Reproducer file names: FNV-1a 64 against the function's published test vectors, and the
// name of a fixed case against the value an independent implementation computes (Python's
// json.dumps(sort_keys=True, separators=(",", ":")) of the same case JSON, hashed by FNV-1a 64),
// so a name does not change with the compiler, the standard library or the machine.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <parity/core/reproducer.hpp>
#include <parity/core/stable_hash.hpp>

namespace parity {
namespace {

TEST(StableHash, Fnv1a64MatchesThePublishedVectors) {
  EXPECT_EQ(fnv1a_64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a_64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(hex16(0xaf63dc4c8601ec8cull), "af63dc4c8601ec8c");
  EXPECT_EQ(hex16(0x1), "0000000000000001");
}

// fixed_case()'s JSON, and its name as Python computes it:
//   h = 0xcbf29ce484222325; for b in json: h = ((h ^ b) * 0x100000001b3) % 2**64
constexpr const char* kFixedCaseJson =
    R"({"ablations":[],"dims":{"K":7,"N":5,"T":3,"r":2},"family":"lora","layouts":{},"mode":"strict",)"
    R"("params":{"alpha":0.5},"patches":[{"bits":"0x7fc00000","index":4,"operand":"x"}],"probe_row":0,"seed":42})";
constexpr const char* kFixedCaseName = "lora-repeatable-parity-host-cac8e2c8283b8168.json";

Case fixed_case() {
  Case c;
  c.family = "lora";
  c.seed = 42;
  c.dims = {{"T", 3}, {"N", 5}, {"K", 7}, {"r", 2}};
  c.params["alpha"] = 0.5;
  c.patches.push_back({"x", 4, 0x7FC00000u});
  return c;
}

TEST(ReproducerName, IsTheStableHashOfTheCanonicalCaseJson) {
  const Reproducer r{"parity-host", "repeatable", fixed_case(), Verdict::fail("repeatable", "differs")};
  // If case_to_json changes, the first assertion says so: recompute the name from the new dump.
  ASSERT_EQ(case_to_json(r.failing_case).dump(), kFixedCaseJson);
  EXPECT_EQ(reproducer_file_name(r), kFixedCaseName);
}

TEST(ReproducerName, DependsOnTheCaseNotOnTheVerdictOrEnvironment) {
  const Case c = fixed_case();
  const Reproducer a{"parity-host", "repeatable", c, Verdict::fail("repeatable", "differs")};
  const Reproducer b{"parity-host", "repeatable", c, Verdict::fail("repeatable", "differs elsewhere")};
  EXPECT_EQ(reproducer_file_name(a), reproducer_file_name(b));
  Case other = c;
  other.seed = 43;
  EXPECT_NE(reproducer_file_name(a), reproducer_file_name({"parity-host", "repeatable", other, a.observed}));
}

}  // namespace
}  // namespace parity
