// Vulkan GEMM (Backend::gemm) against a naive host loop in complex<double>: every dtype the
// device supports, operands in any layout (column/row major, padded, negative and zero
// strides, misaligned offsets), batches, conj flags, alpha/beta (beta == 0 never reads C: C
// starts as NaN), K == 0, extents 1/7/129 and the large-tile path. Elements of C's storage
// outside the view must stay untouched. The Forced* tests pin kernel configurations through the
// test hook (vulkan/kernels/gemm/policy.hpp set_gemm_config_override): fast path, warp mappings,
// 8x8 f64, single buffer, split K, tall-skinny tiles. gemm_policy_test.cpp checks the default
// choices' invariants.
#include "gemm_test_fixture.hpp"
#include "vulkan/options.hpp"

namespace tenferro::vktest {
namespace {

TEST_F(GemmGpuTest, ExtentsAndLayouts) {
  const I ext[][4] = {{1, 1, 1, 1}, {7, 7, 7, 1}, {129, 7, 33, 2}, {7, 129, 129, 1}, {33, 65, 17, 3}};
  const Lay lays[] = {Lay::col, Lay::row, Lay::padded, Lay::reversed};
  int i = 0;
  for (DType d : kTypes)
    for (const auto& e : ext) {
      ++i;
      Case c = make_case(d, e[0], e[1], e[2], e[3]);
      c.la = lays[i % 4];
      c.lb = lays[(i + 1) % 4];
      c.lc = lays[(i + 2) % 4];
      run(c, static_cast<std::uint64_t>(i));
    }
}

TEST_F(GemmGpuTest, AllOperandLayoutPairs) {
  const Lay lays[] = {Lay::col, Lay::row, Lay::padded, Lay::reversed, Lay::misaligned};
  for (DType d : {DType::F32, DType::C64})
    for (Lay la : lays)
      for (Lay lb : lays) {
        Case c = make_case(d, 9, 13, 11, 2);
        c.la = la;
        c.lb = lb;
        c.lc = la == Lay::misaligned ? Lay::misaligned : Lay::col;
        run(c);
      }
}

TEST_F(GemmGpuTest, ZeroStrides) {
  for (DType d : kTypes) {
    Case c = make_case(d, 17, 9, 12, 3);
    c.la = Lay::zero_k;
    c.lb = Lay::zero_batch;
    run(c);
    c.la = Lay::zero_batch;
    c.lb = Lay::zero_k;
    run(c);
  }
}

TEST_F(GemmGpuTest, ConjAlphaBeta) {
  for (DType d : kTypes)
    for (int v = 0; v < 4; ++v) {
      Case c = make_case(d, 19, 23, 29, 2);
      c.conj_a = v & 1;
      c.conj_b = v & 2;
      c.alpha = is_complex(d) ? c128(0.5, -1.25) : c128(-1.5, 0);
      c.beta = v == 3 ? c128(0, 0) : (is_complex(d) ? c128(-0.75, 2.0) : c128(2.0, 0));
      c.lc = v == 1 ? Lay::row : Lay::col;
      run(c, 7 + static_cast<std::uint64_t>(v));
    }
}

TEST_F(GemmGpuTest, KZero) {
  for (DType d : kTypes) {
    Case c = make_case(d, 7, 5, 0, 2);
    run(c);  // beta == 0 over NaN: zeros
    c.beta = 2.0;
    run(c);
  }
}

TEST_F(GemmGpuTest, LargeTile) {
  int i = 0;
  for (DType d : kTypes) {
    Case c = make_case(d, 520, 515, 12, 1);  // the large-tile path (both extents >= 512)
    if (i++ % 2) {
      c.la = Lay::row;
      c.lb = Lay::row;
      c.beta = 0.5;
    }
    run(c);
  }
}

TEST_F(GemmGpuTest, SmallBatched) {
  for (DType d : kTypes) {
    Case c = make_case(d, 4, 3, 5, 37);
    c.lb = Lay::row;
    run(c);
  }
}

// The opt-in 3-multiply form of complex products (TENFERRO_VK_GEMM_3M; mode 2 takes every
// complex product with K > 0): split passes over operands in every layout (both plane orders:
// column- and row-major), conj flags, complex alpha / beta over C in several layouts (the
// combine pass), batches, edge tiles.
class Gemm3MTest : public GemmGpuTest {
 protected:
  void SetUp() override {
    GemmGpuTest::SetUp();
    vk::set_gemm_3m_override(2);
    three_m_bound = true;
  }
  void TearDown() override {
    vk::set_gemm_3m_override(std::nullopt);
    GemmGpuTest::TearDown();
  }
};

TEST_F(Gemm3MTest, MatchesReference) {
  const I ext[][4] = {{1, 1, 1, 1}, {7, 5, 3, 2}, {129, 130, 37, 2}, {33, 1, 200, 3}, {1, 65, 9, 1}};
  const Lay lays[] = {Lay::col, Lay::row, Lay::padded, Lay::reversed, Lay::misaligned};
  int i = 0;
  for (DType d : {DType::C32, DType::C64})
    for (const auto& e : ext)
      for (int v = 0; v < 3; ++v) {
        ++i;
        Case c = make_case(d, e[0], e[1], e[2], e[3]);
        EXPECT_TRUE(vk::gemm_takes_3m({d, c.M, c.N, c.K, c.B}));
        c.la = lays[i % 5];
        c.lb = lays[(i + 1) % 5];
        c.lc = lays[(i + 3) % 5];
        c.conj_a = v == 1;
        c.conj_b = v >= 1;
        c.alpha = v == 0 ? c128(1, 0) : c128(0.5, -1.25);
        c.beta = v == 2 ? c128(-0.75, 2.0) : c128(0, 0);
        run(c, static_cast<std::uint64_t>(i));
      }
  Case c = make_case(DType::C32, 17, 9, 12, 3);  // broadcast operands (zero strides)
  c.la = Lay::zero_k;
  c.lb = Lay::zero_batch;
  run(c);
}

// Planes that do not fit the device memory: the 4-multiply form runs instead (no error).
TEST_F(Gemm3MTest, FallsBackWhenPlanesDoNotFit) {
  Case c = make_case(DType::C32, 16, 16, I{1} << 19, 1);  // A's planes alone: 96 MiB
  c.beta = c128(0.5, 0.25);
  be().synchronize();
  const auto s0 = vk::allocator_stats(be());
  before_gemm = [this] {
    be().synchronize();
    vk::set_memory_limits(be(), 0, 0);  // no cached empty blocks (the uploads' staging included)
    // 160 MiB more: one operand's planes (96 MiB) fit, both do not; the 4-multiply form's split-K
    // scratch and the download's staging (a 64 MiB block each at most) do.
    vk::set_memory_limits(be(), vk::allocator_stats(be()).bytes_reserved + (160ull << 20), 0);
  };
  run(c);
  before_gemm = nullptr;
  vk::set_memory_limits(be(), s0.cap, s0.cache_limit);
}

TEST_F(Gemm3MTest, NotTaken) {
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C32, 7, 5, 0, 2}));  // K == 0: C = beta C
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C64, 7, 5, 3, 2, true}));   // chained C
  EXPECT_FALSE(vk::gemm_takes_3m({DType::F32, 7, 5, 3, 2}));
  Case c = make_case(DType::C64, 7, 5, 0, 2);
  c.beta = c128(2.0, -1.0);
  run(c);
  vk::set_gemm_3m_override(1);  // products with M, N, K >= kGemm3MMinExtent only
  const I e = vk::kGemm3MMinExtent;
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C32, e - 1, 2 * e, 2 * e, 1}));
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C64, 2 * e, 2 * e, e - 1, 1}));
  EXPECT_TRUE(vk::gemm_takes_3m({DType::C32, e, e, e, 1}));
  // Planes (3 (MK + KN + MN) B real elements) beyond kGemm3MMaxScratch or the scratch limit.
  const std::uint64_t planes = 3 * 3 * static_cast<std::uint64_t>(e * e) * 4;  // c32: 4-byte parts
  EXPECT_TRUE(vk::gemm_takes_3m({DType::C32, e, e, e, 1, false, planes}));
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C32, e, e, e, 1, false, planes - 1}));
  const I big = I{1} << 16;  // 3 (2 big e + big^2) 4 bytes > kGemm3MMaxScratch
  ASSERT_GT(3.0 * (2.0 * double(big) * double(e) + double(big) * double(big)) * 4.0, double(vk::kGemm3MMaxScratch));
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C32, big, big, e, 1}));
}


