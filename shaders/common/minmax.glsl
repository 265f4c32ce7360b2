// IEEE 754-2019 maximum / minimum, StableHLO's `maximum` / `minimum` on floats: a NaN operand
// gives NaN (the first NaN), otherwise the larger / smaller value with -0 < +0, so that results
// do not depend on the order of evaluation (reductions, scatter). The CPU's src/cpu/minmax.hpp is
// the same. float always, double where the variant has f64 (TF_F64).
#ifndef TF_MINMAX_GLSL
#define TF_MINMAX_GLSL
#define TF_DEFINE_MINMAX(F)                          \
  F tf_fmax(F a, F b) {                              \
    if (isnan(a)) return a;                          \
    if (isnan(b)) return b;                          \
    if (a == b) return tf_signbit(a) ? b : a;        \
    return a > b ? a : b;                            \
  }                                                  \
  F tf_fmin(F a, F b) {                              \
    if (isnan(a)) return a;                          \
    if (isnan(b)) return b;                          \
    if (a == b) return tf_signbit(a) ? a : b;        \
    return a < b ? a : b;                            \
  }
bool tf_signbit(float v) { return (floatBitsToUint(v) >> 31) != 0u; }
TF_DEFINE_MINMAX(float)
#ifdef TF_F64
bool tf_signbit(double v) { return (unpackDouble2x32(v).y >> 31) != 0u; }
TF_DEFINE_MINMAX(double)
#endif
#endif  // TF_MINMAX_GLSL
