// Complex helpers over vec2/dvec2 (x = re, y = im). R is the real scalar type.
#ifdef TF_KIND_COMPLEX
// IEEE helpers for the special-value paths below (C99 Annex G, as libgcc's __muldc3/__divdc3
// that std::complex uses on the CPU). Products with 0 or inf are spelled out (c_sgnmul) rather
// than written as 0 * v or inf * v, which the shader compiler may fold to 0 / inf.
#ifdef TF_F64
R c_nan() { return packDouble2x32(uvec2(0u, 0x7ff80000u)); }
R c_inf() { return packDouble2x32(uvec2(0u, 0x7ff00000u)); }
bool c_signbit(R v) { return (unpackDouble2x32(v).y >> 31) != 0u; }
#else
R c_nan() { return uintBitsToFloat(0x7fc00000u); }
R c_inf() { return uintBitsToFloat(0x7f800000u); }
bool c_signbit(R v) { return (floatBitsToUint(v) >> 31) != 0u; }
#endif
bool c_isfinite(R v) { return !isinf(v) && !isnan(v); }
// |m| with the sign bit of s (copysign).
R c_copysign(R m, R s) { return c_signbit(s) ? -abs(m) : abs(m); }
// s * v for s = +-0 or +-inf (IEEE: inf * 0 and 0 * inf are NaN).
R c_sgnmul(R s, R v) {
  if (isnan(v)) return c_nan();
  R m;
  if (isinf(s)) m = v == R(0) ? c_nan() : c_inf();
  else m = isinf(v) ? c_nan() : R(0);
  return c_signbit(s) != c_signbit(v) ? -m : m;
}

// Annex G recovery of a product computed as NaN + NaN i (libgcc __muldc3): an infinite factor
// times a nonzero one is infinite, even where the other parts are NaN.
// When x + iy is infinite: its parts become +-1 / +-0 (its direction) and NaN parts of the
// other factor u + iv become +-0; returns whether it was.
bool c_box_inf(inout R x, inout R y, inout R u, inout R v) {
  if (!isinf(x) && !isinf(y)) return false;
  x = c_copysign(isinf(x) ? R(1) : R(0), x);
  y = c_copysign(isinf(y) ? R(1) : R(0), y);
  if (isnan(u)) u = c_copysign(R(0), u);
  if (isnan(v)) v = c_copysign(R(0), v);
  return true;
}

T c_mul_special(T a, T b) {
  R x = a.x, y = a.y, u = b.x, v = b.y;
  bool recalc = c_box_inf(x, y, u, v);
  recalc = c_box_inf(u, v, x, y) || recalc;
  if (!recalc && (isinf(a.x * b.x) || isinf(a.y * b.y) || isinf(a.x * b.y) || isinf(a.y * b.x))) {
    if (isnan(x)) x = c_copysign(R(0), x);
    if (isnan(y)) y = c_copysign(R(0), y);
    if (isnan(u)) u = c_copysign(R(0), u);
    if (isnan(v)) v = c_copysign(R(0), v);
    recalc = true;
  }
  if (!recalc) return T(c_nan(), c_nan());
  return T(c_sgnmul(c_inf(), x * u - y * v), c_sgnmul(c_inf(), x * v + y * u));
}

// The special path asked to stay a real branch ([[dont_flatten]], a hint): on the H200 the wide
// c32 mul took 1894 us with the path and 578 without it (528 on the c32 kernel; mul_c32, 2^27
// elements, tenferro_bench_vk), so the driver seems to flatten it into the common path in f64
// (c64 mul: 1.85x its memory time). The hint does not change it there (1886 us with it).
T c_mul(T a, T b) {
  T r = T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  [[dont_flatten]] if (isnan(r.x) && isnan(r.y)) return c_mul_special(a, b);
  return r;
}

