// Conformance of the elementwise, analytic, cast and fusion families: every op x backend x
// contract-allowed dtype x layout case x standard shape against the reference oracle
// (tests/reference/elementwise.*), plus edge values the random cases cannot reach (wrapping,
// MIN / -1, zero divisors, NaN, casts out of range, the rank-0 broadcasting rules, fusion).
// A (backend, op, dtype) the backend does not run must be a declared gap and raise unsupported.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends.hpp"
#include "elementwise.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

constexpr std::uint64_t kSeed = 0x7e4fe1e3;

// ---- helpers -----------------------------------------------------------------------------------

/// One op as the tests enumerate it: compare is expanded into its six directions.
struct OpCase {
  OpId op;
  CompareDir dir = CompareDir::EQ;
  std::string name() const {
    std::string n(op_name(op));
    return op == OpId::compare ? n + "_" + std::string(compare_dir_name(dir)) : n;
  }
};

std::vector<OpCase> elementwise_cases() {
  std::vector<OpCase> out;
  for (const OpInfo& o : all_ops()) {
    if (!is_elementwise(o.id)) continue;
    if (o.id != OpId::compare) {
      out.push_back({o.id});
      continue;
    }
    for (int k = 0; k < 6; ++k) out.push_back({o.id, static_cast<CompareDir>(k)});
  }
  return out;
}

std::size_t arity(OpId op) {
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic: return 1;
    case OpFamily::binary:
    case OpFamily::compare: return 2;
    default: return 3;
  }
}

/// Input ranges per op, dtype and argument: analytic domains (positive reals for log/sqrt/rsqrt),
/// nonzero divisors, pow bases in [0.5, 2] with small exponents (integers: 0..5), and integral
/// float values where ties matter (compare, max/min, clamp, sign).
RandomSpec spec_for(OpId op, DType d, std::size_t arg) {
  RandomSpec s;
  const bool cx = is_complex(d);
  if (is_integer(d)) {
    s.lo = -1000, s.hi = 1000;
    if ((op == OpId::div || op == OpId::rem) && arg == 1) s = {-20, 20, true, true};
    if (op == OpId::pow) s = arg == 0 ? RandomSpec{-5, 5, true, false} : RandomSpec{0, 5, true, false};
    return s;
  }
  switch (op) {
    case OpId::log:
    case OpId::sqrt:
    case OpId::rsqrt:
      if (!cx) s.lo = 0.05, s.hi = 4;
      break;
    case OpId::log1p: s.lo = cx ? -0.8 : -0.9, s.hi = cx ? 2 : 3; break;
    case OpId::erf: s.lo = -3, s.hi = 3; break;
    case OpId::div:
    case OpId::rem: s.nonzero = arg == 1; break;
    case OpId::pow:
      if (arg == 0) s.lo = 0.5, s.hi = 2;
      else s.lo = cx ? -1 : -2, s.hi = cx ? 1 : 2;
      break;
    case OpId::compare:
    case OpId::maximum:
    case OpId::minimum:
    case OpId::clamp:
    case OpId::select:
    case OpId::sign: s = {-3, 3, true, false}; break;
    default: break;
  }
  return s;
}

/// Tolerances relative to max(|want|, 1): exact for integers and bools; 4 ulp for arithmetic and
/// real analytic ops (f32 computed in float by the math library); 8 ulp for complex analytic
/// ops and complex pow, where std::complex (and the reference's independent expm1/log1p
/// identities) are looser. Measured maxima over 10^5 random inputs on the CPU: real f32 1 ulp,
/// c32 2.7 ulp (tanh), c64 2.9 ulp (expm1/log1p), everything else exact or < 1.1 ulp.
Tol tol_for(OpId op, DType d) {
  if (!is_inexact(d)) return {0, 0};
  const OpFamily f = op_info(op).family;
  if ((f == OpFamily::analytic || op == OpId::pow) && is_complex(d)) return ulp_tol(d, 8);
  return ulp_tol(d, 4);
}

/// random_ref with F32/C32 values rounded again (see ref::put: GCC 12.2 can drop the rounding
/// inside random_ref, so the reference would see values the tensor cannot hold).
RefTensor rand_ref(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc = LayoutCase::compact,
                   RandomSpec spec = {}) {
  return ref::rounded(random_ref(d, shape, rng, lc, spec));
}

std::string trace(const std::string& be, const std::string& op, DType d, const std::string& extra = "") {
  return be + " " + op + "/" + std::string(dtype_name(d)) + (extra.empty() ? "" : " " + extra);
}

