// Accuracy of the shader math library (shaders/common/math_*.glsl) on the Vulkan device: every
// analytic op on F32 and F64 over its whole domain (log-uniform magnitudes from subnormals to the
// overflow edges, tiny arguments of expm1/log1p, huge arguments of sin/cos) plus a smaller
// complex sweep and pow (F64, C32, C64), against long double references; the worst error in ulp is
// asserted and printed (docs/accuracy.md). Points per real function: TENFERRO_ACCURACY_POINTS
// (default 2^17 to keep CI modest; docs/accuracy.md records a 2^20 run). Also special values.
// f32 in the wide variant (f32 computed in f64: analytic_wide.glsl) is held to 1 ulp and to the
// correctly rounded result on all but 1 in 10^4 points.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {
// kernels/analytic.cpp (also declared in vulkan/backend.hpp): pow through the shader math library.
bool pow_via_math_library(VulkanBackend& be, std::span<const TensorView> inputs, const TensorView& out);
}  // namespace tenferro::vk

namespace tenferro::vktest {
namespace {

using ld = long double;
using cld = std::complex<long double>;

std::size_t points() {
  const char* s = std::getenv("TENFERRO_ACCURACY_POINTS");
  const long n = s ? std::atol(s) : 0;
  return n > 0 ? static_cast<std::size_t>(n) : (std::size_t{1} << 17);
}

// ---- ulp measurement ---------------------------------------------------------------------------
template <class F> ld ulp_of(ld ref) {
  constexpr int digits = std::numeric_limits<F>::digits;
  constexpr int emin = std::numeric_limits<F>::min_exponent - 1;  // exponent of the smallest normal
  int e = 0;
  std::frexp(ref, &e);  // ref = m 2^e, m in [0.5, 1)
  return std::ldexp(ld(1), std::max(e - 1, emin) - (digits - 1));
}

/// Error of `got` in ulp of F around the exact `ref`; special values must match exactly (0 or inf).
template <class F> ld ulp_error(F got, ld ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : std::numeric_limits<ld>::infinity();
  const F rounded = static_cast<F>(ref);
  if (std::isinf(rounded) || std::isinf(got)) return got == rounded ? 0 : std::numeric_limits<ld>::infinity();
  if (std::isnan(got)) return std::numeric_limits<ld>::infinity();
  return std::fabs(ld(got) - ref) / ulp_of<F>(ref);
}

/// Normwise complex error |got - ref| in ulp of |ref|.
template <class F> ld cplx_error(std::complex<F> got, cld ref) {
  if (!std::isfinite(ref.real()) || !std::isfinite(ref.imag())) return 0;  // not swept
  if (!std::isfinite(got.real()) || !std::isfinite(got.imag())) return std::numeric_limits<ld>::infinity();
  const ld d = std::abs(cld(got.real(), got.imag()) - ref);
  return d / ulp_of<F>(std::max(std::abs(ref), ld(std::numeric_limits<F>::min())));
}

// ---- device round trip ---------------------------------------------------------------------------
template <class E> Tensor host_tensor(DType d, const std::vector<E>& v) {
  Tensor t = cpu_backend().allocate(d, {static_cast<std::int64_t>(v.size())});
  std::memcpy(t.storage()->host_data(), v.data(), v.size() * sizeof(E));
  return t;
}
template <class E> std::vector<E> host_values(Backend& be, const Tensor& dev) {
  Tensor h = download(be, dev);
  std::vector<E> out(static_cast<std::size_t>(h.numel()));
  std::memcpy(out.data(), h.storage()->host_data(), out.size() * sizeof(E));
  return out;
}
template <class E> std::vector<E> run_unary(Backend& be, OpId op, DType d, const std::vector<E>& in) {
  Tensor x = upload(be, host_tensor(d, in));
  const TensorView xs[] = {x};
  return host_values<E>(be, elementwise(be, op, xs));
}
template <class E> std::vector<E> run_pow(Backend& be, DType d, const std::vector<E>& a, const std::vector<E>& b) {
  Tensor x = upload(be, host_tensor(d, a)), y = upload(be, host_tensor(d, b));
  const TensorView xs[] = {x, y};
  if (be.supports(OpId::pow, d)) return host_values<E>(be, elementwise(be, OpId::pow, xs));
  Tensor out = be.allocate(d, x.shape());
  if (!vk::pow_via_math_library(static_cast<vk::VulkanBackend&>(be), xs, out)) return {};
  return host_values<E>(be, out);
}

/// True when the device flushes f32 subnormals to zero (operands and results), as NVIDIA's Vulkan
/// driver does: it reports no shaderDenormPreserveFloat32, so shaders cannot ask it to keep them
/// (docs/accuracy.md). Probed through the public API: 1e-40 + 1e-40.
bool flushes_f32_subnormals(Backend& be) {
  const std::vector<float> v = {1e-40f};
  Tensor x = upload(be, host_tensor(DType::F32, v));
  const TensorView xs[] = {x, x};
  return host_values<float>(be, elementwise(be, OpId::add, xs))[0] == 0.0f;
}

// ---- inputs --------------------------------------------------------------------------------------
struct Gen {
  std::mt19937_64 rng{0x5eed0a1};
  ld uniform(ld lo, ld hi) { return lo + (hi - lo) * ld(std::uniform_real_distribution<double>(0, 1)(rng)); }
  /// |x| log-uniform in [lo, hi] (lo > 0), random sign when `sign`.
  ld logu(ld lo, ld hi, bool sign) {
    ld x = std::exp2(uniform(std::log2(lo), std::log2(hi)));
    return sign && (rng() & 1) ? -x : x;
  }
};

struct Domain {  // half the points log-uniform in magnitude, half uniform on [ulo, uhi]
  ld lo, hi;
  bool sign;
  ld ulo, uhi;
};

struct RealCase {
  OpId op;
  std::function<ld(ld)> ref;
  Domain d64, d32;
  double target;  // worst ulp allowed
};

constexpr ld kDmin = 4.9406564584124654e-324L, kFmin = 1.40129846e-45L;

std::vector<RealCase> real_cases() {
  const ld dmax = std::numeric_limits<double>::max(), fmax = std::numeric_limits<float>::max();
  return {
      {OpId::exp, [](ld x) { return std::exp(x); }, {1e-20L, 745.2L, true, -745.2L, 709.8L},
       {1e-10L, 104.0L, true, -104.0L, 88.8L}, 4},
      {OpId::log, [](ld x) { return std::log(x); }, {kDmin, dmax, false, 0.5L, 2.0L},
       {kFmin, fmax, false, 0.5L, 2.0L}, 4},
      {OpId::sin, [](ld x) { return std::sin(x); }, {kDmin, 1e300L, true, -10.0L, 10.0L},
       {kFmin, fmax, true, -10.0L, 10.0L}, 4},
      {OpId::cos, [](ld x) { return std::cos(x); }, {kDmin, 1e300L, true, -10.0L, 10.0L},
       {kFmin, fmax, true, -10.0L, 10.0L}, 4},
      {OpId::tanh, [](ld x) { return std::tanh(x); }, {kDmin, 30.0L, true, -3.0L, 3.0L},
       {kFmin, 15.0L, true, -3.0L, 3.0L}, 4},
      {OpId::sqrt, [](ld x) { return std::sqrt(x); }, {kDmin, dmax, false, 0.0L, 4.0L},
       {kFmin, fmax, false, 0.0L, 4.0L}, 2},
      {OpId::rsqrt, [](ld x) { return 1 / std::sqrt(x); }, {kDmin, dmax, false, 0.01L, 4.0L},
       {kFmin, fmax, false, 0.01L, 4.0L}, 2},
      {OpId::expm1, [](ld x) { return std::expm1(x); }, {kDmin, 709.7L, true, -40.0L, 709.7L},
       {kFmin, 88.7L, true, -20.0L, 88.7L}, 4},
      {OpId::log1p, [](ld x) { return std::log1p(x); }, {kDmin, dmax, false, -0.9999L, 3.0L},
       {kFmin, fmax, false, -0.9999L, 3.0L}, 4},
      {OpId::erf, [](ld x) { return std::erf(x); }, {kDmin, 7.0L, true, -6.0L, 6.0L},
       {kFmin, 5.0L, true, -4.0L, 4.0L}, 8},
  };
}

template <class F> std::vector<F> real_inputs(const RealCase& c, const Domain& d, std::size_t n) {
  Gen g;
  std::vector<F> v;
  v.reserve(n + 64);
  for (std::size_t i = 0; i < n; ++i) {
    ld x = i % 2 ? g.logu(d.lo, d.hi, d.sign) : g.uniform(d.ulo, d.uhi);
    if (c.op == OpId::log1p && i % 4 == 1) x = -g.logu(d.lo, 0.9999L, false);  // negative side, tiny too
    v.push_back(static_cast<F>(x));
  }
  // Edges: overflow/underflow thresholds, near multiples of pi/2, near -1 for log1p.
  for (int k = 1; k <= 32; ++k) {
    v.push_back(static_cast<F>(std::nextafter(static_cast<F>(k * 1.5707963267948966192L), F(0))));
    v.push_back(static_cast<F>(k * 355.0L));
  }
  if (c.op == OpId::exp || c.op == OpId::expm1) {
    const bool f64 = sizeof(F) == 8;
    for (ld e : {f64 ? 709.78L : 88.72L, f64 ? -708.39L : -87.33L, f64 ? -745.13L : -103.97L}) {
      for (int k = -8; k <= 8; ++k) v.push_back(static_cast<F>(e + k * (f64 ? 1e-13L : 1e-5L)));
    }
  }
  if (c.op == OpId::log1p) {
    for (int k = 1; k < 60; ++k) v.push_back(static_cast<F>(-1 + std::ldexp(ld(1), -k)));
  }
  if constexpr (sizeof(F) == 4) {
    // f32 subnormal inputs (and so subnormal results of sin, tanh, expm1, log1p, erf), inputs
    // whose exp is subnormal, and the edges of the wide variant's ranges (analytic_wide.glsl):
    // erf's switch at 2 and saturation at 3.9192 / 3.921875, tanh's at 9.0109 / 9.1, sin / cos's
    // Cody-Waite limit 2^20 and the f32 closest to a multiple of pi/2 below it, expm1's cut at
    // -40 and its k = 0 edge ln2 / 2, log1p's 2^-29, log's and sqrt's mantissa edges.
    const float edges[] = {0x1p-149f, 0x2p-149f, 0x3p-149f, 1e-45f, 1e-40f, 1e-39f, 0x1.fffffcp-127f, 0x1p-126f,
                           1e-38f, -87.34f, -87.5f, -90.0f, -95.0f, -100.0f, -103.0f, -103.9f, 2.0f, 3.9192f,
                           3.92f, 3.921875f, 9.0109f, 9.1f, 0x1p20f, 252.898209f, -40.0f, 0.34657359f,
                           0x1p-29f, 0x1p-30f, 1.0f, 1.41421354f, 0.707106769f, 4.0f, 0.5f, 1.5f, 0.25f};
    for (float e : edges) {
      for (float x : {e, std::nextafter(e, 0.0f), std::nextafter(e, 2 * e)}) {
        v.push_back(static_cast<F>(x));
        v.push_back(static_cast<F>(-x));
      }
    }
  }
  return v;
}

struct Row {
  std::string fn, dtype;
  std::size_t n;
  double worst;
  double at;
};
std::vector<Row>& table() {
  static std::vector<Row> t;
  return t;
}

void print_table() {
  std::printf("\n%-8s %-5s %10s %12s   %s\n", "op", "dtype", "points", "worst ulp", "at x");
  for (const Row& r : table()) std::printf("%-8s %-5s %10zu %12.3f   %.17g\n", r.fn.c_str(), r.dtype.c_str(), r.n, r.worst, r.at);
}

class AnalyticAccuracy : public VulkanTest {
 protected:
  template <class F> void sweep_real(const RealCase& c, DType d) {
    const Domain& dom = sizeof(F) == 8 ? c.d64 : c.d32;
    // f32 computed in f64 and rounded once (the "w" variant): within 1 ulp, erf included.
    const bool wide = sizeof(F) == 4 && vk::arith_tag(static_cast<vk::VulkanBackend&>(be()), d) == "f32w";
    const double target = wide ? 1.0 : c.target;
    const std::vector<F> in = real_inputs<F>(c, dom, points());
    const std::vector<F> got = run_unary<F>(be(), c.op, d, in);
    ASSERT_EQ(got.size(), in.size());
    ld worst = 0;
    F at = 0;
    // On a device that flushes f32 subnormals, a point whose input or exact result is subnormal
    // is held to the flushed semantics instead: the input reads as a zero of its sign, a
    // subnormal result is written as a zero. Every such point is still checked.
    const bool ftz = sizeof(F) == 4 && flushes_f32_subnormals(be());
    const ld fmin = std::numeric_limits<F>::min();
    std::size_t flushed = 0;
    // The wide variant aims at a double error near 2^-44 (analytic_wide.glsl), so its f32 result is
    // correctly rounded but where the exact value lies that close to a midpoint: at most 1 in 10^4
    // points may differ from the correctly rounded value (an error of 2^-30 would miss ~1 %).
    std::size_t misrounded = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const ld r = c.ref(ld(in[i]));
      ld e = ulp_error<F>(got[i], r);
      const bool sub_in = in[i] != 0 && std::fabs(ld(in[i])) < fmin, sub_out = r != 0 && std::fabs(r) < fmin;
      if (ftz && (sub_in || sub_out)) {
        ++flushed;
        const ld r0 = sub_in ? c.ref(std::signbit(in[i]) ? -ld(0) : ld(0)) : r;
        const bool zero_ok = got[i] == 0 && (r0 == 0 || std::fabs(r0) < fmin);
        e = std::min(e, zero_ok ? ld(0) : ulp_error<F>(got[i], r0));
      }
      if (e > worst || std::isnan(e)) worst = e, at = in[i];
      if (wide && std::isfinite(r) && got[i] != static_cast<F>(r)) ++misrounded;
    }
    if (flushed > 0)
      std::printf("%s/%s: %zu points with a subnormal input or result held to flush-to-zero semantics\n",
                  std::string(op_name(c.op)).c_str(), std::string(dtype_name(d)).c_str(), flushed);
    table().push_back({std::string(op_name(c.op)), std::string(dtype_name(d)) + (wide ? "w" : ""), in.size(), double(worst),
                       double(at)});
    EXPECT_LE(double(worst), target) << op_name(c.op) << "/" << dtype_name(d) << (wide ? " (wide)" : "")
                                     << " worst at x = " << at;
    EXPECT_LE(misrounded, in.size() / 10000) << op_name(c.op) << "/" << dtype_name(d) << " (wide): not correctly rounded";
  }
};

TEST_F(AnalyticAccuracy, RealF64) {
  for (const RealCase& c : real_cases()) sweep_real<double>(c, DType::F64);
  print_table();
}

TEST_F(AnalyticAccuracy, RealF32) {
  for (const RealCase& c : real_cases()) sweep_real<float>(c, DType::F32);
  print_table();
}

// ---- complex ---------------------------------------------------------------------------------------
cld ref_complex(OpId op, cld z) {
  switch (op) {
    case OpId::exp: return std::exp(z);
    case OpId::log: return std::log(z);
    case OpId::sin: return std::sin(z);
    case OpId::cos: return std::cos(z);
    case OpId::tanh: return std::tanh(z);
    case OpId::sqrt: return std::sqrt(z);
    case OpId::rsqrt: return ld(1) / std::sqrt(z);
    case OpId::expm1: {
      const ld x = z.real(), y = z.imag(), s = std::sin(y / 2);
      return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
    }
    default: {  // log1p
      const ld x = z.real(), y = z.imag();
      return {std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x)};
    }
  }
}

