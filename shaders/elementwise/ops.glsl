// The elementwise op family for one element type T (types.glsl). OP is specialization constant
// 1 (an op code of params.h); switches on it fold away when the pipeline is created.
// Semantics: SEMANTICS.md "Op families" (integer wrap, MIN / -1 = MIN, MIN % -1 = 0, NaN
// propagation in max/min, fmod sign rule, abs(complex) real, sign(z) = z/|z|).
#include "common/minmax.glsl"

#if defined(TF_KIND_FLOAT) || defined(TF_KIND_COMPLEX)
R tf_nan() {
#ifdef TF_F64
  return packDouble2x32(uvec2(0u, 0x7ff80000u));
#else
  return uintBitsToFloat(0x7fc00000u);
#endif
}
R tf_inf() { return R(1) / R(0); }
#endif

// ---- unary -----------------------------------------------------------------------------
#if defined(TF_KIND_INT)
T op_neg(T a) { return T(0) - a; }  // wraps: -MIN == MIN
T op_abs(T a) { return a < T(0) ? T(0) - a : a; }
T op_sign(T a) { return a > T(0) ? T(1) : (a < T(0) ? T(-1) : T(0)); }
T op_conj(T a) { return a; }
#elif defined(TF_KIND_FLOAT)
T op_neg(T a) { return -a; }
T op_abs(T a) { return abs(a); }
T op_sign(T a) { return a > T(0) ? T(1) : (a < T(0) ? T(-1) : a); }  // +-0 and NaN kept
T op_conj(T a) { return a; }
#elif defined(TF_KIND_COMPLEX)
T op_neg(T a) { return -a; }
T op_conj(T a) { return T(a.x, -a.y); }
T op_sign(T a) {
  if (a.x == R(0) && a.y == R(0)) return T(0);
  if (isnan(a.x) || isnan(a.y)) return T(tf_nan(), tf_nan());
  const R m = max(abs(a.x), abs(a.y));
  if (isinf(m)) return a / c_abs(a);
  R up;
  const T u = a * c_inv_scale(m, up);  // |u| in [1, 4 sqrt 2]: no overflow of |z| for huge z
  return u / c_abs(u);
}
#endif

#if !defined(TF_KIND_BOOL)
#if !defined(TF_KIND_COMPLEX)
T unary_op(T a) {
  switch (OP) {
    case TF_OP_NEG: return op_neg(a);
    case TF_OP_CONJ: return op_conj(a);
    case TF_OP_ABS: return op_abs(a);
    case TF_OP_SIGN: return op_sign(a);
  }
  return a;
}
#else
T unary_op(T a) {  // abs of complex has a real result: its own kernel variant (unary_abs_*)
  switch (OP) {
    case TF_OP_NEG: return op_neg(a);
    case TF_OP_CONJ: return op_conj(a);
    case TF_OP_SIGN: return op_sign(a);
  }
  return a;
}
#endif
#endif