std::string shape_str(const Shape& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

/// Runs f and expects an Error of `kind` from `op`.
void expect_error(ErrorKind kind, const std::string& op, const std::function<void()>& f) {
  try {
    f();
    ADD_FAILURE() << "expected " << error_kind_name(kind) << " from " << op << ", got no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.op(), op) << e.what();
  }
}

/// Checks `run` against the reference `want_fn`. When the reference says the op must fail
/// (RefError), the op must raise that kind naming `op`.
void check_case(Backend& be, const std::string& op, const std::function<RefTensor()>& want_fn,
                const std::function<Tensor()>& run, Tol tol) {
  std::optional<RefTensor> want;
  std::optional<ref::RefError> err;
  try {
    want = want_fn();
  } catch (const ref::RefError& e) {
    err = e;
  }
  if (err) {
    expect_error(err->kind, op, [&] { (void)run(); });
    return;
  }
  try {
    const Tensor got = run();
    TENFERRO_EXPECT_MATCH(*want, read(be, got), tol);
  } catch (const Error& e) {
    ADD_FAILURE() << "unexpected error: " << e.what();
  }
}

/// False (after checking the declared gap and the unsupported error of `probe`) when tb does
/// not run op on d; true when the case must run.
bool runs_or_declared_gap(const TestBackend& tb, OpId op, DType d, const std::function<void()>& probe) {
  if (tb.be->supports(op, d)) return true;
  EXPECT_EQ(check_gap_declaration(tb, op, d), "");
  expect_error(ErrorKind::unsupported, std::string(op_name(op)), probe);
  return false;
}

/// Random inputs of an op case (select's pred is Bool) in layout cases rotating from lc.
std::vector<RefTensor> random_inputs(const OpCase& c, DType d, const Shape& shape, std::mt19937_64& rng,
                                     std::size_t lc_index) {
  std::vector<RefTensor> refs;
  for (std::size_t j = 0; j < arity(c.op); ++j) {
    const DType dj = c.op == OpId::select && j == 0 ? DType::Bool : d;
    const LayoutCase lc = kAllLayouts[(lc_index + j) % std::size(kAllLayouts)];
    refs.push_back(rand_ref(dj, shape, rng, lc, spec_for(c.op, d, j)));
  }
  return refs;
}

std::vector<TensorView> place_all(Backend& be, const std::vector<RefTensor>& refs, std::size_t lc_index) {
  std::vector<TensorView> views;
  for (std::size_t j = 0; j < refs.size(); ++j)
    views.push_back(place(be, refs[j], kAllLayouts[(lc_index + j) % std::size(kAllLayouts)]));
  return views;
}

/// The generic entry point with a braced list of inputs.
Tensor ew(Backend& be, OpId op, const std::vector<TensorView>& ins, CompareDir dir = CompareDir::EQ) {
  return elementwise(be, op, ins, dir);
}

/// A tensor on be holding ref's values (compact).
TensorView on(Backend& be, const RefTensor& r) { return place(be, r, LayoutCase::compact); }

RefTensor values(DType d, const std::vector<double>& xs) {
  RefTensor r(d, {static_cast<std::int64_t>(xs.size())});
  for (std::size_t i = 0; i < xs.size(); ++i) ref::put(r, static_cast<std::int64_t>(i), c64(xs[i], 0.0));
  return r;
}
RefTensor ints(DType d, const std::vector<std::int64_t>& xs) {
  RefTensor r(d, {static_cast<std::int64_t>(xs.size())});
  for (std::size_t i = 0; i < xs.size(); ++i) r.set_int(static_cast<std::int64_t>(i), xs[i]);
  return r;
}
RefTensor scalar(DType d, c64 x) {
  RefTensor r(d, {});
  if (r.exact()) r.set_int(0, static_cast<std::int64_t>(x.real()));
  else ref::put(r, 0, x);
  return r;
}

std::int64_t imin(DType d) {
  return d == DType::I32 ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int64_t>::min();
}
std::int64_t imax(DType d) {
  return d == DType::I32 ? std::numeric_limits<std::int32_t>::max() : std::numeric_limits<std::int64_t>::max();
}

// ---- every op x backend x dtype x layout x shape -----------------------------------------------

class ElementwiseConformance : public ::testing::TestWithParam<OpCase> {};

TEST_P(ElementwiseConformance, MatchesReferenceOnEveryLayoutAndShape) {
  const OpCase c = GetParam();
  const std::string name(op_name(c.op));
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : kAllDTypes) {
      SCOPED_TRACE(trace(tb.name, c.name(), d));
      std::mt19937_64 rng(kSeed ^ (static_cast<std::uint64_t>(c.op) << 8) ^ (static_cast<std::uint64_t>(c.dir) << 4) ^
                          static_cast<std::uint64_t>(d));
      auto probe = [&] {
        std::vector<RefTensor> refs = random_inputs(c, d, {2}, rng, 0);
        (void)elementwise(be, c.op, place_all(be, refs, 0), c.dir);
      };
      const bool ordered_on_complex =
          c.op == OpId::compare && is_complex(d) && c.dir != CompareDir::EQ && c.dir != CompareDir::NE;
      if (!contract_allows(c.op, d) || ordered_on_complex) {
        expect_error(ErrorKind::unsupported, name, probe);  // Bool arithmetic, complex ordering, ...
        continue;
      }
      if (!runs_or_declared_gap(tb, c.op, d, probe)) continue;
      for (std::size_t l = 0; l < std::size(kAllLayouts); ++l) {
        for (const Shape& shape : standard_shapes()) {
          SCOPED_TRACE("layout " + layout_name(kAllLayouts[l]) + " shape " + shape_str(shape));
          const std::vector<RefTensor> refs = random_inputs(c, d, shape, rng, l);
          const std::vector<TensorView> views = place_all(be, refs, l);
          check_case(
              be, name, [&] { return ref::elementwise(c.op, refs, c.dir); },
              [&] { return elementwise(be, c.op, views, c.dir); }, tol_for(c.op, d));
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, ElementwiseConformance, ::testing::ValuesIn(elementwise_cases()),
                         [](const ::testing::TestParamInfo<OpCase>& i) { return i.param.name(); });

// The named public functions are thin wrappers over the same lowering as elementwise(); check
// they dispatch to the right op.
TEST(ElementwiseDispatch, NamedFunctionsMatchGenericDispatch) {
  using U = Tensor (*)(Backend&, const TensorView&);
  using B = Tensor (*)(Backend&, const TensorView&, const TensorView&);
  const std::pair<OpId, U> unary[] = {{OpId::neg, neg},     {OpId::conj, conj},   {OpId::abs, abs},
                                      {OpId::sign, sign},   {OpId::exp, exp},     {OpId::log, log},
                                      {OpId::sin, sin},     {OpId::cos, cos},     {OpId::tanh, tanh},
                                      {OpId::sqrt, sqrt},   {OpId::rsqrt, rsqrt}, {OpId::expm1, expm1},
                                      {OpId::log1p, log1p}, {OpId::erf, erf}};
  const std::pair<OpId, B> binary[] = {{OpId::add, add}, {OpId::sub, sub},         {OpId::mul, mul},
                                       {OpId::div, div}, {OpId::rem, rem},         {OpId::pow, pow},
                                       {OpId::maximum, maximum}, {OpId::minimum, minimum}};
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    std::mt19937_64 rng(kSeed + 1);
    const DType d = DType::F64;
    for (const auto& [op, f] : unary) {
      if (!be.supports(op, d)) continue;  // gaps are checked by the main conformance test
      SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
      const RefTensor x = rand_ref(d, {5, 2}, rng, LayoutCase::compact, spec_for(op, d, 0));
      TENFERRO_EXPECT_MATCH(ref::unary(op, x), read(be, f(be, on(be, x))), tol_for(op, d));
    }
    for (const auto& [op, f] : binary) {
      if (!be.supports(op, d)) continue;
      SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
      const RefTensor x = rand_ref(d, {5, 2}, rng, LayoutCase::compact, spec_for(op, d, 0));
      const RefTensor y = rand_ref(d, {5, 2}, rng, LayoutCase::compact, spec_for(op, d, 1));
      TENFERRO_EXPECT_MATCH(ref::binary(op, x, y), read(be, f(be, on(be, x), on(be, y))), tol_for(op, d));
    }
  }
}

// ---- edge values -------------------------------------------------------------------------------

TEST(ElementwiseEdges, IntegerArithmeticWraps) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::I32, DType::I64}) {
      const std::int64_t mn = imin(d), mx = imax(d);
      const RefTensor a = ints(d, {mx, mn, mx, mn, mx / 2 + 7, -3, 0});
      const RefTensor b = ints(d, {1, -1, mx, mn, 5, mn, mn});
      for (OpId op : {OpId::add, OpId::sub, OpId::mul}) {
        SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
        if (!runs_or_declared_gap(tb, op, d, [&] { (void)ew(be, op, {on(be, a), on(be, b)}); })) continue;
        const RefTensor got = read(be, ew(be, op, {on(be, a), on(be, b)}));
        TENFERRO_EXPECT_MATCH(ref::binary(op, a, b), got, Tol{});
        if (op == OpId::add) {
          EXPECT_EQ(got.iv[0], mn) << "MAX + 1 wraps to MIN";
        }
      }
      for (OpId op : {OpId::neg, OpId::abs}) {
        SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
        if (!runs_or_declared_gap(tb, op, d, [&] { (void)ew(be, op, {on(be, a)}); })) continue;
        const RefTensor got = read(be, ew(be, op, {on(be, a)}));
        TENFERRO_EXPECT_MATCH(ref::unary(op, a), got, Tol{});
        EXPECT_EQ(got.iv[1], mn) << "neg(MIN) and abs(MIN) wrap to MIN";
      }
      // pow wraps too: 3^41 overflows both widths.
      const RefTensor base = ints(d, {3, -3, 2, mn, -1, 0, 7});
      const RefTensor ex = ints(d, {41, 41, 40, 2, 5, 0, 0});
      if (runs_or_declared_gap(tb, OpId::pow, d, [&] { (void)pow(be, on(be, base), on(be, ex)); }))
        TENFERRO_EXPECT_MATCH(ref::binary(OpId::pow, base, ex), read(be, pow(be, on(be, base), on(be, ex))), Tol{});
    }
  }
}

