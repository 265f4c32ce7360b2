// Reference dot_general (the oracle): naive loops in complex<double> over the colex index space,
// written from SEMANTICS.md "Contraction". Never calls tenferro ops or src/cpu code.
#pragma once
#include <vector>

#include "ref.hpp"
#include "tenferro/config.hpp"

namespace tenferro::test {

/// The exact (unrounded) result of dot_general and, per output element, the error scale
/// sum_k |a||b| that a floating-point evaluation is judged against.
struct DotReference {
  RefTensor value;             // dtype of lhs; values NOT rounded to it
  std::vector<double> scale;   // sum over the contracted index of |lhs| * |rhs|
  std::int64_t k = 1;          // number of contracted index tuples (product of contracted extents)
};

/// out[free_l, free_r, batch] = sum_c op(lhs)[...] * op(rhs)[...], op = conj when the flag is
/// set. @pre cfg is valid for the shapes (the reference does not validate).
DotReference ref_dot_general(const RefTensor& lhs, const RefTensor& rhs, const DotGeneralConfig& cfg,
                             bool lhs_conj = false, bool rhs_conj = false);

/// Output shape: lhs free axes (in order), rhs free axes (in order), batch axes (config order).
Shape ref_dot_general_shape(const Shape& lhs, const Shape& rhs, const DotGeneralConfig& cfg);

}  // namespace tenferro::test