// ---- binary ----------------------------------------------------------------------------
#if defined(TF_KIND_INT)
T op_div(T a, T b) {
  if (b == T(0)) { raise_error(TF_ERR_DIV_ZERO); return T(0); }
  if (b == T(-1)) return T(0) - a;  // MIN / -1 == MIN (SPIR-V leaves the overflow undefined)
  return a / b;                     // OpSDiv truncates toward zero
}
T op_rem(T a, T b) {
  if (b == T(0)) { raise_error(TF_ERR_DIV_ZERO); return T(0); }
  if (b == T(-1)) return T(0);      // MIN % -1 == 0
  return a - (a / b) * b;           // C++ %: sign of the dividend (GLSL % is undefined here)
}
T op_pow(T a, T b) {
  if (b < T(0)) { raise_error(TF_ERR_NEG_EXPONENT); return T(0); }
  T r = T(1), base = a, e = b;
  while (e > T(0)) {  // square and multiply, wrapping like the CPU backend
    if ((e & T(1)) != T(0)) r *= base;
    base *= base;
    e >>= T(1);
  }
  return r;
}
T op_max(T a, T b) { return a < b ? b : a; }
T op_min(T a, T b) { return b < a ? b : a; }
T op_mul(T a, T b) { return a * b; }
#elif defined(TF_KIND_FLOAT)
// IEEE 754-2019 maximum / minimum: NaN propagates, -0 < +0 (common/minmax.glsl).
T op_max(T a, T b) { return tf_fmax(a, b); }
T op_min(T a, T b) { return tf_fmin(a, b); }
T op_mul(T a, T b) { return a * b; }
#ifdef TF_F64
T op_div(T a, T b) { return a / b; }
#else
// IEEE division (SEMANTICS.md) also where the device's is not: Vulkan allows OpFDiv 2.5 ulp;
// NVIDIA's driver was up to 2 ulp off on the H200, and its quotients by divisors from 2^126
// (whose reciprocal is subnormal) came out 0 in the complex kernels (fourteenth session's range
// probe, tools/probe_range.py); lavapipe's is exact. Both magnitudes are scaled exactly into
// [1, 2) (exponents set aside, subnormals first by 2^24); the quotient q of the mantissas is
// corrected with its exact residual r = ma - q mb (Dekker's product; exact for a faithful q)
// until it is the correctly rounded one (a quotient is never a midpoint, so 2|r| against
// mb ulp decides); then scaled by 2^(ea - eb): exactly in the normal range, and rounded to the
// subnormal grid from q and the sign of r (no double rounding). Results are assembled in the
// bits, so a device that flushes f32 subnormals still stores a subnormal quotient of normal
// operands. Zeros, infinities and NaN take the device's division, which handles them as IEEE.
#include "common/two_prod_f32.glsl"
// |x| = m 2^e with m in [1, 2); x finite and nonzero.
float div_split(float x, out int e) {
  uint u = floatBitsToUint(x) & 0x7fffffffu;
  e = 0;
  if (u < 0x00800000u) {  // subnormal: exactly normal after 2^24
    u = floatBitsToUint(abs(x) * 16777216.0);
    e = -24;
  }
  e += int(u >> 23) - 127;
  return uintBitsToFloat((u & 0x007fffffu) | 0x3f800000u);
}
// ma - q mb, exactly (q within an ulp of ma / mb, both in [1/2, 2]).
float div_residual(float ma, float mb, float q) {
  const vec2 p = f_two_prod(q, mb);
  precise float r = (ma - p.x) - p.y;
  return r;
}
T op_div_slow(T a, T b) {
  if (a == T(0) || b == T(0) || isinf(a) || isinf(b) || isnan(a) || isnan(b)) return a / b;
  int ea, eb;
  const float ma = div_split(a, ea), mb = div_split(b, eb);
  float q = ma / mb;  // in (1/2, 2)
  float r = div_residual(ma, mb, q);
  q = q + r / mb;  // faithful
  r = div_residual(ma, mb, q);
  // The neighbour of q towards ma / mb (half the step below a power of two) when that is closer.
  const uint qb = floatBitsToUint(q);
  float ul = uintBitsToFloat(qb & 0x7f800000u) * 1.1920928955078125e-7;  // ulp(q) = 2^(e - 23)
  if (r < 0.0 && (qb & 0x007fffffu) == 0u) ul *= 0.5;
  if (2.0 * abs(r) > mb * ul) {
    q = r < 0.0 ? q - ul : q + ul;
    r = div_residual(ma, mb, q);
  }
  const int k = ea - eb;
  const uint sign = (floatBitsToUint(a) ^ floatBitsToUint(b)) & 0x80000000u;
  uint bits;
  if (k > 129) {
    bits = 0x7f800000u;
  } else if (k > 127) {
    bits = floatBitsToUint((q * 1.7014118346046923e38) * intBitsToFloat(k << 23));  // 2^127 2^(k-127)
  } else if (k > -126 || (k == -126 && q >= 1.0)) {
    bits = floatBitsToUint(q * intBitsToFloat((k + 127) << 23));
  } else if (k < -152) {
    bits = 0u;
  } else {  // below 2^-126: N = round-half-even(q 2^(k + 149)) units of 2^-149
    const float t = q * intBitsToFloat((k + 149 + 127) << 23);  // exact: q has 24 bits, t < 2^23
    const float n0 = floor(t), d = (t - n0) - 0.5;
    const uint n = uint(n0);
    const bool up = d > 0.0 || (d == 0.0 && (r > 0.0 || (r == 0.0 && (n & 1u) != 0u)));
    bits = n + (up ? 1u : 0u);
  }
  return uintBitsToFloat(bits | sign);
}
// The common case in integers (fifteenth session: op_div_slow alone ran f32 division of 2^28
// elements at 64 % of the copy bandwidth on the H200, compute-bound): normal operands whose
// quotient is normal. The 24-bit mantissas am, bm give the quotient's mantissa
// qm = floor(am 2^s / bm) (s = 23 or 24: qm has 24 bits) from the device's quotient, corrected
// until the remainder rm = am 2^s - qm bm (exact in 32-bit wrapping arithmetic: |rm| < 2^31)
// lies in [0, bm); then rounded to nearest even from 2 rm against bm. (Not R, Q: R is the real
// type's macro.) Everything else (zeros, infinities, NaN, subnormal operands or quotients,
// overflow) takes op_div_slow.
T op_div(T a, T b) {
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
  const uint xa = (ua >> 23) & 0xffu, xb = (ub >> 23) & 0xffu;
  if (xa - 1u < 254u && xb - 1u < 254u) {
    const uint am = (ua & 0x007fffffu) | 0x00800000u, bm = (ub & 0x007fffffu) | 0x00800000u;
    const uint s = am >= bm ? 23u : 24u;
    const int e = int(xa) - int(xb) + 150 - int(s);  // biased exponent of qm 2^-23
    if (e >= 1 && e <= 254) {
      uint qm = uint((float(am) / float(bm)) * uintBitsToFloat((127u + s) << 23));  // within a few units
      int rm = int((am << s) - qm * bm);
      while (rm < 0) {
        qm -= 1u;
        rm += int(bm);
      }
      while (rm >= int(bm)) {
        qm += 1u;
        rm -= int(bm);
      }
      if (2 * rm > int(bm) || (2 * rm == int(bm) && (qm & 1u) != 0u)) qm += 1u;  // qm = 2^24 carries into e
      return uintBitsToFloat(((ua ^ ub) & 0x80000000u) | ((uint(e - 1) << 23) + qm));
    }
  }
  return op_div_slow(a, b);
}
#endif
// Exact fmod (C semantics) by long division: each step subtracts 2^k |b| with Sterbenz-exact
// arithmetic; `x - y*trunc(x/y)` would be inexact for large quotients. x, y > 0, y normal
// (frexp is undefined for subnormals).
T rem_pos(T x, T y) {
  if (x < y) return x;
  int ex, ey;
  frexp(x, ex);
  frexp(y, ey);
  T r = x;
  for (int e = ex - ey; e >= 0; --e) {
    T s = ldexp(y, e);
    if (r >= s) r -= s;
  }
  return r;
}
#ifdef TF_F64
#define TF_MIN_NORMAL 2.2250738585072014e-308lf
#define TF_SUBNORMAL_SCALE 18014398509481984.0lf  // 2^54
#else
#define TF_MIN_NORMAL 1.17549435e-38
#define TF_SUBNORMAL_SCALE 16777216.0  // 2^24
#endif
T op_rem(T a, T b) {
  if (isnan(a) || isnan(b) || isinf(a) || b == T(0)) return tf_nan();
  if (isinf(b)) return a;
  T ax = abs(a), ay = abs(b);
  if (ax < ay) return a;
  T r;
  if (ay < TF_MIN_NORMAL) {
    // A subnormal divisor: first reduce by c = 2^k |b| (normal, a multiple of |b|), then the
    // rest (below c, tiny) scaled by 2^k, which is exact, and back.
    const T c = ay * TF_SUBNORMAL_SCALE;
    r = rem_pos(rem_pos(ax, c) * TF_SUBNORMAL_SCALE, c) / TF_SUBNORMAL_SCALE;
  } else {
    r = rem_pos(ax, ay);
  }
  return a < T(0) ? -r : r;
}
#if !defined(TF_F64)
// C pow special cases around the builtin (GLSL pow is undefined for x < 0 and x == 0).
bool tf_is_odd_int(T y) { return abs(y) < T(16777216) && floor(y) == y && mod(y, T(2)) == T(1); }
T op_pow(T x, T y) {
  if (y == T(0) || x == T(1)) return T(1);
  if (isnan(x) || isnan(y)) return tf_nan();
  bool yint = floor(y) == y;
  bool yodd = tf_is_odd_int(y);
  if (isinf(y)) {
    T ax = abs(x);
    if (ax == T(1)) return T(1);
    return (ax < T(1)) == (y > T(0)) ? T(0) : tf_inf();
  }
  if (x == T(0)) {
    if (y < T(0)) return yodd ? (1.0 / x) : tf_inf();  // 1/x keeps the sign of zero
    return yodd ? x : T(0);
  }
  if (isinf(x)) {
    if (x > T(0)) return y > T(0) ? tf_inf() : T(0);
    T m = y > T(0) ? tf_inf() : T(0);
    return yodd ? -m : m;
  }
  if (x < T(0)) {
    if (!yint) return tf_nan();
    T m = exp2(y * log2(-x));
    return yodd ? -m : m;
  }
  return exp2(y * log2(x));
}
#else
T op_pow(T x, T y) { return x; }  // TODO(#4): f64 pow needs math_f64.glsl; supports() says no
#endif
#elif defined(TF_KIND_COMPLEX)
T op_mul(T a, T b) { return c_mul(a, b); }
T op_div(T a, T b) { return c_div(a, b); }
T op_rem(T a, T b) { return a; }  // not in the contract for complex
T op_max(T a, T b) { return a; }  // not in the contract for complex
T op_min(T a, T b) { return a; }  // not in the contract for complex
#if !defined(TF_F64)
T c_log(T a) { return T(log(c_abs(a)), atan(a.y, a.x)); }
T c_exp(T a) { R m = exp(a.x); return a.y == R(0) ? T(m, a.y) : T(m * cos(a.y), m * sin(a.y)); }
T op_pow(T a, T b) {
  if (a.x == R(0) && a.y == R(0)) return (b.x == R(0) && b.y == R(0)) ? T(1, 0) : T(0);
  return c_exp(c_mul(b, c_log(a)));
}
#else
T op_pow(T a, T b) { return a; }  // TODO(#4): c64 pow needs math_f64.glsl; supports() says no
#endif
#endif

