// Conformance of reduce_sum, reduce_prod, reduce_max, reduce_min: every op x backend x dtype x
// layout case x shape x axis subset (every subset for rank <= 4, in several orders), checked
// against the naive reference (tests/reference/reduce.cpp).
// Tolerance: integers exact; max/min exact; float sums |err| <= 2 * n * eps * sum|x_i|
// (complex: sum |re|+|im|), float products |err| <= 2 * n * eps * prod|x_i|, where n is the
// number of elements reduced into the output element (the classical gamma_n bounds, u = eps/2,
// with a factor 2 for complex arithmetic).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <sstream>

#include "backends.hpp"
#include "ref.hpp"
#include "reduce.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

std::vector<OpId> reduce_ops() {
  std::vector<OpId> ops;
  for (const OpInfo& info : all_ops())
    if (info.family == OpFamily::reduce) ops.push_back(info.id);
  return ops;
}

double eps_of(DType d) {
  return (d == DType::F32 || d == DType::C32) ? std::numeric_limits<float>::epsilon()
                                              : std::numeric_limits<double>::epsilon();
}

std::string axes_str(const Axes& a) {
  std::ostringstream os;
  os << "[";
  for (std::size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  os << "]";
  return os.str();
}

/// Axis lists to try for a rank: every subset, each in ascending order, reversed, and rotated.
std::vector<Axes> axis_lists(std::size_t rank) {
  std::vector<Axes> out;
  for (unsigned mask = 0; mask < (1u << rank); ++mask) {
    Axes asc;
    for (std::size_t a = 0; a < rank; ++a)
      if (mask & (1u << a)) asc.push_back(static_cast<std::int64_t>(a));
    out.push_back(asc);
    if (asc.size() >= 2) out.push_back(Axes(asc.rbegin(), asc.rend()));
    if (asc.size() >= 3) {
      Axes rot(asc.begin() + 1, asc.end());
      rot.push_back(asc[0]);
      out.push_back(rot);
    }
  }
  return out;
}

/// "" when got matches the reference within the reduction tolerance (see file comment).
std::string check_result(const reference::ReduceResult& want, const RefTensor& got, double c) {
  if (want.value.exact() || want.value.dtype != got.dtype || want.value.shape != got.shape)
    return compare(want.value, got, Tol{});
  const double eps = eps_of(got.dtype);
  for (std::int64_t i = 0; i < got.numel(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    const c64 w = want.value.v[k], g = got.v[k];
    auto part_ok = [](double wp, double gp) {
      if (std::isnan(wp)) return std::isnan(gp);
      if (std::isinf(wp)) return wp == gp;
      return std::isfinite(gp);
    };
    bool ok = part_ok(w.real(), g.real()) && part_ok(w.imag(), g.imag());
    const double bound = c * static_cast<double>(want.count) * eps * want.scale[k];
    if (ok && std::isfinite(w.real()) && std::isfinite(w.imag())) ok = std::abs(g - w) <= bound;
    if (!ok) {
      std::ostringstream os;
      os.precision(17);
      os << "element " << i << " of " << got.numel() << " (shape " << got.shape << "): got " << g
         << ", expected " << w << " (bound " << bound << ", n " << want.count << ")";
      return os.str();
    }
  }
  return "";
}

struct Case {
  Shape shape;
  RandomSpec spec;
  double nan_fraction = 0;  // floats only: share of elements set to NaN
  double shift = 0;         // inexact only: added to the real part of every element
};

bool reduces_empty_axis(const Shape& s, const Axes& axes) {
  for (std::int64_t a : axes)
    if (s[static_cast<std::size_t>(a)] == 0) return true;
  return false;
}

/// Runs one op/dtype on one backend over shapes x layouts x axis lists; returns checks run.
int run_cases(const TestBackend& tb, OpId op, DType d, const std::vector<Case>& cases, std::uint64_t seed,
              std::span<const LayoutCase> layouts = kAllLayouts) {
  Backend& be = *tb.be;
  int checks = 0;
  std::mt19937_64 rng(seed);
  for (const Case& cs : cases) {
    for (LayoutCase lc : layouts) {
      RefTensor x = random_ref(d, cs.shape, rng, lc, cs.spec);
      if (cs.shift != 0 && is_inexact(d))
        for (auto& v : x.v) v = round_to(d, v + cs.shift);
      if (cs.nan_fraction > 0 && is_real_float(d) && lc != LayoutCase::broadcast) {
        std::bernoulli_distribution pick(cs.nan_fraction);
        for (auto& v : x.v)
          if (pick(rng)) v = c64(std::numeric_limits<double>::quiet_NaN(), 0);
      }
      const TensorView xv = place(be, x, lc);
      for (const Axes& axes : axis_lists(cs.shape.size())) {
        SCOPED_TRACE(tb.name + " " + std::string(op_name(op)) + " " + std::string(dtype_name(d)) +
                     " shape " + axes_str(cs.shape) + " layout " + layout_name(lc) + " axes " +
                     axes_str(axes) + " seed " + std::to_string(seed));
        if (reduces_empty_axis(cs.shape, axes)) {
          try {
            (void)reduce(be, op, xv, axes);
            ADD_FAILURE() << "reducing an extent-0 axis did not throw";
          } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
          }
          ++checks;
          continue;
        }
        const Tensor out = reduce(be, op, xv, axes);
        const auto want = reference::reduce(op, x, axes);
        EXPECT_EQ(out.dtype(), d);
        EXPECT_EQ(out.shape(), want.value.shape);
        EXPECT_TRUE(out.is_compact() && out.offset() == 0);
        EXPECT_EQ(out.domain(), be.domain());
        const std::string m = check_result(want, read(be, out), 2.0);
        EXPECT_TRUE(m.empty()) << m;
        ++checks;
      }
    }
  }
  return checks;
}

/// Dtypes the contract allows for op; unsupported ones must be declared gaps and throw.
template <class F> void for_each_supported(OpId op, F&& f) {
  for (const TestBackend& tb : test_backends()) {
    for (DType d : kAllDTypes) {
      if (!contract_allows(op, d)) continue;
      if (!tb.be->supports(op, d)) {
        SCOPED_TRACE(tb.name + " " + std::string(op_name(op)) + " " + std::string(dtype_name(d)));
        EXPECT_EQ(check_gap_declaration(tb, op, d), "");
        std::mt19937_64 rng(1);
        const TensorView x = place(*tb.be, random_ref(d, {3, 2}, rng), LayoutCase::compact);
        try {
          (void)reduce(*tb.be, op, x, {0});
          ADD_FAILURE() << "declared gap did not throw";
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::unsupported) << e.what();
        }
        continue;
      }
      f(tb, d);
    }
  }
}