template <class F> void sweep_complex(Backend& be, DType d) {
  const std::size_t n = std::max<std::size_t>(points() / 8, 1024);
  const OpId ops[] = {OpId::exp, OpId::log, OpId::sin, OpId::cos, OpId::tanh,
                      OpId::sqrt, OpId::rsqrt, OpId::expm1, OpId::log1p};
  const bool f64 = sizeof(F) == 8;
  for (OpId op : ops) {
    Gen g;
    std::vector<std::complex<F>> in;
    for (std::size_t i = 0; i < n; ++i) {
      ld x, y;
      switch (op) {
        case OpId::exp: x = g.uniform(-60, 60), y = g.logu(1e-20L, f64 ? 1e6L : 1e4L, true); break;
        case OpId::sin:
        case OpId::cos:
        case OpId::tanh: x = g.logu(1e-20L, 40, true), y = g.logu(1e-20L, 40, true); break;
        case OpId::expm1:
        case OpId::log1p: x = g.logu(1e-30L, 2, true), y = g.logu(1e-30L, 2, true); break;
        default: x = g.logu(f64 ? 1e-300L : 1e-36L, f64 ? 1e300L : 1e36L, true),
                 y = g.logu(f64 ? 1e-300L : 1e-36L, f64 ? 1e300L : 1e36L, true);
      }
      if (op == OpId::log1p && x < -0.9L) x = -0.9L;
      if (i % 7 == 0 && op != OpId::exp) std::swap(x, y);
      if ((op == OpId::sin || op == OpId::cos || op == OpId::tanh) && i % 5 == 0) x = std::trunc(x);
      in.emplace_back(static_cast<F>(x), static_cast<F>(y));
    }
    const std::vector<std::complex<F>> got = run_unary<std::complex<F>>(be, op, d, in);
    ASSERT_EQ(got.size(), in.size());
    ld worst = 0;
    std::complex<F> at{};
    for (std::size_t i = 0; i < in.size(); ++i) {
      const ld e = cplx_error<F>(got[i], ref_complex(op, cld(in[i].real(), in[i].imag())));
      if (e > worst || std::isnan(e)) worst = e, at = in[i];
    }
    table().push_back({std::string(op_name(op)), std::string(dtype_name(d)), in.size(), double(worst), double(at.real())});
    EXPECT_LE(double(worst), 8.0) << op_name(op) << "/" << dtype_name(d) << " worst at " << at.real() << " "
                                  << at.imag() << "i";
  }
}

