// Reference oracle for the elementwise, analytic, cast and fusion families: naive loops over the
// colex index space, written from SEMANTICS.md. Floats are computed in double /
// complex<double> (RefTensor::set rounds F32/C32 results); integers exactly in int64 with
// two's-complement wrapping (wrap_to for I32, unsigned arithmetic for I64).
// Never calls tenferro ops or src/cpu code: it only manipulates RefTensor values.
#pragma once
#include <string>
#include <vector>

#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/error.hpp"

namespace tenferro::test::ref {

/// The reference's verdict that the op must fail on these values (a data-dependent error:
/// integer division/remainder by zero, negative integer exponent -> numerical_failure; a
/// NaN/inf/out-of-range float cast to an integer -> invalid_argument; convert outside the
/// lattice -> unsupported). Validation errors (dtypes, shapes) are not modelled here.
struct RefError {
  ErrorKind kind;
  std::string what;
};

/// Sets element i of t to x rounded to t's dtype (f32 rounding, i32 wrapping, bool != 0).
/// Unlike RefTensor::set it keeps the C32 rounding under GCC 12.2 -O2, which folds a
/// complex<double> -> (float, float) -> complex<double> round trip to nothing (SLP bug).
void put(RefTensor& t, std::int64_t i, c64 x);
/// t with every F32/C32 value rounded again with put (random_ref is subject to the bug above).
RefTensor rounded(RefTensor t);

/// neg conj abs sign and the analytic ops. abs of complex returns the real dtype.
RefTensor unary(OpId op, const RefTensor& x);
/// add sub mul div rem pow maximum minimum compare. @pre equal shapes, or one operand rank 0
/// (broadcast); equal dtypes, except a rank-0 real scalar with a complex tensor of the same
/// precision in add/sub/mul/div.
RefTensor binary(OpId op, const RefTensor& lhs, const RefTensor& rhs, CompareDir dir = CompareDir::EQ);
/// pred may be rank 0 (broadcast).
RefTensor select(const RefTensor& pred, const RefTensor& on_true, const RefTensor& on_false);
/// min(max(x, lower), upper); lower/upper may be rank 0 (broadcast).
RefTensor clamp(const RefTensor& x, const RefTensor& lower, const RefTensor& upper);
/// Any elementwise op by id, inputs in the public function's argument order.
RefTensor elementwise(OpId op, const std::vector<RefTensor>& inputs, CompareDir dir = CompareDir::EQ);
/// The explicit cast (any pair) and the checked convert (lattice only).
RefTensor cast(const RefTensor& x, DType to);
RefTensor convert(const RefTensor& x, DType to);
/// The unfused evaluation of a fusion plan.
RefTensor fused(const FusionPlan& plan, const std::vector<RefTensor>& inputs);

}  // namespace tenferro::test::ref
