// Single-precision math library for shaders (pure f32 arithmetic plus 32/64-bit integers; no
// driver transcendentals, whose accuracy Vulkan leaves loose). Contract: m_exp m_expm1 m_log
// m_log1p m_sincos m_tanh m_atan2 m_erf m_sqrt m_rsqrt m_hypot on float, each within a few ulp over
// the whole domain (docs/accuracy.md); IEEE special values as C. Also the integer Payne-Hanek
// reduction tf_ph_reduce shared with math_f64.glsl. Algorithms and coefficients follow fdlibm
// (Copyright (C) 1993 Sun Microsystems; "Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice is preserved") via FreeBSD msun.
// Vulkan only guarantees correctly rounded add/sub/mul (not fma, division or sqrt): error-free
// transformations use Dekker products and `precise`, and the divisions that carry a result get one
// residual correction (f_div).
#ifndef TF_MATH_F32_GLSL
#define TF_MATH_F32_GLSL
#include "common/f32_bits.glsl"

// ---- Payne-Hanek: bits of 2/pi, 64 leading zero bits (so windows may start before the point) ----
const uint TF_2OPI[42] = uint[42](0u, 0u,
  0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
  0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu,
  0xe88235f5u, 0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u, 0x3991d639u, 0x835339f4u, 0x9c845f8bu,
  0xbdf9283bu, 0x1ff897ffu, 0xde05980fu, 0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u,
  0x4f463f66u, 0x9e5fea2du, 0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u,
  0x1f8d5d08u, 0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du);

// x = (mhi * 2^32 + mlo) * 2^e2 >= 0 with the integer < 2^53 and -61 <= e2 <= 1090. Exact
// reduction: returns n (mod 8) with f = x * 2/pi - n in [-1/2, 1/2]; |f| = (fhi 2^-64 + flo
// 2^-128) 2^fe with fhi normalized (top bit set), fneg = f < 0; fhi == 0 when f == 0. Uses a
// 192-bit window of 2/pi: the fraction keeps >= 120 bits after the worst double cancellation.
int tf_ph_reduce(uint mhi, uint mlo, int e2, out bool fneg, out uint64_t fhi, out uint64_t flo,
                 out int fe) {
  const int p = e2 - 3 + 64;  // table bit of the window's first bit (terms before it are 0 mod 8)
  const int w = p >> 5, s = p & 31;
  uint W[6];  // window, least significant word first
  for (int j = 0; j < 6; ++j) {
    uint a = TF_2OPI[w + 5 - j], b = TF_2OPI[w + 6 - j];
    W[j] = s == 0 ? a : ((a << s) | (b >> (32 - s)));
  }
  uint64_t acc[7] = uint64_t[7](0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul);
  for (int j = 0; j < 6; ++j) {
    uint64_t a = uint64_t(W[j]) * uint64_t(mlo);
    acc[j] += a & 0xfffffffful;
    acc[j + 1] += a >> 32;
    if (j < 5) {
      uint64_t b = uint64_t(W[j]) * uint64_t(mhi);
      acc[j + 1] += b & 0xfffffffful;
      acc[j + 2] += b >> 32;
    }
  }
  uint r[6];  // (m * window) mod 2^192: 3 integer bits, 189 fraction bits
  for (int c = 0; c < 6; ++c) {
    r[c] = uint(acc[c] & 0xfffffffful);
    acc[c + 1] += acc[c] >> 32;
  }
  int n = int(r[5] >> 29);
  fneg = (r[5] & 0x10000000u) != 0u;
  r[5] &= 0x1fffffffu;
  if (fneg) {  // fraction >= 1/2: f = F - 1 (two's complement of the 189 bits), n + 1
    n += 1;
    uint carry = 1u;
    for (int c = 0; c < 6; ++c) {
      uint v = ~r[c] + carry;
      carry = (carry == 1u && v == 0u) ? 1u : 0u;
      r[c] = v;
    }
    r[5] &= 0x1fffffffu;
  }
  fe = 3;  // |f| = 0.[r5 .. r0] * 2^fe
  for (int k = 0; k < 5 && r[5] == 0u; ++k) {
    for (int c = 5; c > 0; --c) r[c] = r[c - 1];
    r[0] = 0u;
    fe -= 32;
  }
  if (r[5] == 0u) {
    fhi = 0ul;
    flo = 0ul;
    return n;
  }
  const int lz = 31 - findMSB(r[5]);
  if (lz > 0) {
    for (int c = 5; c > 0; --c) r[c] = (r[c] << lz) | (r[c - 1] >> (32 - lz));
    r[0] <<= lz;
    fe -= lz;
  }
  fhi = (uint64_t(r[5]) << 32) | uint64_t(r[4]);
  flo = (uint64_t(r[3]) << 32) | uint64_t(r[2]);
  return n;
}

