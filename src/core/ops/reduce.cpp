// Reductions (SEMANTICS.md "Reduction"): reduce_sum, reduce_prod (numeric), reduce_max,
// reduce_min (reals and integers) over a set of axes given in any order.
//   - every axis in [0, rank) (axis_out_of_bounds), no repeats (invalid_argument), no reduced
//     axis of extent 0 (invalid_argument); the op must be a reduction (invalid_argument);
//   - the dtype must be in the op's contract and supported by `be` (unsupported);
//   - reduced axes are removed (all axes -> rank 0); an empty axes list is a copy.
// Validation happens before any allocation; the backend receives sorted, unique, non-empty
// axes over extents > 0 and a fresh compact output, and is not called for empty outputs.
#include <algorithm>
#include <string>

#include "core/check.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {

Tensor reduce_impl(Backend& be, OpId op, const TensorView& x, const Axes& axes) {
  const std::string name(op_name(op));
  const char* opn = name.c_str();
  detail::check_resident(be, x, opn, "x");
  TENFERRO_CHECK(contract_allows(op, x.dtype()), unsupported, opn, "x", name,
                 " does not accept dtype ", dtype_name(x.dtype()));
  detail::check_axes(axes, x.rank(), opn, "axes");
  for (std::int64_t a : axes)
    TENFERRO_CHECK(x.dim(a) > 0, invalid_argument, opn, "axes", "cannot reduce over axis ", a,
                   " of extent 0: got shape ", x.shape(), ", expected every reduced extent > 0");
  // Backend capability last, so every backend reports argument errors alike.
  detail::check_supported(be, op, x.dtype(), "x");

  Axes sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  Shape out_shape;
  for (std::int64_t a = 0; a < x.rank(); ++a)
    if (!std::binary_search(sorted.begin(), sorted.end(), a))
      out_shape.push_back(x.dim(a));

  Tensor out = be.allocate(x.dtype(), out_shape);
  if (out.numel() == 0) return out;  // a non-reduced extent 0: nothing to compute
  if (sorted.empty()) {
    be.copy(x, out);
    return out;
  }
  be.reduce(op, x, sorted, out);
  return out;
}

}  // namespace

Tensor reduce(Backend& be, OpId op, const TensorView& x, const Axes& axes) {
  TENFERRO_CHECK(op_info(op).family == OpFamily::reduce, invalid_argument, "reduce", "op", "op ",
                 op_name(op), " is not a reduction: expected reduce_sum, reduce_prod, reduce_max or "
                 "reduce_min");
  return reduce_impl(be, op, x, axes);
}

Tensor reduce_sum(Backend& be, const TensorView& x, const Axes& axes) {
  return reduce_impl(be, OpId::reduce_sum, x, axes);
}
Tensor reduce_prod(Backend& be, const TensorView& x, const Axes& axes) {
  return reduce_impl(be, OpId::reduce_prod, x, axes);
}
Tensor reduce_max(Backend& be, const TensorView& x, const Axes& axes) {
  return reduce_impl(be, OpId::reduce_max, x, axes);
}
Tensor reduce_min(Backend& be, const TensorView& x, const Axes& axes) {
  return reduce_impl(be, OpId::reduce_min, x, axes);
}

}  // namespace tenferro
