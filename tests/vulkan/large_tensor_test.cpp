// Tensors beyond 32-bit indexing on the GPU, against the CPU backend.
//
// LargeTensor.BeyondTwoToThe31Elements: f32 operands of R x C = 66000 x 33000 = 2,178,000,000
// elements (8.1 GiB each: more than 2^31 elements, byte offsets far beyond one 4 GiB storage
// binding), uploaded from the host: add, reduce_sum (over each axis and over both), transpose,
// gather (rows spread over the whole tensor, the last included) and einsum ("ij,jk->ik"). Each
// GPU result is compared with the CPU backend's result of the same op on the same host
// operands, every element: add, transpose and gather bit for bit; reduce_sum and einsum within
// the tolerances stated at their checks. The operands are a(r, c) = u[r] + v[c] with small
// integer u, v, so that the exact results are known in closed form (both backends are also
// checked against them) and every partial sum of a column or row reduction, and of einsum's
// dot products, is an integer below 2^24: exact in f32 whatever the summation order.
// Needs a device-local heap of kNeedDeviceBytes (three operands at once) and about 41 GiB of
// host memory (two host operands, a CPU result, a download and its staging block). On a device
// with less it FAILS, saying so: running it there is an error, never a pass. Registered in
// CTest with the label "large", which the ci test preset excludes; tools/gpu/check.sh runs it
// on the lent GPU. The phases' times are printed.
//
// ForcedWideIndex.SameOpsSmall: the same ops and checks on 1031 x 517 operands with
// TestHooks::force_idx64 and gemm_chains_wide, so that the 64-bit index variants of the
// kernels run in CI (lavapipe). It does not reach indices of 2^31 or more nor byte offsets
// beyond 4 GiB: lavapipe's 2 GiB heap cannot hold such a tensor (even a Bool one of 2^31
// elements is 2 GiB), so only the large test covers those.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"
#include "vulkan/options.hpp"

namespace tenferro::vktest {
namespace {

constexpr std::int64_t kBigRows = 66000, kBigCols = 33000;
constexpr std::uint64_t kBigBytes = std::uint64_t{kBigRows} * kBigCols * 4;
// Three operands live at once (a, b and a + b), plus the allocator's slack.
constexpr std::uint64_t kNeedDeviceBytes = 3 * kBigBytes + (2ull << 30);
// u, v in [0, kMaxPart]: a(r, c) <= 2 * kMaxPart, so a column sum (kBigRows terms) stays below
// 2^24 (66000 * 252 = 16,632,000 < 16,777,216).
constexpr int kMaxPart = 126;
constexpr double kUnitRoundoff = 0x1p-24;  // f32

std::string gib(std::uint64_t b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f GiB", static_cast<double>(b) / double(1ull << 30));
  return s;
}

// f(begin, end) over [0, n) in one contiguous chunk per hardware thread.
template <class F> void parallel_for(std::int64_t n, F&& f) {
  const std::int64_t nt = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 64);
  const std::int64_t chunk = (n + nt - 1) / nt;
  std::vector<std::thread> threads;
  for (std::int64_t b = 0; b < n; b += chunk) threads.emplace_back([&f, b, e = std::min(n, b + chunk)] { f(b, e); });
  for (std::thread& t : threads) t.join();
}

const float* floats(const Tensor& t) {
  return reinterpret_cast<const float*>(t.storage()->host_data()) + t.offset();
}

// Elements of two compact host f32 tensors that differ bitwise (every element); prints the
// first few.
std::int64_t bitwise_mismatches(const char* what, const Tensor& got, const Tensor& want) {
  EXPECT_EQ(got.shape(), want.shape()) << what;
  if (got.shape() != want.shape()) return -1;
  const float *g = floats(got), *w = floats(want);
  std::atomic<std::int64_t> bad{0};
  std::atomic<int> printed{0};
  parallel_for(got.numel(), [&](std::int64_t b, std::int64_t e) {
    std::int64_t local = 0;
    for (std::int64_t i = b; i < e; ++i)
      if (std::memcmp(g + i, w + i, 4) != 0) {
        ++local;
        if (printed.fetch_add(1) < 5)
          std::printf("  %s: element %lld: GPU %.9g, CPU %.9g\n", what, static_cast<long long>(i), g[i], w[i]);
      }
    bad += local;
  });
  return bad.load();
}

class Phases {
 public:
  void mark(const char* what) {
    const auto now = std::chrono::steady_clock::now();
    std::printf("  %-44s %7.2f s\n", what, std::chrono::duration<double>(now - last_).count());
    std::fflush(stdout);
    last_ = now;
  }
  double total() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

std::vector<int> small_ints(std::int64_t n, int max, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, max);
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int& x : v) x = d(rng);
  return v;
}

