// The Vulkan GEMM's choices (src/vulkan/kernels/gemm/policy.hpp, gemm3m.hpp, ozaki.hpp) against
// invariants that any tuning of them must keep, whatever configuration the tables pick: the
// configuration is valid on its device and fits its shared memory, a chained C keeps the tile;
// splits are whole BK slices within the scratch limits, few tiles with long K are split and
// many tiles are not split automatically; the wave model's choice is its fastest estimate; the
// Ozaki-II time model prefers the scheme for larger products, fewer moduli and slower FMA
// kernels. The choices are asked for three devices' caps over a grid of shapes (no GPU).
// GemmForcedTest.DefaultConfigurations runs every configuration the defaults choose for an
// H200 and for the device under test against the reference.
#include <map>
#include <vector>

#include "gemm_test_fixture.hpp"
#include "shaders/gemm/gemm_params.h"

namespace tenferro::vktest {
namespace {

struct NamedCaps {
  const char* name;
  vk::DeviceCaps caps;
};

/// An H200's caps (an SM count: the wave model and the NVIDIA rows), lavapipe's (no SM count,
/// 32 KiB of shared memory) and a small device's (16 KiB, 256 threads: the tiles shrink).
std::vector<NamedCaps> policy_devices() {
  vk::DeviceCaps h200;
  h200.sm_count = 132;
  h200.max_shared_memory = 48 * 1024;
  h200.max_group_size_x = 1024;
  h200.max_group_count_x = 1u << 31;
  h200.f64 = true;
  vk::DeviceCaps lavapipe = h200;
  lavapipe.sm_count = 0;
  lavapipe.max_shared_memory = 32 * 1024;
  lavapipe.max_group_count_x = 65535;
  vk::DeviceCaps small = lavapipe;
  small.max_shared_memory = 16 * 1024;
  small.max_group_size_x = 256;
  return {{"h200", h200}, {"lavapipe", lavapipe}, {"small", small}};
}

/// Extents from 1 to 20000 around the tiles' and the rules' edges, K up to the Ozaki-II limit,
/// and the shapes of the benchmark cases and einsum steps that docs/gemm.md names.
std::vector<vk::GemmProblem> policy_problems(DType d) {
  const I ext[] = {1, 2, 5, 8, 9, 12, 16, 17, 31, 33, 64, 65, 128, 129, 136, 256, 257, 300, 511, 512, 1000, 1024, 2048,
                   2187, 4096, 8192, 20000};
  const I ks[] = {0, 1, 11, 16, 17, 56, 64, 65, 128, 256, 257, 300, 511, 512, 1024, 2048, 4096, 4620, 65536};
  std::vector<vk::GemmProblem> out;
  for (I B : {1, 3, 216})
    for (I M : ext)
      for (I N : ext)
        for (I K : ks) out.push_back({d, M, N, K, B});
  const I named[][4] = {{990, 2187, 4620, 1},   {7290, 399, 4320, 1},   {9720, 136, 441, 1},  {399, 4320, 594, 1},
                        {540, 58320, 136, 1},   {2160, 3672, 360, 1},   {243, 6561, 729, 9},  {177147, 243, 50, 1},
                        {12474, 810, 154, 1},   {252, 39600, 56, 1},    {540, 270, 136, 216}, {11, 415800, 24, 1},
                        {11, 415800, 300, 1},   {415800, 11, 300, 1},   {16, 8192, 2048, 1},  {32, 100000, 1024, 1},
                        {144, 1100, 11, 11},    {13200, 144, 12, 1},    {27, 729, 3, 2187},   {400, 21, 300, 1},
                        {256, 256, 256, 1024},  {4096, 4096, 4096, 1},  {12, 12, 144, 1100},  {16384, 32, 4096, 1},
                        {256, 256, 65536, 1},   {196830, 45, 11, 1}};
  for (const auto& s : named) out.push_back({d, s[0], s[1], s[2], s[3]});
  return out;
}

std::string what(const char* device, const vk::GemmProblem& p) {
  return std::string(device) + " " + std::string(dtype_name(p.d)) + " " + std::to_string(p.M) + " x " +
         std::to_string(p.N) + " x " + std::to_string(p.K) + " x " + std::to_string(p.B);
}

I tiles_of(const vk::GemmConfig& c, const vk::GemmProblem& p) {
  return (p.M + c.bm - 1) / c.bm * ((p.N + c.bn - 1) / c.bn) * p.B;
}

// The default configuration is a tile (gemm_small.comp is chosen by gemm_uses_small_kernel),
// valid for the dtype and the device: its threads and shared memory within the device's limits.
// A chained C keeps the tile (BK may halve) and fits its table of row and column offsets; the
// paired warp map only pairs the lanes of a warp map.
TEST(GemmPolicy, DefaultsAreValidTilesThatFit) {
  for (const auto& [name, caps] : policy_devices())
    for (DType d : kTypes)
      for (const vk::GemmProblem& p : policy_problems(d)) {
        const vk::GemmConfig t = vk::gemm_default_config(p, caps);
        const auto cfg = [&] { return what(name, p) + ": " + vk::gemm_config_string(t); };
        ASSERT_FALSE(t.small) << cfg();
        ASSERT_TRUE(vk::gemm_config_valid(d, t, caps)) << cfg();
        ASSERT_LE(static_cast<std::uint32_t>(t.threads()), caps.max_group_size_x) << cfg();
        ASSERT_LE(vk::gemm_shared_bytes(t, d), caps.max_shared_memory) << cfg();
        const vk::GemmConfig c = vk::gemm_chained_config(t, d, caps);
        ASSERT_TRUE(vk::gemm_config_valid(d, c, caps)) << cfg();
        ASSERT_LE(vk::gemm_shared_bytes(c, d) + 8u * static_cast<std::uint64_t>(c.bm + c.bn), caps.max_shared_memory)
            << cfg();
        vk::GemmConfig same = c;
        same.bk = t.bk;
        same.roll = t.roll;
        ASSERT_EQ(same, t) << cfg() << " chained " << vk::gemm_config_string(c);
        ASSERT_LE(c.bk, t.bk) << cfg();
        const vk::GemmConfig q = vk::gemm_paired(t, d, caps);
        ASSERT_TRUE(vk::gemm_config_valid(d, q, caps)) << cfg();
        vk::GemmConfig unpaired = q;
        unpaired.pair = t.pair;
        unpaired.opts = (q.opts & ~static_cast<std::uint32_t>(TFG_OPT_WARP)) | (t.opts & TFG_OPT_WARP);
        ASSERT_EQ(unpaired, t) << cfg() << " paired " << vk::gemm_config_string(q);
      }
}

// Splits, automatic or forced, under several scratch limits: at least 1, at most the number of
// BK slices (and a forced count), each a whole number of slices and none empty; their partial
// tiles within kGemmSplitMaxScratch and the problem's scratch_limit.
TEST(GemmPolicy, SplitsAreWholeSlicesWithinTheScratchLimits) {
  const std::uint64_t limits[] = {kNoScratchLimit, std::uint64_t{1} << 20, 0};
  for (const auto& [name, caps] : policy_devices())
    for (DType d : kTypes)
      for (vk::GemmProblem p : policy_problems(d)) {
        const vk::GemmConfig t = vk::gemm_default_config(p, caps);
        const std::uint64_t out_bytes = static_cast<std::uint64_t>(p.M * p.N * p.B) * dtype_size(d);
        const I slices = p.K > 0 ? (p.K + t.bk - 1) / t.bk : 0;
        for (int forced : {-1, 0, 2, 5, 1000})
          for (std::uint64_t limit : limits) {
            vk::GemmConfig c = t;
            if (forced >= 0) c.split = forced;
            p.scratch_limit = limit;
            const I s = vk::gemm_splits(c, p);
            const auto cfg = [&] {
              return what(name, p) + ": " + vk::gemm_config_string(c) + " limit " + std::to_string(limit) +
                     " splits " + std::to_string(s);
            };
            ASSERT_GE(s, 1) << cfg();
            ASSERT_LE(s, std::max<I>(slices, 1)) << cfg();
            if (c.split >= 1) {
              ASSERT_LE(s, c.split) << cfg();
            }
            if (s == 1) continue;
            const I kc = vk::gemm_split_k(p.K, s, c.bk);
            ASSERT_EQ(kc % c.bk, 0) << cfg();
            ASSERT_LT((s - 1) * kc, p.K) << cfg();  // no split is empty
            ASSERT_GE(s * kc, p.K) << cfg();        // all of K is summed
            ASSERT_LE(static_cast<std::uint64_t>(s) * out_bytes, std::min(vk::kGemmSplitMaxScratch, limit)) << cfg();
          }
      }
}

// A product of a few output tiles with long K runs on a few workgroups unless K is split; a
// product whose tiles fill the device many times over gains nothing from an automatic split
// (whose partial tiles only add traffic).
TEST(GemmPolicy, FewTilesWithLongKAreSplitManyTilesAreNot) {
  int few = 0, many = 0;
  for (const auto& [name, caps] : policy_devices())
    for (DType d : kTypes)
      for (const vk::GemmProblem& p : policy_problems(d)) {
        const vk::GemmConfig t = vk::gemm_default_config(p, caps);
        const I tiles = tiles_of(t, p);
        if (tiles <= 8 && p.K >= 4096 && !vk::gemm_uses_small_kernel(p.M, p.N, p.K, p.B)) {
          ++few;
          EXPECT_GE(vk::gemm_splits(t, p), 2) << what(name, p) << ": " << vk::gemm_config_string(t);
        }
        if (tiles >= 1024) {
          ++many;
          vk::GemmConfig automatic = t;
          automatic.split = 0;
          EXPECT_EQ(vk::gemm_splits(automatic, p), 1) << what(name, p) << ": " << vk::gemm_config_string(t);
        }
      }
  EXPECT_GT(few, 0);
  EXPECT_GT(many, 0);
}

// The wave model (f64 on devices that report an SM count) takes its fastest estimate: the
// estimate of its choice (gemm_fma_seconds) is never above its estimate of the configuration
// the size classes choose (the defaults on the same device without an SM count), nor of the
// defaults' own choice, where the model estimates those. Without an SM count, or for other
// dtypes, it has no estimate.
TEST(GemmPolicy, WaveModelTakesItsFastestEstimate) {
  const std::vector<NamedCaps> devices = policy_devices();
  const vk::DeviceCaps& h200 = devices[0].caps;
  vk::DeviceCaps classes = h200;
  classes.sm_count = 0;
  int applies = 0, compared = 0;
  for (DType d : kTypes)
    for (const vk::GemmProblem& p : policy_problems(d)) {
      const double model = vk::gemm_fma_seconds(p, h200);
      EXPECT_EQ(vk::gemm_fma_seconds(p, classes), 0.0) << what("no SM count", p);
      if (d != DType::F64) {
        EXPECT_EQ(model, 0.0) << what("h200", p);
        continue;
      }
      if (model <= 0) continue;
      ++applies;
      vk::GemmConfig by_class = vk::gemm_default_config(p, classes);
      by_class.split = vk::gemm_splits(by_class, p);
      const vk::GemmConfig chosen = vk::gemm_default_config(p, h200);
      for (const vk::GemmConfig& c : {by_class, chosen}) {
        const double other = vk::gemm_wave_seconds(c, p, h200);
        EXPECT_EQ(vk::gemm_wave_seconds(c, p, classes), 0.0);
        if (other <= 0) continue;
        ++compared;
        EXPECT_LE(model, other * (1 + 1e-12)) << what("h200", p) << ": " << vk::gemm_config_string(c);
      }
    }
  EXPECT_GT(applies, 0);
  EXPECT_GT(compared, 0);
}

// The Ozaki-II time model (ozaki_faster): where it takes the scheme on n moduli it also takes
// it on fewer, uncertified (no certificate's plane and pass), against slower FMA kernels and for
// the cube of twice the extent; every dtype takes it at 8192^3 and not at 128^3 (where the
// scheme's passes over the operands and C outweigh the products). gemm_ozaki_moduli with the
// device's caps (the FMA kernels' estimate, never below their full rate) takes at least what
// it takes without.
TEST(GemmPolicy, OzakiTimeModelIsMonotone) {
  std::vector<vk::GemmProblem> shapes;
  for (I s = 128; s <= 16384; s *= 2) shapes.push_back({DType::F64, s, s, s, 1});
  const I other[][4] = {{990, 2187, 4620, 1}, {7290, 399, 4320, 1}, {256, 256, 256, 1024}, {2160, 3672, 360, 1},
                        {100, 100000, 8192, 1}, {4096, 4096, 600, 4}};
  for (const auto& s : other) shapes.push_back({DType::F64, s[0], s[1], s[2], s[3]});
  for (DType d : kTypes) {
    const int lo = d == DType::F32 || d == DType::C32 ? TFO_MIN_MODULI : 8;
    for (bool certified : {false, true}) {
      if (!certified && d != DType::F64) continue;
      for (vk::GemmProblem p : shapes) {
        p.d = d;
        const auto at = [&](int n, const vk::GemmProblem& q, bool cert, double fma) {
          return vk::ozaki_faster(n, q, cert, fma);
        };
        for (int n = lo; n < TFO_MAX_MODULI; ++n) {
          const auto trace = [&] { return what(certified ? "certified" : "normwise", p) + " n " + std::to_string(n); };
          if (at(n + 1, p, certified, 0)) {
            EXPECT_TRUE(at(n, p, certified, 0)) << trace();
          }
          if (certified && at(n, p, true, 0)) {
            EXPECT_TRUE(at(n, p, false, 0)) << trace();
          }
          double previous = 0;
          for (double fma : {1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0}) {
            if (at(n, p, certified, previous)) {
              EXPECT_TRUE(at(n, p, certified, fma)) << trace() << " fma " << fma;
            }
            previous = fma;
          }
          if (p.M == p.N && p.N == p.K && p.B == 1 && at(n, p, certified, 0)) {
            const vk::GemmProblem twice{d, 2 * p.M, 2 * p.N, 2 * p.K, 1};
            EXPECT_TRUE(at(n, twice, certified, 0)) << trace();
          }
        }
      }
      const int n = lo == 8 ? 14 : lo;  // the default's moduli
      EXPECT_TRUE(vk::ozaki_faster(n, {d, 8192, 8192, 8192, 1}, certified)) << dtype_name(d);
      EXPECT_FALSE(vk::ozaki_faster(n, {d, 128, 128, 128, 1}, certified)) << dtype_name(d);
    }
  }
  vk::DeviceCaps h200 = policy_devices()[0].caps;
  h200.f64_fast = true;
  for (DType d : {DType::F64, DType::C64})
    for (const vk::GemmProblem& p : policy_problems(d))
      if (p.K >= vk::kOzakiCertifiedMinK && p.M * p.N >= I{1} << 20) {
        EXPECT_GE(vk::gemm_ozaki_moduli(p, true, &h200), vk::gemm_ozaki_moduli(p, true)) << what("h200", p);
      }
}

}  // namespace

// Every configuration the defaults choose for an H200 (the wave model's tiles and splits,
// kF64Huge, the NVIDIA rows, the narrow rows, the classes) and for the device under test, over
// the policy tests' grid, forced on a product with boundary tiles and several slices per split:
// the reference result wherever the configuration is valid here.
TEST_F(GemmForcedTest, DefaultConfigurations) {
  const vk::DeviceCaps& here = static_cast<vk::VulkanBackend&>(be()).device().caps();
  std::map<std::pair<DType, std::string>, vk::GemmConfig> configs;
  for (const vk::DeviceCaps& caps : {policy_devices()[0].caps, here})
    for (DType d : kTypes) {
      if (!be().supports(OpId::dot_general, d)) continue;
      for (const vk::GemmProblem& p : policy_problems(d)) {
        const vk::GemmConfig t = vk::gemm_default_config(p, caps);
        if (vk::gemm_config_valid(d, t, here)) configs.emplace(std::pair{d, vk::gemm_config_string(t)}, t);
      }
    }
  EXPECT_GT(configs.size(), 10u);
  std::uint64_t seed = 0;
  for (const auto& [key, t] : configs) {
    Case c = make_case(key.first, 130, 140, 320, 1);
    c.la = seed % 2 ? Lay::row : Lay::col;
    c.lb = seed % 3 == 0 ? Lay::row : Lay::padded;
    c.beta = seed % 2 ? 0.5 : 0.0;
    run_with(key.second, c, ++seed, t.split > 1);
  }
}

}  // namespace tenferro::vktest
