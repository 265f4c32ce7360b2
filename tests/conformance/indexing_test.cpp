// Conformance of gather / scatter: every backend, every dtype, operands and index tensors in
// every layout case, checked against the reference oracle (tests/reference/indexing.cpp).
// A backend that does not run (op, dtype) must declare the gap and raise Error{unsupported}.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>

#include "backends.hpp"
#include "indexing.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

constexpr ScatterCombiner kCombiners[] = {ScatterCombiner::add, ScatterCombiner::replace, ScatterCombiner::mul,
                                          ScatterCombiner::max, ScatterCombiner::min};

std::string dname(DType d) { return std::string(dtype_name(d)); }

/// The contract's dtype rule for scatter combiners (SEMANTICS.md).
bool combiner_allowed(ScatterCombiner c, DType d) {
  if (d == DType::Bool) return c == ScatterCombiner::replace;
  if (is_complex(d)) return c != ScatterCombiner::max && c != ScatterCombiner::min;
  return true;
}

/// EXPECTs f to raise Error{kind}; returns true when it did.
bool expect_error(ErrorKind kind, const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.kind() == kind;
  }
  ADD_FAILURE() << "expected Error{" << error_kind_name(kind) << "}, nothing was thrown";
  return false;
}

/// When tb does not run (op, d): the gap must be declared and f must raise unsupported.
/// Returns true when the backend runs the pair (the caller then checks results).
bool runs_or_declared_gap(const TestBackend& tb, OpId op, DType d, const std::function<void()>& f) {
  if (tb.be->supports(op, d)) return true;
  EXPECT_EQ(check_gap_declaration(tb, op, d), "");
  expect_error(ErrorKind::unsupported, f);
  return false;
}

/// random_ref with C32 values re-rounded to float. GCC 12.2 at -O2 (SLP vectorizer) drops the
/// double -> float -> double round trip in round_to(C32) of tests/support/ref.cpp, so C32
/// reference values would keep double precision while the tensor holds floats.
RefTensor rnd(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc = LayoutCase::compact,
              RandomSpec spec = {}) {
  RefTensor r = random_ref(d, shape, rng, lc, spec);
  if (d == DType::C32)
    for (c64& z : r.v) {
      volatile float re = static_cast<float>(z.real()), im = static_cast<float>(z.imag());
      z = c64(re, im);
    }
  return r;
}

LayoutCase layout_after(LayoutCase lc, int k) {
  return kAllLayouts[(static_cast<int>(lc) + k) % 5];
}

RefTensor random_indices(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc, std::int64_t lo,
                         std::int64_t hi) {
  RandomSpec spec;
  spec.lo = static_cast<double>(lo);
  spec.hi = static_cast<double>(hi);
  spec.integral = true;
  return rnd(d, shape, rng, lc, spec);
}

