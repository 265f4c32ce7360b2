// The user API: factories on a device, ops that run where their operands live, C++ operators,
// transfers between devices. Included by tenferro/tenferro.hpp (docs/guide.md).
//
// Devices. Every tensor knows its device (TensorView::device()). An op runs on the device of
// its operands; operands on different devices raise Error{runtime_state} naming the op and the
// argument ("rhs is on vulkan:0, lhs on cpu"): move one with to(x, device) first. Nothing moves
// between devices implicitly. The same ops on an explicit backend (tenferro/ops.hpp) are for
// providers and advanced use.
//
// Views and copies. A member function of a tensor (x.transpose(p), x.slice(...), x.reshape(s),
// x.reverse(a), x.broadcast_in_dim(...), x.diagonal(a, b)) never copies: it returns a view of
// the same storage. A free function never returns a view: it returns a new compact tensor, and
// those with a view twin say so in their name (transpose_copy, slice_copy, reshape_copy,
// reverse_copy, broadcast_in_dim_copy).
//
// Numbers. A C++ number in an operator or a factory (2.0 * x, x + 1, x < 0.5, full(s, 3))
// becomes a rank-0 tensor of the other operand's dtype on its device, and a rank-0 operand
// broadcasts against the other's shape (SEMANTICS.md, binary elementwise). The conversion is
// exact or refused, except for rounding to float:
//   F32, F64:  any real number (rounded to nearest); complex only with imaginary part 0.
//   C32, C64:  any real or complex number (each part rounded).
//   I32, I64:  integers in range; a floating-point number only when it is an integer in range.
//   Bool:      true/false, or a number equal to 0 or 1.
// Otherwise Error{invalid_argument} (a value the dtype cannot hold) or dtype_mismatch (a complex
// number with a real tensor), naming the op and the argument ("lhs"/"rhs", "value").
//
// Comparisons. ==, !=, <, <=, >, >= on tensors are elementwise and return Bool tensors (not a
// bool): `a == b` does not say whether two tensors are equal; compare to_vector(a) == to_vector(b)
// or reduce the Bool tensor for that. Complex operands allow == and != only.
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tenferro/config.hpp"
#include "tenferro/device.hpp"
#include "tenferro/dtype.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/op_info.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro {

/// A C++ number as an operand: a bool, an integer, a real or a complex value (converted to a
/// tensor's dtype by the rule at the top of this file).
class Number {
 public:
  enum class Kind : std::uint8_t { boolean, integer, real, complex };
  template <class T>
    requires std::is_arithmetic_v<T>
  constexpr Number(T v) {  // NOLINT: implicit, so that x + 1 and full(s, 2.5) read naturally
    if constexpr (std::is_same_v<T, bool>) {
      kind_ = Kind::boolean, i_ = v ? 1 : 0;
    } else if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
        if (v > static_cast<T>(std::numeric_limits<std::int64_t>::max())) {
          kind_ = Kind::real, c_ = c64(static_cast<double>(v), 0.0);
          return;
        }
      }
      kind_ = Kind::integer, i_ = static_cast<std::int64_t>(v);
    } else {
      kind_ = Kind::real, c_ = c64(static_cast<double>(v), 0.0);
    }
  }
  template <class R>
  constexpr Number(std::complex<R> v)  // NOLINT: implicit like the real ones
      : kind_(Kind::complex), c_(static_cast<double>(v.real()), static_cast<double>(v.imag())) {}

  Kind kind() const { return kind_; }
  /// The value as dtype `d` by the rule above; errors name `op` and `arg`.
  Scalar to(DType d, std::string_view op, const char* arg) const;

 private:
  Kind kind_ = Kind::integer;
  std::int64_t i_ = 0;
  c64 c_{0.0, 0.0};
};