// The host operand x(r, c) = u[r] + v[c] (column-major: r is the contiguous axis).
Tensor outer_sum(const std::vector<int>& u, const std::vector<int>& v) {
  const std::int64_t R = static_cast<std::int64_t>(u.size()), C = static_cast<std::int64_t>(v.size());
  Tensor t = host_empty(DType::F32, {R, C});
  float* p = reinterpret_cast<float*>(t.storage()->host_data());
  parallel_for(C, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t c = b; c < e; ++c)
      for (std::int64_t r = 0; r < R; ++r) p[r + R * c] = static_cast<float>(u[r] + v[c]);
  });
  return t;
}

// add, reduce_sum, transpose, gather and einsum on R x C operands: GPU against the CPU backend
// (and both against the closed forms), every element.
void run_ops(Backend& gpu, std::int64_t R, std::int64_t C) {
  Backend& cpu = cpu_backend();
  Phases ph;
  const std::vector<int> u = small_ints(R, kMaxPart, 1), v = small_ints(C, kMaxPart, 2);
  const std::vector<int> p = small_ints(R, kMaxPart, 3), q = small_ints(C, kMaxPart, 4);
  const Tensor a_h = outer_sum(u, v);
  Tensor b_h = outer_sum(p, q);
  ph.mark("host operands a, b");
  const Tensor a = upload(gpu, a_h);
  Tensor b = upload(gpu, b_h);
  gpu.synchronize();
  ph.mark("upload a, b");

  {  // add: sums of integers below 2^24, exact on both backends
    Tensor s = add(gpu, a, b);
    gpu.synchronize();
    ph.mark("add (GPU)");
    Tensor want = add(cpu, a_h, b_h);
    ph.mark("add (CPU)");
    Tensor got = download(gpu, s);
    ph.mark("download a + b");
    EXPECT_EQ(bitwise_mismatches("add", got, want), 0);
    const float* w = floats(want);
    std::int64_t off = 0;  // the CPU result against the closed form, on a sample
    for (std::int64_t i = 0; i < R * C; i += 9973)
      off += w[i] != static_cast<float>(u[i % R] + v[i / R] + p[i % R] + q[i / R]);
    EXPECT_EQ(off, 0) << "the CPU backend's add differs from the closed form";
    ph.mark("compare add");
  }
  b = Tensor();
  b_h = Tensor();

  {  // reduce_sum over axis 0 (column sums), axis 1 (row sums): integer partial sums below
     // 2^24, exact in any order: equal to the closed form on both backends.
    double su = 0, sv = 0;
    for (int x : u) su += x;
    for (int x : v) sv += x;
    const Tensor g0 = download(gpu, reduce_sum(gpu, a, {0})), g1 = download(gpu, reduce_sum(gpu, a, {1}));
    const Tensor g01 = download(gpu, reduce_sum(gpu, a, {0, 1}));
    ph.mark("reduce_sum x3 (GPU, with downloads)");
    const Tensor c0 = reduce_sum(cpu, a_h, {0}), c1 = reduce_sum(cpu, a_h, {1}), c01 = reduce_sum(cpu, a_h, {0, 1});
    ph.mark("reduce_sum x3 (CPU)");
    EXPECT_EQ(bitwise_mismatches("reduce_sum axis 0", g0, c0), 0);
    EXPECT_EQ(bitwise_mismatches("reduce_sum axis 1", g1, c1), 0);
    std::int64_t off = 0;
    for (std::int64_t c = 0; c < C; ++c) off += floats(c0)[c] != static_cast<float>(su + double(R) * v[c]);
    for (std::int64_t r = 0; r < R; ++r) off += floats(c1)[r] != static_cast<float>(double(C) * u[r] + sv);
    EXPECT_EQ(off, 0) << "a CPU column or row sum differs from the exact value";
    // The sum of every element exceeds 2^24: rounding depends on the order. Tolerance: 1e-5
    // of the exact sum (168 f32 units; a tree of sequential runs of n terms each rounds by at
    // most log2(n) + the run length units, which both backends' reductions stay far below).
    const double exact = double(C) * su + double(R) * sv;
    const double eg = std::abs(double(floats(g01)[0]) - exact) / exact;
    const double ec = std::abs(double(floats(c01)[0]) - exact) / exact;
    std::printf("  reduce_sum of all %lld elements: relative error GPU %.3g, CPU %.3g (tolerance 1e-5)\n",
                static_cast<long long>(R * C), eg, ec);
    EXPECT_LE(eg, 1e-5);
    EXPECT_LE(ec, 1e-5);
    ph.mark("compare reduce_sum");
  }

  {  // transpose: a permutation of bits, exact
    Tensor t = transpose_copy(gpu, a, {1, 0});
    gpu.synchronize();
    ph.mark("transpose (GPU)");
    Tensor want = transpose_copy(cpu, a_h, {1, 0});
    ph.mark("transpose (CPU)");
    Tensor got = download(gpu, t);
    t = Tensor();
    ph.mark("download transpose");
    EXPECT_EQ(bitwise_mismatches("transpose", got, want), 0);
    ph.mark("compare transpose");
  }

  {  // gather: 64 whole rows (each strided across the tensor: row r ends at element
     // r + R * (C - 1)), the first and the last row among them
    std::vector<std::int64_t> rows = {0, R - 1, R / 2, 1};
    std::mt19937 rng(5);
    while (rows.size() < 64) rows.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(R)));
    GatherConfig g;
    g.offset_dims = {1};
    g.collapsed_slice_dims = {0};
    g.start_index_map = {0};
    g.index_vector_dim = 1;
    g.slice_sizes = {1, C};
    const Tensor idx_h = host_tensor<std::int64_t>({64}, rows);
    const Tensor got = download(gpu, gather(gpu, a, upload(gpu, idx_h), g));
    const Tensor want = gather(cpu, a_h, idx_h, g);
    EXPECT_EQ(bitwise_mismatches("gather", got, want), 0);
    ph.mark("gather (GPU, CPU, compare)");
  }

  {  // einsum ij,jk->ik with x of zeros and ones: dot products of C terms. Tolerance per
     // element: the bound of any summation order, gamma_C * sum_j |a_ij x_jk| with gamma_C =
     // C u / (1 - C u); the data keep every partial sum an integer below 2^24, so FMA kernels
     // are exact (the largest error is printed).
    constexpr std::int64_t K = 3;
    const std::vector<int> xs = small_ints(C * K, 1, 6);
    std::vector<float> xf(xs.begin(), xs.end());
    const Tensor x_h = host_tensor<float>({C, K}, xf);
    const TensorView gops[2] = {a, upload(gpu, x_h)};
    const Tensor got = download(gpu, einsum(gpu, "ij,jk->ik", gops));
    ph.mark("einsum (GPU)");
    const TensorView cops[2] = {a_h, x_h};
    const Tensor want = einsum(cpu, "ij,jk->ik", cops);
    ph.mark("einsum (CPU)");
    ASSERT_EQ(got.shape(), (Shape{R, K}));
    ASSERT_EQ(want.shape(), (Shape{R, K}));
    const double gamma = double(C) * kUnitRoundoff / (1 - double(C) * kUnitRoundoff);
    double worst_g = 0, worst_c = 0;
    std::int64_t bad = 0;
    for (std::int64_t k = 0; k < K; ++k) {
      double sx = 0, svx = 0;  // sum_j x_jk and sum_j v_j x_jk
      for (std::int64_t j = 0; j < C; ++j) {
        sx += xs[j + C * k];
        svx += double(v[j]) * xs[j + C * k];
      }
      for (std::int64_t r = 0; r < R; ++r) {
        const double exact = u[r] * sx + svx, tol = gamma * exact;  // terms >= 0: sum |a x| = exact
        const double eg = std::abs(floats(got)[r + R * k] - exact), ec = std::abs(floats(want)[r + R * k] - exact);
        worst_g = std::max(worst_g, eg);
        worst_c = std::max(worst_c, ec);
        bad += eg > tol || ec > tol || std::abs(double(floats(got)[r + R * k]) - floats(want)[r + R * k]) > 2 * tol;
      }
    }
    std::printf("  einsum: largest error against the exact value: GPU %.3g, CPU %.3g\n", worst_g, worst_c);
    EXPECT_EQ(bad, 0);
    ph.mark("compare einsum");
  }
  std::printf("  total %.1f s\n", ph.total());
}

