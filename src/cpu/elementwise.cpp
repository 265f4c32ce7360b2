// CPU elementwise kernels (unary, analytic, binary, compare, select, clamp).
//
// One strided mapping loop, map_rows, is instantiated per (op, dtype) with the op as a lambda:
// for_each_row coalesces the layouts jointly and splits rows across the pool's threads; a row whose
// operands all have inner stride 1 runs a plain indexed loop that GCC vectorizes (add/mul on
// f32/f64 are memory-bound), any other row (negative, zero or large strides) a strided loop.
//
// Semantics (SEMANTICS.md): integer arithmetic wraps (done in unsigned to avoid UB); integer div
// truncates with MIN / -1 = MIN, MIN % -1 = 0; float rem is fmod; integer pow by squaring;
// maximum/minimum/clamp are IEEE 754-2019 (minmax.hpp: NaN propagates, -0 < +0); analytic ops
// use the element type's std:: functions, with accurate complex expm1/log1p. Elements without a
// defined result (integer division or remainder by zero, negative integer exponent) set a flag
// inside the parallel region; the kernel throws numerical_failure naming the op after the region,
// once every row has run.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <complex>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu_backend.hpp"
#include "minmax.hpp"
#include "strided.hpp"

namespace tenferro::cpu {

namespace {

template <class T> inline constexpr bool kIsComplex = false;
template <class R> inline constexpr bool kIsComplex<std::complex<R>> = true;
template <class T> inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T> inline constexpr bool kIsFloat = std::is_floating_point_v<T>;
template <class T> inline constexpr bool kIsInexact = kIsFloat<T> || kIsComplex<T>;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;

// ---- the mapping loop --------------------------------------------------------------------------

/// One row with out contiguous and input K contiguous, or broadcast (stride 0) where bit K of
/// Bcast is set: constant indices, so that GCC hoists the broadcast loads and vectorizes.
template <unsigned Bcast, class O, class F, class P, std::size_t... K>
void contiguous_row(std::index_sequence<K...>, const F& f, bool& bad, O* o, const P& p, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) o[i] = f(bad, std::get<K>(p)[(Bcast >> K) & 1u ? 0 : i]...);
}

/// contiguous_row for the runtime mask `bcast` (a table of the 2^inputs instantiations; up to
/// two inputs, else only the all-contiguous one: the caller takes the strided loop then).
template <class O, class F, class P, std::size_t... K>
bool contiguous_row_any(std::index_sequence<K...> ks, const F& f, bool& bad, O* o, const P& p, std::int64_t n,
                        unsigned bcast) {
  constexpr std::size_t NI = sizeof...(K);
  if constexpr (NI <= 2) {
    using Row = void (*)(std::index_sequence<K...>, const F&, bool&, O*, const P&, std::int64_t);
    constexpr auto table = []<unsigned... M>(std::integer_sequence<unsigned, M...>) {
      return std::array<Row, sizeof...(M)>{&contiguous_row<M, O, F, P, K...>...};
    }(std::make_integer_sequence<unsigned, 1u << NI>{});
    table[bcast](ks, f, bad, o, p, n);
    return true;
  } else {
    if (bcast != 0) return false;
    contiguous_row<0u, O>(ks, f, bad, o, p, n);
    return true;
  }
}

template <class O, class... I, class F, std::size_t... K>
bool map_rows_impl(std::index_sequence<K...>, const F& f, const TensorView& out, std::span<const TensorView> ins) {
  constexpr std::size_t N = sizeof...(I) + 1;
  O* const po = base_ptr<O>(out);
  const std::tuple<const I*...> pin{base_ptr<const I>(ins[K])...};
  const std::array<const Layout*, N> ls{&out.layout(), &ins[K].layout()...};
  std::atomic<bool> any_bad{false};
  for_each_row<N>(ls, [&](std::int64_t n, const std::array<std::int64_t, N>& off,
                          const std::array<std::int64_t, N>& st) {
    bool bad = false;
    O* const o = po + off[0];
    const std::tuple<const I*...> p{(std::get<K>(pin) + off[K + 1])...};
    // Contiguous row (inputs contiguous or broadcast): out is a fresh allocation, so GCC's
    // runtime alias check passes and the vector loop runs.
    const unsigned bcast = ((st[K + 1] == 0 ? 1u << K : 0u) | ... | 0u);
    const bool contiguous = st[0] == 1 && ((st[K + 1] == 1 || st[K + 1] == 0) && ...);
    if (!contiguous || !contiguous_row_any(std::index_sequence<K...>{}, f, bad, o, p, n, bcast))
      for (std::int64_t i = 0; i < n; ++i) o[i * st[0]] = f(bad, std::get<K>(p)[i * st[K + 1]]...);
    if (bad) any_bad.store(true, std::memory_order_relaxed);
  });
  return any_bad.load();
}

/// out[i] = f(bad, ins[0][i], ...) for element types O and I...; returns true when f flagged
/// any element as undefined.
template <class O, class... I, class F>
bool map_rows(const F& f, const TensorView& out, std::span<const TensorView> ins) {
  return map_rows_impl<O, I...>(std::index_sequence_for<I...>{}, f, out, ins);
}

[[noreturn]] void unreachable(OpId op) {
  TENFERRO_FAIL(internal, op_name(op), "", "elementwise kernel called with an op/dtype core excludes");
}

// ---- scalar helpers ----------------------------------------------------------------------------

template <class T> T wrap_neg(T a) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(U(0) - static_cast<U>(a)));
}

