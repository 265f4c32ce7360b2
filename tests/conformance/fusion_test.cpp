// Fusion plans (SEMANTICS.md "Fusion": results equal to the unfused chain) on random plans:
// every dtype the elementwise families take, chains of unary, analytic, binary, compare, select
// and clamp steps over inputs in every layout case (compact, transposed, broadcast, offset,
// negative stride, rank 0 broadcast against the others, empty), half of them ending in a
// reduction. fused() is compared bit for bit (a NaN matching any NaN) with the same steps run
// one by one through the unfused ops (float sums and products of a reduction, which the
// contract reassociates, within the reordering bound) (each of which the elementwise
// conformance tests check against the reference). Where a backend runs a plan as one kernel
// (the Vulkan provider's generated kernels), its profile shows one dispatch for it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/backends.hpp"
#include "support/ref.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

constexpr std::uint64_t kSeed = 0x5eedf05e;

// A value of a plan under construction: its argument id and whether it is Bool.
struct Value {
  int arg;
  bool boolean;
};

bool ordered(DType d) { return !is_complex(d); }

// The ops a random step may take on dtype d (the contract's dtype classes, ops.def). Integer
// div, rem and pow are left out: their errors (division by zero, negative exponents) are
// checked on their own below.
std::vector<OpId> step_ops(Backend& be, DType d) {
  std::vector<OpId> ops;
  for (OpId op : {OpId::neg, OpId::conj, OpId::abs, OpId::sign, OpId::add, OpId::sub, OpId::mul, OpId::maximum,
                  OpId::minimum, OpId::compare, OpId::select, OpId::clamp}) {
    if (!ordered(d) && (op == OpId::maximum || op == OpId::minimum || op == OpId::clamp)) continue;
    if (is_complex(d) && op == OpId::abs) continue;  // a real result: no longer the plan's dtype
    ops.push_back(op);
  }
  if (is_inexact(d)) {
    for (OpId op : {OpId::div, OpId::pow, OpId::exp, OpId::log, OpId::sin, OpId::cos, OpId::tanh, OpId::sqrt,
                    OpId::rsqrt, OpId::expm1, OpId::log1p, OpId::erf, OpId::rem}) {
      if ((op == OpId::erf || op == OpId::rem) && !ordered(d)) continue;
      ops.push_back(op);
    }
  }
  std::vector<OpId> supported;
  for (OpId op : ops)
    if (be.supports(op, d)) supported.push_back(op);
  return supported;
}

// A random plan of `nsteps` over `nin` inputs of dtype d and, when `bool_input`, a Bool input
// last (a predicate). Steps prefer recent values, so that most plans are chains.
FusionPlan random_plan(const std::vector<OpId>& ops, DType d, int nin, bool bool_input, int nsteps,
                       std::mt19937_64& rng) {
  std::vector<Value> values;
  for (int i = 0; i < nin; ++i) values.push_back({-i - 1, false});
  if (bool_input) values.push_back({-nin - 1, true});
  auto pick = [&](bool boolean) -> int {
    std::vector<int> c;
    for (const Value& v : values)
      if (v.boolean == boolean) c.push_back(v.arg);
    if (c.empty()) return 0;
    // Half of the picks take the newest candidate.
    if (rng() % 2 == 0) return c.back();
    return c[rng() % c.size()];
  };
  auto has_bool = [&] {
    for (const Value& v : values)
      if (v.boolean) return true;
    return false;
  };
  FusionPlan plan;
  for (int k = 0; k < nsteps; ++k) {
    OpId op = ops[rng() % ops.size()];
    if (op == OpId::select && !has_bool()) op = OpId::compare;
    // The last step yields the result: mostly a T value.
    if (k == nsteps - 1 && op == OpId::compare && rng() % 4 != 0) op = OpId::add;
    FusionStep s{op, {}, CompareDir::EQ};
    switch (op_info(op).family) {
      case OpFamily::compare:
        s.dir = ordered(d) ? static_cast<CompareDir>(rng() % 6) : (rng() % 2 ? CompareDir::EQ : CompareDir::NE);
        s.args = {pick(false), pick(false)};
        break;
      case OpFamily::select: s.args = {pick(true), pick(false), pick(false)}; break;
      case OpFamily::clamp: s.args = {pick(false), pick(false), pick(false)}; break;
      case OpFamily::binary: s.args = {pick(false), pick(false)}; break;
      default: s.args = {pick(false)}; break;
    }
    plan.steps.push_back(s);
    values.push_back({k, op == OpId::compare});
  }
  return plan;
}

