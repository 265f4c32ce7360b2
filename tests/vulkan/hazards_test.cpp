// HazardTracker tables (pure logic, no GPU): barriers exactly on RAW, WAR and WAW overlaps.
#include <gtest/gtest.h>

#include "vulkan/runtime/hazards.hpp"

namespace tenferro::vk {
namespace {

const ByteRange A{0, 100}, A_tail{50, 150}, B{100, 200}, C{200, 300};

struct Row {
  const char* name;
  std::vector<ByteRange> first_reads, first_writes, second_reads, second_writes;
  bool barrier;
};

TEST(HazardTrackerTest, TableOfTwoAccesses) {
  const std::vector<Row> rows = {
      {"RAW same range", {}, {A}, {A}, {}, true},
      {"RAW partial overlap", {}, {A}, {A_tail}, {}, true},
      {"WAW", {}, {A}, {}, {A}, true},
      {"WAR", {A}, {}, {}, {A}, true},
      {"WAR partial", {A}, {}, {}, {A_tail}, true},
      {"RAR never", {A}, {}, {A}, {}, false},
      {"adjacent ranges do not overlap", {}, {A}, {B}, {B}, false},
      {"disjoint write after write", {}, {A}, {}, {C}, false},
      {"read of another range after write", {B}, {A}, {C}, {}, false},
      {"empty range never conflicts", {}, {A}, {ByteRange{50, 50}}, {}, false},
  };
  for (const Row& r : rows) {
    HazardTracker t;
    EXPECT_FALSE(t.access(r.first_reads, r.first_writes)) << r.name << ": first access never needs a barrier";
    EXPECT_EQ(t.conflicts(r.second_reads, r.second_writes), r.barrier) << r.name;
    EXPECT_EQ(t.access(r.second_reads, r.second_writes), r.barrier) << r.name;
  }
}

// A -> B -> C: each dispatch reads what the previous wrote; every link needs a barrier.
TEST(HazardTrackerTest, ChainNeedsABarrierPerLink) {
  HazardTracker t;
  const ByteRange x{0, 64}, y{64, 128}, z{128, 192};
  const std::vector<ByteRange> none;
  EXPECT_FALSE(t.access(std::vector{x}, std::vector{y}));  // A: x -> y
  EXPECT_TRUE(t.access(std::vector{y}, std::vector{z}));   // B: y -> z reads A's output
  EXPECT_TRUE(t.access(std::vector{z}, std::vector{x}));   // C: z -> x reads B's output (and WAR on x)
}

// Independent dispatches share one barrier-free stretch; the barrier clears the pending set.
TEST(HazardTrackerTest, BarrierClearsPendingSets) {
  HazardTracker t;
  const ByteRange x{0, 64}, y{64, 128}, z{128, 192}, w{192, 256};
  EXPECT_FALSE(t.access(std::vector{x}, std::vector{y}));
  EXPECT_FALSE(t.access(std::vector{x}, std::vector{z}));  // reads x again, writes elsewhere
  EXPECT_TRUE(t.access(std::vector{y, z}, std::vector{w}));
  // After the barrier only the last access is pending: y and z writes are forgotten.
  EXPECT_FALSE(t.conflicts(std::vector{y}, {}));
  EXPECT_TRUE(t.conflicts(std::vector{w}, {}));
  EXPECT_TRUE(t.conflicts({}, std::vector{y}));  // WAR: the pending access read y
  t.clear();
  EXPECT_TRUE(t.empty());
  EXPECT_FALSE(t.conflicts(std::vector{w}, std::vector{w}));
}

}  // namespace
}  // namespace tenferro::vk