TEST(ElementwiseEdges, MinDividedByMinusOne) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::I32, DType::I64}) {
      const std::int64_t mn = imin(d);
      const RefTensor a = ints(d, {mn, mn, 7, -7, 7, -7, mn});
      const RefTensor b = ints(d, {-1, 1, 2, 2, -2, -2, mn});
      for (OpId op : {OpId::div, OpId::rem}) {
        SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
        if (!runs_or_declared_gap(tb, op, d, [&] { (void)ew(be, op, {on(be, a), on(be, b)}); })) continue;
        const RefTensor got = read(be, ew(be, op, {on(be, a), on(be, b)}));
        TENFERRO_EXPECT_MATCH(ref::binary(op, a, b), got, Tol{});
        EXPECT_EQ(got.iv[0], op == OpId::div ? mn : 0) << "MIN / -1 = MIN, MIN % -1 = 0";
      }
    }
  }
}

// A zero divisor or negative exponent anywhere (also in the multi-threaded path) is
// numerical_failure naming the op; inputs stay unchanged and the backend keeps working.
TEST(ElementwiseEdges, ZeroDivisorAndNegativeExponentAreNumericalFailures) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::I32, DType::I64}) {
      for (OpId op : {OpId::div, OpId::rem, OpId::pow}) {
        for (std::int64_t n : {std::int64_t{5}, std::int64_t{40000}}) {
          SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d, "n=" + std::to_string(n)));
          std::mt19937_64 rng(kSeed + static_cast<std::uint64_t>(n));
          const RefTensor a = rand_ref(d, {n}, rng, LayoutCase::compact, spec_for(op, d, 0));
          RefTensor b = rand_ref(d, {n}, rng, LayoutCase::compact, spec_for(op, d, 1));
          b.set_int(n - 1 - n / 3, op == OpId::pow ? -2 : 0);
          const TensorView va = place(be, a, LayoutCase::negative_stride), vb = on(be, b);
          if (!runs_or_declared_gap(tb, op, d, [&] { (void)ew(be, op, {va, vb}); })) continue;
          expect_error(ErrorKind::numerical_failure, std::string(op_name(op)), [&] {
            (void)ew(be, op, {va, vb});
            be.synchronize();
          });
          TENFERRO_EXPECT_MATCH(a, read(be, va), Tol{});
          TENFERRO_EXPECT_MATCH(b, read(be, vb), Tol{});
          const RefTensor one = ints(d, {1, 2, 3});
          TENFERRO_EXPECT_MATCH(ref::binary(OpId::add, one, one), read(be, add(be, on(be, one), on(be, one))), Tol{});
        }
      }
    }
  }
}

TEST(ElementwiseEdges, NaNPropagatesThroughMaxMinClampAndSign) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F32, DType::F64}) {
      const RefTensor a = values(d, {nan, 1, nan, -0.0, 0.0, inf, -inf, 2});
      const RefTensor b = values(d, {1, nan, nan, 0.0, -0.0, 1, 1, 3});
      const RefTensor c = values(d, {0, 0, 0, 0, 0, 0, 0, nan});
      for (OpId op : {OpId::maximum, OpId::minimum}) {
        SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
        if (!runs_or_declared_gap(tb, op, d, [&] { (void)ew(be, op, {on(be, a), on(be, b)}); })) continue;
        const RefTensor got = read(be, ew(be, op, {on(be, a), on(be, b)}));
        TENFERRO_EXPECT_MATCH(ref::binary(op, a, b), got, Tol{});
        for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(got.v[static_cast<std::size_t>(i)].real())) << i;
      }
      SCOPED_TRACE(trace(tb.name, "clamp/sign", d));
      if (runs_or_declared_gap(tb, OpId::clamp, d, [&] { (void)clamp(be, on(be, a), on(be, c), on(be, b)); })) {
        // NaN in x, in lower (last element of c) and in upper (b) all propagate.
        const RefTensor got = read(be, clamp(be, on(be, a), on(be, c), on(be, b)));
        TENFERRO_EXPECT_MATCH(ref::clamp(a, c, b), got, Tol{});
        EXPECT_TRUE(std::isnan(got.v[7].real()));
      }
      if (runs_or_declared_gap(tb, OpId::sign, d, [&] { (void)sign(be, on(be, a)); })) {
        const RefTensor got = read(be, sign(be, on(be, a)));
        TENFERRO_EXPECT_MATCH(ref::unary(OpId::sign, a), got, Tol{});
        EXPECT_TRUE(std::isnan(got.v[0].real())) << "sign(NaN) is NaN";
        EXPECT_EQ(got.v[5].real(), 1.0);
        EXPECT_EQ(got.v[6].real(), -1.0);
      }
    }
  }
}