/// Complex division. Finite operands (b != 0): both scaled exactly by powers of two (b's larger
/// part in [1, 2), a's as below), Smith's algorithm on the scaled values (no intermediate overflow
/// or underflow), the quotient scaled back by 2^(ea - eb) (the GPU's c_div_finite,
/// shaders/common/complex.glsl). std::complex's division (libgcc __divdc3) gave NaN for quotients
/// whose parts overflow ((1.7e308 + 1e308i) / (-7.4e-241 + 2.9e-61i): NaN - inf i for inf - inf i)
/// and inf for (1.7e308 + 1.7e308i) / (1 + i). Zero divisors and non-finite parts keep
/// std::complex's C99 Annex G values (which the GPU reproduces).
template <class R> std::complex<R> complex_div(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if ((br == 0 && bi == 0) || !std::isfinite(ar) || !std::isfinite(ai) || !std::isfinite(br) || !std::isfinite(bi))
    return a / b;
  // a's exponent shift as the GPU's c_div_shift: its larger part near 1, but its smaller part kept
  // normal (it may carry a whole part of the quotient) and Smith's sums kept finite.
  constexpr int emax = std::numeric_limits<R>::max_exponent - 2;  // 126 / 1022
  const R ma = std::max(std::abs(ar), std::abs(ai)), na = std::min(std::abs(ar), std::abs(ai));
  const int e = ma == 0 ? 0 : std::ilogb(ma), f = na == 0 ? e : std::ilogb(na);
  const int ea = std::max(std::min(e, f + emax), e - emax + 2), eb = std::ilogb(std::max(std::abs(br), std::abs(bi)));
  const R xr = std::ldexp(ar, -ea), xi = std::ldexp(ai, -ea), yr = std::ldexp(br, -eb), yi = std::ldexp(bi, -eb);
  R qr, qi;
  if (std::abs(yr) >= std::abs(yi)) {
    const R r = yi / yr, d = yr + yi * r;
    qr = (xr + xi * r) / d;
    qi = (xi - xr * r) / d;
  } else {
    const R r = yr / yi, d = yi + yr * r;
    qr = (xr * r + xi) / d;
    qi = (xi * r - xr) / d;
  }
  return {std::ldexp(qr, ea - eb), std::ldexp(qi, ea - eb)};
}

/// Float and complex pow: std::pow, with NumPy's rules where a complex base or exponent is zero
/// (shaders/common/math_complex.glsl, the same): a^0 = 1; 0^b = 0 for b real and positive,
/// else NaN (std::pow gives NaN for 0^0).
template <class T> T pow_of(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(a, b);
  } else {
    using R = typename T::value_type;
    if (b == T(0)) return T(1);
    if (a == T(0))
      return b.imag() == R(0) && b.real() > R(0) ? T(0)
                                                 : T(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
    return std::pow(a, b);
  }
}

template <class T> T int_pow(T base, T e) {
  using U = std::make_unsigned_t<T>;
  U result = 1, b = static_cast<U>(base);
  for (U k = static_cast<U>(e); k != 0; k >>= 1) {
    if (k & 1u) result = static_cast<U>(result * b);
    b = static_cast<U>(b * b);
  }
  return static_cast<T>(result);
}