#if !defined(TF_KIND_BOOL)
T binary_op(T a, T b) {
  switch (OP) {
    case TF_OP_ADD: return a + b;
    case TF_OP_SUB: return a - b;
    case TF_OP_MUL: return op_mul(a, b);
    case TF_OP_DIV: return op_div(a, b);
    case TF_OP_REM: return op_rem(a, b);
    case TF_OP_POW: return op_pow(a, b);
    case TF_OP_MAX: return op_max(a, b);
    case TF_OP_MIN: return op_min(a, b);
  }
  return a;
}
#endif

// ---- compare -----------------------------------------------------------------------------
bool compare_op(T a, T b) {
#if defined(TF_KIND_COMPLEX)
  bool eq = a.x == b.x && a.y == b.y;  // complex: EQ and NE only (core checks)
  return OP == TF_CMP_NE ? !eq : eq;
#else
#if defined(TF_KIND_BOOL)
  uint x = uint(a), y = uint(b);
#else
  T x = a, y = b;
#endif
  switch (OP) {
    case TF_CMP_EQ: return x == y;
    case TF_CMP_NE: return !(x == y);  // true for NaN operands (avoids OpFOrdNotEqual)
    case TF_CMP_LT: return x < y;
    case TF_CMP_LE: return x <= y;
    case TF_CMP_GT: return x > y;
    case TF_CMP_GE: return x >= y;
  }
  return false;
#endif
}