// maximum / minimum are IEEE 754-2019's (StableHLO's): -0 < +0, so a result never depends on
// the order of evaluation. Checked bit for bit (the tolerance compare treats the zeros as equal)
// in every op that compares floats: maximum, minimum, clamp, reduce_max / reduce_min (over rows
// of mixed zeros, in both orders) and scatter's max / min combiners.
TEST(ElementwiseEdges, MaxMinOrderSignedZerosInEveryComparingOp) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F32, DType::F64}) {
      SCOPED_TRACE(trace(tb.name, "signed zeros", d));
      if (!be.supports(OpId::maximum, d)) continue;
      const auto signs = [&](const Tensor& t) {
        std::vector<bool> s;
        for (const c64& v : read(be, t).v) {
          EXPECT_EQ(v.real(), 0.0);
          s.push_back(std::signbit(v.real()));
        }
        return s;
      };
      const RefTensor a = values(d, {-0.0, 0.0, -0.0, 0.0}), b = values(d, {0.0, -0.0, -0.0, 0.0});
      EXPECT_EQ(signs(ew(be, OpId::maximum, {on(be, a), on(be, b)})), (std::vector<bool>{false, false, true, false}));
      EXPECT_EQ(signs(ew(be, OpId::minimum, {on(be, a), on(be, b)})), (std::vector<bool>{true, true, true, false}));
      // clamp(x, lo, hi) = min(max(x, lo), hi): -0 clamped from below at +0 is +0, +0 from above at -0 is -0.
      const RefTensor x = values(d, {-0.0, 0.0}), lo = values(d, {0.0, -1.0}), hi = values(d, {1.0, -0.0});
      EXPECT_EQ(signs(clamp(be, on(be, x), on(be, lo), on(be, hi))), (std::vector<bool>{false, true}));
      // Rows [-0, +0, -0, ...] and [+0, -0, +0, ...] of 3 and of 300 elements (tree reductions).
      for (std::int64_t n : {3, 300}) {
        RefTensor m(d, {2, n});
        for (std::int64_t j = 0; j < n; ++j) {
          ref::put(m, j * 2, c64(j % 2 ? 0.0 : -0.0, 0.0));
          ref::put(m, j * 2 + 1, c64(j % 2 ? -0.0 : 0.0, 0.0));
        }
        EXPECT_EQ(signs(reduce_max(be, on(be, m), {1})), (std::vector<bool>{false, false})) << n;
        EXPECT_EQ(signs(reduce_min(be, on(be, m), {1})), (std::vector<bool>{true, true})) << n;
      }
      // scatter into [-0, +0] of updates [+0, -0] at rows 0 and 1, max then min.
      RefTensor idx(DType::I64, {2, 1});
      idx.set_int(0, 0);
      idx.set_int(1, 1);
      ScatterConfig cfg;
      cfg.inserted_window_dims = {0};
      cfg.scatter_dims_to_operand_dims = {0};
      cfg.index_vector_dim = 1;
      const RefTensor op = values(d, {-0.0, 0.0}), up = values(d, {0.0, -0.0});
      cfg.combiner = ScatterCombiner::max;
      EXPECT_EQ(signs(scatter(be, on(be, op), on(be, idx), on(be, up), cfg)), (std::vector<bool>{false, false}));
      cfg.combiner = ScatterCombiner::min;
      EXPECT_EQ(signs(scatter(be, on(be, op), on(be, idx), on(be, up), cfg)), (std::vector<bool>{true, true}));
    }
  }
}

TEST(ElementwiseEdges, AbsAndSignOfComplex) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::C32, DType::C64}) {
      SCOPED_TRACE(trace(tb.name, "abs/sign", d));
      RefTensor z(d, {4});
      ref::put(z, 0, c64(3, -4));
      ref::put(z, 1, c64(0, 0));
      ref::put(z, 2, c64(-1e-30, 0));
      ref::put(z, 3, c64(0, 2.5));
      if (runs_or_declared_gap(tb, OpId::abs, d, [&] { (void)abs(be, on(be, z)); })) {
        const Tensor got = abs(be, on(be, z));
        EXPECT_EQ(got.dtype(), real_dtype(d));
        TENFERRO_EXPECT_MATCH(ref::unary(OpId::abs, z), read(be, got), ulp_tol(real_dtype(d)));
      }
      if (runs_or_declared_gap(tb, OpId::sign, d, [&] { (void)sign(be, on(be, z)); }))
        TENFERRO_EXPECT_MATCH(ref::unary(OpId::sign, z), read(be, sign(be, on(be, z))), ulp_tol(d));
    }
  }
}

TEST(ElementwiseEdges, CompareEveryDirectionWithNaNAndTies) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : kAllDTypes) {
      RefTensor a(d, {6}), b(d, {6});
      const double av[] = {1, 2, 3, nan, 0, -1}, bv[] = {1, 3, 2, nan, nan, -1};
      for (std::int64_t i = 0; i < 6; ++i) {
        const bool special = std::isnan(av[i]) || std::isnan(bv[i]);
        const double x = special && !is_inexact(d) ? 0 : av[i], y = special && !is_inexact(d) ? 1 : bv[i];
        if (a.exact()) a.set_int(i, d == DType::Bool ? (i % 2) : static_cast<std::int64_t>(x));
        else ref::put(a, i, c64(x, is_complex(d) ? 0.5 : 0));
        if (b.exact()) b.set_int(i, d == DType::Bool ? (i / 2 % 2) : static_cast<std::int64_t>(y));
        else ref::put(b, i, c64(y, is_complex(d) ? 0.5 : 0));
      }
      for (int k = 0; k < 6; ++k) {
        const auto dir = static_cast<CompareDir>(k);
        SCOPED_TRACE(trace(tb.name, "compare_" + std::string(compare_dir_name(dir)), d));
        const bool allowed = !is_complex(d) || dir == CompareDir::EQ || dir == CompareDir::NE;
        if (!allowed) {
          expect_error(ErrorKind::unsupported, "compare", [&] { (void)compare(be, on(be, a), on(be, b), dir); });
          continue;
        }
        if (!runs_or_declared_gap(tb, OpId::compare, d, [&] { (void)compare(be, on(be, a), on(be, b), dir); }))
          continue;
        const Tensor got = compare(be, on(be, a), on(be, b), dir);
        EXPECT_EQ(got.dtype(), DType::Bool);
        TENFERRO_EXPECT_MATCH(ref::binary(OpId::compare, a, b, dir), read(be, got), Tol{});
      }
    }
  }
}