/// A rank-1 I64 reference tensor holding `values`.
RefTensor ref_i64(const Shape& values) {
  RefTensor r(DType::I64, {static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) r.set_int(static_cast<std::int64_t>(i), values[i]);
  return r;
}

// ---- gather ----------------------------------------------------------------------------------

struct GatherCase {
  const char* name;
  Shape operand, indices;
  GatherConfig cfg;
  std::int64_t lo, hi;  // index value range (outside the operand to exercise clamping)
};

GatherConfig gcfg(Axes offset, Axes collapsed, Axes start_map, std::int64_t ivd, Shape slice_sizes,
                  Axes op_batching = {}, Axes idx_batching = {}) {
  GatherConfig c;
  c.offset_dims = std::move(offset);
  c.collapsed_slice_dims = std::move(collapsed);
  c.start_index_map = std::move(start_map);
  c.index_vector_dim = ivd;
  c.slice_sizes = std::move(slice_sizes);
  c.operand_batching_dims = std::move(op_batching);
  c.start_indices_batching_dims = std::move(idx_batching);
  return c;
}

std::vector<GatherCase> gather_cases() {
  return {
      {"rows_implicit_vector", {5, 4}, {3}, gcfg({1}, {0}, {0}, 1, {1, 4}), -2, 7},
      {"columns", {5, 4}, {2, 1}, gcfg({0}, {1}, {1}, 1, {5, 1}), -2, 6},
      {"elements", {5, 4}, {2, 6}, gcfg({}, {0, 1}, {0, 1}, 0, {1, 1}), -2, 6},
      {"windows", {5, 4}, {4, 2}, gcfg({1, 2}, {}, {0, 1}, 1, {2, 3}), -3, 6},
      {"windows_reversed_map", {5, 4}, {2, 3}, gcfg({0, 2}, {}, {1, 0}, 0, {3, 2}), -3, 6},
      {"batching_implicit_vector", {3, 4, 2}, {5, 2}, gcfg({2}, {0}, {0}, 2, {1, 4, 1}, {2}, {1}), -1, 4},
      {"batching_vector_in_middle", {2, 6, 3}, {2, 1, 3}, gcfg({2}, {1}, {1}, 1, {1, 1, 3}, {0}, {0}), -1, 7},
      {"dynamic_slice_form", {5, 4, 3}, {3}, gcfg({0, 1, 2}, {}, {0, 1, 2}, 0, {2, 3, 1}), -2, 6},
      {"dynamic_slice_rank0", {}, {0}, gcfg({}, {}, {}, 0, {}), 0, 0},
      {"empty_batch", {5, 4}, {0}, gcfg({1}, {0}, {0}, 1, {1, 4}), 0, 4},
      {"empty_index_vector", {5, 4}, {3, 0}, gcfg({1, 2}, {}, {}, 1, {2, 2}), 0, 0},
      {"zero_slice", {5, 0}, {3}, gcfg({1}, {0}, {0}, 1, {1, 0}), -1, 6},
  };
}

void run_gather(const TestBackend& tb, const RefTensor& operand, LayoutCase lo, const RefTensor& indices,
                LayoutCase li, const GatherConfig& cfg) {
  Backend& be = *tb.be;
  const TensorView o = place(be, operand, lo), i = place(be, indices, li);
  if (!runs_or_declared_gap(tb, OpId::gather, operand.dtype, [&] { gather(be, o, i, cfg); })) return;
  const Tensor got = gather(be, o, i, cfg);
  TENFERRO_EXPECT_MATCH(ref_gather(operand, indices, cfg), read(be, got), Tol{});
}

TEST(IndexingConformance, GatherEveryDTypeLayoutAndConfigMatchesReference) {
  std::mt19937_64 rng(101);
  for (const TestBackend& tb : test_backends())
    for (const GatherCase& gc : gather_cases())
      for (DType d : kAllDTypes)
        for (LayoutCase lc : kAllLayouts) {
          const LayoutCase li = layout_after(lc, 2);
          const DType id = static_cast<int>(lc) % 2 ? DType::I32 : DType::I64;
          SCOPED_TRACE(tb.name + " " + gc.name + " " + dname(d) + " operand " + layout_name(lc) + ", indices " +
                       dname(id) + " " + layout_name(li));
          const RefTensor operand = rnd(d, gc.operand, rng, lc);
          const RefTensor indices = random_indices(id, gc.indices, rng, li, gc.lo, gc.hi);
          run_gather(tb, operand, lc, indices, li, gc.cfg);
        }
}

TEST(IndexingConformance, GatherIndexTensorDTypesI32I64F32F64Integral) {
  std::mt19937_64 rng(102);
  for (const TestBackend& tb : test_backends())
    for (DType id : {DType::I32, DType::I64, DType::F32, DType::F64})
      for (LayoutCase li : kAllLayouts) {
        SCOPED_TRACE(tb.name + " indices " + dname(id) + " " + layout_name(li));
        const GatherCase gc = gather_cases()[3];  // windows
        const RefTensor operand = random_ref(DType::F64, gc.operand, rng);
        const RefTensor indices = random_indices(id, gc.indices, rng, li, gc.lo, gc.hi);
        run_gather(tb, operand, LayoutCase::compact, indices, li, gc.cfg);
      }
}

TEST(IndexingConformance, GatherF64NonIntegralIndicesAreInvalidArgument) {
  std::mt19937_64 rng(103);
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    const GatherCase gc = gather_cases()[0];
    RefTensor indices(DType::F64, gc.indices);
    for (std::int64_t i = 0; i < indices.numel(); ++i) indices.set(i, c64(static_cast<double>(i) + 0.5, 0));
    const TensorView o = place(be, random_ref(DType::F32, gc.operand, rng), LayoutCase::compact);
    const TensorView idx = place(be, indices, LayoutCase::compact);
    if (!runs_or_declared_gap(tb, OpId::gather, DType::F32, [&] { gather(be, o, idx, gc.cfg); })) continue;
    expect_error(ErrorKind::invalid_argument, [&] { gather(be, o, idx, gc.cfg); });
  }
}