TEST_F(GemmForcedTest, FastPath) {
  // Interior tiles with full slices take the unguarded loads; edge tiles and the last partial
  // slice the guarded ones. Vector loads (col), along k (row), strided elements (padded,
  // misaligned) and negative strides (reversed).
  run_layouts({{Lay::col, Lay::col, Lay::col},
               {Lay::row, Lay::row, Lay::row},
               {Lay::padded, Lay::misaligned, Lay::misaligned},
               {Lay::reversed, Lay::reversed, Lay::padded}},
              [](int) { return "64,64,16,4,4,f,1"; });
  Case c = make_case(DType::F32, 128, 64, 64, 1);  // interior tiles only, full slices only
  run_with("64,64,16,4,4,f,1", c);
  c = make_case(DType::C64, 33, 40, 19, 2);
  c.conj_a = true;
  c.lb = Lay::row;
  run_with("32,32,4,4,4,f,1", c);
}

TEST_F(GemmForcedTest, WarpMaps) {
  for (const char* cfg : {"64,64,16,4,4,wf,1", "64,64,16,4,4,tf,1", "64,64,16,4,4,w,1"}) {
    Case c = make_case(DType::F32, 129, 70, 33, 1);
    c.lb = Lay::row;
    run_with(cfg, c);
  }
  Case c = c32_scaled_case(65, 65, 17, 2);
  run_with("64,64,8,4,4,tf,1", c);
}

