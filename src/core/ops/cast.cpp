// convert (checked, along the promotion lattice) and cast (explicit, any pair): validation and
// lowering to Backend::cast, or Backend::copy when the dtype does not change
// (SEMANTICS.md "Element types"). Float-to-integer range errors are data-dependent: the backend
// cast primitive raises them (invalid_argument naming the op), after the output is allocated.
#include "core/check.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {

Tensor cast_impl(Backend& be, const TensorView& x, DType to, OpId op) {
  const char* name = op == OpId::convert ? "convert" : "cast";
  detail::check_resident(be, x, name, "x");
  TENFERRO_CHECK(static_cast<int>(to) < kNumDTypes, invalid_argument, name, "to",
                 "target dtype has code ", static_cast<int>(to), ", expected one of the ", kNumDTypes,
                 " dtypes");
  if (op == OpId::convert)
    TENFERRO_CHECK(convert_allowed(x.dtype(), to), unsupported, name, "to", "conversion from ",
                   dtype_name(x.dtype()), " to ", dtype_name(to),
                   " is outside the promotion lattice; use cast for an explicit conversion");
  // A backend may lack cast kernels for the source or the target dtype.
  detail::check_supported(be, op, x.dtype(), "x");
  detail::check_supported(be, op, to, "to");
  Tensor out = be.allocate(to, x.shape());
  if (out.numel() == 0) return out;
  if (x.dtype() == to) {
    be.copy(x, out);
  } else {
    be.cast(x, out, name, /*exact=*/false);
  }
  return out;
}

}  // namespace

Tensor convert(Backend& be, const TensorView& x, DType to) { return cast_impl(be, x, to, OpId::convert); }
Tensor cast(Backend& be, const TensorView& x, DType to) { return cast_impl(be, x, to, OpId::cast); }

}  // namespace tenferro