// ---- error-free transformations (float) ----------------------------------------------------
// Dekker's product by Veltkamp splitting (no fma, which Vulkan does not require to be fused):
// p = fl(a b), p + e = a b exactly for |a|, |b| < 1e30 (the 4097 x split stays finite) and
// products whose low part is not below the normal range.
vec2 f_two_prod(float a, float b) {
  precise float p = a * b;
  precise float ca = 4097.0 * a;
  precise float ah = ca - (ca - a);
  precise float al = a - ah;
  precise float cb = 4097.0 * b;
  precise float bh = cb - (cb - b);
  precise float bl = b - bh;
  precise float e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return vec2(p, e);
}
vec2 f_two_sum(float a, float b) {
  precise float s = a + b;
  precise float bb = s - a;
  precise float e = (a - (s - bb)) + (b - bb);
  return vec2(s, e);
}
vec2 f_fast_sum(float a, float b) {
  precise float s = a + b;
  precise float e = b - (s - a);
  return vec2(s, e);
}
// a / b with one residual correction (Vulkan float division is only 2.5 ulp). b finite, != 0.
float f_div(float a, float b) {
  if (abs(b) >= 8.507059173023462e37 && !isinf(b)) {  // 2^126: reciprocal subnormal (c_div_smith)
    a *= 0.25;
    b *= 0.25;
  }
  float q = a / b;
  const float lim = 1.0e30;  // keep the Dekker split (4097 x) and the products finite
  if (!(abs(q) < lim && abs(b) < lim && abs(a) < lim) || q == 0.0) return q;
  vec2 p = f_two_prod(q, b);
  precise float r = (a - p.x) - p.y;
  return q + r / b;
}
// Generic names for the complex functions (math_complex.glsl); math_f64.glsl overloads them.
vec2 m_two_prod(float a, float b) { return f_two_prod(a, b); }
vec2 m_two_sum(float a, float b) { return f_two_sum(a, b); }
float m_div(float a, float b) { return f_div(a, b); }
float f_nan() { return uintBitsToFloat(0x7fc00000u); }
float f_inf() { return uintBitsToFloat(0x7f800000u); }
float f_pow2(int k) { return intBitsToFloat((k + 127) << 23); }  // -126 <= k <= 127

// ---- sqrt ------------------------------------------------------------------------------------
// The builtin (inherited from inversesqrt in Vulkan) plus one Newton step on the exact residual.
// The special cases and the tiny inputs' scaling on the bits: on a device that flushes f32
// subnormal operands (NVIDIA) a subnormal x compares as 0 and x * 2^64 is 0.
float m_sqrt(float x) {
  const uint u = floatBitsToUint(x);
  if ((u & 0x7fffffffu) == 0u || u >= 0x7f800000u) return u > 0x80000000u ? f_nan() : x;  // +-0, +inf, NaN, x < 0
  // Scale into [2^-100, 2^100) by an even power of 2: the residual stays normal and finite.
  const int e = u < 0x0da24260u ? 64 : (x > 1.0e30 ? -64 : 0);  // (0x0da24260: 1e-30 as f32)
  precise float a = e == 64 ? f32_up64(x) : x * f_pow2(e);
  float s = sqrt(a);
  vec2 sq = f_two_prod(s, s);
  precise float r = (a - sq.x) - sq.y;
  precise float t = s + r * (0.5 / s);
  precise float res = t * f_pow2(-e / 2);
  return res;
}
float m_rsqrt(float x) {
  const uint u = floatBitsToUint(x);
  if ((u & 0x7fffffffu) == 0u) return 1.0 / x;  // +-0: +-inf
  if (u > 0x80000000u) return f_nan();         // x < 0
  if (u >= 0x7f800000u) return u == 0x7f800000u ? 0.0 : x;  // +inf: 0; NaN
  const int e = u < 0x0da24260u ? 64 : (x > 1.0e30 ? -64 : 0);
  precise float a = e == 64 ? f32_up64(x) : x * f_pow2(e);
  float s = m_sqrt(a);
  float y = 1.0 / s;
  vec2 p = f_two_prod(s, y);
  precise float ee = (1.0 - p.x) - p.y;
  precise float yy = y + y * ee;
  precise float res = yy * f_pow2(e / 2);
  return res;
}

