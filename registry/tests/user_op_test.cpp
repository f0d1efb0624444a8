// A user's op family (register_op.hpp), as examples/custom_op/scaled_add.cpp declares one, linked
// into this program: listed with parity's families after its own ops, its default subject the
// one it names, its properties holding on the kernel and failing on the broken copy; a family
// registered once the list has been read is refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include <parity/ops/register_op.hpp>
#include <parity/registry/families.hpp>

namespace {

using parity::gen::Family;

TEST(UserOp, IsListedAfterParitysOps) {
  const auto& all = parity::registry::families();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.back()->name(), "scaled_add");
  EXPECT_EQ(parity::registry::find_family("scaled_add").default_subject(), "my-scaled-add");
}

TEST(UserOp, PropertiesHoldOnTheKernelAndCatchTheBrokenCopy) {
  const Family& op = parity::registry::find_family("scaled_add");
  const parity::gen::RunConfig config{.cases = 20, .repro_dir = ::testing::TempDir()};
  EXPECT_TRUE(op.run("my-scaled-add", "forward_accuracy", config).passed);
  EXPECT_TRUE(op.run("my-scaled-add", "layout_invariant", config).passed);
  EXPECT_FALSE(op.run("my-scaled-add-broken", "forward_accuracy", config).passed);
}

TEST(UserOp, RegisteringOnceTheListIsReadIsRefused) {
  parity::ops::op_families();
  EXPECT_THROW(parity::ops::register_op_family(parity::registry::find_family("rms_norm")), std::logic_error);
}

}  // namespace
