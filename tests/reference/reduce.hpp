// Reference oracle for reductions (SEMANTICS.md "Reduction"): naive loops over the colex index
// space in double / complex<double>, exact wrapping int64 arithmetic for I32/I64. Never calls
// tenferro ops or src/cpu code.
#pragma once
#include <vector>

#include "ref.hpp"
#include "tenferro/op_info.hpp"

namespace tenferro::reference {

/// The exact reduction plus, per output element, the magnitude that bounds a floating-point
/// implementation's rounding error: sum|x_i| for reduce_sum (complex: sum |re|+|im|),
/// prod |x_i| for reduce_prod (real and complex), 0 for max/min (exact).
struct ReduceResult {
  test::RefTensor value;
  std::vector<double> scale;
  std::int64_t count = 0;  // elements reduced into each output (1 for an empty axes list)
};

/// @pre op is reduce_sum/prod/max/min, axes valid (in range, unique, extents > 0), any order.
/// Reduced axes are removed; an empty axes list returns x unchanged. Integers wrap to the
/// dtype; floats are not rounded to f32 (the exact double/complex result is kept); max/min
/// propagate NaN.
ReduceResult reduce(OpId op, const test::RefTensor& x, const Axes& axes);

}  // namespace tenferro::reference