std::vector<Case> standard_cases() {
  std::vector<Case> cs;
  for (const Shape& s : standard_shapes()) cs.push_back({s, {}});
  cs.push_back({{2, 3, 4}, {}});
  cs.push_back({{1, 5, 1, 2}, {}});
  return cs;
}

TEST(ReduceConformance, EveryOpDtypeLayoutShapeAndAxisListMatchesReference) {
  for (OpId op : reduce_ops()) {
    for_each_supported(op, [&](const TestBackend& tb, DType d) {
      const int n = run_cases(tb, op, d, standard_cases(), 1000 + static_cast<int>(op) * 16 + static_cast<int>(d));
      EXPECT_GT(n, 0);
    });
  }
}

// Shapes large enough for the multi-threaded paths (inner and outer strategies, chunked
// reductions with few outputs) with every axis list; layouts: compact, a permuted view and a
// stride-0 broadcast (all layout cases run on the small shapes above).
TEST(ReduceConformance, LargeShapesUseParallelPathsAndMatchReference) {
  const std::vector<Case> cases = {{{1 << 16}, {}}, {{300, 200}, {}},   {{7, 9000}, {}},
                                   {{9000, 7}, {}},  {{33, 3, 700}, {}}, {{3000, 5, 4}, {}},
                                   {{300007}, {}}};  // long rows: multi-stream path with remainders
  constexpr LayoutCase kLayouts[] = {LayoutCase::compact, LayoutCase::transposed, LayoutCase::broadcast};
  for (OpId op : reduce_ops()) {
    for_each_supported(op, [&](const TestBackend& tb, DType d) {
      // Keep products of many factors finite and away from underflow: factors near 1
      // (complex: near 1 + 0i, so moduli stay near 1 too).
      std::vector<Case> cs = cases;
      if (op == OpId::reduce_prod)
        for (Case& c : cs) {
          c.spec = is_inexact(d) ? RandomSpec{-1e-4, 1e-4} : RandomSpec{-3, 3, false, true};
          c.shift = 1.0;
        }
      EXPECT_GT(run_cases(tb, op, d, cs, 77 + static_cast<int>(op) * 16 + static_cast<int>(d), kLayouts), 0);
    });
  }
}