// A rank-0 pred (select) and rank-0 bounds (clamp) broadcast over the other operands.
TEST(ElementwiseEdges, RankZeroPredAndBoundsBroadcast) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : kAllDTypes) {
      std::mt19937_64 rng(kSeed + 7 + static_cast<std::uint64_t>(d));
      for (LayoutCase lc : kAllLayouts) {
        const Shape shape{4, 3};
        SCOPED_TRACE(trace(tb.name, "select/clamp", d, layout_name(lc)));
        const RefTensor t = rand_ref(d, shape, rng, lc, spec_for(OpId::select, d, 1));
        const RefTensor f = rand_ref(d, shape, rng, lc, spec_for(OpId::select, d, 2));
        for (int p = 0; p < 2; ++p) {
          const RefTensor pred = scalar(DType::Bool, c64(p, 0));
          if (!runs_or_declared_gap(tb, OpId::select, d,
                                    [&] { (void)select(be, on(be, pred), place(be, t, lc), on(be, f)); }))
            break;
          TENFERRO_EXPECT_MATCH(ref::select(pred, t, f), read(be, select(be, on(be, pred), place(be, t, lc), on(be, f))),
                                Tol{});
        }
        if (!contract_allows(OpId::clamp, d)) continue;
        const RefTensor lo = scalar(d, c64(-1, 0)), hi = scalar(d, c64(1, 0));
        const RefTensor lo_full = rand_ref(d, shape, rng, lc, spec_for(OpId::clamp, d, 1));
        if (!runs_or_declared_gap(tb, OpId::clamp, d,
                                  [&] { (void)clamp(be, place(be, t, lc), on(be, lo), on(be, hi)); }))
          continue;
        TENFERRO_EXPECT_MATCH(ref::clamp(t, lo, hi), read(be, clamp(be, place(be, t, lc), on(be, lo), on(be, hi))), Tol{});
        TENFERRO_EXPECT_MATCH(ref::clamp(t, lo_full, hi),
                              read(be, clamp(be, place(be, t, lc), place(be, lo_full, lc), on(be, hi))), Tol{});
        TENFERRO_EXPECT_MATCH(ref::clamp(t, lo, lo_full),
                              read(be, clamp(be, place(be, t, lc), on(be, lo), place(be, lo_full, lc))), Tol{});
      }
    }
  }
}

// A rank-0 operand of a binary op or compare broadcasts against the other operand, on either
// side, for every dtype the op allows, every layout of the other operand and empty shapes.
TEST(ElementwiseEdges, RankZeroOperandBroadcastsOnEitherSide) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (const OpCase& c : elementwise_cases()) {
      if (arity(c.op) != 2) continue;
      const std::string name(op_name(c.op));
      for (DType d : kAllDTypes) {
        const bool ordered_on_complex =
            c.op == OpId::compare && is_complex(d) && c.dir != CompareDir::EQ && c.dir != CompareDir::NE;
        if (!contract_allows(c.op, d) || ordered_on_complex || !tb.be->supports(c.op, d)) continue;
        std::mt19937_64 rng(kSeed + 23 + (static_cast<std::uint64_t>(c.op) << 8) +
                            (static_cast<std::uint64_t>(c.dir) << 4) + static_cast<std::uint64_t>(d));
        for (const Shape& shape : {Shape{3, 4}, Shape{5}, Shape{0, 2}, Shape{}}) {
          for (LayoutCase lc : kAllLayouts) {
            SCOPED_TRACE(trace(tb.name, c.name(), d, shape_str(shape) + " " + layout_name(lc)));
            const RefTensor t0 = rand_ref(d, shape, rng, lc, spec_for(c.op, d, 0));
            const RefTensor t1 = rand_ref(d, shape, rng, lc, spec_for(c.op, d, 1));
            const RefTensor s0 = rand_ref(d, {}, rng, LayoutCase::compact, spec_for(c.op, d, 0));
            const RefTensor s1 = rand_ref(d, {}, rng, LayoutCase::compact, spec_for(c.op, d, 1));
            check_case(
                be, name, [&] { return ref::binary(c.op, s0, t1, c.dir); },
                [&] { return ew(be, c.op, {on(be, s0), place(be, t1, lc)}, c.dir); }, tol_for(c.op, d));
            check_case(
                be, name, [&] { return ref::binary(c.op, t0, s1, c.dir); },
                [&] { return ew(be, c.op, {place(be, t0, lc), on(be, s1)}, c.dir); }, tol_for(c.op, d));
          }
        }
      }
    }
  }
}

// add/sub/mul/div accept a rank-0 real scalar with a complex tensor of the same precision, on
// either side; the result is complex with the tensor's shape.
TEST(ElementwiseEdges, RealScalarWithComplexTensor) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType cd : {DType::C32, DType::C64}) {
      const DType rd = real_dtype(cd);
      std::mt19937_64 rng(kSeed + 11 + static_cast<std::uint64_t>(cd));
      for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::div}) {
        for (const Shape& shape : standard_shapes()) {
          for (LayoutCase lc : kAllLayouts) {
            SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), cd, shape_str(shape) + " " + layout_name(lc)));
            const RefTensor z = rand_ref(cd, shape, rng, lc);
            const RefTensor s = rand_ref(rd, {}, rng, LayoutCase::compact, {0.5, 2});
            if (!runs_or_declared_gap(tb, op, cd, [&] { (void)ew(be, op, {on(be, s), place(be, z, lc)}); }))
              continue;
            check_case(
                be, std::string(op_name(op)), [&] { return ref::binary(op, s, z); },
                [&] { return ew(be, op, {on(be, s), place(be, z, lc)}); }, tol_for(op, cd));
            check_case(
                be, std::string(op_name(op)), [&] { return ref::binary(op, z, s); },
                [&] { return ew(be, op, {place(be, z, lc), on(be, s)}); }, tol_for(op, cd));
          }
        }
      }
    }
  }
}

// A backend without cast kernels: the CPU backend with cast and convert reported unsupported.
// Core must then promote the real scalar with fill + copy.
class NoCastBackend final : public Backend {
 public:
  explicit NoCastBackend(Backend& inner) : in_(inner) {}
  std::string name() const override { return "nocast"; }
  std::string device_name() const override { return in_.device_name(); }
  DomainId domain() const override { return in_.domain(); }
  Placement placement() const override { return in_.placement(); }
  bool supports(OpId op, DType d) const override {
    return op != OpId::cast && op != OpId::convert && in_.supports(op, d);
  }
  bool is_host() const override { return in_.is_host(); }
  Tensor allocate(DType d, const Shape& s) override { return in_.allocate(d, s); }
  Tensor upload(const TensorView& t) override { return in_.upload(t); }
  Tensor download(const TensorView& t) override { return in_.download(t); }
  void fill(const TensorView& o, const Scalar& v) override { in_.fill(o, v); }
  void copy(const TensorView& s, const TensorView& d) override { in_.copy(s, d); }
  void cast(const TensorView&, const TensorView&, const char* op, bool) override {
    TENFERRO_FAIL(internal, op, "", "NoCastBackend::cast must not be called");
  }
  void elementwise(OpId op, std::span<const TensorView> ins, const TensorView& o, CompareDir dir) override {
    in_.elementwise(op, ins, o, dir);
  }
  void reduce(OpId op, const TensorView& x, const Axes& a, const TensorView& o) override { in_.reduce(op, x, a, o); }
  void gemm(const GemmCall& c) override { in_.gemm(c); }
  void triangular(const TensorView& x, std::int64_t k, bool l, const TensorView& o) override {
    in_.triangular(x, k, l, o);
  }
  void gather(const TensorView& a, const TensorView& i, const GatherConfig& c, const TensorView& o) override {
    in_.gather(a, i, c, o);
  }
  void scatter(const TensorView& o, const TensorView& i, const TensorView& u, const ScatterConfig& c) override {
    in_.scatter(o, i, u, c);
  }

