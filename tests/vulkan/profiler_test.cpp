// GPU timestamp profiler (Backend::profile_begin/profile_end): one timestamp pair per recorded
// command, tagged by kernel family; counts match the ops run, times are non-negative and the
// GPU busy time fits in the first-to-last span. Also: ops still give correct results while
// profiled, profile_end without work, and format_profile.
#include <map>
#include <string>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"

namespace tenferro::vktest {
namespace {

class ProfilerTest : public VulkanTest {};

std::map<std::string, ProfileFamily> by_name(const ProfileReport& r) {
  std::map<std::string, ProfileFamily> m;
  for (const ProfileFamily& f : r.families) m[f.name] = f;
  return m;
}

TEST_F(ProfilerTest, CountsPerFamilyMatchTheOpsRun) {
  std::vector<Val> vals;
  for (int k = 0; k < 48 * 40; ++k) vals.push_back(Val{k, double(k)});
  const Tensor x = be().upload(host_of(DType::F32, {48, 40}, vals));
  const Tensor y = be().upload(host_of(DType::F32, {48, 40}, vals));
  be().synchronize();

  be().profile_begin();
  Tensor z = x;
  with_session(be(), [&] {
    for (int k = 0; k < 5; ++k) z = add(be(), z, y);  // 5 elementwise
  });
  const Tensor t = transpose_copy(be(), z, {1, 0});          // 1 permute
  Tensor c = be().allocate(DType::F32, {48, 40});
  copy_into(be(), z, c);                                // 1 copy (contiguous)
  be().fill(c, Scalar::of_complex(DType::F32, {2.0, 0.0}));  // 1 fill
  const Tensor s = reduce_sum(be(), t, {0});            // >= 1 reduce
  const ProfileReport r = be().profile_end();

  if (!r.supported) GTEST_SKIP() << "device has no compute-queue timestamps";
  auto m = by_name(r);
  EXPECT_EQ(m["elementwise"].dispatches, 5u);
  EXPECT_EQ(m["permute"].dispatches, 1u);
  EXPECT_EQ(m["copy"].dispatches, 1u);
  EXPECT_EQ(m["fill"].dispatches, 1u);
  EXPECT_GE(m["reduce"].dispatches, 1u);
  std::uint64_t total = 0;
  double busy = 0;
  for (const ProfileFamily& f : r.families) {
    EXPECT_GT(f.dispatches, 0u) << f.name;
    EXPECT_GE(f.gpu_us, 0.0) << f.name;
    total += f.dispatches;
    busy += f.gpu_us;
  }
  EXPECT_EQ(total, r.dispatches);
  EXPECT_NEAR(busy, r.busy_us, 1e-6 * (1 + busy));
  EXPECT_GE(r.span_us, 0.0);
  EXPECT_LE(r.busy_us, r.span_us * (1 + 1e-9) + 1e-3);  // stamps are ordered: intervals do not overlap
  EXPECT_GE(r.batches, 1u);
  EXPECT_NE(format_profile(r).find("elementwise"), std::string::npos);
  // The per-dispatch trace: every dispatch once, in GPU order (the order recorded here), with
  // the same times as the totals.
  ASSERT_EQ(r.trace.size(), r.dispatches);
  double traced = 0;
  for (const auto& d : r.trace) {
    EXPECT_GE(d.gpu_us, 0.0);
    traced += d.gpu_us;
  }
  EXPECT_NEAR(traced, r.busy_us, 1e-6 * (1 + busy));
  for (int k = 0; k < 5; ++k) EXPECT_STREQ(r.trace[k].family, "elementwise") << k;
  EXPECT_STREQ(r.trace[5].family, "permute");
  EXPECT_STREQ(r.trace[6].family, "copy");
  EXPECT_STREQ(r.trace[7].family, "fill");
  for (std::size_t k = 8; k < r.trace.size(); ++k) EXPECT_STREQ(r.trace[k].family, "reduce") << k;

  // Results are right while profiled: z = x + 5 y.
  const Tensor hz = be().download(z);
  for (std::int64_t i = 0; i < hz.numel(); i += 97) EXPECT_EQ(host_at(hz, i).c.real(), 6.0 * double(i)) << i;
  const Tensor hs = be().download(s);
  EXPECT_EQ(hs.numel(), 48);

  // After profile_end nothing is counted; a new window starts from zero.
  z = add(be(), z, y);
  be().profile_begin();
  const ProfileReport empty = be().profile_end();
  EXPECT_EQ(empty.dispatches, 0u);
  EXPECT_TRUE(empty.families.empty());
  EXPECT_EQ(empty.span_us, 0.0);
}

// Profiles `adds` chained adds of ones (length n) in one session on an idle GPU; z: the result.
ProfileReport profile_add_chain(Backend& be, int adds, std::int64_t n, Tensor& z) {
  std::vector<Val> vals(static_cast<std::size_t>(n), Val{1, 1.0});
  const Tensor one = be.upload(host_of(DType::F32, {n}, vals));
  be.synchronize();
  be.profile_begin();
  z = one;
  with_session(be, [&] {
    for (int k = 0; k < adds; ++k) z = add(be, z, one);
  });
  return be.profile_end();
}

TEST_F(ProfilerTest, ManyCommandsInOneBatchSpanSeveralQueryPools) {
  Tensor z;
  const ProfileReport r = profile_add_chain(be(), 700, 100, z);  // > kPairsPerPool pairs, several batches
  if (!r.supported) GTEST_SKIP() << "device has no compute-queue timestamps";
  EXPECT_EQ(r.dispatches, 700u);
  ASSERT_EQ(r.families.size(), 1u);
  EXPECT_EQ(r.families[0].name, "elementwise");
  EXPECT_LE(r.busy_us, r.span_us * (1 + 1e-9) + 1e-3);
  EXPECT_EQ(host_at(be().download(z), 99).c.real(), 701.0);
}

// A session on an idle GPU submits its first Options::early_commands (default 8) commands
// at once, so the GPU starts while the rest is recorded: 12 chained adds are two batches (8,
// then 4 at the session's end), not one.
TEST_F(ProfilerTest, SessionSubmitsItsFirstCommandsEarly) {
  Tensor z;
  const ProfileReport r = profile_add_chain(be(), 12, 64, z);
  if (!r.supported) GTEST_SKIP() << "device has no compute-queue timestamps";
  EXPECT_EQ(r.dispatches, 12u);
  EXPECT_EQ(r.batches, 2u);
  EXPECT_EQ(host_at(be().download(z), 63).c.real(), 13.0);
}

TEST(ProfilerCpu, CpuBackendReportsUnsupported) {
  cpu_backend().profile_begin();
  const ProfileReport r = cpu_backend().profile_end();
  EXPECT_FALSE(r.supported);
  EXPECT_NE(format_profile(r).find("no GPU timestamps"), std::string::npos);
}

}  // namespace
}  // namespace tenferro::vktest
