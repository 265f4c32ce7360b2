// Vulkan GEMM (Backend::gemm) against a naive host loop in complex<double>: every dtype the
// device supports, operands in any layout (column/row major, padded, negative and zero
// strides, misaligned offsets), batches, conj flags, alpha/beta (beta == 0 never reads C: C
// starts as NaN), K == 0, extents 1/7/129 and the large-tile path. Elements of C's storage
// outside the view must stay untouched. The Forced* tests pin kernel configurations through the
// internal hook (vulkan/kernels/gemm/policy.hpp): fast path, warp mappings, 8x8 f64, single
// buffer, split K, tall-skinny tiles.
#include "gemm_test_fixture.hpp"

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
  vk::set_gemm_3m_override(1);  // large products only
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C32, 2047, 4096, 4096, 1}));
  EXPECT_TRUE(vk::gemm_takes_3m({DType::C32, 2048, 2048, 2048, 1}));
  EXPECT_FALSE(vk::gemm_takes_3m({DType::C32, 1 << 16, 1 << 16, 1024, 1}));  // planes > 4 GiB
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
  // A narrow product with few tiles and 128 <= K < 512 (an einsum matrix-chain step): the
  // default configuration splits K; checked for the dtypes with the rule's shapes.
  for (DType d : {DType::F64, DType::C32}) {
    Case c = make_case(d, 200, 21, 300, 1);
    const vk::GemmConfig g = vk::gemm_default_config_on(be(), {d, c.M, c.N, c.K, c.B});
    EXPECT_GT(vk::gemm_splits(g, {d, c.M, c.N, c.K, c.B}), 1) << dtype_name(d);
    c.beta = -1.5;
    c.lb = Lay::row;
    run(c);
  }
}

TEST_F(GemmGpuTest, MidLadder) {
  // Default configurations of the mid ladder (the first rung with about a wave of tiles): the
  // chosen tile, then the result.
  struct Row {
    DType d;
    I M, N, K;
    const char* cfg;
  };
  for (const Row& r : {Row{DType::F32, 1000, 1030, 33, "64,128,16,4,8,wf,0"},
                       Row{DType::F32, 520, 530, 70, "64,32,16,4,4,f,0"},
                       Row{DType::F64, 520, 530, 70, "64,32,16,4,4,fu,0"},
                       // f64 few (both extents 128..256) under a wave of 32 x 32 tiles: 16 x 16.
                       Row{DType::F64, 250, 200, 70, "16,16,16,2,2,-,0"},
                       Row{DType::F64, 250, 100, 70, "32,32,16,4,4,-,0"},
                       // f64 short K (<= 16): 32 x 32 tiles of BK 4 in every class but small.
                       Row{DType::F64, 300, 530, 11, "32,32,4,4,4,-,0"},
                       Row{DType::F64, 600, 20, 16, "32,32,4,4,4,-,0"},
                       // f64 medium, 33..63 tiles of 64 x 64, K < 512: 64 x 32 tiles.
                       Row{DType::F64, 144, 1100, 121, "64,32,16,4,4,f,0"},
                       Row{DType::F64, 100, 3000, 200, "64,64,16,4,4,-,0"},  // 94 tiles
                       Row{DType::F64, 144, 1100, 600, "64,64,16,4,4,-,0"},  // K >= 512: split
                       // f64 few with an extent <= 16: 16 x 16 tiles; f64 small: BK 8 up to 16 x 16,
                       // then 32 x 32 tiles.
                       Row{DType::F64, 12, 144, 144, "16,16,16,2,2,-,0"},
                       Row{DType::F64, 12, 12, 144, "16,16,8,2,2,-,0"},
                       Row{DType::F64, 20, 20, 300, "32,32,16,4,4,-,0"}}) {
    // (A device with less shared memory than the tile needs gets it shrunk; NVIDIA devices get
    // f64 tiles with the paired warp map.)
    const vk::GemmConfig want = *vk::parse_gemm_config(r.cfg);
    if (vk::gemm_config_valid_on(be(), r.d, want)) {
      EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config_on(be(), {r.d, r.M, r.N, r.K, 1})),
                vk::gemm_config_string(vk::gemm_paired_on(be(), r.d, want)));
    }
    Case c = make_case(r.d, r.M, r.N, r.K, 1);
    c.beta = 0.25;
    c.la = Lay::row;
    run(c);
  }
}