 private:
  Backend& in_;
};

TEST(ElementwiseEdges, RealScalarWithComplexTensorWithoutCastKernels) {
  NoCastBackend be(cpu_backend());
  for (DType cd : {DType::C32, DType::C64}) {
    std::mt19937_64 rng(kSeed + 31 + static_cast<std::uint64_t>(cd));
    for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::div}) {
      for (LayoutCase lc : kAllLayouts) {
        SCOPED_TRACE(trace("nocast", std::string(op_name(op)), cd, layout_name(lc)));
        const RefTensor z = rand_ref(cd, {4, 3}, rng, lc);
        const RefTensor s = rand_ref(real_dtype(cd), {}, rng, LayoutCase::compact, {0.5, 2});
        check_case(
            be, std::string(op_name(op)), [&] { return ref::binary(op, s, z); },
            [&] { return ew(be, op, {on(be, s), place(be, z, lc)}); }, tol_for(op, cd));
        check_case(
            be, std::string(op_name(op)), [&] { return ref::binary(op, z, s); },
            [&] { return ew(be, op, {place(be, z, lc), on(be, s)}); }, tol_for(op, cd));
      }
    }
    // Casts themselves are then unsupported, before any work.
    const RefTensor z = rand_ref(cd, {2}, rng);
    expect_error(ErrorKind::unsupported, "cast", [&] { (void)cast(be, on(be, z), DType::C64); });
    expect_error(ErrorKind::unsupported, "convert", [&] { (void)convert(be, on(be, z), DType::C64); });
  }
}

// Analytic ops near zero, where naive formulas cancel: expm1/log1p must stay accurate.
TEST(ElementwiseEdges, Expm1AndLog1pAccurateNearZero) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64}) {
      RefTensor x(d, {8});
      const double mags[] = {1e-12, -3e-9, 2e-6, -1e-4, 0.01, 1e-20, -0.3, 0.4};
      for (std::int64_t i = 0; i < 8; ++i)
        ref::put(x, i, c64(mags[i], is_complex(d) ? -0.7 * mags[(i + 3) % 8] : 0.0));
      for (OpId op : {OpId::expm1, OpId::log1p}) {
        SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d));
        if (!runs_or_declared_gap(tb, op, d, [&] { (void)ew(be, op, {on(be, x)}); })) continue;
        // Relative to |want| itself (values are tiny): a naive exp(z) - 1 fails this badly.
        const RefTensor want = ref::unary(op, x), got = read(be, ew(be, op, {on(be, x)}));
        for (std::int64_t i = 0; i < 8; ++i) {
          const c64 w = want.v[static_cast<std::size_t>(i)], g = got.v[static_cast<std::size_t>(i)];
          EXPECT_LE(std::abs(g - w), tol_for(op, d).rtol * std::abs(w)) << "element " << i << ": got " << g
                                                                          << ", expected " << w;
        }
      }
    }
  }
}

// Large tensors take the multi-threaded path (rows split across threads, and one long row
// split into chunks).
TEST(ElementwiseEdges, ParallelPathMatchesReference) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    // Both above kParallelThreshold (2^15 elements).
    for (const Shape& shape : {Shape{260, 130}, Shape{40000}}) {
      for (DType d : {DType::F64, DType::F32, DType::I32, DType::C64}) {
        std::mt19937_64 rng(kSeed + 13);
        for (OpId op : {OpId::add, OpId::div, OpId::exp}) {
          if (!contract_allows(op, d)) continue;
          const OpCase c{op};
          for (std::size_t l : {std::size_t{0}, std::size_t{4}}) {
            SCOPED_TRACE(trace(tb.name, c.name(), d, shape_str(shape) + " " + layout_name(kAllLayouts[l])));
            const std::vector<RefTensor> refs = random_inputs(c, d, shape, rng, l);
            const std::vector<TensorView> views = place_all(be, refs, l);
            if (!runs_or_declared_gap(tb, op, d, [&] { (void)elementwise(be, op, views); })) continue;
            check_case(
                be, c.name(), [&] { return ref::elementwise(op, refs); }, [&] { return elementwise(be, op, views); },
                tol_for(op, d));
          }
        }
      }
    }
  }
}

// Transposed or reversed operands broadcast over a large output (the CPU backend re-lays such
// an operand in the output's axis order first: einsum's batched outer products, out[j,k,o,t] =
// a[k,j,t] * b[o,t]), on either side and in every dtype family, against the reference.
TEST(ElementwiseEdges, TransposedBroadcastOperandsMatchReference) {
  const Shape out_shape{16, 8, 32, 8};  // 32768 elements, a large op
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F64, DType::F32, DType::C64, DType::I32}) {
      std::mt19937_64 rng(kSeed + 29);
      for (OpId op : {OpId::mul, OpId::sub}) {
        const RefTensor ra = rand_ref(d, {8, 16, 8}, rng, LayoutCase::compact, spec_for(op, d, 0));
        const RefTensor rb = rand_ref(d, {32, 8}, rng, LayoutCase::compact, spec_for(op, d, 1));
        const TensorView a = on(be, ra), b = on(be, rb);
        // a[k,j,t] seen as [j,k,o,t]: transposed (stride 8 along the output's unit axis), then
        // also reversed along it (negative stride); b[o,t] broadcast along j and k.
        const TensorView at = a.transpose({1, 0, 2}).broadcast_in_dim(out_shape, {0, 1, 3});
        const TensorView ar = a.transpose({1, 0, 2}).reverse({0}).broadcast_in_dim(out_shape, {0, 1, 3});
        const TensorView bb = b.broadcast_in_dim(out_shape, {2, 3});
        const std::pair<TensorView, TensorView> pairs[] = {{at, bb}, {bb, at}, {ar, bb}, {bb, ar}};
        const char* names[] = {"transposed lhs", "transposed rhs", "reversed lhs", "reversed rhs"};
        for (std::size_t i = 0; i < std::size(pairs); ++i) {
          const auto& [x, y] = pairs[i];
          SCOPED_TRACE(trace(tb.name, std::string(op_name(op)), d, names[i]));
          const std::vector<RefTensor> refs{read(be, x), read(be, y)};
          check_case(
              be, std::string(op_name(op)), [&] { return ref::elementwise(op, refs); },
              [&] { return ew(be, op, {x, y}); }, tol_for(op, d));
        }
      }
    }
  }
}

// ---- casts -------------------------------------------------------------------------------------

