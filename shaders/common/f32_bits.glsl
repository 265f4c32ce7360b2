// f32 helpers on the bits, for devices that flush f32 subnormal operands (NVIDIA: there a
// subnormal compares as 0 and any arithmetic on it reads 0). Included by math_f32.glsl, by
// complex.glsl's c32 branch, by access.glsl for the f32-storage variants and by the casts.
#ifndef TF_F32_BITS_GLSL
#define TF_F32_BITS_GLSL

// x * 2^64 for |x| < 2^60, exact also for a subnormal x: its value m 2^-149 is rebuilt from the
// bits as float(m) 2^-85 (m < 2^23 converts exactly; the product is normal).
float f32_up64(float x) {
  const uint u = floatBitsToUint(x);
  if ((u & 0x7f800000u) != 0u) return x * uintBitsToFloat(0x5f800000u);  // 2^64
  const float m = float(u & 0x7fffffu) * uintBitsToFloat(0x15000000u);     // 2^-85
  return (u & 0x80000000u) != 0u ? -m : m;
}

#if defined(TF_F64) || defined(TF_F32_BITS_WIDE)
// (TF_F32_BITS_WIDE: also in an f32 kernel, the generated fused kernels' f32 pow.)
// The f32 value of bits u as a double, exact also for a subnormal (m 2^-149 rebuilt as double(m)
// times 2^-149; the device's f32 -> f64 conversion reads it as zero where it flushes f32
// subnormals: NVIDIA). Normal numbers, infinities and NaN convert as they are.
double f32_widen(uint u) {
  if ((u & 0x7f800000u) != 0u) return double(uintBitsToFloat(u));
  const double m = double(u & 0x7fffffu) * packDouble2x32(uvec2(0u, 0x36a00000u));  // 2^-149
  return (u & 0x80000000u) != 0u ? -m : m;
}
dvec2 f32_widen(uvec2 u) { return dvec2(f32_widen(u.x), f32_widen(u.y)); }
// x rounded to f32 (to nearest even; overflow to inf), as bits. The conversion's result is not
// arithmetic on a subnormal, and the H200 keeps its subnormal results (casts f64 -> f32 compared
// against the CPU); the bits are stored without further arithmetic.
uint f32_narrow(double x) { return floatBitsToUint(float(x)); }
uvec2 f32_narrow(dvec2 x) { return uvec2(f32_narrow(x.x), f32_narrow(x.y)); }
#endif

#endif  // TF_F32_BITS_GLSL
