// Accuracy of the WebGPU backend's analytic kernels and pow. Real f32: every 2^12-th bit
// pattern (2^21 inputs with a neighbour each, both signs, subnormals, infinities and NaN
// included; TENFERRO_WEBGPU_SWEEP_STEP for a denser run), plus huge and near-multiple-of-pi/2
// arguments for sin / cos, compared with the double-precision std:: function rounded to f32
// (correctly rounded but for double rounding, which costs at most half an ulp more than the
// correct rounding): each function within 2 ulp of it, ulp taken at the result (2^-149 below the
// normal range), sqrt correctly rounded, special values exactly (NaN for NaN, infinities and
// zeros with their signs). f32 pow the same over ten exponents. c32: special and extreme values
// against the CPU backend and std::complex<double>. Functions the backend does not run are
// listed and skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/dtype.hpp"
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

/// Every 2^12-th f32 bit pattern (TENFERRO_WEBGPU_SWEEP_STEP: every step-th, for a denser run)
/// and a neighbour, both signs.
std::vector<float> sweep() {
  std::vector<float> v;
  const char* env = std::getenv("TENFERRO_WEBGPU_SWEEP_STEP");
  const std::uint64_t step = env != nullptr ? std::max<std::uint64_t>(std::strtoull(env, nullptr, 10), 2) : 4096;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += step) {
    v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u)));
    v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u + 1 + (u >> 12) % (step - 1))));
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

