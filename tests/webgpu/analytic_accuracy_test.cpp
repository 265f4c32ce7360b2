// Accuracy of the WebGPU backend's real f32 analytic kernels (and f32 pow) over the whole f32
// range: every 2^12-th bit pattern (2^20 inputs, both signs, subnormals, infinities and NaN
// included), plus huge and near-multiple-of-pi/2 arguments for sin / cos, compared with the
// double-precision std:: function rounded to f32 (correctly rounded but for double rounding,
// which costs at most half an ulp more than the correct rounding). Each function must stay
// within 2 ulp of the rounded result, ulp taken at the result (2^-149 below the normal range);
// special values must match exactly (NaN for NaN, infinities and zeros with their signs).
// Functions the backend does not run yet are listed and skipped.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/error.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro {
namespace {

Backend* webgpu() {
  try {
    return &get_backend("webgpu", -1);
  } catch (const Error&) {
    return nullptr;
  }
}

/// The error of got against the exact value x (a double) in ulps of x's f32 binade, or a large
/// number when the special values differ.
double ulp_error(float got, double x) {
  const float want = static_cast<float>(x);
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : 1e9;
  if (std::isinf(got) || std::isinf(want)) {
    if (got == want) return 0;
    // A result rounding to the largest finite value or to infinity: distance in ulps of 2^127.
    const double big = std::ldexp(1.0, 104);
    return std::isinf(x) ? 1e9 : std::abs(static_cast<double>(got) - x) / big;
  }
  if (got == 0 && want == 0 && std::signbit(got) != std::signbit(want)) return 1e9;
  const double ax = std::abs(x);
  const int e = ax < std::ldexp(1.0, -126) ? -126 : std::ilogb(ax);
  const double ulp = std::ldexp(1.0, (e < -126 ? -126 : e) - 23);
  return std::abs(static_cast<double>(got) - x) / ulp;
}

/// Every 2^12-th f32 bit pattern and its neighbour, both signs.
std::vector<float> sweep() {
  std::vector<float> v;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += 4096) {
    v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u)));
    v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u + 1 + (u >> 12) % 4093)));
  }
  return v;
}

/// sin / cos arguments: the sweep's plus the f32 values nearest to multiples of pi/2 up to 2^20
/// (where the reduction cancels most) and a few huge values.
std::vector<float> trig_inputs() {
  std::vector<float> v = sweep();
  for (int k = 1; k < (1 << 20); k += 97) {
    const double t = k * 1.5707963267948966;
    const float f = static_cast<float>(t);
    v.insert(v.end(), {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e30f), -f});
  }
  for (float f : {1e5f, 1e10f, 1e20f, 1e30f, 3.4e38f, 1.2e38f, 8.6e37f, 2.4e18f, 9.7e25f})
    v.insert(v.end(), {f, -f});
  return v;
}

struct Fn {
  OpId op;
  std::function<double(double)> ref;
};

std::vector<float> run_on(Backend& be, OpId op, const std::vector<float>& xs, const std::vector<float>* ys) {
  const Shape shape{static_cast<std::int64_t>(xs.size())};
  const Tensor x = upload(be, host_tensor<float>(shape, xs));
  std::vector<TensorView> in{x};
  Tensor y;
  if (ys != nullptr) {
    y = upload(be, host_tensor<float>(shape, *ys));
    in.push_back(y);
  }
  return to_vector<float>(elementwise(be, op, in));
}

TEST(WebGpuAnalyticAccuracy, RealF32WithinTwoUlpEverywhere) {
  Backend* be = webgpu();
  if (be == nullptr) GTEST_SKIP() << "no WebGPU adapter";
  const std::vector<Fn> fns = {
      {OpId::exp, [](double x) { return std::exp(x); }},
      {OpId::expm1, [](double x) { return std::expm1(x); }},
      {OpId::log, [](double x) { return std::log(x); }},
      {OpId::log1p, [](double x) { return std::log1p(x); }},
      {OpId::sin, [](double x) { return std::sin(x); }},
      {OpId::cos, [](double x) { return std::cos(x); }},
      {OpId::tanh, [](double x) { return std::tanh(x); }},
      {OpId::sqrt, [](double x) { return std::sqrt(x); }},
      {OpId::rsqrt, [](double x) { return 1 / std::sqrt(x); }},
      {OpId::erf, [](double x) { return std::erf(x); }},
  };
  const std::vector<float> xs = sweep(), trig = trig_inputs();
  for (const Fn& f : fns) {
    const std::string name(op_name(f.op));
    if (!be->supports(f.op, DType::F32)) {
      std::printf("%-6s not run by the WebGPU backend yet\n", name.c_str());
      continue;
    }
    const std::vector<float>& in = f.op == OpId::sin || f.op == OpId::cos ? trig : xs;
    const std::vector<float> got = run_on(*be, f.op, in, nullptr);
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double e = ulp_error(got[i], f.ref(static_cast<double>(in[i])));
      if (e > worst) worst = e, at = i;
    }
    std::printf("%-6s max %.3f ulp over %zu inputs (at x = %a: got %a, want %a)\n", name.c_str(), worst, in.size(),
                static_cast<double>(in[at]), static_cast<double>(got[at]),
                f.ref(static_cast<double>(in[at])));
    EXPECT_LE(worst, 2.0) << name << " at x = " << in[at];
  }
}

// pow over the sweep's bases for exponents of every kind (integral, half-integral, tiny, large),
// against std::pow in double rounded to f32.
TEST(WebGpuAnalyticAccuracy, PowF32WithinTwoUlp) {
  Backend* be = webgpu();
  if (be == nullptr) GTEST_SKIP() << "no WebGPU adapter";
  if (!be->supports(OpId::pow, DType::F32)) GTEST_SKIP() << "pow not run by the WebGPU backend yet";
  const std::vector<float> base = sweep();
  double worst_all = 0;
  for (float e : {2.0f, 3.0f, -1.0f, 0.5f, -2.5f, 1e-3f, 17.25f, -130.7f, 1e6f, 3e-8f}) {
    const std::vector<float> ys(base.size(), e);
    const std::vector<float> got = run_on(*be, OpId::pow, base, &ys);
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < base.size(); ++i) {
      const double w = std::pow(static_cast<double>(base[i]), static_cast<double>(e));
      const double err = ulp_error(got[i], w);
      if (err > worst) worst = err, at = i;
    }
    std::printf("pow y = %g: max %.3f ulp (at x = %a: got %a, want %a)\n", static_cast<double>(e), worst,
                static_cast<double>(base[at]), static_cast<double>(got[at]),
                std::pow(static_cast<double>(base[at]), static_cast<double>(e)));
    EXPECT_LE(worst, 2.0) << "pow y = " << e << " at x = " << base[at];
    worst_all = std::max(worst_all, worst);
  }
  std::printf("pow    max %.3f ulp\n", worst_all);
}

}  // namespace
}  // namespace tenferro