TEST(CastConformance, EveryPairMatchesReference) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType from : kAllDTypes) {
      for (DType to : kAllDTypes) {
        std::mt19937_64 rng(kSeed + 17 + 8 * static_cast<std::uint64_t>(from) + static_cast<std::uint64_t>(to));
        SCOPED_TRACE(trace(tb.name, "cast", from, "to " + std::string(dtype_name(to))));
        const RefTensor probe = rand_ref(from, {2}, rng);
        if (!runs_or_declared_gap(tb, OpId::cast, from, [&] { (void)cast(be, on(be, probe), to); }) ||
            !runs_or_declared_gap(tb, OpId::cast, to, [&] { (void)cast(be, on(be, probe), to); }))
          continue;
        for (std::size_t l = 0; l < std::size(kAllLayouts); ++l) {
          for (const Shape& shape : standard_shapes()) {
            SCOPED_TRACE(layout_name(kAllLayouts[l]) + " " + shape_str(shape));
            // Integral and fractional values, zeros included, all in range of every dtype.
            const RefTensor x = rand_ref(from, shape, rng, kAllLayouts[l], {-100.75, 100.75, l % 2 == 0, false});
            const TensorView v = place(be, x, kAllLayouts[l]);
            check_case(
                be, "cast", [&] { return ref::cast(x, to); }, [&] { return cast(be, v, to); }, ulp_tol(to, 1));
          }
        }
      }
    }
  }
}

// Float to integer: truncation toward zero at the range limits; NaN, infinities and values
// whose truncation does not fit are invalid_argument naming "cast".
TEST(CastConformance, FloatToIntegerRangeAndSpecialValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> probes = {nan, inf, -inf, 2147483648.0, -2147483649.0, 3e9, -1e19,
                                      9223372036854775808.0, -9.3e18, 1e30};
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType from : {DType::F32, DType::F64, DType::C32, DType::C64}) {
      for (DType to : {DType::I32, DType::I64, DType::Bool}) {
        SCOPED_TRACE(trace(tb.name, "cast", from, "to " + std::string(dtype_name(to))));
        if (!runs_or_declared_gap(tb, OpId::cast, from, [&] { (void)cast(be, on(be, values(from, {1})), to); }) ||
            !runs_or_declared_gap(tb, OpId::cast, to, [&] { (void)cast(be, on(be, values(from, {1})), to); }))
          continue;
        // In range: truncation toward zero, including values next to the limits.
        const std::vector<double> ok =
            to == DType::I32 ? std::vector<double>{2147483520.0, -2147483648.0, -2.9, 2.9, -0.5, 0.0}
                             : std::vector<double>{9223371487098961920.0, -9223372036854775808.0, -2.9, 2.9, -0.5, 0.0};
        check_case(
            be, "cast", [&] { return ref::cast(values(from, ok), to); },
            [&] { return cast(be, on(be, values(from, ok)), to); }, Tol{});
        for (double p : probes) {
          SCOPED_TRACE("value " + std::to_string(p));
          const RefTensor x = values(from, {1.0, p, -3.5});
          check_case(
              be, "cast", [&] { return ref::cast(x, to); }, [&] { return cast(be, place(be, x, LayoutCase::negative_stride), to); },
              Tol{});
        }
      }
    }
  }
}

// Special values through every other cast: NaN and signed zeros to Bool, complex parts, Bool to
// numbers, large i64 to f32 (one rounding).
TEST(CastConformance, SpecialValuesToBoolRealAndComplex) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType from : {DType::F32, DType::F64, DType::C32, DType::C64}) {
      RefTensor x(from, {6});
      const c64 zs[] = {{nan, 0}, {-0.0, 0}, {0, -0.0}, {inf, 1}, {0, 2}, {-1e-30, 0}};
      for (std::int64_t i = 0; i < 6; ++i) ref::put(x, i, is_complex(from) ? zs[i] : c64(zs[i].real(), 0));
      for (DType to : {DType::Bool, DType::F32, DType::F64, DType::C32, DType::C64}) {
        SCOPED_TRACE(trace(tb.name, "cast", from, "to " + std::string(dtype_name(to))));
        if (!runs_or_declared_gap(tb, OpId::cast, from, [&] { (void)cast(be, on(be, x), to); }) ||
            !runs_or_declared_gap(tb, OpId::cast, to, [&] { (void)cast(be, on(be, x), to); }))
          continue;
        check_case(
            be, "cast", [&] { return ref::cast(x, to); }, [&] { return cast(be, on(be, x), to); }, Tol{});
      }
    }
    for (DType from : {DType::I64, DType::I32, DType::Bool}) {
      const RefTensor x = from == DType::Bool ? ints(from, {0, 1, 1, 0})
                                              : ints(from, {imax(from), imin(from), (std::int64_t{1} << 24) + 1, -7});
      for (DType to : kAllDTypes) {
        SCOPED_TRACE(trace(tb.name, "cast", from, "to " + std::string(dtype_name(to))));
        if (!runs_or_declared_gap(tb, OpId::cast, from, [&] { (void)cast(be, on(be, x), to); }) ||
            !runs_or_declared_gap(tb, OpId::cast, to, [&] { (void)cast(be, on(be, x), to); }))
          continue;
        check_case(
            be, "cast", [&] { return ref::cast(x, to); }, [&] { return cast(be, on(be, x), to); }, Tol{});
      }
    }
  }
}

// convert follows the promotion lattice: allowed pairs equal cast, the others are unsupported.
TEST(CastConformance, ConvertFollowsTheLattice) {
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType from : kAllDTypes) {
      for (DType to : kAllDTypes) {
        SCOPED_TRACE(trace(tb.name, "convert", from, "to " + std::string(dtype_name(to))));
        std::mt19937_64 rng(kSeed + 19);
        for (const Shape& shape : {Shape{}, Shape{0}, Shape{5, 3}}) {
          const RefTensor x = rand_ref(from, shape, rng, LayoutCase::transposed, {-50, 50});
          auto run = [&] { return convert(be, place(be, x, LayoutCase::transposed), to); };
          if (!convert_allowed(from, to)) {
            expect_error(ErrorKind::unsupported, "convert", [&] { (void)run(); });
            continue;
          }
          if (!runs_or_declared_gap(tb, OpId::convert, from, [&] { (void)run(); }) ||
              !runs_or_declared_gap(tb, OpId::convert, to, [&] { (void)run(); }))
            break;
          check_case(
              be, "convert", [&] { return ref::convert(x, to); }, run, Tol{});
        }
      }
    }
  }
}

// ---- fusion ------------------------------------------------------------------------------------

