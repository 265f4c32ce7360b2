// IEEE 754-2019 maximum / minimum, StableHLO's `maximum` / `minimum` on floats: a NaN operand
// gives NaN (the first NaN), otherwise the larger / smaller value with -0 < +0; integers plain.
// Shared by the CPU kernels that compare (maximum, minimum, clamp, reduce_max / reduce_min,
// scatter's max / min combiners), so that results do not depend on the order of evaluation
// (the GPU's shaders/common/minmax.glsl is the same).
#pragma once
#include <cmath>
#include <type_traits>

namespace tenferro::cpu {

template <class T> T ieee_max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == b) return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}

template <class T> T ieee_min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == b) return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

}  // namespace tenferro::cpu