// Clamping, checked against the library itself: a start below 0 gathers the window at 0, one
// past dim - size the window at dim - size.
TEST(IndexingConformance, GatherClampsStartsOutOfRangeLikeTheNearestValidStart) {
  std::mt19937_64 rng(104);
  const GatherConfig cfg = gcfg({0, 1}, {}, {0, 1}, 0, {2, 3});  // one [2, 3] window of [5, 4]
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    if (!be.supports(OpId::gather, DType::I64)) continue;  // gap checked in the tests above
    const RefTensor operand = random_ref(DType::I64, {5, 4}, rng);
    const TensorView o = place(be, operand, LayoutCase::compact);
    for (auto [raw, valid] : std::vector<std::pair<Shape, Shape>>{
             {{-5, -1}, {0, 0}}, {{100, 7}, {3, 1}}, {{-3, 9}, {0, 1}}, {{4, -2}, {3, 0}}}) {
      SCOPED_TRACE(tb.name);
      const Tensor a = gather(be, o, place(be, ref_i64(raw), LayoutCase::compact), cfg);
      const Tensor b = gather(be, o, place(be, ref_i64(valid), LayoutCase::compact), cfg);
      TENFERRO_EXPECT_MATCH(read(be, b), read(be, a), Tol{});
    }
  }
}

TEST(IndexingConformance, GatherLargeIsMultiThreadedAndMatchesReference) {
  std::mt19937_64 rng(105);
  const std::vector<GatherCase> cases = {
      {"rows", {300, 200}, {500}, gcfg({1}, {0}, {0}, 1, {1, 200}), -3, 305},
      {"elements", {97, 89}, {60000, 2}, gcfg({}, {0, 1}, {0, 1}, 1, {1, 1}), -1, 100},
      {"one_big_window", {400, 300}, {2}, gcfg({0, 1}, {}, {0, 1}, 0, {300, 250}), -9, 500},
  };
  for (const TestBackend& tb : test_backends())
    for (const GatherCase& gc : cases)
      for (LayoutCase lc : {LayoutCase::compact, LayoutCase::negative_stride}) {
        SCOPED_TRACE(tb.name + " " + gc.name + " " + layout_name(lc));
        const RefTensor operand = random_ref(DType::F32, gc.operand, rng, lc);
        const RefTensor indices = random_indices(DType::I32, gc.indices, rng, layout_after(lc, 1), gc.lo, gc.hi);
        run_gather(tb, operand, lc, indices, layout_after(lc, 1), gc.cfg);
      }
}

// ---- scatter ---------------------------------------------------------------------------------

struct ScatterCase {
  const char* name;
  Shape operand, indices, updates;
  ScatterConfig cfg;
  std::int64_t lo, hi;
};

ScatterConfig scfg(Axes window, Axes inserted, Axes to_operand, std::int64_t ivd, Axes in_batching = {},
                   Axes idx_batching = {}) {
  ScatterConfig c;
  c.update_window_dims = std::move(window);
  c.inserted_window_dims = std::move(inserted);
  c.scatter_dims_to_operand_dims = std::move(to_operand);
  c.index_vector_dim = ivd;
  c.input_batching_dims = std::move(in_batching);
  c.scatter_indices_batching_dims = std::move(idx_batching);
  return c;
}

