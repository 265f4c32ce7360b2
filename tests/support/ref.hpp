// Test support: reference tensors (values in double / complex<double>, exact int64 for
// integers and bools), random generation, layout cases, and comparison.
// The reference never calls src/cpu: it reads tensors through host mappings only.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"

namespace tenferro::test {

/// A logical tensor in colex order. For I32/I64/Bool `iv` holds the exact values (and `v`
/// their double images); for floats/complex `v` holds the values.
struct RefTensor {
  DType dtype = DType::F64;
  Shape shape;
  std::vector<c64> v;
  std::vector<std::int64_t> iv;

  RefTensor() = default;
  RefTensor(DType d, Shape s);  // zero-filled
  std::int64_t numel() const { return static_cast<std::int64_t>(v.size()); }
  bool exact() const { return is_integer(dtype) || dtype == DType::Bool; }
  /// Sets element i from a complex (floats) or integer value, rounding to the dtype as the
  /// library stores it (f32 rounding, i32 wrapping, bool != 0).
  void set(std::int64_t i, c64 value);
  void set_int(std::int64_t i, std::int64_t value);
  /// Colex linear index of a multi-index.
  std::int64_t index(const Shape& idx) const;
};

/// Rounds/wraps a value to what dtype d can hold (f32 rounding, complex parts, i32 wrap).
c64 round_to(DType d, c64 x);
std::int64_t wrap_to(DType d, std::int64_t x);

/// Reads any view of any backend (downloading device tensors first) in colex order.
RefTensor read(Backend& be, const TensorView& t);
/// A compact host tensor holding ref's values.
Tensor to_host(const RefTensor& ref);

/// How an input is laid out in storage. All cases show the same logical values.
enum class LayoutCase { compact, transposed, broadcast, offset, negative_stride };
inline constexpr LayoutCase kAllLayouts[] = {LayoutCase::compact, LayoutCase::transposed,
                                             LayoutCase::broadcast, LayoutCase::offset,
                                             LayoutCase::negative_stride};
std::string layout_name(LayoutCase lc);

struct RandomSpec {
  double lo = -2.0, hi = 2.0;  // real range (complex: both parts)
  bool integral = false;       // floats take integer values in [lo, hi]
  bool nonzero = false;        // redraw zeros
};
/// Random values. With LayoutCase::broadcast the values are constant along the first axis of
/// extent > 1, so place() can store that axis with extent 1 and stride 0.
RefTensor random_ref(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc = LayoutCase::compact,
                     RandomSpec spec = {});
/// Places ref on `be` as a view in layout case lc (device backends: the physical storage is
/// uploaded, then the same view is taken of the device tensor).
TensorView place(Backend& be, const RefTensor& ref, LayoutCase lc);

/// Tolerance: |got - want| <= atol + rtol * max(|want|, 1) per element (complex: modulus),
/// NaN matches NaN, infinities must match in sign. Exact dtypes compare exactly.
struct Tol {
  double rtol = 0, atol = 0;
};
/// Default elementwise tolerance for a dtype: a few ulp relative.
Tol ulp_tol(DType d, double ulps = 4);
/// Returns "" when equal within tol, else a description of the first mismatch.
std::string compare(const RefTensor& want, const RefTensor& got, Tol tol);

/// Shapes used by conformance tests: rank 0, size-1 axes, empty, small ND.
std::vector<Shape> standard_shapes();

}  // namespace tenferro::test

/// gtest helper: EXPECT that `got` matches `want` within tol; prints the first mismatch.
#define TENFERRO_EXPECT_MATCH(want, got, tol)                                   \
  do {                                                                        \
    const std::string _m = ::tenferro::test::compare((want), (got), (tol));   \
    EXPECT_TRUE(_m.empty()) << _m;                                            \
  } while (0)