// ---- exp / expm1 -----------------------------------------------------------------------------
float m_exp(float x) {
  const float ln2HI = 6.9314575195e-01, ln2LO = 1.4286067653e-06, invln2 = 1.4426950216e+00;
  const float P1 = 1.6666625440e-1, P2 = -2.7667332906e-3;
  uint hx = floatBitsToUint(x);
  const bool neg = (hx >> 31) != 0u;
  hx &= 0x7fffffffu;
  if (hx >= 0x42b17218u) {
    if (hx > 0x7f800000u) return x + x;
    if (hx == 0x7f800000u) return neg ? 0.0 : x;
    if (x > 8.8721679688e+01) return f_inf();
    if (x < -1.0397208405e+02) return 0.0;
  }
  float hi = x, lo = 0.0;
  int k = 0;
  if (hx > 0x3eb17218u) {
    k = int(invln2 * x + (neg ? -0.5 : 0.5));
    float t = float(k);
    hi = x - t * ln2HI;  // exact
    lo = t * ln2LO;
  } else if (hx < 0x39000000u) {
    return 1.0 + x;
  }
  precise float r = hi - lo;
  float t = r * r;
  float c = r - t * (P1 + t * P2);
  float y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  if (k == 0) return y;
  // precise: keeps the compiler from folding 2 * 2^127 (or 2^(k+100) * 2^-100) into one constant.
  precise float r2 = y * (k == 128 ? 2.0 : (k >= -125 ? f_pow2(k) : f_pow2(k + 100)));
  precise float res = r2 * (k == 128 ? f_pow2(127) : (k >= -125 ? 1.0 : 7.8886090522e-31));
  return res;
}

float m_expm1(float x) {
  const float ln2_hi = 6.9313812256e-01, ln2_lo = 9.0580006145e-06, invln2 = 1.4426950216e+00;
  const float Q1 = -3.3333212137e-2, Q2 = 1.5807170421e-3;
  uint hx = floatBitsToUint(x);
  const bool neg = (hx >> 31) != 0u;
  hx &= 0x7fffffffu;
  if (hx >= 0x4195b844u) {  // |x| >= 27 ln2
    if (hx >= 0x42b17218u) {
      if (hx > 0x7f800000u) return x + x;
      if (hx == 0x7f800000u) return neg ? -1.0 : x;
      if (x > 8.8721679688e+01) return f_inf();
    }
    if (neg) return -1.0;
  }
  float hi, lo, c = 0.0;
  int k = 0;
  if (hx > 0x3eb17218u) {
    if (hx < 0x3F851592u) {
      hi = neg ? x + ln2_hi : x - ln2_hi;
      lo = neg ? -ln2_lo : ln2_lo;
      k = neg ? -1 : 1;
    } else {
      k = int(invln2 * x + (neg ? -0.5 : 0.5));
      float t = float(k);
      hi = x - t * ln2_hi;
      lo = t * ln2_lo;
    }
    precise float xr = hi - lo;
    precise float cc = (hi - xr) - lo;
    x = xr;
    c = cc;
  } else if (hx < 0x33000000u) {
    return x;
  }
  float hfx = 0.5 * x;
  float hxs = x * hfx;
  float r1 = 1.0 + hxs * (Q1 + hxs * Q2);
  float t = 3.0 - r1 * hfx;
  float e = hxs * ((r1 - t) / (6.0 - x * t));
  if (k == 0) return x - (x * e - hxs);
  e = (x * (e - c) - c);
  e -= hxs;
  if (k == -1) return 0.5 * (x - e) - 0.5;
  if (k == 1) return x < -0.25 ? -2.0 * (e - (x + 0.5)) : 1.0 + 2.0 * (x - e);
  if (k <= -2 || k > 56) {
    float y = 1.0 - (e - x);
    precise float r2 = y * (k == 128 ? 2.0 : f_pow2(k));
    precise float res = r2 * (k == 128 ? f_pow2(127) : 1.0);
    return res - 1.0;
  }
  float y;
  if (k < 23) {
    float tt = uintBitsToFloat(0x3f800000u - (0x1000000u >> uint(k)));  // 1 - 2^-k
    y = (tt - (e - x)) * f_pow2(k);
  } else {
    float tt = f_pow2(-k);
    y = ((x - (e + tt)) + 1.0) * f_pow2(k);
  }
  return y;
}