std::vector<ScatterCase> scatter_cases() {
  return {
      {"rows_implicit_vector", {6, 3}, {5}, {5, 3}, scfg({1}, {0}, {0}, 1), -1, 7},
      {"columns", {4, 5}, {3, 1}, {4, 3}, scfg({0}, {1}, {1}, 1), -1, 6},
      {"elements", {4, 5}, {2, 7}, {7}, scfg({}, {0, 1}, {0, 1}, 0), -1, 5},
      {"windows", {6, 5}, {4, 2}, {4, 2, 3}, scfg({1, 2}, {}, {0, 1}, 1), -2, 6},
      {"windows_reversed_map", {6, 5}, {2, 3}, {2, 3, 3}, scfg({0, 2}, {}, {1, 0}, 0), -2, 6},
      {"partial_rows", {6, 5}, {3}, {3, 2}, scfg({1}, {0}, {0}, 1), -1, 6},
      {"batching_implicit_vector", {3, 4, 2}, {5, 2}, {5, 2, 4}, scfg({2}, {0}, {0}, 2, {2}, {1}), -1, 4},
      {"batching_vector_in_middle", {2, 6, 3}, {2, 1, 3}, {2, 3, 3}, scfg({2}, {1}, {1}, 1, {0}, {0}), -1, 7},
      {"dynamic_update_slice_form", {5, 4, 3}, {3}, {2, 3, 1}, scfg({0, 1, 2}, {}, {0, 1, 2}, 0), -2, 6},
      {"dynamic_update_slice_rank0", {}, {0}, {}, scfg({}, {}, {}, 0), 0, 0},
      {"empty_updates", {6, 3}, {0}, {0, 3}, scfg({1}, {0}, {0}, 1), 0, 5},
  };
}

bool same_elem(const RefTensor& a, std::int64_t i, const RefTensor& b, std::int64_t j) {
  const auto k = static_cast<std::size_t>(i), l = static_cast<std::size_t>(j);
  return a.exact() ? a.iv[k] == b.iv[l] : a.v[k] == b.v[l];
}

/// Largest number of update elements combining into one operand element.
std::int64_t max_multiplicity(const std::vector<std::int64_t>& targets, std::int64_t numel) {
  std::vector<std::int64_t> n(static_cast<std::size_t>(numel), 0);
  std::int64_t m = 0;
  for (std::int64_t t : targets)
    if (t >= 0) m = std::max(m, ++n[static_cast<std::size_t>(t)]);
  return m;
}

/// add/mul of floats: the order of duplicates is free, so rounding may differ from the
/// reference's order; dup = the largest multiplicity, values are in [-2, 2] (add) or near 1 (mul).
Tol scatter_tol(DType d, ScatterCombiner c, std::int64_t dup) {
  if (!is_inexact(d) || c == ScatterCombiner::replace || c == ScatterCombiner::max || c == ScatterCombiner::min)
    return {};
  const double eps = (d == DType::F32 || d == DType::C32) ? 1.1920929e-7 : 2.220446049250313e-16;
  const auto n = static_cast<double>(dup + 1);
  return {8 * n * eps, c == ScatterCombiner::add ? 8 * n * n * eps : 0.0};
}