TEST(ReduceConformance, IntegerSumsAndProductsWrap) {
  const std::vector<Case> sums = {{{5, 3}, {-2147483648.0, 2147483647.0}},
                                  {{4, 1, 3}, {-4.0e18, 4.0e18}},
                                  {{50000}, {-4.0e18, 4.0e18}}};
  const std::vector<Case> prods = {{{6, 5}, {-100000, 100000}}, {{3, 4, 2, 2}, {-3000, 3000}}};
  for (OpId op : {OpId::reduce_sum, OpId::reduce_prod}) {
    for_each_supported(op, [&](const TestBackend& tb, DType d) {
      if (!is_integer(d)) return;
      EXPECT_GT(run_cases(tb, op, d, op == OpId::reduce_sum ? sums : prods, 5 + static_cast<int>(d)), 0);
    });
  }
}

TEST(ReduceConformance, FloatMaxMinPropagateNaN) {
  const std::vector<Case> cases = {{{7}, {}, 0.2}, {{5, 3}, {}, 0.1}, {{4, 1, 3}, {}, 0.1},
                                   {{300, 200}, {}, 0.001}};
  for (OpId op : {OpId::reduce_max, OpId::reduce_min}) {
    for_each_supported(op, [&](const TestBackend& tb, DType d) {
      if (!is_real_float(d)) return;
      EXPECT_GT(run_cases(tb, op, d, cases, 31 + static_cast<int>(d)), 0);
    });
  }
}

TEST(ReduceConformance, NamedFunctionsMatchGenericReduce) {
  using Fn = Tensor (*)(Backend&, const TensorView&, const Axes&);
  const std::pair<OpId, Fn> named[] = {{OpId::reduce_sum, &reduce_sum},
                                       {OpId::reduce_prod, &reduce_prod},
                                       {OpId::reduce_max, &reduce_max},
                                       {OpId::reduce_min, &reduce_min}};
  for (const auto& [op, fn] : named) {
    for_each_supported(op, [&](const TestBackend& tb, DType d) {
      SCOPED_TRACE(tb.name + " " + std::string(op_name(op)) + " " + std::string(dtype_name(d)));
      std::mt19937_64 rng(9);
      const RefTensor x = random_ref(d, {4, 3, 5}, rng);
      const TensorView xv = place(*tb.be, x, LayoutCase::transposed);
      const Axes axes = {2, 0};
      const std::string m = check_result(reference::reduce(op, x, axes), read(*tb.be, fn(*tb.be, xv, axes)), 2.0);
      EXPECT_TRUE(m.empty()) << m;
    });
  }
}

// The CPU kernel documents its summation error (src/cpu/reduce.cpp): (40 + log2 n) eps sum|x|
// when the reduced axis is the fastest in memory, (128 + n/128 + log2 n) eps sum|x| when a kept
// axis is (column-major axis 1 here). Far tighter than the generic n-eps bound: a plain running
// f32 sum of 2^22 values fails it.
TEST(ReduceConformance, CpuFloatSumsArePairwiseAccurate) {
  const TestBackend tb = test_backends()[0];
  ASSERT_EQ(tb.name, "cpu");
  std::mt19937_64 rng(3);
  for (DType d : {DType::F32, DType::C32, DType::F64}) {
    for (const Shape& s : {Shape{1 << 22}, Shape{1 << 11, 1 << 11}}) {
      const RefTensor x = random_ref(d, s, rng, LayoutCase::compact, RandomSpec{0.0, 1.0});
      const TensorView xv = place(*tb.be, x, LayoutCase::compact);
      for (const Axes& axes : {Axes{0}, Axes{static_cast<std::int64_t>(s.size()) - 1}, Axes{}}) {
        if (axes.empty() && s.size() == 1) continue;
        Axes all;
        for (std::size_t a = 0; a < s.size(); ++a) all.push_back(static_cast<std::int64_t>(a));
        const Axes& ax = axes.empty() ? all : axes;
        SCOPED_TRACE(std::string(dtype_name(d)) + " shape " + axes_str(s) + " axes " + axes_str(ax));
        const auto want = reference::reduce(OpId::reduce_sum, x, ax);
        const double n = static_cast<double>(want.count);
        const bool outer = s.size() == 2 && axes == Axes{1};
        const double c = (outer ? 128.0 + n / 128.0 + std::log2(n) : 40.0 + std::log2(n)) / n;
        const std::string m = check_result(want, read(*tb.be, reduce_sum(*tb.be, xv, ax)), c);
        EXPECT_TRUE(m.empty()) << m;
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::test