// y (TFG_SCHED_PAIR): the warp maps with paired lanes (bit 0 along n, bit 1 along m), 8 x 4 and
// 4 x 8 blocks; every dtype, interior and boundary tiles, with u / l and a single buffer.
TEST_F(GemmForcedTest, PairedWarpMaps) {
  for (const char* cfg : {"64,64,16,4,4,wfy,1", "64,64,16,4,4,tfy,1", "64,64,16,4,4,wy,1"}) {
    Case c = make_case(DType::F32, 129, 70, 33, 1);
    c.lb = Lay::row;
    run_with(cfg, c);
  }
  Case c = make_case(DType::F64, 140, 270, 93, 1);
  c.beta = 0.25;
  run_with("64,128,16,8,8,wfsuy,1", c);
  c.la = Lay::row;
  run_with("64,128,16,8,8,tfsuly,1", c, 2);
  c = c32_scaled_case(65, 65, 17, 2);
  run_with("64,64,8,4,4,tfy,1", c);
  c = make_case(DType::C64, 70, 66, 41, 2);
  c.conj_a = true;
  run_with("32,64,8,4,8,wfuy,1", c);
}

TEST_F(GemmForcedTest, EightByEightF64) {
  Case c = make_case(DType::F64, 129, 131, 41, 1);
  c.la = Lay::row;
  c.lc = Lay::padded;
  run_with("64,64,8,8,8,wf,1", c);
  c = make_case(DType::F64, 7, 129, 20, 2);
  c.la = Lay::reversed;
  c.beta = -1.0;
  run_with("128,128,8,8,8,wfs,1", c);
}

TEST_F(GemmForcedTest, SingleBuffer) {
  Case c = make_case(DType::F32, 70, 65, 50, 1);
  c.lb = Lay::misaligned;
  run_with("64,64,16,4,4,s,1", c);
  c = make_case(DType::C64, 20, 9, 21, 3);
  c.la = Lay::row;
  c.conj_a = true;
  run_with("32,32,8,4,4,fs,1", c);
}

TEST_F(GemmForcedTest, SplitK) {
  int i = 0;
  for (DType d : kTypes) {
    Case c = make_case(d, 7, 9, 520, 3);  // 33 slices of 16 into 4 splits
    c.la = i % 2 ? Lay::row : Lay::reversed;
    c.lb = i % 2 ? Lay::padded : Lay::col;
    c.lc = i % 2 ? Lay::row : Lay::col;
    c.conj_a = true;
    c.alpha = is_complex(d) ? c128(0.5, -1.25) : c128(-1.5, 0);
    c.beta = i % 2 ? (is_complex(d) ? c128(-0.75, 2.0) : c128(2.0, 0)) : c128(0, 0);
    run_with(is_complex(d) ? "32,32,8,4,4,-,4" : "32,32,16,4,4,-,4", c, static_cast<std::uint64_t>(++i), true);
  }
  Case c = make_case(DType::F32, 33, 5, 20, 1);  // 2 slices: the second split is short
  c.lb = Lay::zero_k;
  run_with("32,32,16,4,4,f,8", c, 5, true);
  c = make_case(DType::F64, 5, 6, 0, 2);  // K == 0: no split, C = beta * C
  c.beta = 2.0;
  run_with("32,32,16,4,4,-,4", c);
}