// Random values with the special ones of floating dtypes mixed in: signed zeros, infinities,
// NaN, f32 subnormals, large magnitudes.
RefTensor random_values(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc) {
  RandomSpec spec;
  spec.lo = is_integer(d) ? -40 : -3;
  spec.hi = is_integer(d) ? 40 : 3;
  RefTensor r = random_ref(d, shape, rng, lc, spec);
  if (!is_inexact(d) || lc == LayoutCase::broadcast) return r;  // (broadcast: values tied along axis 0)
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {0.0, -0.0, inf, -inf, std::nan(""), 1e-40, -3e-39, 1e30, 0.5, 1.0};
  for (std::int64_t i = 0; i < r.numel(); ++i)
    if (rng() % 4 == 0) {
      const double re = specials[rng() % std::size(specials)];
      r.set(i, is_complex(d) ? c64(re, specials[rng() % std::size(specials)]) : c64(re, 0));
    }
  return r;
}

// The bytes of a tensor's elements in colex order (a compact host copy).
std::vector<std::byte> bytes_of(Backend& be, const TensorView& t) {
  const Tensor h = be.download(to_contiguous(be, t));
  const std::size_t n = static_cast<std::size_t>(t.numel()) * dtype_size(t.dtype());
  std::vector<std::byte> b(n);
  if (n > 0) std::memcpy(b.data(), h.storage()->host_data() + h.layout().offset * dtype_size(t.dtype()), n);
  return b;
}

// Whether the `es` bytes at p are a float NaN of dtype d (complex: per part).
bool is_nan_at(DType d, const std::byte* p) {
  if (d == DType::F32 || d == DType::C32) {
    float x;
    std::memcpy(&x, p, 4);
    return std::isnan(x);
  }
  double x;
  std::memcpy(&x, p, 8);
  return std::isnan(x);
}

// "" when a and b hold the same bytes, but that a NaN matches any NaN (the sign and payload of a
// NaN result are not specified, and compilers choose them), else the first element that
// differs, in hex.
std::string first_difference(Backend& be, const TensorView& a, const TensorView& b) {
  const std::vector<std::byte> x = bytes_of(be, a), y = bytes_of(be, b);
  if (x.size() != y.size()) return "sizes differ";
  const DType d = a.dtype();
  const std::size_t es = dtype_size(d), part = is_complex(d) ? es / 2 : es;
  for (std::size_t i = 0; i < x.size(); i += part) {
    if (std::memcmp(&x[i], &y[i], part) == 0) continue;
    if (is_inexact(d) && is_nan_at(d, &x[i]) && is_nan_at(d, &y[i])) continue;
    const std::size_t e = i / es * es;
    std::ostringstream s;
    s << "element " << e / es << " of " << x.size() / es << ": ";
    for (const auto* v : {&x, &y}) {
      for (std::size_t k = es; k-- > 0;) s << std::hex << std::setw(2) << std::setfill('0') << std::to_integer<int>((*v)[e + k]);
      s << (v == &x ? " fused, " : " unfused");
    }
    return s.str();
  }
  return "";
}

// The plan's steps (and its reduction) through the unfused ops, as SEMANTICS.md defines
// fusion's result.
Tensor unfused(Backend& be, const FusionPlan& plan, const std::vector<TensorView>& inputs) {
  std::vector<Tensor> results;
  for (const FusionStep& s : plan.steps) {
    std::vector<TensorView> args;
    for (int a : s.args)
      args.push_back(a >= 0 ? TensorView(results[static_cast<std::size_t>(a)]) : inputs[static_cast<std::size_t>(-a - 1)]);
    results.push_back(elementwise(be, s.op, args, s.dir));
  }
  if (plan.reduce && !plan.reduce_axes.empty()) return reduce(be, *plan.reduce, results.back(), plan.reduce_axes);
  return results.back();
}

// A reduction the plan's result allows (of its dtype and shape), or none, at random.
void maybe_reduce(Backend& be, FusionPlan& plan, DType d, const Shape& shape, std::mt19937_64& rng) {
  if (shape.empty() || rng() % 2 == 0) return;
  for (std::int64_t e : shape)
    if (e == 0) return;
  std::vector<OpId> ops{OpId::reduce_sum, OpId::reduce_prod};
  if (ordered(d)) ops.insert(ops.end(), {OpId::reduce_max, OpId::reduce_min});
  const OpId op = ops[rng() % ops.size()];
  if (!be.supports(op, d)) return;
  Axes axes;
  for (std::int64_t a = static_cast<std::int64_t>(shape.size()) - 1; a >= 0; --a)  // any order
    if (rng() % 2 == 0) axes.push_back(a);
  if (axes.empty()) axes.push_back(static_cast<std::int64_t>(rng() % shape.size()));
  plan.reduce = op;
  plan.reduce_axes = axes;
}