TEST_F(AnalyticAccuracy, ComplexNormwise) {
  sweep_complex<float>(be(), DType::C32);
  sweep_complex<double>(be(), DType::C64);
  print_table();
}

// ---- pow ---------------------------------------------------------------------------------------------
/// pow(a[i], b[i]) on the device against long double: the worst ulp error into the table, <= bound.
template <class F> void sweep_pow(Backend& be, DType d, const std::vector<F>& a, const std::vector<F>& b, double bound) {
  const std::vector<F> got = run_pow<F>(be, d, a, b);
  ASSERT_EQ(got.size(), a.size());
  ld worst = 0;
  double at = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const ld e = ulp_error<F>(got[i], std::pow(ld(a[i]), ld(b[i])));
    if (e > worst) worst = e, at = double(a[i]);
  }
  table().push_back({"pow", std::string(dtype_name(d)), a.size(), double(worst), at});
  EXPECT_LE(double(worst), bound) << "pow/" << dtype_name(d) << " worst at x = " << at;
}

TEST_F(AnalyticAccuracy, PowF64AndComplex) {
  const std::size_t n = points();
  Gen g;
  std::vector<double> a, b;
  for (std::size_t i = 0; i < n; ++i) {
    const ld x = g.logu(1e-300L, 1e300L, false);
    const ld lim = 740 / std::max(std::fabs(std::log(x)), ld(1e-3));
    ld y = g.uniform(-lim, lim);
    ld xx = x;
    if (i % 4 == 1) xx = 1 + g.uniform(-1e-3L, 1e-3L), y = g.uniform(-1e5L, 1e5L);        // near 1, large y
    if (i % 4 == 2) xx = -g.logu(1e-3L, 1e3L, false), y = std::round(g.uniform(-90, 90));  // negative base
    a.push_back(static_cast<double>(xx));
    b.push_back(static_cast<double>(y));
  }
  sweep_pow<double>(be(), DType::F64, a, b, 4.0);

  // Complex pow = exp(b log a) in working precision: the absolute error of b log a becomes the
  // relative error of the result (~|b log a| ulp; docs/accuracy.md), so the asserted sweep is the
  // conformance domain (parts of a in +-[0.5, 2], parts of b in [-1, 1]); normwise error.
  auto cpow = [&](auto tag, DType d) {
    using F = decltype(tag);
    std::vector<std::complex<F>> ca, cb;
    const std::size_t m = std::max<std::size_t>(n / 8, 1024);
    for (std::size_t i = 0; i < m; ++i) {
      ca.emplace_back(F(g.logu(0.5L, 2, true)), F(g.logu(0.5L, 2, true)));
      cb.emplace_back(F(g.uniform(-1, 1)), F(g.uniform(-1, 1)));
    }
    ca.emplace_back(F(0), F(0));
    cb.emplace_back(F(0), F(0));  // 0^0 = 1
    const std::vector<std::complex<F>> cg = run_pow<std::complex<F>>(be(), d, ca, cb);
    ASSERT_EQ(cg.size(), ca.size());
    ld cw = 0;
    for (std::size_t i = 0; i + 1 < ca.size(); ++i) {
      const cld ref = std::pow(cld(ca[i].real(), ca[i].imag()), cld(cb[i].real(), cb[i].imag()));
      cw = std::max(cw, cplx_error<F>(cg[i], ref));
    }
    EXPECT_EQ(cg.back(), std::complex<F>(1, 0)) << "pow(0, 0)";
    table().push_back({"pow", std::string(dtype_name(d)), ca.size(), double(cw), 0});
    EXPECT_LE(double(cw), 8.0) << "pow/" << dtype_name(d);
  };
  cpow(float{}, DType::C32);
  cpow(double{}, DType::C64);
  print_table();
}

