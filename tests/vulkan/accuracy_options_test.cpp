// Accuracy options (tenferro/options.hpp) on a Vulkan backend: a new backend starts with the
// process defaults, set_accuracy changes the forms its later work takes (the 3-multiply form's
// extra dispatches in the GPU profile, the f32-in-f64 kernel variants), invalid choices are
// refused with nothing changed, and the CPU backend keeps them without changing its results.
#include <complex>
#include <random>
#include <vector>

#include "tenferro/ops.hpp"
#include "tenferro/options.hpp"
#include "vk_test_util.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/dispatch.hpp"
#include "vulkan/kernels/gemm/ozaki.hpp"
#include "vulkan/runtime/device.hpp"

namespace tenferro::vktest {
namespace {

using c64 = std::complex<double>;

class AccuracyOptionsTest : public VulkanTest {
 protected:
  void TearDown() override {
    if (be_) set_accuracy(be(), saved_);
    VulkanTest::TearDown();
  }
  AccuracyOptions saved_ = default_accuracy();
};

Tensor random_c64(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<c64> v(static_cast<std::size_t>(shape[0] * shape[1]));
  for (c64& x : v) x = c64(u(rng), u(rng));
  return host_tensor<c64>(shape, v);
}

TEST_F(AccuracyOptionsTest, NewBackendStartsWithTheProcessDefaults) {
  EXPECT_EQ(accuracy(be()), default_accuracy());
}

// Gemm3M::always: a c64 product runs as split passes, three real products and a combine (more
// dispatches than the one 4-multiply product), with a result of the documented accuracy.
TEST_F(AccuracyOptionsTest, Gemm3MChangesTheDispatchesOfAComplexProduct) {
  const Tensor a = upload(be(), random_c64({64, 48}, 1)), b = upload(be(), random_c64({48, 40}, 2));
  DotGeneralConfig cfg;
  cfg.lhs_contracting_dims = {1};
  cfg.rhs_contracting_dims = {0};
  auto run = [&](Gemm3M mode, std::uint64_t& dispatches) {
    AccuracyOptions o = accuracy(be());
    o.gemm_3m = mode;
    set_accuracy(be(), o);
    EXPECT_EQ(accuracy(be()).gemm_3m, mode);
    be().synchronize();
    be().profile_begin();
    const Tensor c = dot_general(be(), a, b, cfg);
    const ProfileReport r = be().profile_end();
    if (!r.supported) return std::vector<c64>();
    dispatches = r.dispatches;
    return to_vector<c64>(download(be(), c));
  };
  std::uint64_t four = 0, three = 0;
  const std::vector<c64> c4 = run(Gemm3M::never, four), c3 = run(Gemm3M::always, three);
  if (c4.empty()) GTEST_SKIP() << "the device has no GPU timestamps";
  EXPECT_GT(three, four) << "the 3-multiply form adds split and combine passes";
  ASSERT_EQ(c3.size(), c4.size());
  for (std::size_t i = 0; i < c4.size(); ++i) EXPECT_LT(std::abs(c3[i] - c4[i]), 1e-12 * 48 * 4) << i;
  // Back to the 4-multiply form: the dispatches of the first run again.
  std::uint64_t again = 0;
  run(Gemm3M::never, again);
  EXPECT_EQ(again, four);
}

// F32ViaF64 selects the f32 kernel variants of later work: "f32w" (computed in f64) with
// always, "f32" with never, on a device with f64.
TEST_F(AccuracyOptionsTest, F32ViaF64SelectsTheKernelVariants) {
  auto& vb = static_cast<vk::VulkanBackend&>(be());
  AccuracyOptions o = accuracy(be());
  o.f32_via_f64 = F32ViaF64::always;
  set_accuracy(be(), o);
  EXPECT_EQ(vk::arith_tag(vb, DType::F32), vb.device().caps().f64 ? "f32w" : "f32");
  EXPECT_EQ(vk::arith_tag(vb, DType::C32), vb.device().caps().f64 ? "c32w" : "c32");
  o.f32_via_f64 = F32ViaF64::never;
  set_accuracy(be(), o);
  EXPECT_EQ(vk::arith_tag(vb, DType::F32), "f32");
  EXPECT_EQ(vk::arith_tag(vb, DType::C32), "c32");
  // A subnormal product computed either way: both keep it where the device preserves f32
  // subnormals, and the f64 form keeps it everywhere.
  const Tensor x = upload(be(), host_tensor<float>({1}, {1e-20f})), y = upload(be(), host_tensor<float>({1}, {1e-20f}));
  o.f32_via_f64 = F32ViaF64::always;
  set_accuracy(be(), o);
  const float wide = to_vector<float>(download(be(), mul(be(), x, y)))[0];
  if (vb.device().caps().f64) {
    EXPECT_EQ(wide, 1e-20f * 1e-20f);
  }
}

// The Ozaki-II choice reaches the product's decision (gemm.cpp passes the backend's setting):
// on a device with tensor-core residue products and fast f64 (the time model's H200), an f64
// 8192^3 product takes the scheme when certified (the default) or uncertified on the chosen
// moduli, and not when off; c64 only certified. (lavapipe has no such products: the decision
// is checked for that device model.)
TEST(AccuracyOptionsOzaki, OzakiModeDecidesTheScheme) {
  vk::DeviceCaps caps;
  caps.f64 = caps.f64_fast = true;
  const vk::GemmProblem real{DType::F64, 8192, 8192, 8192, 1}, cplx{DType::C64, 8192, 8192, 8192, 1};
  AccuracyOptions o;
  o.ozaki = OzakiMode::off;
  EXPECT_EQ(vk::gemm_ozaki_moduli(real, true, &caps, vk::ozaki_setting(o)), 0);
  o.ozaki = OzakiMode::certified;
  EXPECT_GT(vk::gemm_ozaki_moduli(real, true, &caps, vk::ozaki_setting(o)), 0);
  EXPECT_TRUE(vk::gemm_ozaki_certified(vk::ozaki_setting(o)));
  o.ozaki = OzakiMode::uncertified;
  o.ozaki_moduli = 16;
  EXPECT_EQ(vk::gemm_ozaki_moduli(real, true, &caps, vk::ozaki_setting(o)), 16);
  EXPECT_FALSE(vk::gemm_ozaki_certified(vk::ozaki_setting(o)));
  EXPECT_EQ(vk::gemm_ozaki_moduli(cplx, true, &caps, vk::ozaki_setting(o)), 0);
  EXPECT_EQ(vk::gemm_ozaki_moduli(real, false, &caps, vk::ozaki_setting(o)), 0);  // no tensor-core products
}

TEST_F(AccuracyOptionsTest, InvalidChoicesAreRefusedAndChangeNothing) {
  const AccuracyOptions before = accuracy(be());
  for (int moduli : {0, 7, 21}) {
    AccuracyOptions o = before;
    o.ozaki = OzakiMode::uncertified;
    o.ozaki_moduli = moduli;
    try {
      set_accuracy(be(), o);
      ADD_FAILURE() << "moduli " << moduli << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
      EXPECT_EQ(e.op(), "set_accuracy");
      EXPECT_EQ(e.arg(), "ozaki_moduli");
    }
    EXPECT_EQ(accuracy(be()), before);
  }
  AccuracyOptions o = before;
  o.gemm_3m = static_cast<Gemm3M>(7);
  EXPECT_THROW(set_accuracy(be(), o), Error);
  EXPECT_EQ(accuracy(be()), before);
  o = before;
  o.ozaki = OzakiMode::uncertified;
  o.ozaki_moduli = 20;
  set_accuracy(be(), o);
  EXPECT_EQ(accuracy(be()), o);
  o.ozaki = OzakiMode::off;  // moduli unused: kept as 0
  set_accuracy(be(), o);
  EXPECT_EQ(accuracy(be()).ozaki, OzakiMode::off);
  EXPECT_EQ(accuracy(be()).ozaki_moduli, 0);
}

TEST(AccuracyOptionsCpu, CpuBackendKeepsTheChoicesAndItsResults) {
  Backend& cpu = cpu_backend();
  const AccuracyOptions saved = accuracy(cpu);
  const Tensor a = random_c64({8, 8}, 3);
  DotGeneralConfig cfg;
  cfg.lhs_contracting_dims = {1};
  cfg.rhs_contracting_dims = {0};
  const std::vector<c64> before = to_vector<c64>(dot_general(cpu, a, a, cfg));
  AccuracyOptions o;
  o.gemm_3m = Gemm3M::always;
  o.f32_via_f64 = F32ViaF64::always;
  set_accuracy(cpu, o);
  EXPECT_EQ(accuracy(cpu), o);
  EXPECT_EQ(to_vector<c64>(dot_general(cpu, a, a, cfg)), before);
  set_accuracy(cpu, saved);
}

}  // namespace
}  // namespace tenferro::vktest