/// replace with duplicate targets: every element holds the operand value (no update lands
/// there) or one of the updates landing there, whichever won.
void expect_replace_result(const RefTensor& operand, const RefTensor& updates,
                           const std::vector<std::int64_t>& targets, const RefTensor& got) {
  ASSERT_EQ(got.dtype, operand.dtype);
  ASSERT_EQ(got.shape, operand.shape);
  std::vector<std::vector<std::int64_t>> cands(static_cast<std::size_t>(operand.numel()));
  for (std::size_t j = 0; j < targets.size(); ++j)
    if (targets[j] >= 0) cands[static_cast<std::size_t>(targets[j])].push_back(static_cast<std::int64_t>(j));
  for (std::int64_t i = 0; i < operand.numel(); ++i) {
    const auto& c = cands[static_cast<std::size_t>(i)];
    const bool ok = c.empty() ? same_elem(got, i, operand, i)
                              : std::any_of(c.begin(), c.end(), [&](std::int64_t j) { return same_elem(got, i, updates, j); });
    if (!ok) {
      ADD_FAILURE() << "element " << i << " of " << operand.numel() << " holds " << got.v[static_cast<std::size_t>(i)]
                    << ", which is neither the operand value nor one of the " << c.size() << " updates landing there";
      return;
    }
  }
}

RandomSpec update_spec(DType d, ScatterCombiner c) {
  RandomSpec spec;
  if (c == ScatterCombiner::mul && is_inexact(d)) {
    spec.lo = 0.5;
    spec.hi = 1.5;
  }
  return spec;
}

/// Runs one scatter on tb and checks it: unsupported combinations raise, replace holds one of
/// the candidates, other combiners match the reference.
void run_scatter(const TestBackend& tb, const RefTensor& operand, LayoutCase lo, const RefTensor& indices,
                 LayoutCase li, const RefTensor& updates, LayoutCase lu, const ScatterConfig& cfg) {
  Backend& be = *tb.be;
  const TensorView o = place(be, operand, lo), i = place(be, indices, li), u = place(be, updates, lu);
  auto call = [&] { return scatter(be, o, i, u, cfg); };
  if (!combiner_allowed(cfg.combiner, operand.dtype)) {
    expect_error(ErrorKind::unsupported, [&] { call(); });
    return;
  }
  if (!runs_or_declared_gap(tb, OpId::scatter, operand.dtype, [&] { call(); })) return;
  const RefTensor got = read(be, call());
  const std::vector<std::int64_t> targets = ref_scatter_targets(operand, indices, updates, cfg);
  if (cfg.combiner == ScatterCombiner::replace) {
    expect_replace_result(operand, updates, targets, got);
    return;
  }
  const Tol tol = scatter_tol(operand.dtype, cfg.combiner, max_multiplicity(targets, operand.numel()));
  TENFERRO_EXPECT_MATCH(ref_scatter(operand, indices, updates, cfg), got, tol);
}

TEST(IndexingConformance, ScatterEveryCombinerModeDTypeLayoutAndConfigMatchesReference) {
  std::mt19937_64 rng(201);
  for (const TestBackend& tb : test_backends())
    for (const ScatterCase& sc : scatter_cases())
      for (DType d : kAllDTypes)
        for (ScatterCombiner c : kCombiners)
          for (OutOfBounds mode : {OutOfBounds::clamp, OutOfBounds::skip})
            for (LayoutCase lc : kAllLayouts) {
              const LayoutCase li = layout_after(lc, 2), lu = layout_after(lc, 1);
              const DType id = static_cast<int>(lc) % 2 ? DType::I32 : DType::I64;
              SCOPED_TRACE(tb.name + " " + sc.name + " " + dname(d) + " " + std::string(combiner_name(c)) +
                           (mode == OutOfBounds::skip ? " skip" : " clamp") + "; operand " + layout_name(lc) +
                           ", indices " + dname(id) + " " + layout_name(li) + ", updates " + layout_name(lu));
              ScatterConfig cfg = sc.cfg;
              cfg.combiner = c;
              cfg.out_of_bounds = mode;
              const RefTensor operand = rnd(d, sc.operand, rng, lc);
              const RefTensor indices = random_indices(id, sc.indices, rng, li, sc.lo, sc.hi);
              const RefTensor updates = rnd(d, sc.updates, rng, lu, update_spec(d, c));
              run_scatter(tb, operand, lc, indices, li, updates, lu, cfg);
            }
}

