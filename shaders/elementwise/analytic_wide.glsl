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

// |m| with the sign of s (m >= 0): the sign bit, so that -0 stays -0.
double w_copysign(double m, double s) {
  uvec2 b = unpackDouble2x32(m);
  b.y |= unpackDouble2x32(s).y & 0x80000000u;
  return packDouble2x32(b);
}

// Adding 1.5 * 2^52 to |v| < 2^51 rounds v to an integer, held in the low word (two's complement).
const double W_SHIFT = 6755399441055744.0lf;

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

// e^x - 1 for x in [-40, 89]: x = k ln2 + r as in w_exp (k rounded by W_SHIFT, r exact to
// ~2^-85), e^r - 1 = r Q(r) with Q the degree-9 minimax fit of (e^r - 1) / r on |r| <= ln2 / 2,
// relative error 2^-49.5, so that e^r - 1 is relatively accurate near 0 (r = x exactly when
// k = 0); then e^x - 1 = 2^k (e^r - 1) + (2^k - 1) in one fma, which cancels at most by a factor
// 2.5 for k != 0 (2^k - 1 rounds to -1 below k = -53, inside the error bound).
double w_expm1_k(double x) {
  precise double t = fma(x, D_INVLN2, W_SHIFT);
  precise double k = t - W_SHIFT;
  precise double r = fma(-k, D_LN2_LO, fma(-k, D_LN2_HI, x));
  const double q[10] = double[](2.75573026129413443e-07lf, 2.76325439928182792e-06lf, 2.48016908750544838e-05lf,
                                1.98411908842546666e-04lf, 1.38888887645819358e-03lf, 8.33333336713059855e-03lf,
                                4.16666666671327152e-02lf, 1.66666666666160895e-01lf, 4.99999999999995504e-01lf,
                                1.00000000000000111e+00lf);
  double p = q[0];
  [[unroll]] for (int i = 1; i < 10; ++i) p = p * r + q[i];
  p *= r;
  const double sc = d_pow2(int(d_lo(t)));  // 2^k, k in [-58, 129]
  return k == 0.0lf ? p : fma(sc, p, sc - 1.0lf);
}
double w_expm1(double x) {
  if (!(x >= -40.0lf && x <= 89.0lf)) return isnan(x) ? x : (x > 0.0lf ? d_inf() : -1.0lf);  // e^-40 < 2^-57
  return w_expm1_k(x);
}

