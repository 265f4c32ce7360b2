// f32 helpers on the bits, for devices that flush f32 subnormal operands (NVIDIA: there a
// subnormal compares as 0 and any arithmetic on it reads 0). Included by math_f32.glsl and by
// complex.glsl's c32 branch.
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

#endif  // TF_F32_BITS_GLSL