/// exp(z) - 1 without cancellation for small |z|: the real part exp(x)cos(y) - 1 is rewritten
/// as expm1(x)cos(y) - 2 sin^2(y/2).
template <class R> std::complex<R> cexpm1(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (y == 0) return {std::expm1(x), y};  // keeps exp(inf + 0i) - 1 = inf + 0i
  const R s = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
}

/// log(1 + z): log|1+z| = log1p(2x + x^2 + y^2) / 2 near 0, arg(1+z) = atan2(y, 1+x); |1+z|
/// scaled by 1/4 near the top of the range (c32 3e38 + 3e38i: log|z| = 88.94, finite).
template <class R> std::complex<R> clog1p(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  R re;
  const R a = 1 + x, m = std::max(std::abs(a), std::abs(y));
  if (std::abs(x) < R(0.5) && std::abs(y) < R(0.5)) re = std::log1p(x * (2 + x) + y * y) / 2;
  else if (m > std::numeric_limits<R>::max() / 4) re = std::log(std::hypot(a / 4, y / 4)) + 2 * std::log(R(2));
  else re = std::log(std::hypot(a, y));  // |1+z| may exceed the largest finite value: scaled above
  return {re, std::atan2(y, 1 + x)};
}

// ---- families ----------------------------------------------------------------------------------

template <class T> bool run_unary(OpId op, std::span<const TensorView> in, const TensorView& out) {
  auto go = [&](auto f) { return map_rows<T, T>(f, out, in); };
  switch (op) {
    case OpId::neg:
      if constexpr (kIsInt<T>) return go([](bool&, T a) { return wrap_neg(a); });
      else if constexpr (!std::is_same_v<T, bool>) return go([](bool&, T a) { return T(-a); });
      break;
    case OpId::conj:
      if constexpr (kIsComplex<T>) return go([](bool&, T a) { return std::conj(a); });
      else if constexpr (!std::is_same_v<T, bool>) return go([](bool&, T a) { return a; });
      break;
    case OpId::abs:
      if constexpr (kIsComplex<T>) {
        return map_rows<real_t<T>, T>([](bool&, T a) { return std::abs(a); }, out, in);
      } else if constexpr (kIsInt<T>) {
        return go([](bool&, T a) { return a < 0 ? wrap_neg(a) : a; });  // abs(MIN) wraps to MIN
      } else if constexpr (kIsFloat<T>) {
        return go([](bool&, T a) { return std::abs(a); });
      }
      break;
    case OpId::sign:
      if constexpr (kIsComplex<T>) {
        // z / |z| through u = z / max(|re|, |im|) (|u| in [1, sqrt 2]): no overflow of |z| for
        // huge z, no loss for subnormal z.
        return go([](bool&, T a) {
          if (a == T(0)) return T(0);
          const auto m = std::max(std::abs(a.real()), std::abs(a.imag()));
          if (!std::isfinite(m)) return T(a / std::abs(a));
          const T u = a / m;
          return T(u / std::abs(u));
        });
      } else if constexpr (kIsInt<T>) {
        return go([](bool&, T a) { return static_cast<T>((a > 0) - (a < 0)); });
      } else if constexpr (kIsFloat<T>) {
        // NaN and +-0 are returned unchanged.
        return go([](bool&, T a) { return a > 0 ? T(1) : a < 0 ? T(-1) : a; });
      }
      break;
    case OpId::exp:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return std::exp(a); });
      break;
    case OpId::log:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return std::log(a); });
      break;
    case OpId::sin:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return std::sin(a); });
      break;
    case OpId::cos:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return std::cos(a); });
      break;
    case OpId::tanh:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return std::tanh(a); });
      break;
    case OpId::sqrt:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return std::sqrt(a); });
      break;
    case OpId::rsqrt:
      if constexpr (kIsInexact<T>) return go([](bool&, T a) { return T(1) / std::sqrt(a); });
      break;
    case OpId::expm1:
      if constexpr (kIsComplex<T>) return go([](bool&, T a) { return cexpm1(a); });
      else if constexpr (kIsFloat<T>) return go([](bool&, T a) { return std::expm1(a); });
      break;
    case OpId::log1p:
      if constexpr (kIsComplex<T>) return go([](bool&, T a) { return clog1p(a); });
      else if constexpr (kIsFloat<T>) return go([](bool&, T a) { return std::log1p(a); });
      break;
    case OpId::erf:
      if constexpr (kIsFloat<T>) return go([](bool&, T a) { return std::erf(a); });
      break;
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_OP_CASE_UNLESS_U_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
      break;
  }
  unreachable(op);
}