// replace with unique, in-range targets is fully determined: compare with the reference exactly.
TEST(IndexingConformance, ScatterReplaceWithUniqueIndicesMatchesReferenceExactly) {
  std::mt19937_64 rng(202);
  for (const TestBackend& tb : test_backends())
    for (DType d : kAllDTypes)
      for (LayoutCase lc : kAllLayouts) {
        SCOPED_TRACE(tb.name + " " + dname(d) + " " + layout_name(lc));
        // Rows 0..5 permuted; the first/last are written out of range so clamping brings them back.
        std::vector<std::int64_t> rows(6);
        std::iota(rows.begin(), rows.end(), 0);
        std::shuffle(rows.begin(), rows.end(), rng);
        RefTensor indices(DType::I64, {5});
        for (std::int64_t i = 0; i < 5; ++i) {
          const std::int64_t r = rows[static_cast<std::size_t>(i)];
          indices.set_int(i, r == 0 ? -4 : r == 5 ? 9 : r);
        }
        const ScatterConfig cfg = [] {
          ScatterConfig c = scfg({1}, {0}, {0}, 1);
          c.combiner = ScatterCombiner::replace;
          return c;
        }();
        const RefTensor operand = rnd(d, {6, 3}, rng, lc), updates = rnd(d, {5, 3}, rng, layout_after(lc, 1));
        Backend& be = *tb.be;
        const TensorView o = place(be, operand, lc), i = place(be, indices, LayoutCase::compact),
                         u = place(be, updates, layout_after(lc, 1));
        if (!runs_or_declared_gap(tb, OpId::scatter, d, [&] { scatter(be, o, i, u, cfg); })) continue;
        TENFERRO_EXPECT_MATCH(ref_scatter(operand, indices, updates, cfg), read(be, scatter(be, o, i, u, cfg)), Tol{});
      }
}

TEST(IndexingConformance, ScatterSkipWithEveryWindowOutsideLeavesOperandUnchanged) {
  std::mt19937_64 rng(203);
  const ScatterCase sc = scatter_cases()[3];  // windows [2, 3] in [6, 5]
  for (const TestBackend& tb : test_backends())
    for (DType d : kAllDTypes) {
      SCOPED_TRACE(tb.name + " " + dname(d));
      Backend& be = *tb.be;
      // Starts (-2, 0), (6, 0), (0, 5), (0, -3): every element of every window lies outside
      // (skip drops elements outside, StableHLO; windows partly inside: the test above).
      RefTensor indices(DType::I32, sc.indices);
      const std::int64_t starts[4][2] = {{-2, 0}, {6, 0}, {0, 5}, {0, -3}};
      for (std::int64_t w = 0; w < 4; ++w)
        for (std::int64_t k = 0; k < 2; ++k) indices.set_int(indices.index({w, k}), starts[w][k]);
      ScatterConfig cfg = sc.cfg;
      cfg.out_of_bounds = OutOfBounds::skip;
      cfg.combiner = d == DType::Bool ? ScatterCombiner::replace : ScatterCombiner::add;
      const RefTensor operand = rnd(d, sc.operand, rng);
      const TensorView o = place(be, operand, LayoutCase::compact), i = place(be, indices, LayoutCase::compact),
                       u = place(be, rnd(d, sc.updates, rng), LayoutCase::compact);
      if (!runs_or_declared_gap(tb, OpId::scatter, d, [&] { scatter(be, o, i, u, cfg); })) continue;
      TENFERRO_EXPECT_MATCH(operand, read(be, scatter(be, o, i, u, cfg)), Tol{});
    }
}

TEST(IndexingConformance, ScatterIndexTensorDTypesI32I64F32F64Integral) {
  std::mt19937_64 rng(204);
  const ScatterCase sc = scatter_cases()[3];
  for (const TestBackend& tb : test_backends())
    for (DType id : {DType::I32, DType::I64, DType::F32, DType::F64})
      for (LayoutCase li : kAllLayouts) {
        SCOPED_TRACE(tb.name + " indices " + dname(id) + " " + layout_name(li));
        ScatterConfig cfg = sc.cfg;
        cfg.combiner = ScatterCombiner::max;
        run_scatter(tb, rnd(DType::I64, sc.operand, rng), LayoutCase::compact,
                    random_indices(id, sc.indices, rng, li, sc.lo, sc.hi), li, rnd(DType::I64, sc.updates, rng),
                    LayoutCase::compact, cfg);
      }
}