// f32 pow: computed in double and rounded once where the device has f64 (pow_f32, f32 storage,
// TF_F32_STORAGE); the driver's exp2(y log2 x), used only without f64 (elementwise/ops.glsl), is
// off by up to ~600 ulp on lavapipe once |y log x| grows (0.99^-8000: relative error 6.8e-5) and
// wrong for subnormal bases. Results kept in the normal range (|y ln x| <= 87) so that devices
// that flush f32 subnormals (NVIDIA) are measured on the same points; subnormals separately.
TEST_F(AnalyticAccuracy, PowF32) {
  if (!static_cast<vk::VulkanBackend&>(be()).device().caps().f64)
    GTEST_SKIP() << "no shaderFloat64: f32 pow stays on the driver's exp2/log2 (docs/accuracy.md)";
  const std::size_t n = points();
  Gen g;
  std::vector<float> a, b;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<float>(g.logu(1e-37L, 1e37L, false));
    const ld lim = 87 / std::max(std::fabs(std::log(ld(x))), ld(1e-6));
    auto y = static_cast<float>(g.uniform(-lim, lim));
    float xx = x;
    if (i % 4 == 1) {  // near 1, large y
      xx = static_cast<float>(1 + g.uniform(-1e-3L, 1e-3L));
      y = static_cast<float>(g.uniform(-1, 1) * std::min<ld>(87 / std::max(std::fabs(std::log(ld(xx))), ld(1e-9)), 1e6L));
    }
    if (i % 4 == 2) xx = -static_cast<float>(g.logu(0.1L, 10, false)), y = static_cast<float>(std::round(g.uniform(-37, 37)));
    a.push_back(xx);
    b.push_back(y);
  }
  sweep_pow<float>(be(), DType::F32, a, b, 1.0);
  print_table();

  // C99 special cases, overflow to inf, underflow to 0, and (where the device keeps f32
  // subnormals) subnormal bases and results.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> sa = {-8, -8, -2, 0, -0.0f, -0.0f, 2, 0.5f, -inf, 1, 2, -1, 0, 10, 10, 0.99f, 1e-30f};
  std::vector<float> sb = {1.0f / 3, 3, -3, -1, -3, 3, inf, inf, 3, std::nanf(""), 1e30f, inf, 0, 39, -46, -8000, 2};
  if (!flushes_f32_subnormals(be())) {
    for (float x : {1e-40f, 1e-45f, 1e-38f})
      for (float y : {-1.0f, -0.5f, 0.5f, 1.0f}) sa.push_back(x), sb.push_back(y);
    sa.push_back(100), sb.push_back(-19);  // 1e-38: a subnormal result
  }
  const std::vector<float> sg = run_pow<float>(be(), DType::F32, sa, sb);
  ASSERT_EQ(sg.size(), sa.size());
  for (std::size_t i = 0; i < sa.size(); ++i) {
    const float want = static_cast<float>(std::pow(ld(sa[i]), ld(sb[i])));
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(sg[i])) << "pow(" << sa[i] << ", " << sb[i] << ")";
    else EXPECT_TRUE(sg[i] == want && std::signbit(sg[i]) == std::signbit(want))
        << "pow(" << sa[i] << ", " << sb[i] << ") = " << sg[i] << ", want " << want;
  }
}