// ---- log / log1p -----------------------------------------------------------------------------
float m_log(float x) {
  const float ln2_hi = 6.9313812256e-01, ln2_lo = 9.0580006145e-06;
  const float Lg1 = 0.6666666269302368, Lg2 = 0.40000972151756287, Lg3 = 0.2849878668785095,
              Lg4 = 0.24279078841209412;
  int ix = floatBitsToInt(x);
  int k = 0;
  if (ix < 0x00800000) {
    if ((ix & 0x7fffffff) == 0) return -f_inf();
    if (ix < 0) return f_nan();
    x = float(uint(ix));  // subnormal: the integer mantissa, exactly (immune to flush-to-zero)
    k = -149;
    ix = floatBitsToInt(x);
  }
  if (ix >= 0x7f800000) return x + x;
  k += (ix >> 23) - 127;
  ix &= 0x007fffff;
  int i = (ix + (0x95f64 << 3)) & 0x800000;
  x = intBitsToFloat(ix | (i ^ 0x3f800000));
  k += (i >> 23);
  float f = x - 1.0;
  float dk = float(k);
  if ((0x007fffff & (0x8000 + ix)) < 0xc000) {
    if (f == 0.0) return k == 0 ? 0.0 : dk * ln2_hi + dk * ln2_lo;
    float Rv = f * f * (0.5 - 0.33333333333333333 * f);
    return k == 0 ? f - Rv : dk * ln2_hi - ((Rv - dk * ln2_lo) - f);
  }
  float s = f_div(f, 2.0 + f);
  float z = s * s;
  float w = z * z;
  int ii = (ix - (0x6147a << 3)) | ((0x6b851 << 3) - ix);
  float Rv = z * (Lg1 + w * Lg3) + w * (Lg2 + w * Lg4);
  if (ii > 0) {
    float hfsq = 0.5 * f * f;
    return k == 0 ? f - (hfsq - s * (hfsq + Rv)) : dk * ln2_hi - ((hfsq - (s * (hfsq + Rv) + dk * ln2_lo)) - f);
  }
  return k == 0 ? f - s * (f - Rv) : dk * ln2_hi - ((s * (f - Rv) - dk * ln2_lo) - f);
}