// Exact scaling by powers of two. c_ilogb(m): the binary exponent e of m > 0 (m in [2^e,
// 2^(e+1))), clamped to the normal range (|e| <= C_EMAX); c_pow2(e) = 2^e for |e| <= C_EMAX + 1.
// c_inv_scale(m, up) = 2^-e with up = 2^e: v * c_inv_scale(m, up) is exact and, for v = m, in
// [1, 4). Scaling by it instead of dividing by m: the reciprocal of a huge f32 m is subnormal,
// which devices that flush f32 subnormals (NVIDIA) make zero.
#ifdef TF_F64
#define C_EMAX 1022
int c_ilogb(R m) { return clamp(int((unpackDouble2x32(m).y >> 20) & 0x7ffu) - 1023, -C_EMAX, C_EMAX); }
R c_pow2(int e) { return packDouble2x32(uvec2(0u, uint(1023 + e) << 20)); }
// w * 2^j for normal w and 0 < j <= C_EMAX, in the exponent bits (inf on overflow).
R c_exp_add(R w, int j) {
  const uvec2 u = unpackDouble2x32(w);
  if (int((u.y >> 20) & 0x7ffu) + j >= 0x7ff) return c_copysign(c_inf(), w);
  return packDouble2x32(uvec2(u.x, u.y + (uint(j) << 20)));
}
// (f64 subnormals are kept by every device measured: no rescue, below.)
bool c_flushable(T z) { return false; }
T c_up64(T z) { return z; }
#else
#include "common/f32_bits.glsl"
#define C_EMAX 126
int c_ilogb(R m) { return clamp(int((floatBitsToUint(m) >> 23) & 0xffu) - 127, -C_EMAX, C_EMAX); }
R c_pow2(int e) { return uintBitsToFloat(uint(127 + e) << 23); }
R c_exp_add(R w, int j) {
  const uint u = floatBitsToUint(w);
  if (int((u >> 23) & 0xffu) + j >= 0xff) return c_copysign(c_inf(), w);
  return uintBitsToFloat(u + (uint(j) << 23));
}
// Devices that flush f32 subnormal operands (NVIDIA) read them as zeros in comparisons and
// arithmetic. c_flushable(z): both parts subnormal or zero, not both zero (on the bits);
// c_up64(z): z * 2^64 exactly, subnormal parts too (f32_up64).
bool c_flushable(T z) {
  const uvec2 u = floatBitsToUint(z);
  return ((u.x | u.y) & 0x7f800000u) == 0u && ((u.x | u.y) & 0x7fffffu) != 0u;
}
T c_up64(T z) { return T(f32_up64(z.x), f32_up64(z.y)); }
#endif
R c_inv_scale(R m, out R up) {
  const int e = c_ilogb(m);
  up = c_pow2(e);
  return c_pow2(-e);
}
// v * 2^k for |k| <= 2 C_EMAX, rounded once but for results below the normal range. Two
// multiplications by powers of two only on the underflow side (where a compiler that multiplied
// the two powers first would get 0 or a subnormal, as the result); on the overflow side the
// second step adds to the exponent bits (NVIDIA's compiler reassociated such products, see
// math_complex.glsl's cm_times_sq2).
R c_scale2(R v, int k) {
  if (abs(k) <= C_EMAX) return v * c_pow2(k);
  if (k < 0) return (v * c_pow2(-C_EMAX)) * c_pow2(k + C_EMAX);
  const R w = v * c_pow2(C_EMAX);
  return (w == R(0) || !c_isfinite(w)) ? w : c_exp_add(w, k - C_EMAX);
}