// TFG_OPT_REGDB (r): double-buffered register fragments, every dtype, edge tiles and partial
// slices, with and without the fast path and warp maps; 256-thread f64 tiles of 4 x 8 / 8 x 4.
TEST_F(GemmForcedTest, RegisterDoubleBuffer) {
  run_layouts({{Lay::col, Lay::col, Lay::col}, {Lay::row, Lay::row, Lay::padded}, {Lay::reversed, Lay::misaligned, Lay::col}},
              [](int i) { return i == 1 ? "64,64,16,4,4,r,1" : "64,64,16,4,4,fr,1"; });
  Case c = make_case(DType::F64, 129, 131, 41, 1);
  c.la = Lay::row;
  run_with("64,64,8,8,8,wfr,1", c);
  c = make_case(DType::F64, 130, 129, 40, 2);
  c.lb = Lay::row;
  c.beta = -1.0;
  run_with("128,64,8,4,8,wfr,1", c);
  run_with("64,128,16,8,4,tfsr,1", c, 2);
  c = c32_scaled_case(65, 65, 17, 2);
  run_with("64,64,8,4,4,tfr,1", c);
  c = make_case(DType::C64, 33, 40, 19, 2);
  c.conj_a = true;
  c.lb = Lay::row;
  run_with("32,32,4,4,4,fr,1", c);
  run_with("64,32,8,4,4,wfr,1", c, 3);
}

// Rolled slice loops (n / p / q: 1 / 2 / 4 k steps per iteration, specialization constant 2):
// every dtype with edge tiles and partial slices, fast path, warp maps and split K; the f64
// default of long-K products (128,64,8,4,8,fq) with strided, reversed and misaligned operands.
TEST_F(GemmForcedTest, RolledSliceLoop) {
  run_layouts({{Lay::col, Lay::col, Lay::col}, {Lay::row, Lay::row, Lay::padded}, {Lay::reversed, Lay::misaligned, Lay::col}},
              [](int i) { return i == 0 ? "64,64,16,4,4,fn,1" : i == 1 ? "64,64,16,4,4,p,1" : "64,64,16,4,4,wfq,1"; });
  Case c = make_case(DType::F64, 130, 129, 41, 2);
  c.la = Lay::row;
  c.lb = Lay::reversed;
  c.beta = -1.0;
  run_with("128,64,8,4,8,fq", c);
  c.lb = Lay::misaligned;
  run_with("128,64,8,4,8,fq,3", c, 2, true);  // split K with a rolled loop
  c = make_case(DType::C64, 33, 40, 19, 2);
  c.conj_a = true;
  c.lb = Lay::row;
  run_with("32,32,4,4,4,fq,1", c);
  c = c32_scaled_case(65, 65, 17, 1);
  run_with("64,64,8,4,4,tfp,1", c);
}

// cfg (text form) with `extra` appended to its option letters.
static std::string opts_plus(const char* cfg, const std::string& extra) {
  std::string s(cfg);
  std::size_t at = 0;
  for (int i = 0; i < 5; ++i) at = s.find(',', at) + 1;  // the options start after the 5th comma
  at = s.find(',', at);                                   // and end at the split's comma, if any
  s.insert(at == std::string::npos ? s.size() : at, extra);
  return s;
}

}  // namespace