// tanh |x| = t / (t + 2) with t = e^(2|x|) - 1 (w_expm1_k; relatively accurate for tiny x), one
// division; the sign from x's bit. Beyond |x| = 9.1, 1 - tanh|x| < 2^-25: the f32 result is 1.
double w_tanh(double x) {
  const double a = abs(x);
  if (!(a <= 9.1lf)) return isnan(x) ? x : w_copysign(1.0lf, x);
  const double t = w_expm1_k(2.0lf * a);
  return w_copysign(t / (t + 2.0lf), x);
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

// sqrt and rsqrt of a = x 2^-2q in [1, 4) (built from the bits, no rounding), scaled back by 2^q
// and 2^-q. The seed y0 = inversesqrt(float(a)) (a is an f32 value, normal) has Vulkan's 2 ulp
// (2^-22); y = y0 (1 + r/2 + 3r^2/8 + 5r^3/16) with r = 1 - a y0^2 is 1/sqrt(a) to 35 r^4 / 128
// (2^-46 even for a 12-bit seed) plus rounding (about 2^-52). sqrt: s0 = a y, then one Newton step
// on the residual a - s0^2 (exact where fma is fused, as on NVIDIA; otherwise it still leaves s0's
// 2^-52): the double result within about 1 ulp of double, so the f32 sqrt is correctly rounded
// (IEEE): it is never within 2^-51 of a midpoint m (a - m^2 is a nonzero multiple of 2^-48).
double w_rsqrt_a(double x, out double a, out int q) {
  const uvec2 b = unpackDouble2x32(x);
  const int e = int(b.y >> 20) - 1023;
  q = e >> 1;
  a = packDouble2x32(uvec2(b.x, (b.y & 0x000fffffu) | uint(1023 + (e & 1)) << 20));
  const double y0 = double(inversesqrt(float(a)));
  const double r = 1.0lf - a * (y0 * y0);
  return y0 + (y0 * r) * (0.5lf + r * (0.375lf + r * 0.3125lf));
}
double w_sqrt(double x) {
  if (!(x > 0.0lf) || isinf(x)) return x < 0.0lf ? d_nan() : x;
  double a;
  int q;
  const double y = w_rsqrt_a(x, a, q);
  const double s0 = a * y;
  precise double d = fma(-s0, s0, a);
  return fma(d, 0.5lf * y, s0) * d_pow2(q);
}
double w_rsqrt(double x) {
  if (!(x > 0.0lf) || isinf(x))
    return x < 0.0lf ? d_nan() : (x == 0.0lf ? w_copysign(d_inf(), x) : (isinf(x) ? 0.0lf : x));
  double a;
  int q;
  const double y = w_rsqrt_a(x, a, q);
  return y * d_pow2(-q);
}

// One of a0..a4 by j in [0, 4] (selects: a data-dependent index into an array is slow on NVIDIA).
double w_pick(int j, double a0, double a1, double a2, double a3, double a4) {
  return j == 0 ? a0 : (j == 1 ? a1 : (j == 2 ? a2 : (j == 3 ? a3 : a4)));
}

// x = n pi/2 + r for a finite f32 x with |x| > 2^20: Payne-Hanek in double, instead of m_sincos's
// integer reduction, whose table of 2/pi is an array indexed by data: only there for rare
// arguments, it still kept sin and cos at 2.1x a copy's time on the H100, 1.0x without (f32, 2^28
// elements in [0.5, 1.5), tenferro bench analytic). |x| = M 2^e (M < 2^24 an integer, e in [-3,
// 104]) and 2/pi = sum_j t_j 2^(-24(j+1)) (t_j the 24-bit chunks of 2/pi), so every term M t_j 2^(e
// - 24j - 24) is exact; those with e - 24j - 24 >= 2 are multiples of 4 and drop out, the next six
// give |x| 2/pi mod 4 to 2^-95, summed as a double-double and reduced by its nearest integer n. |r|
// <= pi/4 (+2^-22) with an absolute error near 2^-76: relative 2^-45 at worst, at the f32 closest
// to a multiple of pi/2 (16367173 2^72, 2^-29.2 from it).
int w_rem_pio2_huge(double x, out double r) {
  const double PIO2_HI = 1.57079632679489655800e+00lf, PIO2_LO = 6.12323399573676603587e-17lf;
  const double C0 = 10680707.0lf, C1 = 7228996.0lf, C2 = 1387004.0lf, C3 = 2578385.0lf, C4 = 16069853.0lf,
               C5 = 12639074.0lf, C6 = 9804092.0lf, C7 = 4427841.0lf, C8 = 16666979.0lf, C9 = 11263675.0lf;
  const double ax = abs(x);
  const int e = ((d_hi(ax) >> 20) & 0x7ff) - 1023 - 23;  // |x| = M 2^e
  const int j0 = max(0, (e - 2) / 24);                   // the first chunk with e - 24 j - 24 <= 1
  const int s0 = e - 24 * j0 - 24;                       // in [-27, 1]
  const double m = ax * d_pow2(-e);
  const double p0 = m * w_pick(j0, C0, C1, C2, C3, C4) * d_pow2(s0);
  const double p1 = m * w_pick(j0, C1, C2, C3, C4, C5) * d_pow2(s0 - 24);
  const double p2 = m * w_pick(j0, C2, C3, C4, C5, C6) * d_pow2(s0 - 48);
  const double p3 = m * w_pick(j0, C3, C4, C5, C6, C7) * d_pow2(s0 - 72);
  const double p4 = m * w_pick(j0, C4, C5, C6, C7, C8) * d_pow2(s0 - 96);
  const double p5 = m * w_pick(j0, C5, C6, C7, C8, C9) * d_pow2(s0 - 120);
  precise double a0 = p0 - 4.0lf * floor(0.25lf * p0);  // mod 4, exact
  precise double a1 = p1 - 4.0lf * floor(0.25lf * p1);
  dvec2 h = dd_two_sum(a0, a1);
  const dvec2 h2 = dd_two_sum(h.x, p2);
  const double k = floor(h2.x + 0.5lf);
  precise double hk = h2.x - k;  // exact
  precise double lo = (h.y + h2.y) + (p3 + (p4 + p5));
  const dvec2 f = dd_two_sum(hk, lo);  // |x| 2/pi - k
  const double rr = f.x * PIO2_HI + (f.y * PIO2_HI + f.x * PIO2_LO);
  const int n = int(k);
  r = x < 0.0lf ? -rr : rr;
  return x < 0.0lf ? -n : n;
}

// sin and cos: for |x| <= 2^20, k = round(x 2/pi) (< 2^20) and r = x - k pi/2 by Cody-Waite in
// three parts (fdlibm's pio2_1 and pio2_2 of 33 bits, so that k pio2_1, k pio2_2 and x - k pio2_1
// are exact, and pio2_2t): |r| <= pi/4 with an absolute error near 2^-100, relative 2^-52 (the
// f32 below 2^20 closest to a nonzero multiple of pi/2, 252.898209, is 2^-27.8 from it); beyond,
// w_rem_pio2_huge. sin r = r (1 + z S(z)) and cos r = 1 + z (-1/2 + z C(z)), z = r^2, S and C
// degree-4 fits on |r| <= pi/4 (relative error 2^-47.5 and 2^-53); the quadrant (k mod 4) picks
// and negates them by selects.
void w_sincos(double x, out double s, out double c) {
  double r;
  int n;
  if (abs(x) <= 1048576.0lf) {
    const double invpio2 = 6.36619772367581382433e-01lf;
    const double pio2_1 = 1.57079632673412561417e+00lf, pio2_2 = 6.07710050630396597660e-11lf,
                 pio2_2t = 2.02226624879595063154e-21lf;
    precise double t = fma(x, invpio2, W_SHIFT);
    precise double k = t - W_SHIFT;
    precise double rc = fma(-k, pio2_2t, fma(-k, pio2_2, fma(-k, pio2_1, x)));
    r = rc;
    n = int(d_lo(t));
  } else if (isinf(x) || isnan(x)) {
    s = c = d_nan();
    return;
  } else {
    n = w_rem_pio2_huge(x, r);
  }
  const double z = r * r;
  double ps = -2.47603963266340282e-08lf;
  ps = ps * z + 2.75553388640425920e-06lf;
  ps = ps * z - 1.98412637249584749e-04lf;
  ps = ps * z + 8.33333332507114714e-03lf;
  ps = ps * z - 1.66666666666303143e-01lf;
  ps = r * (ps * z + 1.0lf);  // r (1 + ...): sin(-0) = -0
  double pc = 2.06450723635062601e-09lf;
  pc = pc * z - 2.75555223862494313e-07lf;
  pc = pc * z + 2.48015807033251224e-05lf;
  pc = pc * z - 1.38888888776026592e-03lf;
  pc = pc * z + 4.16666666665964705e-02lf;
  pc = pc * z - 0.5lf;
  pc = pc * z + 1.0lf;
  const bool swap = (n & 1) != 0;
  const double sv = swap ? pc : ps, cv = swap ? ps : pc;
  s = (n & 2) != 0 ? -sv : sv;
  c = ((n + 1) & 2) != 0 ? -cv : cv;
}

// erf: for |x| < 2, x P(x^2) with P the degree-14 fit of erf(x) / x in x^2 on [0, 4] (relative
// error 2^-46.2; every term below 1.9, so Horner loses nothing); for 2 <= |x| < 3.921875 the
// degree-17 fit of erf in u = |x| - 2.9609375 (the interval's middle) with absolute error
// 2^-46.1 (erf > 0.995 there, so relative too); from 3.921875 on, +-1 (f32 erf rounds to 1 from
// 3.9192). Two branches (not one polynomial with selected coefficients: a select per coefficient
// costs as much as the second branch); |x| < 2 covers 99.5 % of erf(x / sqrt 2) for normal x.
double w_erf(double x) {
  const double a = abs(x);
  if (a < 2.0lf) {
    const double t = x * x;
    const double c[15] = double[](7.18061173015201545e-14lf, -3.12815117306778851e-12lf, 7.01296510173953820e-11lf,
                                  -1.11334809552048373e-09lf, 1.44043417581150670e-08lf, -1.62632591582481102e-07lf,
                                  1.64429983628724445e-06lf, -1.49230651904106200e-05lf, 1.20550838569203567e-04lf,
                                  -8.54831044074101589e-04lf, 5.22397690000197049e-03lf, -2.68661704526566431e-02lf,
                                  1.12837916682599126e-01lf, -3.76126389030334407e-01lf, 1.12837916709549857e+00lf);
    double p = c[0];
    [[unroll]] for (int i = 1; i < 15; ++i) p = p * t + c[i];
    return x * p;  // keeps the sign of x, -0 included
  }
  const double u = a - 2.9609375lf;
  const double c[18] = double[](-1.75823546012050256e-08lf, 2.17291832904076822e-08lf, 1.64008979954316049e-07lf,
                                -5.81596492861300847e-07lf, 4.02551333693293112e-07lf, 2.92799328074280379e-06lf,
                                -1.21925124589380753e-05lf, 2.05417926243224984e-05lf, 6.86280980131049607e-06lf,
                                -1.38479824452559039e-04lf, 4.33332905815369846e-04lf, -8.50658725830486873e-04lf,
                                1.20249455452131311e-03lf, -1.26067154180217311e-03lf, 9.68711408216456219e-04lf,
                                -5.20426080902013869e-04lf, 1.75763952680255326e-04lf, 9.99971782919916952e-01lf);
  double p = c[0];
  [[unroll]] for (int i = 1; i < 18; ++i) p = p * u + c[i];
  return w_copysign(a >= 3.921875lf ? 1.0lf : p, x);  // NaN: p is NaN
}

#endif  // TF_ANALYTIC_WIDE_GLSL
