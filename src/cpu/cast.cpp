// CPU cast kernel: dst[i] = cast(src[i]) for every pair of dtypes (SEMANTICS.md cast rules).
//   to Bool: x != 0 (complex: either part; NaN counts as nonzero); Bool to numbers: 1 / 0;
//   real to complex: (x, 0); complex to real or integer: the real part;
//   integer to integer: two's-complement wrap; float to integer: truncation toward zero, and a
//   NaN, infinite or out-of-range value (with `exact`, also a non-integral one) is an
//   invalid_argument error naming `op`.
// Rows are walked with for_each_row (the thread pool); invalid elements set a flag in the parallel region
// and the kernel throws after it, rescanning serially to name the first offending element.
#include <array>
#include <atomic>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "cpu_backend.hpp"
#include "strided.hpp"

namespace tenferro::cpu {

namespace {

template <class T> inline constexpr bool kIsComplex = false;
template <class R> inline constexpr bool kIsComplex<std::complex<R>> = true;
template <class T> inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// Truncates x toward zero into integer type D; flags NaN, infinities, values whose truncation
/// does not fit, and (exact) non-integral values.
template <class D, class F> D float_to_int(F x, bool exact, bool& bad) {
  // -2^(bits-1) and 2^(bits-1) are exact doubles; the truncations that fit lie in [lo, hi).
  constexpr double lo = static_cast<double>(std::numeric_limits<D>::min());
  constexpr double hi = -lo;
  const double t = std::trunc(static_cast<double>(x));
  if (!(t >= lo && t < hi) || (exact && t != static_cast<double>(x))) {
    bad = true;
    return 0;
  }
  return static_cast<D>(t);
}

template <class D, class S> D convert_one(S s, bool exact, bool& bad) {
  if constexpr (std::is_same_v<D, bool>) {
    if constexpr (kIsComplex<S>) return s.real() != 0 || s.imag() != 0;
    else return s != S(0);
  } else if constexpr (std::is_same_v<S, bool>) {
    return D(s ? 1 : 0);
  } else if constexpr (kIsComplex<D>) {
    using R = typename D::value_type;
    if constexpr (kIsComplex<S>) return D(static_cast<R>(s.real()), static_cast<R>(s.imag()));
    else return D(static_cast<R>(s), R(0));
  } else if constexpr (kIsComplex<S>) {
    return convert_one<D>(s.real(), exact, bad);  // complex to real or integer: the real part
  } else if constexpr (kIsInt<D> && std::is_floating_point_v<S>) {
    return float_to_int<D>(s, exact, bad);
  } else {
    return static_cast<D>(s);  // int->int wraps (C++20), int->float and float->float round
  }
}

template <class D, class S> void cast_typed(const TensorView& src, const TensorView& dst, const char* op, bool exact) {
  const S* const ps = base_ptr<const S>(src);
  D* const pd = base_ptr<D>(dst);
  std::atomic<bool> any_bad{false};
  for_each_row<2>({&dst.layout(), &src.layout()}, [&](std::int64_t n, const std::array<std::int64_t, 2>& off,
                                                     const std::array<std::int64_t, 2>& st) {
    bool bad = false;
    D* const o = pd + off[0];
    const S* const x = ps + off[1];
    if (st[0] == 1 && st[1] == 1) {
      for (std::int64_t i = 0; i < n; ++i) o[i] = convert_one<D>(x[i], exact, bad);
    } else {
      for (std::int64_t i = 0; i < n; ++i) o[i * st[0]] = convert_one<D>(x[i * st[1]], exact, bad);
    }
    if (bad) any_bad.store(true, std::memory_order_relaxed);
  });
  if (!any_bad.load()) return;
  if constexpr (kIsInt<D> && !std::is_same_v<S, bool> && !kIsInt<S>) {
    // Only float (or complex) to integer can fail; find the first offending element.
    const std::int64_t numel = src.numel();
    for (std::int64_t i = 0; i < numel; ++i) {
      bool bad = false;
      const S s = ps[src.layout().offset_of(i)];
      (void)convert_one<D>(s, exact, bad);
      if (!bad) continue;
      double v;
      if constexpr (kIsComplex<S>) v = static_cast<double>(s.real());
      else v = static_cast<double>(s);
      TENFERRO_FAIL(invalid_argument, op, "x", "element ", i, " cannot be cast to ", dtype_name(dst.dtype()),
                    ": got ", v, ", expected a finite ", exact ? "integral " : "", "value in [",
                    std::numeric_limits<D>::min(), ", ", std::numeric_limits<D>::max(), "]");
    }
  }
  TENFERRO_FAIL(internal, op, "x", "cast flagged an element but the rescan found none");
}

}  // namespace

void cast_kernel(const TensorView& src, const TensorView& dst, const char* op, bool exact) {
  visit_dtype(src.dtype(), [&](auto stag) {
    using S = typename decltype(stag)::type;
    visit_dtype(dst.dtype(), [&](auto dtag) {
      using D = typename decltype(dtag)::type;
      cast_typed<D, S>(src, dst, op, exact);
    });
  });
}

}  // namespace tenferro::cpu