// f32 division is IEEE (SEMANTICS.md): correctly rounded. The reference divides in double and
// rounds once to float, which is the correctly rounded f32 quotient (a double quotient of two
// floats rounded to 53 >= 2 * 24 + 1 bits: double rounding is innocuous, Figueroa 1995). Operands
// log-uniform over the whole normal range (quotients overflowing, underflowing into subnormals,
// divisors from 2^126), mantissas near 1 and 2, random bits; on a device that flushes f32
// subnormals (NVIDIA), points with a subnormal operand or quotient only need a zero of the right
// sign there. The device's own division, which op_div avoids (elementwise/ops.glsl), is exact on
// lavapipe but up to 2 ulp off on the H200 and 0 for divisors from 2^126.
TEST_F(AnalyticAccuracy, DivF32IsCorrectlyRounded) {
  const std::size_t n = points();
  Gen g;
  std::vector<float> a, b;
  for (std::size_t i = 0; i < n; ++i) {
    float x = static_cast<float>(g.logu(1.2e-38L, 3.4e38L, true));
    float y = static_cast<float>(g.logu(1.2e-38L, 3.4e38L, true));
    if (i % 4 == 1) y = static_cast<float>(g.logu(8.5e37L, 3.4e38L, true));  // reciprocal subnormal
    if (i % 4 == 2) {  // random mantissa bits, exponents near each other (quotients near 1)
      x = std::ldexp(static_cast<float>(g.uniform(1, 2)), static_cast<int>(g.uniform(-20, 20)));
      y = std::ldexp(static_cast<float>(g.uniform(1, 2)), static_cast<int>(g.uniform(-20, 20)));
    }
    if (i % 4 == 3) x = static_cast<float>(g.logu(1.2e-38L, 1e-30L, true));  // subnormal quotients
    a.push_back(x);
    b.push_back(y);
  }
  // Quotients next to a rounding boundary: 24-bit mantissas am, bm (bm odd) with
  // am 2^s = qm bm + rm and 2 rm = bm +- 1, so the quotient lies 1 / (2 bm) of a unit from the
  // midpoint between two floats (a midpoint itself is never a quotient of floats).
  for (int i = 0; i < 2048; ++i) {
    const std::uint64_t bm = (g.rng() & 0x7fffffu) | 0x800001u, s = (i & 2) ? 23 : 24;
    const std::uint64_t rm = (i & 1) ? (bm + 1) / 2 : (bm - 1) / 2;
    std::uint64_t inv = 1, half = (bm + 1) / 2;  // 2^-s mod bm
    for (std::uint64_t k = 0; k < s; ++k) inv = inv * half % bm;
    std::uint64_t am = rm * inv % bm;  // am 2^s = rm (mod bm)
    if (s == 23) am += bm;             // am in [bm, 2^24): quotient mantissas in [1, 2)
    if (am < 0x800000u || am >= 0x1000000u) continue;
    const int ex = static_cast<int>(g.uniform(-40, 40)), ey = static_cast<int>(g.uniform(-40, 40));
    a.push_back(std::ldexp(static_cast<float>(am), ex - 23) * ((i & 4) ? -1.0f : 1.0f));
    b.push_back(std::ldexp(static_cast<float>(bm), ey - 23));
  }
  // Exact ties on the subnormal grid: (2k + 1) 2^-150 (round half to even), from normal operands.
  for (int k = 0; k < 64; ++k) {
    const float odd = static_cast<float>(2 * (k * 37 + k / 3) + 1), c = (k % 2) ? 3.0f : 1.0f;
    a.push_back(std::ldexp(odd * c, -110) * ((k % 4) < 2 ? 1.0f : -1.0f));
    b.push_back(std::ldexp(c, 40));
  }
  // Subnormal operands: op_div reads its operands as bits and assembles its result in bits, so
  // it is exact also on a device that flushes f32 subnormals in arithmetic (no flush-to-zero
  // allowance here, unlike the math functions; docs/accuracy.md).
  for (float x : {1e-40f, 1e-45f, -3e-39f, 1.0f, 3e38f})
    for (float y : {1e-40f, -1e-45f, 7.0f, 3e38f}) a.push_back(x), b.push_back(y);
  Tensor x = upload(be(), host_tensor(DType::F32, a)), y = upload(be(), host_tensor(DType::F32, b));
  const TensorView xs[] = {x, y};
  const std::vector<float> got = host_values<float>(be(), elementwise(be(), OpId::div, xs));
  ASSERT_EQ(got.size(), a.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float want = static_cast<float>(double(a[i]) / double(b[i]));
    const bool ok = got[i] == want && std::signbit(got[i]) == std::signbit(want);
    if (!ok && ++wrong <= 8)
      ADD_FAILURE() << a[i] << " / " << b[i] << " = " << got[i] << ", want " << want << " (" << std::hexfloat
                    << got[i] << " vs " << want << std::defaultfloat << ")";
  }
  EXPECT_EQ(wrong, 0u) << "of " << a.size() << " quotients";
}

