// Element types of tenferro (SEMANTICS.md "Element types").
// Contract: every tensor has exactly one DType; ops never promote implicitly.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace tenferro {

enum class DType : std::uint8_t { F32, F64, I32, I64, Bool, C32, C64 };
inline constexpr int kNumDTypes = 7;
inline constexpr DType kAllDTypes[] = {DType::F32, DType::F64, DType::I32, DType::I64,
                                       DType::Bool, DType::C32, DType::C64};

using c32 = std::complex<float>;
using c64 = std::complex<double>;

/// Bytes per element: F32 4, F64 8, I32 4, I64 8, Bool 1, C32 8, C64 16.
constexpr std::size_t dtype_size(DType d) {
  switch (d) {
    case DType::F32: return 4;
    case DType::F64: return 8;
    case DType::I32: return 4;
    case DType::I64: return 8;
    case DType::Bool: return 1;
    case DType::C32: return 8;
    case DType::C64: return 16;
  }
  return 0;
}
constexpr bool is_complex(DType d) { return d == DType::C32 || d == DType::C64; }
constexpr bool is_real_float(DType d) { return d == DType::F32 || d == DType::F64; }
constexpr bool is_inexact(DType d) { return is_real_float(d) || is_complex(d); }
constexpr bool is_integer(DType d) { return d == DType::I32 || d == DType::I64; }
constexpr bool is_numeric(DType d) { return d != DType::Bool; }
/// Reals and integers: the dtypes with a total order used by max/min/clamp.
constexpr bool is_ordered(DType d) { return is_real_float(d) || is_integer(d); }
/// C32 -> F32, C64 -> F64, others unchanged.
constexpr DType real_dtype(DType d) {
  return d == DType::C32 ? DType::F32 : d == DType::C64 ? DType::F64 : d;
}
/// F32 -> C32, F64 -> C64, complex unchanged; others have no complex twin (returned unchanged).
constexpr DType complex_dtype(DType d) {
  return d == DType::F32 ? DType::C32 : d == DType::F64 ? DType::C64 : d;
}

/// Lower-case name as in EVAL_FORMAT.md: f32 f64 i32 i64 bool c32 c64.
std::string_view dtype_name(DType d);
/// Parses a name (also complex64/complex128, float32/float64/int32/int64); nullopt if unknown.
std::optional<DType> parse_dtype(std::string_view name);
/// The promotion lattice of `convert`: Bool to anything; I32 to I64; integer to F64/C64;
/// F32 to F64/C32/C64; F64 to C64; C32 to C64; and every dtype to itself.
bool convert_allowed(DType from, DType to);

template <DType D> struct dtype_traits;
template <> struct dtype_traits<DType::F32> { using type = float; };
template <> struct dtype_traits<DType::F64> { using type = double; };
template <> struct dtype_traits<DType::I32> { using type = std::int32_t; };
template <> struct dtype_traits<DType::I64> { using type = std::int64_t; };
template <> struct dtype_traits<DType::Bool> { using type = bool; };
template <> struct dtype_traits<DType::C32> { using type = c32; };
template <> struct dtype_traits<DType::C64> { using type = c64; };
template <DType D> using dtype_t = typename dtype_traits<D>::type;

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::F32; }
template <> constexpr DType dtype_of<double>() { return DType::F64; }
template <> constexpr DType dtype_of<std::int32_t>() { return DType::I32; }
template <> constexpr DType dtype_of<std::int64_t>() { return DType::I64; }
template <> constexpr DType dtype_of<bool>() { return DType::Bool; }
template <> constexpr DType dtype_of<c32>() { return DType::C32; }
template <> constexpr DType dtype_of<c64>() { return DType::C64; }

template <class T> struct type_tag { using type = T; };

/// Calls f(type_tag<T>{}) with T the C++ element type of d.
template <class F> decltype(auto) visit_dtype(DType d, F&& f) {
  switch (d) {
    case DType::F32: return std::forward<F>(f)(type_tag<float>{});
    case DType::F64: return std::forward<F>(f)(type_tag<double>{});
    case DType::I32: return std::forward<F>(f)(type_tag<std::int32_t>{});
    case DType::I64: return std::forward<F>(f)(type_tag<std::int64_t>{});
    case DType::Bool: return std::forward<F>(f)(type_tag<bool>{});
    case DType::C32: return std::forward<F>(f)(type_tag<c32>{});
    case DType::C64: return std::forward<F>(f)(type_tag<c64>{});
  }
  return std::forward<F>(f)(type_tag<float>{});  // unreachable: DType is exhaustive
}

/// A dtype-tagged scalar value (fill values, pad values, alpha/beta).
/// Integers keep exact 64-bit values in `i`; floats and complex use `c`.
struct Scalar {
  DType dtype = DType::F64;
  std::int64_t i = 0;
  c64 c{0.0, 0.0};
  static Scalar of(DType d, double v) { return Scalar{d, static_cast<std::int64_t>(v), c64(v, 0.0)}; }
  static Scalar of_int(DType d, std::int64_t v) {
    return Scalar{d, v, c64(static_cast<double>(v), 0.0)};
  }
  static Scalar of_complex(DType d, c64 v) {
    return Scalar{d, static_cast<std::int64_t>(v.real()), v};
  }
  /// The value as the C++ element type T (Bool: nonzero).
  template <class T> T as() const {
    if constexpr (std::is_same_v<T, bool>) {
      return is_integer(dtype) || dtype == DType::Bool ? i != 0 : c != c64(0.0, 0.0);
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(is_integer(dtype) || dtype == DType::Bool ? i : static_cast<std::int64_t>(c.real()));
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(is_integer(dtype) || dtype == DType::Bool ? static_cast<double>(i) : c.real());
    } else {
      using R = typename T::value_type;
      if (is_integer(dtype) || dtype == DType::Bool) return T(static_cast<R>(i), R(0));
      return T(static_cast<R>(c.real()), static_cast<R>(c.imag()));
    }
  }
};

}  // namespace tenferro