TEST(LargeTensor, BeyondTwoToThe31Elements) {
  const auto devices = vk::list_vulkan_devices();
  ASSERT_FALSE(devices.empty()) << "no Vulkan device: this test needs a GPU with " << gib(kNeedDeviceBytes)
                                << " of device-local memory";
  Backend& gpu = vk::vulkan_backend(vk::default_vulkan_ordinal());
  // The cap is the largest device-local heap unless TENFERRO_VK_MEMORY_CAP lowers it.
  const std::uint64_t have = vk::allocator_stats(gpu).cap;
  ASSERT_GE(have, kNeedDeviceBytes) << gpu.device_name() << " has " << gib(have)
                                    << " of device-local memory (or a lower TENFERRO_VK_MEMORY_CAP); "
                                       "vk_large_tensor_test needs "
                                    << gib(kNeedDeviceBytes) << " (three " << gib(kBigBytes)
                                    << " operands) and about 41 GiB of host memory. Run it on a large GPU "
                                       "(tools/gpu/check.sh); CI excludes its label \"large\".";
  std::printf("%s: %lld x %lld f32 operands, %s each\n", gpu.device_name().c_str(),
              static_cast<long long>(kBigRows), static_cast<long long>(kBigCols), gib(kBigBytes).c_str());
  run_ops(gpu, kBigRows, kBigCols);
}

// The same ops with the 64-bit index variants forced, on operands small enough for CI.
class ForcedWideIndex : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    vk::test_hooks().force_idx64 = true;
    vk::test_hooks().gemm_chains_wide = true;
  }
  void TearDown() override {
    vk::test_hooks().force_idx64 = false;
    vk::test_hooks().gemm_chains_wide = false;
    VulkanTest::TearDown();
  }
};

TEST_F(ForcedWideIndex, SameOpsSmall) { run_ops(be(), 1031, 517); }

}  // namespace
}  // namespace tenferro::vktest
