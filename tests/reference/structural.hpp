// Reference oracle for the structural ops: naive loops over the colex index space, written from
// SEMANTICS.md / StableHLO. It only manipulates RefTensor (never tenferro ops or src/cpu).
// Arguments are assumed valid (the conformance tests only call it with valid cases).
#pragma once
#include <vector>

#include "ref.hpp"

namespace tenferro::test::structural_ref {

/// out[i0..ik] = x[i_perm0, ...]: out.shape[i] = x.shape[perm[i]].
RefTensor transpose(const RefTensor& x, const Axes& perm);
/// Same colex values under a new shape (column-major reshape).
RefTensor reshape(const RefTensor& x, const Shape& shape);
/// StableHLO broadcast_in_dim: out[idx] = x[j -> (x.shape[j] == 1 ? 0 : idx[dims[j]])].
RefTensor broadcast_in_dim(const RefTensor& x, const Shape& shape, const Axes& dims);
/// Keeps axis a (index i), drops b, reads x at i on both axes.
RefTensor extract_diagonal(const RefTensor& x, std::int64_t a, std::int64_t b);
/// New axis at output position b of extent x.shape[a]; x's axis a sits at a (a < b) or a + 1;
/// out = x where the two coordinates agree, else zero (see src/core/ops/structural.cpp).
RefTensor embed_diagonal(const RefTensor& x, std::int64_t a, std::int64_t b);
/// tril keeps row >= col - k, triu keeps row <= col - k (axes 0, 1; later axes batch).
RefTensor tril(const RefTensor& x, std::int64_t k);
RefTensor triu(const RefTensor& x, std::int64_t k);
/// out[i] = x[start + i * stride] per axis, for start + i * stride < limit.
RefTensor slice(const RefTensor& x, const Shape& starts, const Shape& limits, const Shape& strides);
/// Starts clamped into [0, extent - size], then a slice of `sizes`.
RefTensor dynamic_slice(const RefTensor& x, const std::vector<std::int64_t>& starts, const Shape& sizes);
/// operand with update written at the clamped starts.
RefTensor dynamic_update_slice(const RefTensor& operand, const RefTensor& update,
                               const std::vector<std::int64_t>& starts);
/// StableHLO pad: x[j] lands at low + j * (interior + 1); out-of-range positions (negative
/// padding) are dropped; everything else holds `value` (rank 0 of x's dtype).
RefTensor pad(const RefTensor& x, const Shape& low, const Shape& high, const Shape& interior,
              const RefTensor& value);
/// Inputs joined along `axis` in order.
RefTensor concatenate(const std::vector<RefTensor>& inputs, std::int64_t axis);
/// Reverses the listed axes.
RefTensor reverse(const RefTensor& x, const Axes& axes);
/// A rank-0 zero of dtype d.
RefTensor zero_scalar(DType d);

/// Multi-index of colex linear index i in shape.
Shape unravel(std::int64_t i, const Shape& shape);
/// dst[di] = src[si] (both v and iv).
void copy_elem(RefTensor& dst, std::int64_t di, const RefTensor& src, std::int64_t si);

}  // namespace tenferro::test::structural_ref