template <class T> bool run_binary(OpId op, std::span<const TensorView> in, const TensorView& out) {
  auto go = [&](auto f) { return map_rows<T, T, T>(f, out, in); };
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case OpId::add: return go([](bool&, T a, T b) { return static_cast<T>(static_cast<U>(U(a) + U(b))); });
      case OpId::sub: return go([](bool&, T a, T b) { return static_cast<T>(static_cast<U>(U(a) - U(b))); });
      case OpId::mul: return go([](bool&, T a, T b) { return static_cast<T>(static_cast<U>(U(a) * U(b))); });
      case OpId::div:
        return go([](bool& bad, T a, T b) -> T {
          if (b == 0) {
            bad = true;
            return 0;
          }
          return b == -1 ? wrap_neg(a) : static_cast<T>(a / b);  // MIN / -1 wraps to MIN
        });
      case OpId::rem:
        return go([](bool& bad, T a, T b) -> T {
          if (b == 0) {
            bad = true;
            return 0;
          }
          return b == -1 ? T(0) : static_cast<T>(a % b);  // MIN % -1 would trap
        });
      case OpId::pow:
        return go([](bool& bad, T a, T b) -> T {
          if (b < 0) {
            bad = true;
            return 0;
          }
          return int_pow(a, b);
        });
      case OpId::maximum: return go([](bool&, T a, T b) { return ieee_max(a, b); });
      case OpId::minimum: return go([](bool&, T a, T b) { return ieee_min(a, b); });
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_OP_CASE_UNLESS_B_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
        break;
    }
  } else if constexpr (kIsInexact<T>) {
    switch (op) {
      case OpId::add: return go([](bool&, T a, T b) { return T(a + b); });
      case OpId::sub: return go([](bool&, T a, T b) { return T(a - b); });
      case OpId::mul: return go([](bool&, T a, T b) { return T(a * b); });
      case OpId::div:
        if constexpr (kIsComplex<T>) return go([](bool&, T a, T b) { return complex_div(a, b); });
        else return go([](bool&, T a, T b) { return T(a / b); });
      case OpId::pow: return go([](bool&, T a, T b) { return pow_of(a, b); });
      case OpId::rem:
        if constexpr (kIsFloat<T>) return go([](bool&, T a, T b) { return std::fmod(a, b); });
        break;
      case OpId::maximum:
        if constexpr (kIsFloat<T>) return go([](bool&, T a, T b) { return ieee_max(a, b); });
        break;
      case OpId::minimum:
        if constexpr (kIsFloat<T>) return go([](bool&, T a, T b) { return ieee_min(a, b); });
        break;
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_OP_CASE_UNLESS_B_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
        break;
    }
  }
  unreachable(op);
}

template <class T> bool run_compare(std::span<const TensorView> in, const TensorView& out, CompareDir dir) {
  auto go = [&](auto f) { return map_rows<bool, T, T>(f, out, in); };
  switch (dir) {
    case CompareDir::EQ: return go([](bool&, T a, T b) { return a == b; });
    case CompareDir::NE: return go([](bool&, T a, T b) { return a != b; });
    default: break;
  }
  if constexpr (!kIsComplex<T>) {
    switch (dir) {
      case CompareDir::LT: return go([](bool&, T a, T b) { return a < b; });
      case CompareDir::LE: return go([](bool&, T a, T b) { return a <= b; });
      case CompareDir::GT: return go([](bool&, T a, T b) { return a > b; });
      case CompareDir::GE: return go([](bool&, T a, T b) { return a >= b; });
      default: break;
    }
  }
  unreachable(OpId::compare);
}

