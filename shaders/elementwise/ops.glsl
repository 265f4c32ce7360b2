// The elementwise op family for one element type T (types.glsl). The *_op_k functions take the
// op code (TF_OP_<NAME>, generated from ops.def: common/params.h; a compare's TF_CMP_*) as an
// argument: the generated fused kernels (src/vulkan/kernels/fused.cpp) pass a literal per step.
// The single-op kernels' unary_op, binary_op and compare_op pass OP, specialization constant 1
// (not declared where TF_FUSED is defined); the switches fold away when the pipeline is created.
// Results of add, sub and mul are `precise` (NoContraction): a fused chain must not contract a
// product into the next step's sum, which the unfused chain rounds in between.
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

#if defined(DT_F32) || defined(DT_C32)
// f32 tests on the bits (sign, compare), exact also where the device flushes subnormal operands
// to zero (NVIDIA): the key orders as the floats do (-0 and +0 share key 0); NaN is unordered.
bool f32_nan(float x) { return (floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u; }
int f32_key(float x) {
  const int i = floatBitsToInt(x);
  return i >= 0 ? i : -(i & 0x7fffffff);
}
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
#if defined(DT_F32)
// On the bits: subnormals give +-1 also where the device flushes them (NVIDIA); +-0, NaN kept.
T op_sign(T a) {
  const uint u = floatBitsToUint(a);
  return (u & 0x7fffffffu) == 0u || f32_nan(a) ? a : uintBitsToFloat((u & 0x80000000u) | 0x3f800000u);
}
#else
T op_sign(T a) { return a > T(0) ? T(1) : (a < T(0) ? T(-1) : a); }  // +-0 and NaN kept
#endif
T op_conj(T a) { return a; }
#elif defined(TF_KIND_COMPLEX)
T op_neg(T a) { return -a; }
T op_conj(T a) { return T(a.x, -a.y); }
T op_sign(T a) {
  if (c_flushable(a)) a = c_up64(a);  // (f32: subnormal parts kept where the device flushes them)
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
T unary_op_k(int op, T a) {
  switch (op) {
    case TF_OP_NEG: return op_neg(a);
    case TF_OP_CONJ: return op_conj(a);
    case TF_OP_ABS: return op_abs(a);
    case TF_OP_SIGN: return op_sign(a);
  }
  return a;
}
#else
T unary_op_k(int op, T a) {  // abs of complex has a real result: its own kernel variant (unary_abs_*)
  switch (op) {
    case TF_OP_NEG: return op_neg(a);
    case TF_OP_CONJ: return op_conj(a);
    case TF_OP_SIGN: return op_sign(a);
  }
  return a;
}
#endif
#ifndef TF_FUSED
T unary_op(T a) { return unary_op_k(OP, a); }
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
T op_mul(T a, T b) {
  precise T r = a * b;
  return r;
}
#ifdef TF_F64
T op_div(T a, T b) { return a / b; }
#else
// IEEE division (SEMANTICS.md) also where the device's is not: Vulkan allows OpFDiv 2.5 ulp;
// NVIDIA's driver was up to 2 ulp off on the H200, and its quotients by divisors from 2^126
// (whose reciprocal is subnormal) came out 0 (tools/gpu/probe_range.py); lavapipe's is exact.
// Finite nonzero operands are divided in integers: the 24-bit mantissas am, bm (subnormals
// normalized) give the quotient's mantissa qm = floor(am 2^s / bm) (s = 23 or 24: qm has 24
// bits), estimated from the device's quotient of the mantissas as floats in [1, 2) and corrected
// until the remainder rm = am 2^s - qm bm (exact in 32-bit wrapping arithmetic: |rm| < 2^31)
// lies in [0, bm); then rounded to nearest even from 2 rm against bm, or, for a quotient below
// 2^-126, from the bits shifted out and rm (no double rounding). The result is assembled in the
// bits, so a device that flushes f32 subnormals still returns exact subnormal quotients. Zeros,
// infinities and NaN take the device's division, IEEE for them. (Names: R is the real type's
// macro.) Speed on the H200 (div, f32 2^28 elements, tenferro_bench_vk): 1.11 ms, 71 % of the
// copy bandwidth, against 0.75 for add and for PyTorch's div: compute-bound, yet faster than
// Dekker residuals in floats (1.22 ms) and than this form with every branch made a select
// (1.57 ms).
T op_div(T a, T b) {
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
  const uint xa = (ua >> 23) & 0xffu, xb = (ub >> 23) & 0xffu;
  const uint fa = ua & 0x007fffffu, fb = ub & 0x007fffffu;
  if (xa == 255u || xb == 255u || (xa | fa) == 0u || (xb | fb) == 0u) return a / b;
  int ea = int(xa), eb = int(xb);
  uint am = fa | 0x00800000u, bm = fb | 0x00800000u;
  if (xa == 0u) {  // subnormal: normalized, exponent below the normal range
    const int sh = 23 - findMSB(fa);
    am = fa << sh;
    ea = 1 - sh;
  }
  if (xb == 0u) {
    const int sh = 23 - findMSB(fb);
    bm = fb << sh;
    eb = 1 - sh;
  }
  const uint s = am >= bm ? 23u : 24u;
  const int e = ea - eb + 150 - int(s);  // biased exponent of qm 2^-23
  const float ma = uintBitsToFloat((am & 0x007fffffu) | 0x3f800000u);  // am 2^-23 in [1, 2)
  const float qf = ma / uintBitsToFloat((bm & 0x007fffffu) | 0x3f800000u);
  const uint qb = floatBitsToUint(qf);
  uint qm = (qb & 0x007fffffu) | 0x00800000u;  // qf 2^s when qf lies in the binade of am / bm
  if ((qb >> 23) != 150u - s) qm = s == 23u ? 0x00800000u : 0x00ffffffu;  // rounded across 1
  int rm = int((am << s) - qm * bm);
  while (rm < 0) {
    qm -= 1u;
    rm += int(bm);
  }
  while (rm >= int(bm)) {
    qm += 1u;
    rm -= int(bm);
  }
  uint bits;
  if (e > 254) {
    bits = 0x7f800000u;
  } else if (e >= 1) {
    if (2 * rm > int(bm) || (2 * rm == int(bm) && (qm & 1u) != 0u)) qm += 1u;
    bits = (uint(e - 1) << 23) + qm;  // a carry out of qm (never, shown) would step the exponent
  } else {  // below 2^-126: qm 2^(e - 1) units of 2^-149, rounded from the shifted-out bits and rm
    const uint d = uint(1 - e);
    if (d > 25u) {
      bits = 0u;
    } else {
      const uint n = qm >> d, low = qm & ((1u << d) - 1u), mid = 1u << (d - 1u);
      bits = n + ((low > mid || (low == mid && (rm > 0 || (n & 1u) != 0u))) ? 1u : 0u);
    }
  }
  return uintBitsToFloat(((ua ^ ub) & 0x80000000u) | bits);
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
T op_pow(T x, T y) { return x; }  // never dispatched: f64 (and f32 "w") pow runs pow.comp
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
T op_pow(T a, T b) { return a; }  // never dispatched: c64 (and c32 "w") pow runs pow.comp
#endif
#endif

#if !defined(TF_KIND_BOOL)
T binary_op_k(int op, T a, T b) {
  switch (op) {
    case TF_OP_ADD: {
      precise T r = a + b;
      return r;
    }
    case TF_OP_SUB: {
      precise T r = a - b;
      return r;
    }
    case TF_OP_MUL: return op_mul(a, b);
    case TF_OP_DIV: return op_div(a, b);
    case TF_OP_REM: return op_rem(a, b);
    case TF_OP_POW: return op_pow(a, b);
    case TF_OP_MAXIMUM: return op_max(a, b);
    case TF_OP_MINIMUM: return op_min(a, b);
  }
  return a;
}
#ifndef TF_FUSED
T binary_op(T a, T b) { return binary_op_k(OP, a, b); }
#endif
#endif

// ---- compare -----------------------------------------------------------------------------
bool compare_op_k(int dir, T a, T b) {
#if defined(DT_C32)
  const bool eq = !f32_nan(a.x) && !f32_nan(a.y) && !f32_nan(b.x) && !f32_nan(b.y) &&
                  f32_key(a.x) == f32_key(b.x) && f32_key(a.y) == f32_key(b.y);
  return dir == TF_CMP_NE ? !eq : eq;  // complex: EQ and NE only (core checks)
#elif defined(TF_KIND_COMPLEX)
  bool eq = a.x == b.x && a.y == b.y;  // complex: EQ and NE only (core checks)
  return dir == TF_CMP_NE ? !eq : eq;
#elif defined(DT_F32)
  const bool nan = f32_nan(a) || f32_nan(b);
  const int x = f32_key(a), y = f32_key(b);
  switch (dir) {
    case TF_CMP_EQ: return !nan && x == y;
    case TF_CMP_NE: return nan || x != y;
    case TF_CMP_LT: return !nan && x < y;
    case TF_CMP_LE: return !nan && x <= y;
    case TF_CMP_GT: return !nan && x > y;
    case TF_CMP_GE: return !nan && x >= y;
  }
  return false;
#else
#if defined(TF_KIND_BOOL)
  uint x = uint(a), y = uint(b);
#else
  T x = a, y = b;
#endif
  switch (dir) {
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
#ifndef TF_FUSED
bool compare_op(T a, T b) { return compare_op_k(OP, a, b); }
#endif