TEST(IndexingConformance, ScatterF64NonIntegralIndicesAreInvalidArgument) {
  std::mt19937_64 rng(205);
  const ScatterCase sc = scatter_cases()[0];
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    RefTensor indices(DType::F64, sc.indices);
    for (std::int64_t i = 0; i < indices.numel(); ++i) indices.set(i, c64(0.25 * static_cast<double>(i + 1), 0));
    const TensorView o = place(be, rnd(DType::F32, sc.operand, rng), LayoutCase::compact),
                     i = place(be, indices, LayoutCase::compact),
                     u = place(be, rnd(DType::F32, sc.updates, rng), LayoutCase::compact);
    if (!runs_or_declared_gap(tb, OpId::scatter, DType::F32, [&] { scatter(be, o, i, u, sc.cfg); })) continue;
    expect_error(ErrorKind::invalid_argument, [&] { scatter(be, o, i, u, sc.cfg); });
  }
}

TEST(IndexingConformance, ScatterLargeIsMultiThreadedAndMatchesReference) {
  std::mt19937_64 rng(206);
  const std::vector<ScatterCase> cases = {
      {"rows", {400, 64}, {800}, {800, 64}, scfg({1}, {0}, {0}, 1), -2, 402},
      {"elements", {1000}, {40000}, {40000}, scfg({}, {0}, {0}, 1), -1, 1000},
      {"big_windows", {300, 300}, {2, 2}, {2, 150, 150}, scfg({1, 2}, {}, {0, 1}, 1), -20, 200},
  };
  for (const TestBackend& tb : test_backends())
    for (const ScatterCase& sc : cases)
      for (DType d : {DType::F32, DType::I64, DType::C64})
        for (ScatterCombiner c : {ScatterCombiner::add, ScatterCombiner::replace, ScatterCombiner::max})
          for (OutOfBounds mode : {OutOfBounds::clamp, OutOfBounds::skip}) {
            if (!combiner_allowed(c, d)) continue;  // covered by the small cases
            const LayoutCase lc = mode == OutOfBounds::clamp ? LayoutCase::compact : LayoutCase::negative_stride;
            SCOPED_TRACE(tb.name + " " + sc.name + " " + dname(d) + " " + std::string(combiner_name(c)) +
                         (mode == OutOfBounds::skip ? " skip " : " clamp ") + layout_name(lc));
            ScatterConfig cfg = sc.cfg;
            cfg.combiner = c;
            cfg.out_of_bounds = mode;
            run_scatter(tb, rnd(d, sc.operand, rng, lc), lc, random_indices(DType::I32, sc.indices, rng, lc, sc.lo, sc.hi),
                        lc, rnd(d, sc.updates, rng, layout_after(lc, 1)), layout_after(lc, 1), cfg);
          }
}

// ---- properties ------------------------------------------------------------------------------

/// Random extents in [lo, hi].
Shape random_shape(std::mt19937_64& rng, std::size_t rank, std::int64_t lo, std::int64_t hi) {
  std::uniform_int_distribution<std::int64_t> u(lo, hi);
  Shape s(rank);
  for (auto& e : s) e = u(rng);
  return s;
}