template <class T> bool run_typed(OpId op, std::span<const TensorView> in, const TensorView& out, CompareDir dir) {
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic: return run_unary<T>(op, in, out);
    case OpFamily::binary: return run_binary<T>(op, in, out);
    case OpFamily::compare: return run_compare<T>(in, out, dir);
    case OpFamily::select:
      return map_rows<T, bool, T, T>([](bool&, bool p, T a, T b) { return p ? a : b; }, out, in);
    case OpFamily::clamp:
      if constexpr (kIsInt<T> || kIsFloat<T>)
        return map_rows<T, T, T, T>([](bool&, T x, T lo, T hi) { return ieee_min(ieee_max(x, lo), hi); }, out, in);
      break;
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE: break;
  }
  unreachable(op);
}

}  // namespace

namespace {

/// Broadcast inputs re-laid in out's axis order, so that rows become contiguous. An input whose
/// stride along out's unit-stride axis is neither 0 nor 1 (transposed or reversed) takes the
/// strided loop for every row. Where each of its stored elements is used at least 4 times (it
/// is broadcast: stored elements <= out.numel() / 4), it is copied once into a compact temporary
/// whose axes follow out's, its broadcast axes kept at stride 0, and the rows vectorize
/// (bin_batched_outer_product_noncompact: out[j,k,o,t] = a[k,j,t] * b[o,t]). Returns false and
/// changes nothing when some input would stay strided along that axis, or the op is small.
bool relayout_broadcast_inputs(std::span<const TensorView> in, const TensorView& out,
                               std::vector<TensorView>& views, std::vector<Tensor>& keep) {
  constexpr std::int64_t kMinElements = 1 << 14;
  const std::int64_t numel = out.numel();
  const Layout& lo = out.layout();
  const std::size_t r = lo.shape.size();
  if (numel < kMinElements) return false;
  std::size_t u = r;
  for (std::size_t a = 0; a < r && u == r; ++a)
    if (lo.strides[a] == 1 && lo.shape[a] > 1) u = a;
  if (u == r) return false;
  std::vector<std::size_t> order(r);
  for (std::size_t a = 0; a < r; ++a) order[a] = a;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::abs(lo.strides[x]) < std::abs(lo.strides[y]);
  });
  auto stored = [&](const Layout& l, std::size_t a) { return l.strides[a] != 0 && l.shape[a] > 1; };
  bool any = false;
  for (const TensorView& v : in) {
    const std::int64_t s = v.strides()[u];
    if (s == 0 || s == 1) continue;
    std::int64_t m = 1;
    for (std::size_t a = 0; a < r; ++a)
      if (stored(v.layout(), a)) m *= v.shape()[a];
    if (m > numel / 4) return false;
    any = true;
  }
  if (!any) return false;
  views.assign(in.begin(), in.end());
  for (TensorView& v : views) {
    const std::int64_t s = v.strides()[u];
    if (s == 0 || s == 1) continue;
    Layout src{{}, {}, v.offset()};
    Layout dst{lo.shape, Strides(r, 0), 0};
    std::int64_t step = 1;
    for (std::size_t a : order) {
      if (!stored(v.layout(), a)) continue;
      src.shape.push_back(v.shape()[a]);
      src.strides.push_back(v.strides()[a]);
      dst.strides[a] = step;
      step *= v.shape()[a];
    }
    Tensor t = host_empty(v.dtype(), src.shape);
    copy_kernel(TensorView(v.storage(), v.dtype(), src), t);
    v = TensorView(t.storage(), v.dtype(), dst);
    keep.push_back(std::move(t));
  }
  return true;
}

}  // namespace

void elementwise_kernel(OpId op, std::span<const TensorView> inputs, const TensorView& out, CompareDir dir) {
  std::vector<TensorView> relaid;
  std::vector<Tensor> temporaries;
  if (relayout_broadcast_inputs(inputs, out, relaid, temporaries)) inputs = relaid;
  // select's operand dtype is that of on_true (inputs[0] is the Bool predicate).
  const DType d = inputs[op_info(op).family == OpFamily::select ? 1 : 0].dtype();
  const bool bad = visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return run_typed<T>(op, inputs, out, dir);
  });
  if (!bad) return;
  if (op == OpId::pow)
    TENFERRO_FAIL(numerical_failure, op_name(op), "rhs",
                  "negative integer exponent: got an exponent < 0, expected exponents >= 0");
  TENFERRO_FAIL(numerical_failure, op_name(op), "rhs", "integer ", op == OpId::div ? "division" : "remainder",
                " by zero: got a zero divisor, expected nonzero divisors");
}

}  // namespace tenferro::cpu
