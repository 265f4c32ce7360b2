// gather / scatter on the GPU, beyond the conformance suite: scatter with many duplicate
// targets (every combine path of shaders/indexing/scatter.comp: 32-bit atomics, CAS loops, the
// i64 carry add and the spin-lock table), with values chosen so that every combination order
// gives the same exact result, so lost or torn updates show as exact mismatches; and the
// clamp/skip boundary of window starts given as extreme I64 values; replace with duplicates
// never tears 8/16-byte elements.
#include <string>

#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"

namespace tenferro::vktest {
namespace {

using c128 = std::complex<double>;

ScatterConfig rows_config(ScatterCombiner c, OutOfBounds mode) {
  ScatterConfig cfg;  // updates [n, cols] -> rows of operand [rows, cols]
  cfg.update_window_dims = {1};
  cfg.inserted_window_dims = {0};
  cfg.scatter_dims_to_operand_dims = {0};
  cfg.index_vector_dim = 1;
  cfg.combiner = c;
  cfg.out_of_bounds = mode;
  return cfg;
}

/// Update value j: exact under any order of combination (small integers; for mul, +-1 and a
/// few 2s, so products stay powers of two).
Val update_value(DType d, ScatterCombiner c, std::int64_t j) {
  Val v;
  std::int64_t x = 0;
  if (c == ScatterCombiner::mul) x = (j % 7 == 0) ? 2 : (j % 3 == 0 ? -1 : 1);
  else x = (j * 37) % 23 - 11;
  v.i = x;
  v.c = is_complex(d) ? c128(double(x), double(c == ScatterCombiner::mul ? 0 : (j % 5) - 2)) : c128(double(x), 0);
  return v;
}

/// Host model of one combine (exact for the values above).
void combine(DType d, ScatterCombiner c, Val& dst, const Val& src) {
  const bool integer = is_integer(d);
  switch (c) {
    case ScatterCombiner::add:
      if (integer) dst.i += src.i;
      else dst.c += src.c;
      break;
    case ScatterCombiner::mul:
      if (integer) dst.i *= src.i;
      else dst.c *= src.c;
      break;
    case ScatterCombiner::max:
      if (integer) dst.i = std::max(dst.i, src.i);
      else dst.c = std::max(dst.c.real(), src.c.real());
      break;
    case ScatterCombiner::min:
      if (integer) dst.i = std::min(dst.i, src.i);
      else dst.c = std::min(dst.c.real(), src.c.real());
      break;
    case ScatterCombiner::replace: break;
  }
}

class IndexingGpuTest : public VulkanTest {};

TEST_F(IndexingGpuTest, ScatterWithHeavyDuplicatesCombinesEveryUpdateExactly) {
  const std::int64_t rows = 5, cols = 7;
  for (DType d : {DType::F32, DType::F64, DType::I32, DType::I64, DType::C32, DType::C64})
    for (ScatterCombiner c : {ScatterCombiner::add, ScatterCombiner::mul, ScatterCombiner::max, ScatterCombiner::min})
      for (std::int64_t n : {std::int64_t{40}, std::int64_t{3000}}) {
        if (is_complex(d) && (c == ScatterCombiner::max || c == ScatterCombiner::min)) continue;
        if (!be().supports(OpId::scatter, d)) continue;  // gaps are checked by gaps_test
        if (c == ScatterCombiner::mul && n > 40) continue;  // keep products exact
        SCOPED_TRACE(std::string(dtype_name(d)) + " " + std::string(combiner_name(c)) + " n=" + std::to_string(n));
        // Indices hit rows 1 and 3 only (and -4 / 99, clamped to rows 0 / 4 once each).
        std::vector<Val> idx(static_cast<std::size_t>(n)), upd(static_cast<std::size_t>(n * cols)),
            op(static_cast<std::size_t>(rows * cols));
        for (std::int64_t j = 0; j < n; ++j) idx[static_cast<std::size_t>(j)].i = j == 0 ? -4 : j == 1 ? 99 : 1 + 2 * (j % 2);
        for (std::int64_t k = 0; k < n * cols; ++k) upd[static_cast<std::size_t>(k)] = update_value(d, c, k);
        for (std::int64_t k = 0; k < rows * cols; ++k) {
          op[static_cast<std::size_t>(k)].i = (k % 5) - 2 + (c == ScatterCombiner::mul ? 3 : 0);
          op[static_cast<std::size_t>(k)].c = c128(double(op[static_cast<std::size_t>(k)].i), 0);
        }
        std::vector<Val> want = op;
        for (std::int64_t j = 0; j < n; ++j) {
          const std::int64_t raw = idx[static_cast<std::size_t>(j)].i, r = std::clamp<std::int64_t>(raw, 0, rows - 1);
          for (std::int64_t k = 0; k < cols; ++k)
            combine(d, c, want[static_cast<std::size_t>(r + k * rows)], upd[static_cast<std::size_t>(j + k * n)]);
        }
        const Tensor o = upload(be(), host_of(d, {rows, cols}, op));
        const Tensor i = upload(be(), host_of(DType::I64, {n, 1}, idx));
        const Tensor u = upload(be(), host_of(d, {n, cols}, upd));
        const Tensor got = download(be(), scatter(be(), o, i, u, rows_config(c, OutOfBounds::clamp)));
        for (std::int64_t k = 0; k < rows * cols; ++k) {
          const Val g = host_at(got, k), w = want[static_cast<std::size_t>(k)];
          if (is_integer(d)) {
            const std::int64_t wi = d == DType::I32 ? std::int64_t(std::int32_t(std::uint32_t(w.i))) : w.i;
            ASSERT_EQ(g.i, wi) << "element " << k;
          } else {
            ASSERT_EQ(g.c, w.c) << "element " << k;
          }
        }
      }
}

// replace with duplicates: 8- and 16-byte elements are written whole (never torn between two
// writers), and the winner is one of the updates landing there.
TEST_F(IndexingGpuTest, ScatterReplaceWithDuplicatesNeverTearsWideElements) {
  const std::int64_t n = 20000, targets = 3;
  for (DType d : {DType::F64, DType::I64, DType::C32, DType::C64}) {
    if (!be().supports(OpId::scatter, d)) continue;  // gaps are checked by gaps_test
    SCOPED_TRACE(std::string(dtype_name(d)));
    std::vector<Val> idx(static_cast<std::size_t>(n)), upd(static_cast<std::size_t>(n)),
        op(static_cast<std::size_t>(targets));
    for (std::int64_t j = 0; j < n; ++j) {
      idx[static_cast<std::size_t>(j)].i = j % targets;
      // Both halves of the element encode j: a torn value mixes two updates.
      upd[static_cast<std::size_t>(j)].i = (j + 1) * ((std::int64_t{1} << 32) + 1);
      upd[static_cast<std::size_t>(j)].c = c128(double(j + 1), -double(j + 1));
    }
    ScatterConfig cfg;
    cfg.inserted_window_dims = {0};
    cfg.scatter_dims_to_operand_dims = {0};
    cfg.index_vector_dim = 1;
    cfg.combiner = ScatterCombiner::replace;
    const Tensor got = download(be(), scatter(be(), upload(be(), host_of(d, {targets}, op)),
                                              upload(be(), host_of(DType::I32, {n}, idx)),
                                              upload(be(), host_of(d, {n}, upd)), cfg));
    for (std::int64_t t = 0; t < targets; ++t) {
      const Val g = host_at(got, t);
      std::int64_t j = 0;
      if (d == DType::I64) {
        EXPECT_EQ(g.i >> 32, g.i & 0xffffffff) << "torn element " << t;
        j = (g.i & 0xffffffff) - 1;
      } else {
        if (is_complex(d)) {
          EXPECT_EQ(g.c.imag(), -g.c.real()) << "torn element " << t;
        }
        j = std::int64_t(g.c.real()) - 1;
      }
      EXPECT_TRUE(j >= 0 && j < n && j % targets == t) << "element " << t << " holds update " << j;
    }
  }
}

// I64 add through two 32-bit atomics: carries out of the low word must reach the high word.
TEST_F(IndexingGpuTest, ScatterAddI64CarriesAcrossTheLowWord) {
  const std::int64_t n = 1000;
  std::vector<Val> idx(static_cast<std::size_t>(n)), upd(static_cast<std::size_t>(n)), op(2);
  std::int64_t want0 = -5, want1 = (std::int64_t{1} << 32) - 7;
  op[0].i = want0;
  op[1].i = want1;
  for (std::int64_t j = 0; j < n; ++j) {
    idx[static_cast<std::size_t>(j)].i = j % 2;
    const std::int64_t x = (j % 3 == 0 ? -1 : 1) * ((std::int64_t{1} << 31) + 12345 * j);
    upd[static_cast<std::size_t>(j)].i = x;
    (j % 2 ? want1 : want0) += x;
  }
  ScatterConfig cfg;
  cfg.inserted_window_dims = {0};
  cfg.scatter_dims_to_operand_dims = {0};
  cfg.index_vector_dim = 1;
  const Tensor got = download(be(), scatter(be(), upload(be(), host_of(DType::I64, {2}, op)),
                                            upload(be(), host_of(DType::I32, {n}, idx)),
                                            upload(be(), host_of(DType::I64, {n}, upd)), cfg));
  EXPECT_EQ(host_at(got, 0).i, want0);
  EXPECT_EQ(host_at(got, 1).i, want1);
}

// Starts far outside int32 (I64 indices): clamped to the edge, or the window skipped whole.
TEST_F(IndexingGpuTest, ExtremeI64StartsClampOrSkip) {
  const std::int64_t big = std::int64_t{1} << 40;
  std::vector<Val> op(12), idx(2), upd(8);
  for (std::int64_t k = 0; k < 12; ++k) op[static_cast<std::size_t>(k)].i = k;
  idx[0].i = -big;
  idx[1].i = big;
  for (std::int64_t k = 0; k < 8; ++k) upd[static_cast<std::size_t>(k)].i = 100 + k;
  // operand [3, 4]; updates [2, 4]: rows at -2^40 (-> row 0) and 2^40 (-> row 2).
  const Tensor o = upload(be(), host_of(DType::I32, {3, 4}, op));
  const Tensor i = upload(be(), host_of(DType::I64, {2}, idx));
  const Tensor u = upload(be(), host_of(DType::I32, {2, 4}, upd));
  for (OutOfBounds mode : {OutOfBounds::clamp, OutOfBounds::skip}) {
    const Tensor got = download(be(), scatter(be(), o, i, u, rows_config(ScatterCombiner::replace, mode)));
    for (std::int64_t r = 0; r < 3; ++r)
      for (std::int64_t k = 0; k < 4; ++k) {
        std::int64_t want = r + 3 * k;
        if (mode == OutOfBounds::clamp && r == 0) want = 100 + 2 * k;
        if (mode == OutOfBounds::clamp && r == 2) want = 101 + 2 * k;
        EXPECT_EQ(host_at(got, r + 3 * k).i, want) << "row " << r << " col " << k;
      }
  }
  GatherConfig g;  // rows of [3, 4] at -2^40 and 2^40: rows 0 and 2
  g.offset_dims = {1};
  g.collapsed_slice_dims = {0};
  g.start_index_map = {0};
  g.index_vector_dim = 1;
  g.slice_sizes = {1, 4};
  const Tensor got = download(be(), gather(be(), o, i, g));
  for (std::int64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(host_at(got, 0 + 2 * k).i, 0 + 3 * k);
    EXPECT_EQ(host_at(got, 1 + 2 * k).i, 2 + 3 * k);
  }
}

}  // namespace
}  // namespace tenferro::vktest
