// The real analytic functions of the f32 "w" variants (TF_F32_STORAGE: f32 storage, arithmetic in
// double, the result rounded to f32 once by the store), w_<name> in place of math_f64.glsl's
// full-f64 m_<name>, which took up to 17x a copy's time on an H100 (erf). Contract: the argument is
// an f32 value held exactly in a double (an f32 subnormal is a normal double); the double result
// has a relative error far below 2^-30 (each function states its own: 2^-44.9 or less), so the f32
// result is within 1 ulp and nearly always correctly rounded, subnormal f32 results included;
// special values (NaN, +-inf, +-0, domain errors) as the m_* function gives them. No f32 arithmetic
// (it flushes subnormals on NVIDIA) but the sqrt / rsqrt seed on an operand scaled into [1, 4).
// Cheap: polynomials (Horner, FMA-friendly), an f64 division only where the function needs one, no
// data-dependent loops or table lookups (slow on NVIDIA), branches only around rare ranges.
// Coefficients are minimax fits (Remez exchange against mpmath at 60 digits) of the stated error on
// the stated interval, rounded to double. Included by analytic.glsl; needs math_f64.glsl.
#ifndef TF_ANALYTIC_WIDE_GLSL
#define TF_ANALYTIC_WIDE_GLSL

// exp: x = k ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, k ln2_hi exact), e^r by its Taylor
// polynomial to r^11 (truncation below 2^-47 relative) and the exact scaling by 2^k; the one
// rounding to f32 is the store's. With m_exp's full f64 accuracy (a division per element) the
// wide exp took 1.33x the f32 kernel's time on the H200, with this 1.02x (exp, f32 2^28
// elements, tenferro_bench_vk). Results beyond f32's range: inf, or 0 below 2^-150.
double w_exp(double x) {
  if (isnan(x)) return x;
  if (x > 89.0lf) return packDouble2x32(uvec2(0u, 0x7ff00000u));
  if (x < -105.0lf) return 0.0lf;
  const double k = floor(D_INVLN2 * x + 0.5lf);
  const double r = (x - k * D_LN2_HI) - k * D_LN2_LO;
  double p = 1.0lf / 39916800.0lf;  // 1 / 11!
  const double c[10] = double[](1.0lf / 3628800.0lf, 1.0lf / 362880.0lf, 1.0lf / 40320.0lf, 1.0lf / 5040.0lf,
                                1.0lf / 720.0lf, 1.0lf / 120.0lf, 1.0lf / 24.0lf, 1.0lf / 6.0lf, 0.5lf, 1.0lf);
  for (int i = 0; i < 10; ++i) p = p * r + c[i];
  p = p * r + 1.0lf;
  return p * packDouble2x32(uvec2(0u, uint(int(k) + 1023) << 20));  // 2^k, k in [-152, 129]
}

// log of a positive normal double (every nonzero f32 value is one): x = 2^k m with m in
// [sqrt(1/2), sqrt(2)) from the bits (fdlibm's split), f = m - 1 exact, s = f / (2 + f) (the one
// division), log m = 2 atanh s = 2s + s^3 P(s^2) with P the degree-4 fit of (2 atanh s - 2s) / s^3
// on |s| <= 0.1716 (relative error of log m below 2^-44.9), plus k ln2 in two parts.
double w_log(double x) {
  if (!(x > 0.0lf) || isinf(x)) return x == 0.0lf ? -d_inf() : (x < 0.0lf ? d_nan() : x + x);
  const uvec2 b = unpackDouble2x32(x);
  const int hm = int(b.y & 0x000fffffu);
  const int i = (hm + 0x95f64) & 0x100000;  // mantissa >= sqrt(2): m = mantissa / 2, k + 1
  const double m = packDouble2x32(uvec2(b.x, uint(hm | (i ^ 0x3ff00000))));
  const double k = double(int(b.y >> 20) - 1023 + (i >> 20));
  const double f = m - 1.0lf;
  const double s = f / (2.0lf + f);
  const double z = s * s;
  double p = 1.95836095157139733e-01lf;
  p = p * z + 2.21762273930030229e-01lf;
  p = p * z + 2.85721082069968602e-01lf;
  p = p * z + 3.99999956310394866e-01lf;
  p = p * z + 6.66666666757733450e-01lf;
  const double lm = (s * z) * p + 2.0lf * s;
  return k * D_LN2_HI + (k * D_LN2_LO + lm);
}

// log1p: log(1 + x), where 1 + x is exact for an f32 x with 2^-29 <= |x| < 2^53 (and rounds
// harmlessly beyond); below 2^-29, x - x^2 / 2 (the next term is below 2^-58 relative).
double w_log1p(double x) {
  const double l = w_log(1.0lf + x);
  return abs(x) < 1.862645149230957e-09lf ? x - 0.5lf * x * x : l;  // 2^-29
}

#endif  // TF_ANALYTIC_WIDE_GLSL