float m_log1p(float x) {
  const float ln2_hi = 6.9313812256e-01, ln2_lo = 9.0580006145e-06;
  const float Lp1 = 6.6666668653e-01, Lp2 = 4.0000000596e-01, Lp3 = 2.8571429849e-01,
              Lp4 = 2.2222198546e-01, Lp5 = 1.8183572590e-01, Lp6 = 1.5313838422e-01,
              Lp7 = 1.4798198640e-01;
  int hx = floatBitsToInt(x);
  int ax = hx & 0x7fffffff;
  int k = 1, hu = 0;
  float f = 0.0, c = 0.0;
  if (hx < 0x3ed413d0) {
    if (ax >= 0x3f800000) return x == -1.0 ? -f_inf() : f_nan();
    if (ax < 0x38000000) return ax < 0x33800000 ? x : x - x * x * 0.5;
    if (hx > 0 || hx <= int(0xbe95f619u)) {
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7f800000) return x + x;
  if (k != 0) {
    float u;
    if (hx < 0x5a000000) {
      precise float uu = 1.0 + x;
      u = uu;
      hu = floatBitsToInt(u);
      k = (hu >> 23) - 127;
      precise float cc = k > 0 ? 1.0 - (u - x) : x - (u - 1.0);
      c = cc / u;
    } else {
      u = x;
      hu = floatBitsToInt(u);
      k = (hu >> 23) - 127;
      c = 0.0;
    }
    hu &= 0x007fffff;
    if (hu < 0x3504f4) {
      u = intBitsToFloat(hu | 0x3f800000);
    } else {
      k += 1;
      u = intBitsToFloat(hu | 0x3f000000);
      hu = (0x00800000 - hu) >> 2;
    }
    f = u - 1.0;
  }
  float hfsq = 0.5 * f * f;
  float dk = float(k);
  if (hu == 0) {
    if (f == 0.0) return k == 0 ? 0.0 : dk * ln2_hi + (c + dk * ln2_lo);
    float Rv = hfsq * (1.0 - 0.66666666666666666 * f);
    return k == 0 ? f - Rv : dk * ln2_hi - ((Rv - (dk * ln2_lo + c)) - f);
  }
  float s = f_div(f, 2.0 + f);
  float z = s * s;
  float Rv = z * (Lp1 + z * (Lp2 + z * (Lp3 + z * (Lp4 + z * (Lp5 + z * (Lp6 + z * Lp7))))));
  return k == 0 ? f - (hfsq - s * (hfsq + Rv)) : dk * ln2_hi - ((hfsq - (s * (hfsq + Rv) + (dk * ln2_lo + c))) - f);
}

// ---- sin / cos ---------------------------------------------------------------------------------
// Kernels on [-pi/4, pi/4] for x + y (y the tail of the reduced argument).
float f_ksin(float x, float y) {
  const float S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
              S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
              S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  float z = x * x, v = z * x;
  float r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}
float f_kcos(float x, float y) {
  const float C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
              C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
              C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  float z = x * x, w = z * z;
  float r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  float hz = 0.5 * z;
  precise float ww = 1.0 - hz;
  return ww + (((1.0 - ww) - hz) + (z * r - x * y));
}

// x = n pi/2 + y0 + y1 for |x| > pi/4 (exact Payne-Hanek reduction for every float).
int f_rem_pio2(float x, out float y0, out float y1) {
  const float PIO2_HI = 1.5707963705062866, PIO2_LO = -4.3711390001862428e-8;
  uint bits = floatBitsToUint(abs(x));
  int e2 = int(bits >> 23) - 150;
  uint m = (bits & 0x7fffffu) | 0x800000u;
  bool fneg;
  uint64_t fhi, flo;
  int fe;
  int n = tf_ph_reduce(0u, m, e2, fneg, fhi, flo, fe);
  float h = ldexp(float(uint(fhi >> 40)), fe - 24);
  float l = ldexp(float(uint((fhi >> 16) & 0xfffffful)), fe - 48);
  vec2 p = f_two_prod(h, PIO2_HI);
  precise float rl = p.y + (h * PIO2_LO + l * PIO2_HI);
  vec2 r = f_fast_sum(p.x, rl);
  if (fneg != (x < 0.0)) r = -r;
  y0 = r.x;
  y1 = r.y;
  return x < 0.0 ? -n : n;
}

void m_sincos(float x, out float s, out float c) {
  if (isinf(x) || isnan(x)) {
    s = c = f_nan();
    return;
  }
  if (abs(x) <= 0.78539816) {
    s = abs(x) < 1e-20 ? x : f_ksin(x, 0.0);
    c = f_kcos(x, 0.0);
    return;
  }
  float y0, y1;
  int n = f_rem_pio2(x, y0, y1);
  float ks = f_ksin(y0, y1), kc = f_kcos(y0, y1);
  switch (n & 3) {
    case 0: s = ks; c = kc; break;
    case 1: s = kc; c = -ks; break;
    case 2: s = -ks; c = -kc; break;
    default: s = -kc; c = ks; break;
  }
}

// ---- tanh, atan2, hypot, erf -------------------------------------------------------------------
float m_tanh(float x) {
  int jx = floatBitsToInt(x);
  int ix = jx & 0x7fffffff;
  if (ix >= 0x7f800000) return isnan(x) ? x : (jx >= 0 ? 1.0 : -1.0);
  float z;
  if (ix < 0x41100000) {
    if (ix < 0x39800000) return x;
    if (ix >= 0x3f800000) {
      float t = m_expm1(2.0 * abs(x));
      z = 1.0 - f_div(2.0, t + 2.0);
    } else {
      float t = m_expm1(-2.0 * abs(x));
      z = -f_div(t, t + 2.0);
    }
  } else {
    z = 1.0;
  }
  return jx >= 0 ? z : -z;
}

float f_atan(float x) {
  const float atanhi[4] = float[4](4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01, 1.5707962513e+00);
  const float atanlo[4] = float[4](5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08, 7.5497894159e-08);
  const float aT0 = 3.3333328366e-01, aT1 = -1.9999158382e-01, aT2 = 1.4253635705e-01,
              aT3 = -1.0648017377e-01, aT4 = 6.1687607318e-02;
  int hx = floatBitsToInt(x);
  int ix = hx & 0x7fffffff;
  int id;
  if (ix >= 0x4c800000) {
    if (ix > 0x7f800000) return x + x;
    return hx > 0 ? atanhi[3] + atanlo[3] : -atanhi[3] - atanlo[3];
  }
  if (ix < 0x3ee00000) {
    if (ix < 0x39800000) return x;
    id = -1;
  } else {
    x = abs(x);
    if (ix < 0x3f980000) {
      if (ix < 0x3f300000) {
        id = 0;
        x = f_div(2.0 * x - 1.0, 2.0 + x);
      } else {
        id = 1;
        x = f_div(x - 1.0, x + 1.0);
      }
    } else if (ix < 0x401c0000) {
      id = 2;
      x = f_div(x - 1.5, 1.0 + 1.5 * x);
    } else {
      id = 3;
      x = f_div(-1.0, x);
    }
  }
  float z = x * x, w = z * z;
  float s1 = z * (aT0 + w * (aT2 + w * aT4));
  float s2 = w * (aT1 + w * aT3);
  if (id < 0) return x - x * (s1 + s2);
  z = atanhi[id] - ((x * (s1 + s2) - atanlo[id]) - x);
  return hx < 0 ? -z : z;
}

float m_atan2(float y, float x) {
  const float pi_o_4 = 7.8539818525e-01, pi_o_2 = 1.5707963705e+00, pi = 3.1415927410e+00,
              pi_lo = -8.7422776573e-08;
  if (isnan(x) || isnan(y)) return x + y;
  if (x == 1.0) return f_atan(y);
  const bool sy = floatBitsToInt(y) < 0, sx = floatBitsToInt(x) < 0;
  const int m = (sy ? 1 : 0) | (sx ? 2 : 0);
  if (y == 0.0) return m < 2 ? y : (m == 2 ? pi + pi_lo : -pi - pi_lo);
  if (x == 0.0) return sy ? -pi_o_2 : pi_o_2;
  if (isinf(x)) {
    if (isinf(y)) {
      float a = m < 2 ? pi_o_4 : 3.0 * pi_o_4;
      return sy ? -a : a;
    }
    float a = m < 2 ? 0.0 : pi + pi_lo;
    return sy ? -a : a;
  }
  if (isinf(y)) return sy ? -pi_o_2 : pi_o_2;
  // atan2 is scale invariant: tiny pairs are scaled up by 2^64 (exactly) so that the corrected
  // division keeps its low part normal on devices that flush subnormals.
  if (max(abs(x), abs(y)) < f_pow2(-60)) {
    x *= f_pow2(64);
    y *= f_pow2(64);
  }
  const int k = (int(floatBitsToUint(abs(y)) >> 23) - int(floatBitsToUint(abs(x)) >> 23));
  float z;
  if (k > 26) {
    z = pi_o_2 + 0.5 * pi_lo;
    return sy ? -z : z;
  } else if (sx && k < -26) {
    z = 0.0;
  } else {
    z = f_atan(abs(f_div(y, x)));
  }
  switch (m) {
    case 0: return z;
    case 1: return -z;
    case 2: return pi - (z - pi_lo);
  }
  return (z - pi_lo) - pi;
}

// sqrt(x^2 + y^2) without overflow or underflow in the squares.
float m_hypot(float x, float y) {
  float a = abs(x), b = abs(y);
  if (isinf(a) || isinf(b)) return f_inf();
  if (isnan(a) || isnan(b)) return a + b;
  float m = max(a, b), s = min(a, b);
  if (m == 0.0) return 0.0;
  int e = int(floatBitsToUint(m) >> 23) - 127;
  float sc = f_pow2(clamp(-e, -126, 126)), un = f_pow2(clamp(e, -126, 126));
  float u = m * sc, v = s * sc;
  vec2 uu = f_two_prod(u, u), vv = f_two_prod(v, v);
  precise float hi = uu.x + vv.x;
  precise float lo = ((uu.x - hi) + vv.x) + uu.y + vv.y;
  float q = m_sqrt(hi);
  q = q + lo * (0.5 / q);
  return q * un;
}

float m_erf(float x) {
  const float erx = 8.4506291151e-01, efx = 1.2837916613e-01;
  const float pp0 = 1.2837916613e-01, pp1 = -3.2504209876e-01, pp2 = -2.8481749818e-02,
              pp3 = -5.7702702470e-03, pp4 = -2.3763017452e-05, qq1 = 3.9791721106e-01,
              qq2 = 6.5022252500e-02, qq3 = 5.0813062117e-03, qq4 = 1.3249473704e-04,
              qq5 = -3.9602282413e-06;
  const float pa0 = -2.3621185683e-03, pa1 = 4.1485610604e-01, pa2 = -3.7220788002e-01,
              pa3 = 3.1834661961e-01, pa4 = -1.1089469492e-01, pa5 = 3.5478305072e-02,
              pa6 = -2.1663755178e-03, qa1 = 1.0642088205e-01, qa2 = 5.4039794207e-01,
              qa3 = 7.1828655899e-02, qa4 = 1.2617121637e-01, qa5 = 1.3637083583e-02,
              qa6 = 1.1984500103e-02;
  const float ra0 = -9.8649440333e-03, ra1 = -6.9385856390e-01, ra2 = -1.0558626175e+01,
              ra3 = -6.2375331879e+01, ra4 = -1.6239666748e+02, ra5 = -1.8460508728e+02,
              ra6 = -8.1287437439e+01, ra7 = -9.8143291473e+00, sa1 = 1.9651271820e+01,
              sa2 = 1.3765776062e+02, sa3 = 4.3456588745e+02, sa4 = 6.4538726807e+02,
              sa5 = 4.2900814819e+02, sa6 = 1.0863500214e+02, sa7 = 6.5702495575e+00,
              sa8 = -6.0424413532e-02;
  const float rb0 = -9.8649431020e-03, rb1 = -7.9928326607e-01, rb2 = -1.7757955551e+01,
              rb3 = -1.6063638306e+02, rb4 = -6.3756646729e+02, rb5 = -1.0250950928e+03,
              rb6 = -4.8351919556e+02, sb1 = 3.0338060379e+01, sb2 = 3.2579251099e+02,
              sb3 = 1.5367296143e+03, sb4 = 3.1998581543e+03, sb5 = 2.5530502930e+03,
              sb6 = 4.7452853394e+02, sb7 = -2.2440952301e+01;
  int hx = floatBitsToInt(x);
  int ix = hx & 0x7fffffff;
  if (ix >= 0x7f800000) return isnan(x) ? x : (hx >= 0 ? 1.0 : -1.0);
  if (ix < 0x3f580000) {
    if (ix < 0x31800000) return x + efx * x;
    float z = x * x;
    float r = pp0 + z * (pp1 + z * (pp2 + z * (pp3 + z * pp4)));
    float s = 1.0 + z * (qq1 + z * (qq2 + z * (qq3 + z * (qq4 + z * qq5))));
    return x + x * f_div(r, s);
  }
  if (ix < 0x3fa00000) {
    float s = abs(x) - 1.0;
    float P = pa0 + s * (pa1 + s * (pa2 + s * (pa3 + s * (pa4 + s * (pa5 + s * pa6)))));
    float Q = 1.0 + s * (qa1 + s * (qa2 + s * (qa3 + s * (qa4 + s * (qa5 + s * qa6)))));
    return hx >= 0 ? erx + f_div(P, Q) : -erx - f_div(P, Q);
  }
  if (ix >= 0x40c00000) return hx >= 0 ? 1.0 : -1.0;
  float ax = abs(x);
  float s = f_div(1.0, ax * ax);
  float Rv, S;
  if (ix < 0x4036DB6E) {
    Rv = ra0 + s * (ra1 + s * (ra2 + s * (ra3 + s * (ra4 + s * (ra5 + s * (ra6 + s * ra7))))));
    S = 1.0 + s * (sa1 + s * (sa2 + s * (sa3 + s * (sa4 + s * (sa5 + s * (sa6 + s * (sa7 + s * sa8)))))));
  } else {
    Rv = rb0 + s * (rb1 + s * (rb2 + s * (rb3 + s * (rb4 + s * (rb5 + s * rb6)))));
    S = 1.0 + s * (sb1 + s * (sb2 + s * (sb3 + s * (sb4 + s * (sb5 + s * (sb6 + s * sb7))))));
  }
  float z = intBitsToFloat(floatBitsToInt(ax) & int(0xfffff000u));
  precise float d = (z - ax) * (z + ax);
  float r = m_exp(-z * z - 0.5625) * m_exp(d + f_div(Rv, S));
  return hx >= 0 ? 1.0 - f_div(r, ax) : f_div(r, ax) - 1.0;
}

#endif  // TF_MATH_F32_GLSL