/// op on the backend, in chunks of 2^22 elements.
std::vector<float> run_on(Backend& be, OpId op, const std::vector<float>& xs, const std::vector<float>* ys) {
  std::vector<float> out;
  constexpr std::size_t kChunk = std::size_t{1} << 22;
  for (std::size_t at = 0; at < xs.size(); at += kChunk) {
    const std::size_t n = std::min(kChunk, xs.size() - at);
    const Shape shape{static_cast<std::int64_t>(n)};
    const auto part = [&](const std::vector<float>& v) { return std::vector<float>(v.begin() + at, v.begin() + at + n); };
    const Tensor x = upload(be, host_tensor<float>(shape, part(xs)));
    std::vector<TensorView> in{x};
    Tensor y;
    if (ys != nullptr) {
      y = upload(be, host_tensor<float>(shape, part(*ys)));
      in.push_back(y);
    }
    const std::vector<float> r = to_vector<float>(elementwise(be, op, in));
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
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
    if (f.op == OpId::sqrt) {  // correctly rounded (the double sqrt rounded to f32 is)
      std::size_t off = 0;
      for (std::size_t i = 0; i < in.size(); ++i)
        if (std::bit_cast<std::uint32_t>(got[i]) != std::bit_cast<std::uint32_t>(static_cast<float>(f.ref(in[i]))) &&
            !(std::isnan(got[i]) && std::isnan(in[i] < 0 ? NAN : f.ref(in[i]))))
          ++off;
      EXPECT_EQ(off, 0u) << "sqrt results not correctly rounded";
    }
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

// The c32 analytic ops and pow on every pair of parts from special and extreme values: NaN and
// infinite parts where the CPU backend (std::complex<float>) has them; finite results within 8
// ulp normwise (the conformance tolerance) of the same function in std::complex<double> (pow:
// exp(b log a)), where that is finite too (else of the CPU's). pow with |b log a| > 2^12 is
// checked for its special values only: its condition number is about |b log a| (an ulp of b
// turns the angle by |b log a| 2^-24), so neither f32 result nor double reference is accurate.
std::complex<double> precise(OpId op, std::complex<double> z, std::complex<double> w) {
  switch (op) {
    case OpId::exp: return std::exp(z);
    case OpId::expm1: return std::abs(z) < 0.5 ? std::complex<double>(std::expm1(z.real()) * std::cos(z.imag()) -
                                                                          2 * std::pow(std::sin(z.imag() / 2), 2),
                                                                      std::exp(z.real()) * std::sin(z.imag()))
                                                 : std::exp(z) - 1.0;
    case OpId::log: return std::log(z);
    case OpId::log1p: return std::log(1.0 + z);
    case OpId::sin: return std::sin(z);
    case OpId::cos: return std::cos(z);
    case OpId::tanh: return std::tanh(z);
    case OpId::sqrt: return std::sqrt(z);
    case OpId::rsqrt: return 1.0 / std::sqrt(z);
    default: return z == 0.0 || w == 0.0 ? std::complex<double>(NAN, NAN) : std::exp(w * std::log(z));
  }
}

TEST(WebGpuAnalyticAccuracy, ComplexSpecialAndExtremeValuesMatchTheCpu) {
  Backend* be = webgpu();
  if (be == nullptr) GTEST_SKIP() << "no WebGPU adapter";
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> parts = {0.0f,   -0.0f, 1.0f,  -1.0f, 0.5f,    -2.5f,  1e-40f, -3e-39f, 1e-20f,
                                    100.0f, -90.0f, 3e38f, -2e38f, 1e19f, 1e5f,    inf,    -inf,   nan};
  std::vector<std::complex<float>> zs;
  for (float re : parts)
    for (float im : parts) zs.emplace_back(re, im);
  const Shape shape{static_cast<std::int64_t>(zs.size())};
  Backend& cpu = get_backend("cpu", -1);
  const Tensor host = host_tensor<std::complex<float>>(shape, zs);
  const Tensor dev = upload(*be, host);
  std::vector<std::complex<float>> ws;  // pow exponents: the same values, rotated
  for (std::size_t i = 0; i < zs.size(); ++i) ws.push_back(zs[(i * 7 + 3) % zs.size()]);
  const Tensor host_w = host_tensor<std::complex<float>>(shape, ws);
  const Tensor dev_w = upload(*be, host_w);
  for (OpId op : {OpId::exp, OpId::expm1, OpId::log, OpId::log1p, OpId::sin, OpId::cos, OpId::tanh, OpId::sqrt,
                  OpId::rsqrt, OpId::pow}) {
    const bool bin = op == OpId::pow;
    std::vector<TensorView> hin{host}, din{dev};
    if (bin) hin.push_back(host_w), din.push_back(dev_w);
    const auto want = to_vector<std::complex<float>>(elementwise(cpu, op, hin));
    const auto got = to_vector<std::complex<float>>(elementwise(*be, op, din));
    int bad = 0;
    double worst = 0;
    for (std::size_t i = 0; i < zs.size(); ++i) {
      const std::complex<double> w = want[i], g = got[i];
      auto part_ok = [](double wp, double gp) {
        if (std::isnan(wp)) return std::isnan(gp);
        if (std::isinf(wp)) return wp == gp;
        return std::isfinite(gp);
      };
      bool ok = part_ok(w.real(), g.real()) && part_ok(w.imag(), g.imag());
      if (ok && std::isfinite(w.real()) && std::isfinite(w.imag())) {
        const std::complex<double> x = zs[i], d = precise(op, x, ws[i]);
        const std::complex<double> r = std::isfinite(d.real()) && std::isfinite(d.imag()) ? d : w;
        const bool conditioned = !bin || std::abs(std::complex<double>(ws[i]) * std::log(x)) <= 4096;
        const double e = conditioned ? std::abs(g - r) / (1.1920929e-7 * std::max(std::abs(r), 1.0)) : 0;
        worst = std::max(worst, e);
        ok = e <= 8;
      }
      if (!ok && ++bad <= 5)
        ADD_FAILURE() << op_name(op) << "(" << zs[i] << (bin ? ", " : "") << (bin ? ws[i] : std::complex<float>())
                      << "): got " << got[i] << ", the CPU " << want[i];
    }
    std::printf("c32 %-6s %d of %zu differ; max %.3f eps normwise where finite\n", std::string(op_name(op)).c_str(), bad,
                zs.size(), worst);
  }
}

}  // namespace
}  // namespace tenferro