// u (TFG_SCHED_INTERIOR): interior tiles run their full slices in a branch-free loop, the last
// (partial) slice and the boundary tiles in the checked loop. Shapes with interior and boundary
// tiles, several full slices and a K tail; every dtype; with a single buffer, a rolled loop, warp
// maps and split K; strided, reversed and misaligned operands (element loads). `x` is appended
// to every configuration's option letters (LeanInteriorLoop: "l").
void GemmForcedTest::interior_cases(const std::string& x) {
  run_layouts({{Lay::col, Lay::col, Lay::col}, {Lay::row, Lay::row, Lay::padded}, {Lay::reversed, Lay::misaligned, Lay::col}},
              [&](int i) { return opts_plus(i == 0 ? "64,64,16,4,4,fu,1" : i == 1 ? "32,32,8,4,4,fsu,1" : "64,64,16,4,4,wfqu,1", x); });
  Case c = make_case(DType::F64, 260, 131, 75, 2);  // 2 x 2 interior tiles of 128 x 64; 9 full slices of 8, tail 3
  c.la = Lay::row;
  c.beta = -1.0;
  run_with(opts_plus("128,64,8,4,8,fu", x), c);
  c.lb = Lay::misaligned;
  run_with(opts_plus("128,64,8,4,8,fqu,3", x), c, 2, true);  // split K: each split's own full slices
  c = make_case(DType::C64, 70, 66, 41, 2);
  c.conj_a = true;
  c.lb = Lay::row;
  run_with(opts_plus("32,32,4,4,4,fu,1", x), c);
  c = c32_scaled_case(140, 135, 50, 1);
  run_with(opts_plus("64,64,8,4,4,wfu,1", x), c);
  c = make_case(DType::F32, 300, 260, 200, 1);
  run_with(opts_plus("128,64,16,8,4,fu,1", x), c);
  // cfg on c with column-major operands, then with a row-major A and B in layout lb.
  const auto two_layouts = [&](const char* cfg, Case c2, double beta, Lay lb) {
    c2.beta = beta;
    run_with(opts_plus(cfg, x), c2);
    c2.la = Lay::row;
    c2.lb = lb;
    run_with(opts_plus(cfg, x), c2, 2);
  };
  // The f32 huge tile (128 x 256, 8 x 16 per thread, BK 8, single buffer): 2 x 2 interior tiles,
  // boundary tiles in m and n, a K tail of 5.
  two_layouts("128,256,8,8,16,fsu,1", make_case(DType::F32, 300, 600, 45, 1), 0.5, Lay::reversed);
  // f64 64 x 128 8 x 8 (the large f64 tile): interior tiles with 5 full slices and a tail.
  two_layouts("64,128,16,8,8,fsu,1", make_case(DType::F64, 140, 270, 93, 1), 0.25, Lay::row);
  // NVIDIA's f32 and c32 tiles of 128 threads (kF32Deep: 16 x 8 per thread; kC32Deep: 8 x 8 with
  // the paired warp map): 2 x 2 interior tiles, boundary tiles, K tails of 5 and 2.
  two_layouts("128,128,8,16,8,fsxu,1", make_case(DType::F32, 300, 290, 45, 1), 0.5, Lay::reversed);
  two_layouts("64,128,8,8,8,wfsuy,1", c32_scaled_case(140, 270, 50, 1), 0.25, Lay::row);
}