// ---- factories: new compact tensors on `device`; F64 unless dtype says otherwise ---------------
Tensor empty(const Shape& shape, DType dtype = DType::F64, const Device& device = default_device());
Tensor zeros(const Shape& shape, DType dtype = DType::F64, const Device& device = default_device());
Tensor ones(const Shape& shape, DType dtype = DType::F64, const Device& device = default_device());
/// Every element `value` (the number rule; op "full", arg "value").
Tensor full(const Shape& shape, Number value, DType dtype = DType::F64, const Device& device = default_device());
/// A rank-0 tensor.
Tensor scalar(Number value, DType dtype = DType::F64, const Device& device = default_device());
/// 0, 1, ..., n - 1 (rank 1; Bool is unsupported, n < 0 invalid_argument).
Tensor arange(std::int64_t n, DType dtype = DType::F64, const Device& device = default_device());
/// Uniform random elements: F32, F64 in [0, 1) (24 and 53 random bits); C32, C64 real and
/// imaginary parts each so (independent draws); I32 in [0, 2^31), I64 in [0, 2^63); Bool true
/// with probability 1/2.
/// Element i (colex) is a function of (seed, i) alone (splitmix64), so a seed gives the same
/// tensor on every device. Without a seed, each call takes the next of a process-wide sequence
/// 0, 1, 2, ... (restarted by manual_seed).
Tensor rand(const Shape& shape, DType dtype = DType::F64, const Device& device = default_device(),
            std::optional<std::uint64_t> seed = std::nullopt);
/// Restarts the sequence of seeds rand() takes when called without one.
void manual_seed(std::uint64_t seed);
/// A tensor of T's dtype from values in colex order (column-major: values[0], values[1] are
/// x[0, 0], x[1, 0]). Error{shape_mismatch} (op "tensor", arg "values") when the count differs.
template <class T> Tensor tensor(const Shape& shape, const std::vector<T>& values, const Device& device = default_device());
template <class T>
Tensor tensor(const Shape& shape, std::initializer_list<T> values, const Device& device = default_device()) {
  return tensor<T>(shape, std::vector<T>(values), device);
}

// ---- transfers -------------------------------------------------------------------------------
/// A new compact tensor on `device` with x's elements (a copy also when x is there already).
/// Downloads and uploads as needed, through staging when the device memory is not host-visible.
Tensor to(const TensorView& x, const Device& device);
/// to(x, Device::cpu()): a host tensor.
Tensor to_host(const TensorView& x);
/// The one element of a tensor with one element, wherever it lives (to_vector in tensor.hpp
/// reads all). Error{invalid_argument} (op "item") for another count, dtype_mismatch as
/// to_vector.
template <class T> T item(const TensorView& x);
/// Waits for the device's recorded work; rethrows errors its kernels detected.
void synchronize(const Device& device);
/// Runs f as one batch of the device's work (with_session of tenferro/backend/backend.hpp).
void with_session(const Device& device, const std::function<void()>& f);

// ---- elementwise: one function per unary, analytic and binary row of ops.def ----------------
// e.g. Tensor exp(const TensorView& x), Tensor add(const TensorView& lhs, const TensorView& rhs).
#define TENFERRO_API_U(name) Tensor name(const TensorView& x);
#define TENFERRO_API_B(name) Tensor name(const TensorView& lhs, const TensorView& rhs);
#define TENFERRO_API_R(name)
#define TENFERRO_API_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_API_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_API_U
#undef TENFERRO_API_B
#undef TENFERRO_API_R
#undef TENFERRO_API_X
Tensor compare(const TensorView& lhs, const TensorView& rhs, CompareDir dir);
Tensor select(const TensorView& pred, const TensorView& on_true, const TensorView& on_false);
Tensor clamp(const TensorView& x, const TensorView& lower, const TensorView& upper);
Tensor convert(const TensorView& x, DType to);
Tensor cast(const TensorView& x, DType to);

