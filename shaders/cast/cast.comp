#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = cast(x[i]) (operand 0 = out of type T from DT_*, operand 1 = x of type S
// from SRC_*); push constants = KernelParams (common/params.h), value[0] = exact flag, tag = op.
// Rules (SEMANTICS.md): to Bool x != 0 (complex: either part, NaN counts as nonzero); Bool to
// numbers 1/0; real to complex (x, 0); complex to real/integer: the real part; integer to
// integer wraps; float to integer truncates, NaN/inf/out-of-range (exact: non-integral too)
// raises TF_ERR_CAST_RANGE and stores 0.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"
#include "common/errors.glsl"
#include "cast/source.glsl"

// ---- source -> destination ------------------------------------------------------------------
#if defined(TF_KIND_BOOL)
#if defined(SRC_F32) || defined(SRC_C32)
// On the bits: exact where the device flushes subnormal operands (NVIDIA); NaN is nonzero.
bool nonzero(float x) { return (floatBitsToUint(x) & 0x7fffffffu) != 0u; }
#elif defined(SRC_F64) || defined(SRC_C64)
bool nonzero(double x) { return !(x == 0.0); }  // NaN is nonzero
#endif
T convert(SRC_T s) {
#if defined(SRC_KIND_COMPLEX)
  return uint8_t(nonzero(s.x) || nonzero(s.y) ? 1u : 0u);
#elif defined(SRC_KIND_BOOL)
  return s;
#elif defined(SRC_KIND_FLOAT)
  return uint8_t(nonzero(s) ? 1u : 0u);
#else
  return uint8_t(!(s == SRC_T(0)) ? 1u : 0u);
#endif
}
#else
// The source as a real scalar (complex: the real part; Bool: 1/0).
#if defined(SRC_KIND_COMPLEX)
SRC_R src_real(SRC_T s) { return s.x; }
#elif defined(SRC_KIND_BOOL)
int src_real(SRC_T s) { return uint(s) != 0u ? 1 : 0; }
#else
SRC_T src_real(SRC_T s) { return s; }
#endif

// f32 / c32 parts into f64 / c64 from their bits: exact also for subnormals, which the device's
// conversion reads as zero where it flushes them (NVIDIA).
#if (defined(SRC_F32) || defined(SRC_C32)) && defined(TF_F64)
#include "common/f32_bits.glsl"
double widen(float x) { return f32_widen(floatBitsToUint(x)); }
#else
#define widen(x) (x)
#endif

#if defined(TF_KIND_COMPLEX)
T convert(SRC_T s) {
#if defined(SRC_KIND_COMPLEX)
  return T(R(widen(s.x)), R(widen(s.y)));
#else
  return T(R(widen(src_real(s))), R(0));
#endif
}
#elif defined(TF_KIND_FLOAT)
T convert(SRC_T s) { return T(widen(src_real(s))); }
#elif defined(TF_KIND_INT)
#if defined(SRC_KIND_FLOAT) || defined(SRC_KIND_COMPLEX)
// Truncation toward zero: x fits when -2^(bits-1) - 1 < x < 2^(bits-1) (bounds exact in every
// float type; in f32, -2^31 - 1 rounds to -2^31, which fits: hence the two lower tests).
// Comparisons fail for NaN. The tests are on x and floor(x), not on trunc(x): lavapipe compiled
// trunc(x) >= -2^31 wrongly for f64 x in (-2^31 - 1, -2^31), and its trunc(double) is x itself
// from 2^24 up, so that fractional index values of 2^24 and more passed as integral (found by
// differential fuzzing of the CPU against Vulkan, tests/cases/fuzz.json).
T convert(SRC_T s) {
  SRC_R x = src_real(s);
#if defined(DT_I32)
  const SRC_R lim = SRC_R(2147483648.0);
#else
  const SRC_R lim = SRC_R(9223372036854775808.0);
#endif
  const bool fits = (x >= -lim || x > -lim - SRC_R(1)) && x < lim;
  if (!fits || (p.value[0] != 0ul && floor(x) != x)) {
    raise_error(TF_ERR_CAST_RANGE);
    return T(0);
  }
  return T(x);  // OpConvertFToS: toward zero
}
#else
T convert(SRC_T s) { return T(src_real(s)); }  // integer to integer wraps (OpSConvert)
#endif
#endif
#endif

void main() {
  TF_FOR_EACH_ELEMENT(i, 2u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 2u, o);
    store_T(p.addr[0], o[0], convert(load_Src(p.addr[1], o[1])));
  }
}