std::string describe(const FusionPlan& plan) {
  std::ostringstream s;
  for (const FusionStep& st : plan.steps) {
    s << op_name(st.op) << "(";
    for (int a : st.args) s << (a < 0 ? 'x' : 'v') << (a < 0 ? -a - 1 : a) << ' ';
    s << ") ";
  }
  if (plan.reduce) {
    s << op_name(*plan.reduce) << " over";
    for (std::int64_t a : plan.reduce_axes) s << ' ' << a;
  }
  return s.str();
}

TEST(FusionRandomPlans, BitForBitTheUnfusedChainInEveryDtypeAndLayout) {
  const Shape shapes[] = {{37, 5}, {3, 4, 5}, {}, {0, 4}, {1, 1}, {1000}, {300, 70}};
  for (const TestBackend& tb : test_backends()) {
    Backend& be = *tb.be;
    for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64, DType::I32, DType::I64}) {
      const std::vector<OpId> ops = step_ops(be, d);
      if (ops.empty()) continue;
      std::mt19937_64 rng(kSeed + static_cast<std::uint64_t>(d));
      for (int trial = 0; trial < 14; ++trial) {
        const int nin = 1 + static_cast<int>(rng() % 3);
        const bool bool_input = rng() % 3 == 0;
        FusionPlan plan = random_plan(ops, d, nin, bool_input, 1 + static_cast<int>(rng() % 6), rng);
        const Shape& shape = shapes[trial % std::size(shapes)];
        if (plan.steps.back().op != OpId::compare) maybe_reduce(be, plan, d, shape, rng);
        std::vector<TensorView> ins;
        for (int i = 0; i < nin + (bool_input ? 1 : 0); ++i) {
          const DType di = i == nin ? DType::Bool : d;
          // Rank-0 inputs broadcast against the others (one in four, never all of them).
          const bool scalar = i > 0 && rng() % 4 == 0;
          const LayoutCase lc = kAllLayouts[rng() % std::size(kAllLayouts)];
          ins.push_back(place(be, random_values(di, scalar ? Shape{} : shape, rng, lc), scalar ? LayoutCase::compact : lc));
        }
        std::ostringstream trace;
        trace << tb.name << ' ' << dtype_name(d) << " trial " << trial << ": " << describe(plan);
        SCOPED_TRACE(trace.str());
        be.profile_begin();
        const Tensor got = fused(be, plan, ins);
        const ProfileReport report = be.profile_end();
        // The unfused chain on the inputs as fused() takes them: rank-0 inputs broadcast to the
        // plan's shape (select and clamp, unfused, take equal shapes only).
        std::vector<TensorView> bins = ins;
        for (TensorView& v : bins)
          if (v.rank() == 0) v = v.broadcast_in_dim(shape, {});
        const Tensor want = unfused(be, plan, bins);
        ASSERT_EQ(got.shape(), want.shape());
        ASSERT_EQ(got.dtype(), want.dtype());
        if (plan.reduce && is_inexact(d) && (*plan.reduce == OpId::reduce_sum || *plan.reduce == OpId::reduce_prod)) {
          // Sums and products are reassociated (SEMANTICS.md): the fused reduction may order
          // them otherwise. Bound: 2 n eps sum|x| (products: 2 n eps |result|), x the chain's.
          FusionPlan chain = plan;
          chain.reduce.reset();
          const Tensor x = unfused(be, chain, bins);
          const RefTensor g = read(be, got), w = read(be, want);
          const RefTensor s = read(be, *plan.reduce == OpId::reduce_sum ? reduce_sum(be, abs(be, x), plan.reduce_axes)
                                                                         : abs(be, want));
          const double n = static_cast<double>(x.numel() / std::max<std::int64_t>(got.numel(), 1));
          const double eps = d == DType::F32 || d == DType::C32 ? 0x1p-23 : 0x1p-52;
          for (std::int64_t i = 0; i < g.numel(); ++i) {
            const c64 gv = g.v[static_cast<std::size_t>(i)], wv = w.v[static_cast<std::size_t>(i)];
            if (!std::isfinite(std::abs(wv)) || std::isnan(std::abs(gv))) {
              EXPECT_EQ(std::isnan(std::abs(gv)), std::isnan(std::abs(wv))) << "output " << i;
              continue;
            }
            EXPECT_LE(std::abs(gv - wv), 2 * n * eps * std::abs(s.v[static_cast<std::size_t>(i)])) << "output " << i;
          }
        } else {
          EXPECT_EQ(first_difference(be, got, want), "") << "fused result differs from the unfused chain";
        }
        // A backend that generates kernels runs the plan as one dispatch (with its profile).
        if (report.supported && tb.name == "vulkan" && got.numel() > 0 && !plan.reduce) {
          EXPECT_EQ(report.dispatches, 1u);
        }
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::test