// ---- operators (elementwise; numbers by the rule above) --------------------------------------
#define TENFERRO_API_OPERATOR(sym)                          \
  Tensor operator sym(const TensorView& lhs, const TensorView& rhs); \
  Tensor operator sym(const TensorView& lhs, Number rhs);            \
  Tensor operator sym(Number lhs, const TensorView& rhs);
TENFERRO_API_OPERATOR(+)
TENFERRO_API_OPERATOR(-)
TENFERRO_API_OPERATOR(*)
TENFERRO_API_OPERATOR(/)
TENFERRO_API_OPERATOR(==)
TENFERRO_API_OPERATOR(!=)
TENFERRO_API_OPERATOR(<)
TENFERRO_API_OPERATOR(<=)
TENFERRO_API_OPERATOR(>)
TENFERRO_API_OPERATOR(>=)
#undef TENFERRO_API_OPERATOR
Tensor operator-(const TensorView& x);

// ---- reductions and contractions -------------------------------------------------------------
Tensor reduce_sum(const TensorView& x, const Axes& axes);
Tensor reduce_prod(const TensorView& x, const Axes& axes);
Tensor reduce_max(const TensorView& x, const Axes& axes);
Tensor reduce_min(const TensorView& x, const Axes& axes);
/// The sum of every element (rank 0).
Tensor sum(const TensorView& x);
Tensor dot_general(const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg, bool lhs_conj = false,
                   bool rhs_conj = false);
/// Contracts the last axis of a with the first axis of b (the matrix product for rank 2; a
/// matrix-vector product when b has rank 1). Error{rank_mismatch} for a rank-0 operand,
/// shape_mismatch for extents that differ (op "matmul").
Tensor matmul(const TensorView& a, const TensorView& b);
/// einsum on the operands' device (einsum.hpp): einsum("ij,jk->ik", a, b), einsum(s, {a, b})
/// or a span of operands.
Tensor einsum(std::string_view subscripts, std::span<const TensorView> operands, const EinsumOptions& opts = {});
Tensor einsum(std::string_view subscripts, std::initializer_list<TensorView> operands,
              const EinsumOptions& opts = {});
template <class... Rest>
  requires(std::is_convertible_v<const Rest&, const TensorView&> && ...)
Tensor einsum(std::string_view subscripts, const TensorView& first, const Rest&... rest) {
  const TensorView operands[] = {first, static_cast<const TensorView&>(rest)...};
  return einsum(subscripts, std::span<const TensorView>(operands));
}

// ---- structural ops: new compact tensors (the views are TensorView's members) ----------------
Tensor transpose_copy(const TensorView& x, const Axes& perm);
Tensor reshape_copy(const TensorView& x, const Shape& shape);
Tensor broadcast_in_dim_copy(const TensorView& x, const Shape& shape, const Axes& dims);
Tensor slice_copy(const TensorView& x, const SliceConfig& cfg);
Tensor reverse_copy(const TensorView& x, const Axes& axes);
Tensor to_contiguous(const TensorView& x);
Tensor extract_diagonal(const TensorView& x, std::int64_t a, std::int64_t b);
Tensor embed_diagonal(const TensorView& x, std::int64_t a, std::int64_t b);
Tensor tril(const TensorView& x, std::int64_t k);
Tensor triu(const TensorView& x, std::int64_t k);
Tensor pad(const TensorView& x, const PadConfig& cfg, const TensorView& pad_value = {});
Tensor concatenate(std::span<const TensorView> inputs, std::int64_t axis);
Tensor concatenate(std::initializer_list<TensorView> inputs, std::int64_t axis);
/// dst fully overwritten with src (both on one device).
void copy_into(const TensorView& src, const TensorView& dst);
Tensor gather(const TensorView& operand, const TensorView& start_indices, const GatherConfig& cfg);
Tensor scatter(const TensorView& operand, const TensorView& scatter_indices, const TensorView& updates,
               const ScatterConfig& cfg);

}  // namespace tenferro