// The wave model (gemm.cpp): f64 products of at least a wave of large tiles on a device that
// reports its SM count (here an H200's caps, whatever device runs the test). The expected
// choices are the measured best of the sixth session's H200 run (bench/RESULTS.md); without an
// SM count (lavapipe, other vendors) the size classes decide as before.
TEST(GemmWaveModel, ChoosesTileAndSplitsByWaves) {
  vk::DeviceCaps h200;
  h200.sm_count = 132;
  h200.max_shared_memory = 48 * 1024;
  h200.max_group_size_x = 1024;
  h200.max_group_count_x = 1u << 31;
  h200.f64 = true;
  struct Row {
    I M, N, K;
    const char* cfg;
  };
  // Expected = measured best on the H200 (seventh session, sweeps in two orders; ms), except
  // where a comment says otherwise; f64 tiles other than 8 x 8 without u then take the paired
  // warp map (w + y, `paired` in gemm.cpp; ninth session).
  // 128 x 64 8 x 8 in 5 splits (tenth session): 1.13-1.17 vs 1.16-1.17 on 64 x 128 in 4, and
  // 1.48-1.53 vs 1.64 on 128 x 64 4 x 8 in 4.
  for (const Row& r : {Row{990, 2187, 4620, "128,64,16,8,8,wfsuy,5"},
                       Row{7290, 399, 4320, "128,64,16,8,8,wfsuy,5"},
                       // kF64Huge (ninth session): 22.3-22.5 TFLOP/s vs 20.8-20.9 on 64 x 128 fsu
                       Row{4096, 4096, 4096, "128,128,8,8,8,wfsuly,0"},
                       Row{2048, 2048, 2048, "128,128,8,8,8,wfsuly,0"},  // 21.1-21.7 vs 19.3-19.9
                       Row{2048, 2048, 512, "128,128,8,8,8,wfsuly,0"},   // tenth session: 0.216-0.219 vs 0.233-0.237
                       Row{2048, 2048, 200, "64,128,16,8,8,wfsuy,1"},    // K < 256: the model
                       Row{1920, 2048, 2048, "64,128,16,8,8,wfsuy,1"},   // 240 tiles of 128 x 128
                       // 16 < K <= 256 with at most 32M outputs: 64 x 64 4 x 4 with u (kF64WaveShort;
                       // nineteenth session: 0.585-0.594 vs 0.618-0.622 on 64 x 128 fs, 0.742 on fsu)
                       Row{540, 58320, 136, "64,64,8,4,4,wfuy,1"},
                       // kF64Huge from K = 256 (tenth session): 0.340 vs 0.380 on the model's
                       // 64 x 128 fs (0.349-0.350 with u; the model's rule: no u at short K with
                       // boundary tiles, from 540 x 58320 x 136 and 399 x 4320 x 594)
                       Row{2160, 3672, 360, "128,128,8,8,8,wfsuly,0"},
                       Row{243, 6561, 729, "64,128,16,8,8,fs,1"},    // K <= 729: not the 128 x 64 tile
                       Row{399, 4320, 594, "64,128,16,8,8,fs,1"},    // 0.187; with u 0.201
                       // 43M outputs: 0.475-0.481; 0.491-0.494 on 64 x 64 wfuy (nineteenth session)
                       Row{177147, 243, 50, "64,128,16,8,8,fs,1"},
                       // 64 x 64 4 x 4 (tenth session: 0.0386 vs 0.049 on 64 x 128), with u
                       // (nineteenth: 0.037 vs 0.038-0.039; 1728 x 1100 x 144 0.044-0.045 vs 0.048;
                       // 39600 x 252 x 56 0.094-0.097 vs 0.112-0.113 on 64 x 128; 594 x 4320 x 207
                       // 0.086-0.087 vs 0.098-0.100)
                       Row{13200, 252, 56, "64,64,8,4,4,wfuy,1"},
                       Row{1728, 1100, 144, "64,64,8,4,4,wfuy,1"},
                       Row{39600, 252, 56, "64,64,8,4,4,wfuy,1"},
                       Row{810, 12474, 154, "64,64,8,4,4,wfuy,1"},  // 0.224-0.228 vs 0.238-0.244 on fs
                       Row{594, 4320, 207, "64,64,8,4,4,wfuy,1"},
                       // The model's 64 x 64 tile with u up to K = 512 (nineteenth session: 0.079-0.080
                       // vs 0.084)
                       Row{924, 1215, 360, "64,64,8,4,4,wfuy,1"},
                       Row{9720, 136, 441, "64,32,16,4,4,wfuy,1"},     // 0.131; 0.154 on 64 x 64 wf
                       // The narrow rows (twenty-first session; gemm.cpp): wide products with
                       // M <= 16 (11 x 415800 x 24 0.071 ms vs 0.262 on the wide row's 64 x 64; BK
                       // 16 above K = 512: 16 x 8192 x 2048 0.149 vs 0.204), with M <= 32 and K >
                       // 256 (32 x 100000 x 1024 0.46 vs 1.89 on kF64Huge, 1.20 on 64 x 64), tall
                       // ones with N <= 16 (415800 x 11 x 24 0.067 vs 0.083 on 128 x 32; 415800 x
                       // 11 x 300 0.55 vs 2.21 on kF64Huge); M = 17 with K <= 256 keeps the wide row.
                       Row{11, 415800, 24, "16,64,8,2,4,wy,0"},
                       Row{11, 415800, 300, "16,64,8,2,4,wy,0"},
                       Row{16, 8192, 2048, "16,64,16,2,4,wy,0"},
                       Row{32, 100000, 1024, "32,128,16,4,8,-,0"},
                       Row{415800, 11, 24, "64,16,8,4,2,-,0"},
                       Row{415800, 11, 300, "128,16,8,8,2,-,0"},
                       Row{17, 415800, 24, "64,64,16,4,4,wy,0"}})
    EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, r.M, r.N, r.K, 1}, h200)), r.cfg)
        << r.M << " x " << r.N << " x " << r.K;
  // Under a wave of large tiles (f64 1024^3: 128 tiles) and without an SM count: the classes.
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 1024, 1024, 1024, 1}, h200)),
            "128,64,8,4,8,wfuy,0");  // 0.132-0.135 ms; 0.141 on 64 x 128 fsu
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 512, 512, 512, 1}, h200)),
            "64,32,16,4,4,wfuy,0");  // the mid ladder's 128-tile rung: 0.041 ms single call vs 0.051 without u
  // Every tile interior: the interior loop also at short K (1024 x 256^3: 1.81 ms vs 1.98).
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 256, 256, 256, 1024}, h200)),
            "64,128,16,8,8,wfsuy,1");
  // str_nw_mera_closed_120's batched product: the model's 64 x 64 tile, with u (nineteenth
  // session: 0.669-0.682 ms vs 0.774-0.786 without).
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 540, 270, 136, 216}, h200)),
            "64,64,8,4,4,wfuy,1");
  vk::DeviceCaps anon = h200;
  anon.sm_count = 0;
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 990, 2187, 4620, 1}, anon)),
            "64,128,16,8,8,fsu,0");
  // The model's estimate of its choice, which the certified Ozaki-II product is weighed against
  // (gemm_fma_seconds): 990 x 2187 x 4620 in 5 splits 1.18 ms (measured 1.13-1.17, tenth
  // session), 40 % over the 22.9 TFLOP/s the scheme's model assumes otherwise; it then takes the
  // scheme there (str_nw_mera_open_26's largest product), not for 7290 x 399 x 4320 (the planes
  // padded to 128: N 399 -> 512). kF64Huge products and devices without an SM count: no estimate.
  const double open = vk::gemm_fma_seconds({DType::F64, 990, 2187, 4620, 1}, h200);
  EXPECT_NEAR(open, 1.176e-3, 0.01e-3);
  EXPECT_FALSE(vk::ozaki_faster(14, {DType::F64, 990, 2187, 4620, 1}, true));
  EXPECT_TRUE(vk::ozaki_faster(14, {DType::F64, 990, 2187, 4620, 1}, true, open));
  EXPECT_FALSE(vk::ozaki_faster(14, {DType::F64, 7290, 399, 4320, 1}, true,
                                vk::gemm_fma_seconds({DType::F64, 7290, 399, 4320, 1}, h200)));
  // gemm_ozaki_moduli asks for the estimate itself given the device's caps (the default options:
  // certified, 14 moduli; TENFERRO_VK_GEMM_OZAKI unset).
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 990, 2187, 4620, 1}, true, &h200), 14);
  EXPECT_EQ(vk::gemm_ozaki_moduli({DType::F64, 990, 2187, 4620, 1}, true), 0);
  EXPECT_EQ(vk::gemm_fma_seconds({DType::F64, 4096, 4096, 4096, 1}, h200), 0.0);
  EXPECT_EQ(vk::gemm_fma_seconds({DType::F64, 990, 2187, 4620, 1}, anon), 0.0);
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F32, 4096, 4096, 4096, 1}, anon)),
            "128,128,16,8,8,fsu,0");  // the 128 x 256 tile on NVIDIA only (measured there only)
  // f64 with K <= 16 (not the small class, at most 10M outputs): 32 x 32 tiles of BK 4, ahead of
  // the wave model (13200 x 144 x 12: 14.7 us vs 18.1-18.9 on the model's 64 x 64); 4096 x 4096
  // x 16 stays with the model (87 us on 64 x 128 `fs` vs 109; every tile interior: `fsu`, whose
  // interior loop has no full slice to run at K = 16, the same work as `fs`).
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 13200, 144, 12, 1}, h200)),
            "32,32,4,4,4,wy,0");
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 13200, 12, 12, 12}, h200)),
            "32,32,4,4,4,wy,0");
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F64, 4096, 4096, 16, 1}, h200)),
            "64,128,16,8,8,wfsuy,1");
  // f32 keeps its table (not modelled); on NVIDIA its 128 x 128 rows (large, and mid with at least
  // a wave of tiles) run 16 x 8 per thread in 128 threads (kF32Deep), c32's large row 64 x 128
  // tiles of 8 x 8 with paired lanes (kC32Deep); fewer tiles take the mid ladder's finer rungs.
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F32, 990, 2187, 4620, 1}, h200)),
            "128,128,8,16,8,fsxu,0");  // 144 tiles: mid
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F32, 4096, 4096, 4096, 1}, h200)),
            "128,128,8,16,8,fsxu,0");  // 3.01 ms vs 3.14 on 128 x 256 8 x 16 (8192^3: 22.9 vs 23.9)
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F32, 1000, 1030, 33, 1}, h200)),
            "64,128,16,4,8,wf,0");  // 72 tiles of 128 x 128: the finer rung
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::C32, 4096, 4096, 4096, 1}, h200)),
            "64,128,8,8,8,wfsuly,0");
  // The other dtypes' narrow rows (twenty-first session: f32 16 x 200000 x 512 0.218 ms vs 0.647
  // on the wide row, c64 0.443 vs 2.301; tall c32 200000 x 11 x 64 0.080 vs 0.258).
  for (const auto& [d, M, N, cfg] : {std::tuple{DType::F32, I{16}, I{200000}, "16,128,8,4,8,-,0"},
                                     std::tuple{DType::F32, I{200000}, I{16}, "128,16,8,8,4,-,0"},
                                     std::tuple{DType::C32, I{11}, I{200000}, "16,64,8,2,4,-,0"},
                                     std::tuple{DType::C32, I{200000}, I{11}, "128,16,8,8,2,-,0"},
                                     std::tuple{DType::C64, I{16}, I{100000}, "16,64,16,2,4,-,0"},
                                     std::tuple{DType::C64, I{200000}, I{11}, "128,16,8,8,2,-,0"}})
    EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({d, M, N, 512, 1}, h200)), cfg) << M << " x " << N;
  vk::DeviceCaps other = h200;  // no SM count: the size classes' rows
  other.sm_count = 0;
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::F32, 4096, 4096, 4096, 1}, other)),
            "128,128,16,8,8,fsu,0");
  EXPECT_EQ(vk::gemm_config_string(vk::gemm_default_config({DType::C32, 4096, 4096, 4096, 1}, other)),
            "128,128,8,8,4,wfu,0");
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
  // The f64 narrow rows (wide products with M <= 16, tall ones with N <= 16; gemm.cpp).
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

TEST_F(GemmGpuTest, ShortColumnsRunFourRowsPerInvocation) {
  // Many short columns with short K (M <= 32, K <= 16, M*N*B >= 2^20): gemm_small with four
  // outputs per invocation along m by default; M = 27 leaves a partial group of three.
  EXPECT_TRUE(vk::gemm_uses_small_kernel(27, 729, 3, 64));
  EXPECT_FALSE(vk::gemm_uses_small_kernel(27, 729, 17, 64));
  for (DType d : {DType::F64, DType::C32}) {
    Case c = make_case(d, 27, 729, 3, 64);
    c.lb = Lay::row;
    c.beta = 0.5;
    run(c);
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