TEST(IndexingProperties, ScatterAddOfOnesIntoZerosCountsIndices) {
  constexpr DType kDTypes[] = {DType::F32, DType::F64, DType::I32, DType::I64, DType::C32, DType::C64};
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const DType d = kDTypes[rng() % 6];
    const std::size_t rank = 1 + rng() % 3;
    const Shape shape = random_shape(rng, rank, 1, 6);
    const std::int64_t m = seed == 40 ? 50000 : static_cast<std::int64_t>(rng() % 40);
    const DType id = rng() % 2 ? DType::I32 : DType::I64;
    const LayoutCase li = rng() % 2 ? LayoutCase::transposed : LayoutCase::compact;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + dname(d) + " operand rank " + std::to_string(rank) +
                 ", " + std::to_string(m) + " indices " + dname(id) + " " + layout_name(li));
    // Indices [m, rank] (index vector along dim 1), each component in range; count on the host.
    RefTensor indices(id, {m, static_cast<std::int64_t>(rank)});
    RefTensor want(d, shape);
    std::vector<std::int64_t> count(static_cast<std::size_t>(want.numel()), 0);
    for (std::int64_t j = 0; j < m; ++j) {
      std::int64_t lin = 0, mul = 1;
      for (std::size_t k = 0; k < rank; ++k) {
        const std::int64_t x = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(shape[k]));
        indices.set_int(indices.index({j, static_cast<std::int64_t>(k)}), x);
        lin += x * mul;
        mul *= shape[k];
      }
      ++count[static_cast<std::size_t>(lin)];
    }
    for (std::int64_t i = 0; i < want.numel(); ++i)
      want.set(i, c64(static_cast<double>(count[static_cast<std::size_t>(i)]), 0));
    RefTensor ones(d, {m});
    for (std::int64_t j = 0; j < m; ++j) ones.set(j, c64(1, 0));
    Axes all(rank);
    std::iota(all.begin(), all.end(), 0);
    const ScatterConfig cfg = scfg({}, all, all, 1);
    for (const TestBackend& tb : test_backends()) {
      SCOPED_TRACE(tb.name);
      Backend& be = *tb.be;
      const TensorView z = place(be, RefTensor(d, shape), LayoutCase::compact), i = place(be, indices, li),
                       u = place(be, ones, LayoutCase::compact);
      if (!runs_or_declared_gap(tb, OpId::scatter, d, [&] { scatter(be, z, i, u, cfg); })) continue;
      TENFERRO_EXPECT_MATCH(want, read(be, scatter(be, z, i, u, cfg)), Tol{});
    }
  }
}

TEST(IndexingProperties, GatherAfterScatterReplaceWithUniqueIndicesReturnsUpdates) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const DType d = kAllDTypes[rng() % 7];
    const Shape shape = random_shape(rng, 2, 1, 8);  // [rows, cols]
    const std::int64_t m = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(shape[0] + 1));
    const LayoutCase lc = kAllLayouts[rng() % 5];
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + dname(d) + " operand " + layout_name(lc) + ", " +
                 std::to_string(m) + " unique rows");
    std::vector<std::int64_t> rows(static_cast<std::size_t>(shape[0]));
    std::iota(rows.begin(), rows.end(), 0);
    std::shuffle(rows.begin(), rows.end(), rng);
    RefTensor indices(DType::I64, {m, 1});
    for (std::int64_t j = 0; j < m; ++j) indices.set_int(j, rows[static_cast<std::size_t>(j)]);
    const RefTensor operand = rnd(d, shape, rng, lc), updates = rnd(d, {m, shape[1]}, rng);
    ScatterConfig sc = scfg({1}, {0}, {0}, 1);
    sc.combiner = ScatterCombiner::replace;
    const GatherConfig gc = gcfg({1}, {0}, {0}, 1, {1, shape[1]});
    for (const TestBackend& tb : test_backends()) {
      SCOPED_TRACE(tb.name);
      Backend& be = *tb.be;
      const TensorView o = place(be, operand, lc), i = place(be, indices, LayoutCase::compact),
                       u = place(be, updates, LayoutCase::compact);
      if (!runs_or_declared_gap(tb, OpId::scatter, d, [&] { scatter(be, o, i, u, sc); })) continue;
      const Tensor written = scatter(be, o, i, u, sc);
      if (!runs_or_declared_gap(tb, OpId::gather, d, [&] { gather(be, written, i, gc); })) continue;
      TENFERRO_EXPECT_MATCH(updates, read(be, gather(be, written, i, gc)), Tol{});
    }
  }
}

}  // namespace
}  // namespace tenferro::test