namespace {

TEST_F(GemmForcedTest, InteriorLoop) { interior_cases(""); }

// l (TFG_SCHED_LEAN): the interior loop addresses every load slot from one pointer per operand
// (uniform slot steps); the checked loop then continues from slots set up at the next slice.
// The cases above, and a tile whose 32 threads are fewer than A's 64 words per row (the shader
// keeps the per-slot pointers there).
TEST_F(GemmForcedTest, LeanInteriorLoop) {
  interior_cases("l");
  Case c = make_case(DType::F64, 300, 40, 70, 1);
  c.beta = 0.5;
  run_with("128,16,8,8,8,ful,1", c);
}

// TFG_OPT_GROUP (g): tile order in groups of 8 tile rows; tile rows not a multiple of 8 (short
// last group), several batches; with r and x too (this test also runs under validation).
TEST_F(GemmForcedTest, TileGroups) {
  Case c = make_case(DType::F32, 150, 70, 20, 2);  // 10 x 5 tiles of 16: groups of 8 and 2 rows
  c.lb = Lay::row;
  run_with("16,16,16,4,4,g,1", c);
  c = make_case(DType::F32, 300, 90, 33, 1);  // 19 x 6 tiles
  run_with("16,16,16,4,4,fgr,1", c, 2);
  c = make_case(DType::F64, 20, 150, 9, 3);  // 2 x 10 tiles: one short group
  c.la = Lay::reversed;
  c.beta = 0.5;
  run_with("16,16,8,2,2,gx,1", c);
  c = make_case(DType::C64, 140, 33, 10, 1);  // 9 x 2 tiles of 16
  c.conj_b = true;
  run_with("16,16,4,2,2,grx,1", c);
}

// TFG_SCHED_STAGE: C's tile leaves through shared memory, consecutive invocations storing
// consecutive elements along m (along n where n has the smaller stride: STAGE_N). Every dtype;
// C with odd columns (unaligned for 16-byte stores), n at unit stride, padded, reversed,
// misaligned and chained (two chains of m); beta 0 (C starts as NaN and is never read) and not,
// edge tiles in m and n, two batches. The staged dispatch count proves the staged pipeline ran.
TEST_F(GemmForcedTest, StagedStores) {
  vk::set_gemm_stage_override(true);
  const Lay lays[] = {Lay::col, Lay::row, Lay::padded, Lay::reversed, Lay::misaligned, Lay::col};
  int i = 0;
  for (DType d : kTypes) {
    for (Lay lc : lays) {
      Case c = make_case(d, 45, 37, 19, 2);
      c.lc = lc;
      c.c_chain = i % 6 == 5 ? 9 : 0;
      c.la = lays[(i + 1) % 5];
      c.lb = lays[(i + 3) % 5];
      c.beta = i % 2 ? 0.5 : 0.0;
      c.conj_b = is_complex(d) && i % 3 == 0;
      const char* cfg = nullptr;
      switch (d) {
        case DType::F32: cfg = i % 2 ? "32,64,16,4,8,wf,1" : "32,32,16,4,4,-,1"; break;
        case DType::F64: cfg = i % 2 ? "32,64,8,4,8,wfy,1" : "32,32,8,4,4,s,1"; break;
        case DType::C32: cfg = i % 2 ? "32,32,8,4,4,f,1" : "16,32,8,2,4,-,1"; break;
        default: cfg = i % 2 ? "32,32,4,4,4,w,1" : "16,16,4,2,2,-,1"; break;
      }
      const std::uint64_t before = vk::gemm_staged_dispatches();
      run_with(cfg, c, static_cast<std::uint64_t>(++i));
      EXPECT_EQ(vk::gemm_staged_dispatches(), before + 1) << cfg;
    }
  }
  vk::set_gemm_stage_override(std::nullopt);
}

// TFG_OPT_NOPAD (x): unpadded shared rows; the transposing stores (A along k: row-major A; B
// along k: column-major B) use the XOR swizzle. Every dtype, BK from 4 to 32 (swizzle steps
// 8 to 1), with single buffer, warp maps and register double buffering.
TEST_F(GemmForcedTest, NoPadSwizzle) {
  const Lay lays[][2] = {{Lay::row, Lay::col}, {Lay::col, Lay::row}};  // both transposing / neither
  int i = 0;
  for (DType d : kTypes) {
    for (const auto& l : lays) {
      Case c = make_case(d, 70, 67, 45, 2);
      c.la = l[0];
      c.lb = l[1];
      c.beta = i % 2 ? 0.5 : 0.0;
      c.conj_a = is_complex(d) && i % 2;
      const char* cfg = nullptr;
      switch (d) {
        case DType::F32: cfg = i % 2 ? "64,64,16,4,4,wfx,1" : "32,32,32,4,4,x,1"; break;
        case DType::F64: cfg = i % 2 ? "64,64,8,4,4,frx,1" : "64,64,16,8,8,wfsx,1"; break;
        case DType::C32: cfg = i % 2 ? "64,64,16,4,4,tfx,1" : "32,32,8,2,2,rx,1"; break;
        default: cfg = i % 2 ? "32,32,8,4,4,frx,1" : "32,32,4,2,2,x,1"; break;
      }
      run_with(cfg, c, static_cast<std::uint64_t>(++i));
    }
  }
  Case c = make_case(DType::F32, 129, 130, 37, 1);  // all options at once, strided operands
  c.la = Lay::row;
  c.lb = Lay::reversed;
  c.lc = Lay::padded;
  run_with("64,64,16,4,4,tfrgx,1", c);
}

TEST_F(GemmGpuTest, AutoSplitK) {
  // Few output tiles and a long K: the automatic split (default configuration).
  for (DType d : {DType::F32, DType::C64}) {
    Case c = make_case(d, 5, 3, 4100, 1);
    c.beta = 0.5;
    run(c);
  }
}

TEST_F(GemmGpuTest, AutoSplitShortK) {
  // A narrow product with few tiles and 128 <= K < 512 (a step of
  // str_matrix_chain_multiplication_100), on the default configuration (which may split K).
  for (DType d : {DType::F64, DType::C32}) {
    Case c = make_case(d, 200, 21, 300, 1);
    c.beta = -1.5;
    c.lb = Lay::row;
    run(c);
  }
}

// Products of the mid ladder (large, under a wave of the large tiles), the few class (both
// extents 128..256, or one <= 16), short K (<= 16), medium products of few tiles and the small
// class with longer K, on the default configurations of this device.
TEST_F(GemmGpuTest, DefaultsAcrossClasses) {
  const I shapes[][3] = {{1000, 1030, 33}, {520, 530, 70},  {250, 200, 70},   {250, 100, 70}, {300, 530, 11},
                         {600, 20, 16},    {144, 1100, 121}, {100, 3000, 200}, {144, 1100, 600}, {12, 144, 144},
                         {12, 12, 144},    {20, 20, 300}};
  for (const auto& e : shapes)
    for (DType d : {DType::F32, DType::F64}) {
      if (d == DType::F32 && e[0] < 500) continue;
      Case c = make_case(d, e[0], e[1], e[2], 1);
      c.beta = 0.25;
      c.la = Lay::row;
      run(c);
    }
}

// Every configuration the wave model (and kF64Huge) can choose (f64 tiles, 1-4 splits) runs
// correctly here too, whatever device runs the tests (the model itself needs an SM count: NVIDIA only).
TEST_F(GemmForcedTest, WaveModelCandidates) {
  int i = 0;
  for (const char* cfg : {"64,128,16,8,8,fs,1", "64,128,16,8,8,fs,3", "64,128,16,8,8,fsu,1", "64,128,16,8,8,fsu,3",
                          "64,64,8,4,4,wf,1", "64,64,8,4,4,wfuy,1", "64,32,16,4,4,fu,1", "128,64,8,4,8,fu,1",
                          "128,64,8,4,8,fu,4",
                          "128,64,16,8,8,fsu,1", "128,64,16,8,8,fsu,5",
                          "128,128,8,8,8,fsul,1"}) {  // the last: kF64Huge, ahead of the model
    Case c = make_case(DType::F64, 130, 140, 320, 1);
    c.la = i % 2 ? Lay::row : Lay::col;
    c.lb = i % 3 == 0 ? Lay::row : Lay::padded;
    c.beta = i % 2 ? 0.5 : 0.0;
    const auto g = vk::parse_gemm_config(cfg);
    run_with(cfg, c, static_cast<std::uint64_t>(++i), g && g->split > 1);
  }
}

TEST_F(GemmForcedTest, TallSkinny) {
  Case c = make_case(DType::F32, 520, 7, 33, 2);
  c.lb = Lay::row;
  run_with("256,32,8,8,4,w,1", c);
  c = make_case(DType::F64, 7, 300, 29, 1);
  c.la = Lay::row;
  c.lc = Lay::row;
  run_with("32,256,8,4,8,s,1", c);
  c = make_case(DType::C64, 129, 1, 16, 1);
  run_with("128,32,8,4,4,fs,1", c);
  // The f64 narrow rows (wide products with M <= 16, tall ones with N <= 16; gemm/policy.cpp).
  c = make_case(DType::F64, 11, 300, 29, 1);
  c.la = Lay::row;
  c.beta = 0.5;
  run_with("16,64,8,2,4,wy,1", c, 2);
  c = make_case(DType::F64, 300, 13, 70, 2);
  c.lb = Lay::row;
  c.lc = Lay::row;
  run_with("64,16,8,4,2,-,1", c, 3);
  run_with("128,16,8,8,2,-,1", c, 4);
  c = make_case(DType::F64, 13, 300, 600, 1);
  c.lb = Lay::row;
  run_with("16,64,16,2,4,wy,1", c, 5);
  c = make_case(DType::F64, 30, 300, 290, 1);
  c.la = Lay::row;
  c.beta = 0.25;
  run_with("32,128,8,4,8,-,1", c, 6);  // kWideMidF64 with BK 8: BK 16 needs more than lavapipe's 32 KiB
  // The other dtypes' narrow rows (c64's at BK 8 and 4: lavapipe's 32 KiB).
  std::uint64_t seed = 7;
  for (const auto& [d, wide, tall] : {std::tuple{DType::F32, "16,128,8,4,8,-,1", "128,16,8,8,4,-,1"},
                                      std::tuple{DType::C32, "16,64,8,2,4,-,1", "128,16,8,8,2,-,1"},
                                      std::tuple{DType::C64, "16,64,8,2,4,-,1", "128,16,4,8,2,-,1"}}) {
    c = make_case(d, 12, 290, 70, 1);
    c.la = Lay::row;
    c.beta = 0.5;
    run_with(wide, c, seed++);
    c = make_case(d, 290, 9, 40, 2);
    c.lb = Lay::row;
    c.lc = Lay::row;
    run_with(tall, c, seed++);
  }
}

// gemm_small.comp (one invocation per output) and the tiled kernel on both sides of the
// small_product threshold (M*N <= 256 with K <= 64, or min(M, N) <= 8 with K <= 256).
TEST_F(GemmGpuTest, SmallProductKernel) {
  int i = 0;
  for (DType d : kTypes) {
    Case hadamard = make_case(d, 1, 1, 1, 3001);  // elementwise product of batches
    hadamard.la = Lay::row;
    run(hadamard);
    Case outer = make_case(d, 33, 2, 1, 3);  // outer products
    outer.lc = i % 2 ? Lay::reversed : Lay::padded;
    outer.beta = 0.25;
    run(outer);
    Case tiny = make_case(d, 16, 16, 9, 41);  // batches of 16 x 16 (M*N == 256)
    tiny.lb = Lay::misaligned;
    tiny.conj_a = tiny.conj_b = is_complex(d);
    run(tiny);
    run(make_case(d, 17, 16, 9, 3));  // just above the threshold: the tiled kernel
    run(make_case(d, 12, 12, 64, 5));   // batched 12 x 12, K at the limit
    Case longer = make_case(d, 12, 12, 65, 5);  // K above it: the tiled kernel (small tiles)
    longer.la = Lay::row;
    run(longer);
    run(make_case(d, 129, 1, 256, 2));  // matrix-vector, K at the limit
    run(make_case(d, 129, 1, 257, 2));  // K above it: the tiled kernel
    run(make_case(d, 300, 8, 20, 1));   // tall-skinny, N at the limit
    run(make_case(d, 9, 300, 20, 1));   // M just above it: the tiled kernel
    ++i;
  }
}

TEST_F(GemmGpuTest, ShortColumns) {
  // Many short columns with short K (an einsum step of gm_queen5_5_3), on the default kernel
  // (gemm_small with four outputs per invocation along m where gemm_short_columns takes it; M =
  // 27 then leaves a partial group of three).
  for (DType d : {DType::F64, DType::C32}) {
    Case c = make_case(d, 27, 729, 3, 64);
    c.lb = Lay::row;
    c.beta = 0.5;
    run(c);
  }
}

// A chained C's 64-bit index arithmetic (TFG_SCHED_CHAINS_WIDE, TFG_SMALL_CHAINS_WIDE), taken
// by groups of 2^31 elements or more, forced on small products through the test hook
// (TestHooks::gemm_chains_wide): C through two chains of m (padded or not), every dtype, beta 0
// (C starts as NaN) and not; the tiled kernel's stores, split K's reduction pass, gemm_small
// with one and with four outputs per invocation.
TEST_F(GemmForcedTest, WideChainIndexArithmetic) {
  struct Hook {
    Hook() { vk::test_hooks().gemm_chains_wide = true; }
    ~Hook() { vk::test_hooks().gemm_chains_wide = false; }
  } hook;
  std::uint64_t seed = 0;
  for (DType d : kTypes)
    for (int v = 0; v < 2; ++v) {
      Case c = make_case(d, 45, 37, 19, 2);  // the tiled kernel on the defaults
      c.c_chain = 9;
      c.lc = v ? Lay::padded : Lay::col;
      c.la = v ? Lay::row : Lay::col;
      c.conj_b = v && is_complex(d);
      c.beta = v ? 0.5 : 0.0;
      run(c, ++seed);
      c = make_case(d, 12, 10, 600, 2);  // split K: the chained C in the reduction pass
      c.c_chain = 4;
      c.lc = v ? Lay::padded : Lay::col;
      c.beta = v ? -1.5 : 0.0;
      run_with(is_complex(d) ? "32,32,8,4,4,-,4" : "32,32,16,4,4,-,4", c, ++seed, true);
      c = make_case(d, 8, 6, 5, 3);  // gemm_small on the defaults (a tiny product)
      c.c_chain = 4;
      c.beta = v ? 0.25 : 0.0;
      run(c, ++seed);
      c = make_case(d, 30, 9, 20, 2);  // gemm_small forced: four outputs per invocation
      c.c_chain = 3;
      c.lc = v ? Lay::padded : Lay::col;
      c.beta = v ? 0.5 : 0.0;
      run_with("small", c, ++seed);
    }
}

TEST_F(GemmForcedTest, SmallKernelForced) {
  // "small" forces gemm_small.comp on products the default sends to tiles, with strided
  // operands, conjugation and beta.
  for (DType d : kTypes) {
    Case c = make_case(d, 100, 90, 12, 2);
    c.la = Lay::row;
    c.lc = Lay::padded;
    c.conj_b = is_complex(d);
    c.beta = -0.5;
    run_with("small", c);
    run_with("small", make_case(d, 70, 33, 40, 1));
  }
}

}  // namespace
}  // namespace tenferro::vktest