// exp(sin(x) * y + 1) over broadcast views equals the unfused chain and the reference.
TEST(FusionConformance, ChainOnBroadcastViewsEqualsUnfusedChain) {
  FusionPlan plan;
  plan.steps = {{OpId::sin, {-1}}, {OpId::mul, {0, -2}}, {OpId::add, {1, -3}}, {OpId::exp, {2}}};
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64}) {
      std::mt19937_64 rng(kSeed + 23 + static_cast<std::uint64_t>(d));
      for (const Shape& shape : {Shape{4, 3}, Shape{0, 3}, Shape{1, 1}, Shape{200, 170}}) {
        SCOPED_TRACE(trace(tb.name, "fused", d, shape_str(shape)));
        // x varies along axis 0 only, y along axis 1 only, 1 is a rank-0 broadcast.
        const TensorView x = on(be, rand_ref(d, {shape[0]}, rng, LayoutCase::compact, {-1, 1})).broadcast_in_dim(shape, {0});
        const TensorView y = on(be, rand_ref(d, {shape[1]}, rng, LayoutCase::compact, {-1, 1})).broadcast_in_dim(shape, {1});
        const TensorView one = on(be, scalar(d, c64(1, 0))).broadcast_in_dim(shape, {});
        const std::vector<TensorView> ins{x, y, one};
        bool all = true;
        for (const FusionStep& s : plan.steps) all = all && be.supports(s.op, d);
        if (!all) {
          expect_error(ErrorKind::unsupported, "fused", [&] { (void)fused(be, plan, ins); });
          continue;
        }
        const RefTensor got = read(be, fused(be, plan, ins));
        const Tensor unfused = exp(be, add(be, mul(be, sin(be, x), y), one));
        TENFERRO_EXPECT_MATCH(read(be, unfused), got, tol_for(OpId::exp, d));
        // Against the reference the chain's rounding errors add up and exp amplifies the
        // absolute error of its argument (|arg| <= ~2.5 here): allow 4 steps' worth.
        const Tol chain{4 * 2.5 * tol_for(OpId::exp, d).rtol, 0};
        TENFERRO_EXPECT_MATCH(ref::fused(plan, {read(be, x), read(be, y), read(be, one)}), got, chain);
      }
    }
  }
}

// Rank-0 inputs broadcast against the others, as in the unfused ops: sin(x) + s * t, where the
// step s * t has only rank-0 arguments; all inputs rank 0 give a rank-0 result. A real rank-0
// input meeting a complex tensor (which the unfused op promotes) is refused, naming fused.
TEST(FusionConformance, RankZeroInputsBroadcastLikeTheUnfusedChain) {
  FusionPlan plan;
  plan.steps = {{OpId::mul, {-2, -3}}, {OpId::sin, {-1}}, {OpId::add, {1, 0}}};
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F32, DType::F64, DType::C64}) {
      std::mt19937_64 rng(kSeed + 31 + static_cast<std::uint64_t>(d));
      const TensorView s = on(be, scalar(d, c64(0.75, 0))), t = on(be, scalar(d, c64(-1.5, 0)));
      for (const Shape& shape : {Shape{5, 3}, Shape{}, Shape{0, 4}}) {
        SCOPED_TRACE(trace(tb.name, "fused", d, shape_str(shape)));
        const TensorView x = on(be, rand_ref(d, shape, rng, LayoutCase::compact, {-1, 1}));
        const std::vector<TensorView> ins{x, s, t};
        const Tensor got = fused(be, plan, ins);
        EXPECT_EQ(got.shape(), shape);
        const Tensor unfused = add(be, sin(be, x), mul(be, s, t));
        TENFERRO_EXPECT_MATCH(read(be, unfused), read(be, got), tol_for(OpId::sin, d));
        const RefTensor sb = read(be, s.broadcast_in_dim(shape, {})), tb_ = read(be, t.broadcast_in_dim(shape, {}));
        TENFERRO_EXPECT_MATCH(ref::fused(plan, {read(be, x), sb, tb_}), read(be, got), tol_for(OpId::sin, d));
      }
      // A rank-1 input of another shape is a shape_mismatch, as in the unfused ops.
      const TensorView x = on(be, rand_ref(d, {5, 3}, rng));
      const TensorView wrong = on(be, rand_ref(d, {3}, rng));
      expect_error(ErrorKind::shape_mismatch, "fused", [&] { (void)fused(be, plan, std::vector<TensorView>{x, s, wrong}); });
    }
    // f64 scalar times a c64 tensor: the unfused mul promotes, the fused plan refuses.
    std::mt19937_64 rng(kSeed + 37);
    const TensorView z = on(be, rand_ref(DType::C64, {4}, rng));
    const TensorView r = on(be, scalar(DType::F64, c64(2, 0)));
    FusionPlan scale;
    scale.steps = {{OpId::mul, {-1, -2}}};
    expect_error(ErrorKind::unsupported, "fused", [&] { (void)fused(be, scale, std::vector<TensorView>{z, r}); });
    EXPECT_EQ(mul(be, z, r).dtype(), DType::C64);
  }
}

// Chains whose steps change dtype (compare -> Bool -> select, abs of complex -> real) infer
// each step's dtype like the unfused op.
TEST(FusionConformance, DtypeChangingStepsMatchReference) {
  FusionPlan clampish;  // select(x > y, x - y, y * y)
  clampish.steps = {{OpId::compare, {-1, -2}, CompareDir::GT},
                    {OpId::sub, {-1, -2}},
                    {OpId::mul, {-2, -2}},
                    {OpId::select, {0, 1, 2}}};
  FusionPlan modulus;  // sqrt(abs(z) + abs(w))
  modulus.steps = {{OpId::abs, {-1}}, {OpId::abs, {-2}}, {OpId::add, {0, 1}}, {OpId::sqrt, {2}}};
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    std::mt19937_64 rng(kSeed + 29);
    for (LayoutCase lc : kAllLayouts) {
      for (DType d : {DType::I32, DType::I64, DType::F64}) {
        SCOPED_TRACE(trace(tb.name, "fused select chain", d, layout_name(lc)));
        const RefTensor a = rand_ref(d, {6, 5}, rng, lc, {-4, 4, true}), b = rand_ref(d, {6, 5}, rng, lc, {-4, 4, true});
        check_case(
            be, "fused", [&] { return ref::fused(clampish, {a, b}); },
            [&] { return fused(be, clampish, std::vector<TensorView>{place(be, a, lc), place(be, b, lc)}); },
            tol_for(OpId::mul, d));
      }
      for (DType d : {DType::C32, DType::C64}) {
        SCOPED_TRACE(trace(tb.name, "fused modulus chain", d, layout_name(lc)));
        const RefTensor z = rand_ref(d, {6, 5}, rng, lc), w = rand_ref(d, {6, 5}, rng, lc);
        check_case(
            be, "fused", [&] { return ref::fused(modulus, {z, w}); },
            [&] { return fused(be, modulus, std::vector<TensorView>{place(be, z, lc), place(be, w, lc)}); },
            tol_for(OpId::sqrt, real_dtype(d)));
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::test