// ---- special values ------------------------------------------------------------------------------------
template <class F> void check_specials(Backend& be, DType d) {
  const F inf = std::numeric_limits<F>::infinity(), nan = std::numeric_limits<F>::quiet_NaN();
  struct S {
    OpId op;
    F x, want;
  };
  const S cases[] = {
      {OpId::exp, inf, inf},    {OpId::exp, -inf, 0},      {OpId::exp, F(1e4), inf},  {OpId::exp, F(-1e4), 0},
      {OpId::exp, 0, 1},        {OpId::log, 0, -inf},      {OpId::log, -1, nan},      {OpId::log, inf, inf},
      {OpId::log, 1, 0},        {OpId::sin, inf, nan},     {OpId::cos, -inf, nan},    {OpId::sin, F(-0.0), F(-0.0)},
      {OpId::tanh, inf, 1},     {OpId::tanh, -inf, -1},    {OpId::sqrt, -1, nan},     {OpId::sqrt, inf, inf},
      {OpId::sqrt, F(-0.0), F(-0.0)}, {OpId::rsqrt, 0, inf}, {OpId::rsqrt, inf, 0},  {OpId::rsqrt, -1, nan},
      {OpId::expm1, -inf, -1},  {OpId::expm1, inf, inf},   {OpId::log1p, -1, -inf},  {OpId::log1p, -2, nan},
      {OpId::log1p, inf, inf},  {OpId::erf, inf, 1},       {OpId::erf, -inf, -1},     {OpId::erf, F(-0.0), F(-0.0)},
  };
  for (const S& s : cases) {
    const std::vector<F> got = run_unary<F>(be, s.op, d, std::vector<F>{s.x, nan});
    ASSERT_EQ(got.size(), 2u);
    if (std::isnan(s.want)) EXPECT_TRUE(std::isnan(got[0])) << op_name(s.op) << "(" << s.x << ") = " << got[0];
    else EXPECT_TRUE(got[0] == s.want && std::signbit(got[0]) == std::signbit(s.want))
        << op_name(s.op) << "(" << s.x << ") = " << got[0] << ", want " << s.want;
    EXPECT_TRUE(std::isnan(got[1])) << op_name(s.op) << "(NaN) = " << got[1];
  }
}

TEST_F(AnalyticAccuracy, SpecialValues) {
  check_specials<float>(be(), DType::F32);
  check_specials<double>(be(), DType::F64);
  // pow f64: C99 special cases.
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> a = {-8, -8, -2, 0, -0.0, -0.0, 2, 0.5, -inf, 1, 2, -1, 0};
  const std::vector<double> b = {1.0 / 3, 3, -3, -1, -3, 3, inf, inf, 3, std::nan(""), 1e300, inf, 0};
  const std::vector<double> got = run_pow<double>(be(), DType::F64, a, b);
  ASSERT_EQ(got.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double want = std::pow(a[i], b[i]);
    if (std::isnan(want)) EXPECT_TRUE(std::isnan(got[i])) << "pow(" << a[i] << ", " << b[i] << ")";
    else EXPECT_TRUE(got[i] == want && std::signbit(got[i]) == std::signbit(want))
        << "pow(" << a[i] << ", " << b[i] << ") = " << got[i] << ", want " << want;
  }
}

}  // namespace
}  // namespace tenferro::vktest