// Smith's algorithm: avoids overflow of |b|^2 for large divisors. Large divisors are scaled down
// with the numerator by a power of two (exact but for a numerator too small to matter: the
// quotient's parts are then below the smallest normal): f64 divisors within a factor 4 of the
// largest finite value by 1/4, so that b.x + b.y * r cannot overflow ((1e308 + 1e308i) /
// (1e308 + 1e308i) = 1); f32 divisors from 2^123 by 1/8, so that every divisor below (b.x,
// b.y, b.x + b.y * r) stays under 2^126, whose reciprocal is normal: devices that divide
// through a reciprocal and flush f32 subnormals (NVIDIA) return 0 for x / y with |y| >= 2^126.
#ifdef TF_F64
#define C_DIV_HUGE 4.4942328371557898e307lf  // 2^1021
#define C_DIV_DOWN 0.25lf
#else
#define C_DIV_HUGE 1.0633823966279327e37  // 2^123
#define C_DIV_DOWN 0.125
#endif
T c_div_smith(T a, T b) {
  if (max(abs(b.x), abs(b.y)) >= C_DIV_HUGE) {
    a *= C_DIV_DOWN;
    b *= C_DIV_DOWN;
  }
  if (abs(b.x) >= abs(b.y)) {
    R r = b.y / b.x, d = b.x + b.y * r;
    return T((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  R r = b.x / b.y, d = b.y + b.x * r;
  return T((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}

// The exponent s by which c_div_finite scales a numerator whose parts have exponents e (larger)
// and f (smaller, f = e when that part is 0): its larger part near 1 (s = e), but not so far
// that the smaller part leaves the normal range (s <= f + C_EMAX: it may carry a whole part of
// the quotient, e.g. for an imaginary divisor), and always far enough that Smith's sums cannot
// overflow (s >= e - C_EMAX + 2).
int c_div_shift(int e, int f) { return max(min(e, f + C_EMAX), e - C_EMAX + 2); }

// Finite a, b != 0: both scaled exactly by powers of two (b's larger part near 1, a's by
// c_div_shift), Smith's algorithm on the scaled values (no intermediate overflow, no underflow of
// what the quotient needs), then the quotient scaled back by 2^(s - eb). Without the scaling a huge
// numerator overflowed inside ((1.7e308 + 1.7e308i) / (1 + i) gave inf for 1.7e308) and subnormal
// operands lost bits.
T c_div_finite(T a, T b) {
  const R ma = max(abs(a.x), abs(a.y)), na = min(abs(a.x), abs(a.y));
  const int e = ma == R(0) ? 0 : c_ilogb(ma);
  const int s = c_div_shift(e, na == R(0) ? e : c_ilogb(na)), eb = c_ilogb(max(abs(b.x), abs(b.y)));
  const T q = c_div_smith(a * c_pow2(-s), b * c_pow2(-eb));
  const int k = s - eb;
  return T(c_scale2(q.x, k), c_scale2(q.y, k));
}

// a / b: finite operands through c_div_finite; Annex G special values otherwise (libgcc
// __divdc3): a / 0 = copysign(inf, b.x) * a (each part as IEEE 1/0, 0/0); a result computed as
// NaN + NaN i is recovered for infinite / finite (infinite) and finite / infinite (zero).
T c_div_any(T a, T b) {
  if (b.x == R(0) && b.y == R(0)) {
    R s = c_copysign(c_inf(), b.x);
    return T(c_sgnmul(s, a.x), c_sgnmul(s, a.y));
  }
  if (c_isfinite(a.x) && c_isfinite(a.y) && c_isfinite(b.x) && c_isfinite(b.y)) return c_div_finite(a, b);
  T q = c_div_smith(a, b);
  if (!(isnan(q.x) && isnan(q.y))) return q;
  if ((isinf(a.x) || isinf(a.y)) && c_isfinite(b.x) && c_isfinite(b.y)) {
    R x = c_copysign(isinf(a.x) ? R(1) : R(0), a.x), y = c_copysign(isinf(a.y) ? R(1) : R(0), a.y);
    return T(c_sgnmul(c_inf(), x * b.x + y * b.y), c_sgnmul(c_inf(), y * b.x - x * b.y));
  }
  if ((isinf(b.x) || isinf(b.y)) && c_isfinite(a.x) && c_isfinite(a.y)) {
    R u = c_copysign(isinf(b.x) ? R(1) : R(0), b.x), v = c_copysign(isinf(b.y) ? R(1) : R(0), b.y);
    return T(c_sgnmul(R(0), a.x * u + a.y * v), c_sgnmul(R(0), a.y * u - a.x * v));
  }
  return q;
}
// c_div_any, with an f32 divisor or dividend whose parts are all subnormal scaled up by 2^64
// first (c_up64) and the quotient scaled back: on a device that flushes them the division then
// sees their values, not zeros ((1 + 0i) / (1e-40 + 0i) gave inf + NaN i on the H200; with the
// scaling 1e40, checked on lavapipe, where the branch runs with exact arithmetic).
T c_div(T a, T b) {
  int k = 0;
  if (c_flushable(b)) {
    b = c_up64(b);
    k += 64;
  }
  if (c_flushable(a)) {
    a = c_up64(a);
    k -= 64;
  }
  const T q = c_div_any(a, b);
  return k == 0 ? q : T(c_scale2(q.x, k), c_scale2(q.y, k));
}

// |z| without overflow or underflow in the squares (hypot): both parts scaled exactly by a power
// of two near 1 / max(|x|, |y|).
R c_abs(T a) {
  R m = max(abs(a.x), abs(a.y));
  if (isinf(a.x) || isinf(a.y)) return R(1) / R(0);
  if (m == R(0) || isnan(m)) return m + abs(a.x) + abs(a.y);
  R up;
  const R sc = c_inv_scale(m, up);
  const R u = a.x * sc, v = a.y * sc;
  return sqrt(u * u + v * v) * up;
}
#endif
