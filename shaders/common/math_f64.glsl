// Double-precision math library for shaders: GLSL has no double transcendentals. Contract:
// m_exp m_expm1 m_log m_log1p m_sincos m_tanh m_atan2 m_erf m_sqrt m_rsqrt m_hypot on double, within
// a few ulp over the whole domain (docs/accuracy.md), never evaluated in float; plus the
// double-double helpers (dd_*), d_log_dd (log to ~2^-100) and d_exp_dd (exp of a double-double)
// used by pow. IEEE special values as C. Needs shaderFloat64 and shaderInt64; includes
// math_f32.glsl for the integer Payne-Hanek reduction. Algorithms and coefficients follow fdlibm
// (Copyright (C) 1993 Sun Microsystems; "Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice is preserved") via FreeBSD msun. Every
// literal carries the lf suffix (an unsuffixed literal is a float in GLSL).
#ifndef TF_MATH_F64_GLSL
#define TF_MATH_F64_GLSL
#include "common/math_f32.glsl"

int d_hi(double x) { return int(unpackDouble2x32(x).y); }
uint d_lo(double x) { return unpackDouble2x32(x).x; }
double d_make(int hi, uint lo) { return packDouble2x32(uvec2(lo, uint(hi))); }
double d_pow2(int k) { return d_make((k + 1023) << 20, 0u); }  // -1022 <= k <= 1023
double d_nan() { return d_make(0x7ff80000, 0u); }
double d_inf() { return d_make(0x7ff00000, 0u); }

// ---- double-double (error-free transformations: Dekker, no reliance on a fused fma) ----------
dvec2 dd_two_sum(double a, double b) {
  precise double s = a + b;
  precise double bb = s - a;
  precise double e = (a - (s - bb)) + (b - bb);
  return dvec2(s, e);
}
dvec2 dd_fast_sum(double a, double b) {  // |a| >= |b|
  precise double s = a + b;
  precise double e = b - (s - a);
  return dvec2(s, e);
}
dvec2 dd_two_prod(double a, double b) {  // |a|, |b| < 2^995
  precise double p = a * b;
  precise double ca = 134217729.0lf * a;
  precise double ah = ca - (ca - a);
  precise double al = a - ah;
  precise double cb = 134217729.0lf * b;
  precise double bh = cb - (cb - b);
  precise double bl = b - bh;
  precise double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return dvec2(p, e);
}
dvec2 dd_mul(dvec2 a, dvec2 b) {
  dvec2 p = dd_two_prod(a.x, b.x);
  precise double t = p.y + (a.x * b.y + a.y * b.x);
  return dd_fast_sum(p.x, t);
}
dvec2 dd_add(dvec2 a, dvec2 b) {
  dvec2 s = dd_two_sum(a.x, b.x);
  precise double t = s.y + (a.y + b.y);
  return dd_fast_sum(s.x, t);
}

dvec2 m_two_prod(double a, double b) { return dd_two_prod(a, b); }
dvec2 m_two_sum(double a, double b) { return dd_two_sum(a, b); }
double m_div(double a, double b) { return a / b; }

// ---- sqrt ------------------------------------------------------------------------------------
// The builtin plus one Newton step on the exact residual (Vulkan does not promise a correctly
// rounded double sqrt).
double m_sqrt(double x) {
  if (!(x > 0.0lf) || isinf(x)) return x < 0.0lf ? d_nan() : x;
  // Scale into [2^-900, 2^900) by an even power of 2: Dekker split and residual stay finite.
  const int e = x < 1.0e-270lf ? 128 : (x > 1.0e270lf ? -128 : 0);
  precise double a = x * d_pow2(e);
  double s = sqrt(a);
  dvec2 sq = dd_two_prod(s, s);
  precise double r = (a - sq.x) - sq.y;
  precise double t = s + r * (0.5lf / s);
  precise double res = t * d_pow2(-e / 2);
  return res;
}
double m_rsqrt(double x) {
  if (!(x > 0.0lf) || isinf(x)) return x < 0.0lf ? d_nan() : (x == 0.0lf ? 1.0lf / x : (isinf(x) ? 0.0lf : x));
  const int e = x < 1.0e-270lf ? 128 : (x > 1.0e270lf ? -128 : 0);
  precise double a = x * d_pow2(e);
  double s = m_sqrt(a);
  double y = 1.0lf / s;
  dvec2 p = dd_two_prod(s, y);
  precise double ee = (1.0lf - p.x) - p.y;
  precise double yy = y + y * ee;
  precise double res = yy * d_pow2(e / 2);
  return res;
}

// ---- exp / expm1 -----------------------------------------------------------------------------
const double D_LN2_HI = 6.93147180369123816490e-01lf;  // 0x3fe62e42 fee00000 (32 bits)
const double D_LN2_LO = 1.90821492927058770002e-10lf;  // 0x3dea39ef 35793c76
const double D_INVLN2 = 1.44269504088896338700e+00lf;

// y * 2^k for the exp family: overflow to inf and gradual underflow with one rounding.
double d_scale(double y, int k) {
  // precise: keeps the compiler from re-associating the two scalings into one constant.
  precise double a = y * (k > 1023 ? d_pow2(1023) : (k < -1021 ? d_pow2(k + 1000) : d_pow2(k)));
  precise double r = a * (k > 1023 ? d_pow2(k - 1023) : (k < -1021 ? d_pow2(-1000) : 1.0lf));
  return r;
}

// exp(h + l) for a double-double argument (|l| <= ulp(h)); exp(x) is d_exp_dd(x, 0).
double d_exp_dd(double h, double l) {
  const double P1 = 1.66666666666666019037e-01lf, P2 = -2.77777777770155933842e-03lf,
               P3 = 6.61375632143793436117e-05lf, P4 = -1.65339022054652515390e-06lf,
               P5 = 4.13813679705723846039e-08lf;
  if (isnan(h)) return h + h;
  if (h > 7.09782712893383973096e+02lf) return d_inf();
  if (h < -7.45133219101941108420e+02lf) return 0.0lf;
  if (abs(h) < 3.7252902984e-09lf && l == 0.0lf) return 1.0lf + h;  // |h| < 2^-28
  double kf = floor(h * D_INVLN2 + 0.5lf);
  precise double hi = h - kf * D_LN2_HI;  // exact
  precise double lo = kf * D_LN2_LO - l;
  precise double r = hi - lo;
  double t = r * r;
  double c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  double y = 1.0lf - ((lo - (r * c) / (2.0lf - c)) - hi);
  return d_scale(y, int(kf));
}
double m_exp(double x) { return d_exp_dd(x, 0.0lf); }

double m_expm1(double x) {
  const double Q1 = -3.33333333333331316428e-02lf, Q2 = 1.58730158725481460165e-03lf,
               Q3 = -7.93650757867487942473e-05lf, Q4 = 4.00821782732936239552e-06lf,
               Q5 = -2.01099218183624371326e-07lf;
  int hx = d_hi(x);
  const bool neg = hx < 0;
  hx &= 0x7fffffff;
  if (hx >= 0x4043687A) {  // |x| >= 56 ln2
    if (hx >= 0x40862E42) {
      if (isnan(x)) return x + x;
      if (isinf(x)) return neg ? -1.0lf : x;
      if (x > 7.09782712893383973096e+02lf) return d_inf();
    }
    if (neg) return -1.0lf;
  }
  double hi, lo, c = 0.0lf;
  int k = 0;
  if (hx > 0x3fd62e42) {
    if (hx < 0x3FF0A2B2) {
      hi = neg ? x + D_LN2_HI : x - D_LN2_HI;
      lo = neg ? -D_LN2_LO : D_LN2_LO;
      k = neg ? -1 : 1;
    } else {
      double t = floor(D_INVLN2 * x + 0.5lf);
      k = int(t);
      hi = x - t * D_LN2_HI;
      lo = t * D_LN2_LO;
    }
    precise double xr = hi - lo;
    precise double cc = (hi - xr) - lo;
    x = xr;
    c = cc;
  } else if (hx < 0x3c900000) {
    return x;
  }
  double hfx = 0.5lf * x;
  double hxs = x * hfx;
  double r1 = 1.0lf + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
  double t = 3.0lf - r1 * hfx;
  double e = hxs * ((r1 - t) / (6.0lf - x * t));
  if (k == 0) return x - (x * e - hxs);
  e = (x * (e - c) - c);
  e -= hxs;
  if (k == -1) return 0.5lf * (x - e) - 0.5lf;
  if (k == 1) return x < -0.25lf ? -2.0lf * (e - (x + 0.5lf)) : 1.0lf + 2.0lf * (x - e);
  if (k <= -2 || k > 56) return d_scale(1.0lf - (e - x), k) - 1.0lf;
  if (k < 20) {
    double tt = d_make(0x3ff00000 - (0x200000 >> k), 0u);  // 1 - 2^-k
    return (tt - (e - x)) * d_pow2(k);
  }
  return ((x - (e + d_pow2(-k))) + 1.0lf) * d_pow2(k);
}

// ---- log / log1p -----------------------------------------------------------------------------
// x = 2^k * m with m in [sqrt(1/2), sqrt(2)); subnormals through their integer mantissa.
// Returns false (and the result in `special`) for 0, negatives, inf and NaN.
bool d_log_reduce(double x, out int k, out double m, out double special) {
  int hx = d_hi(x);
  k = 0;
  m = x;
  special = 0.0lf;
  if (hx < 0x00100000) {
    if (((hx & 0x7fffffff) | int(d_lo(x))) == 0) {
      special = -d_inf();
      return false;
    }
    if (hx < 0) {
      special = d_nan();
      return false;
    }
    x = double(uint64_t(hx) << 32 | uint64_t(d_lo(x)));  // subnormal: the exact integer mantissa
    k = -1074;
    hx = d_hi(x);
  }
  if (hx >= 0x7ff00000) {
    special = x + x;
    return false;
  }
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  int i = (hx + 0x95f64) & 0x100000;
  m = d_make(hx | (i ^ 0x3ff00000), d_lo(x));
  k += (i >> 20);
  return true;
}

double m_log(double x) {
  const double Lg1 = 6.666666666666735130e-01lf, Lg2 = 3.999999999940941908e-01lf,
               Lg3 = 2.857142874366239149e-01lf, Lg4 = 2.222219843214978396e-01lf,
               Lg5 = 1.818357216161805012e-01lf, Lg6 = 1.531383769920937332e-01lf,
               Lg7 = 1.479819860511658591e-01lf;
  int k;
  double m, special;
  if (!d_log_reduce(x, k, m, special)) return special;
  double f = m - 1.0lf;
  double dk = double(k);
  int hx = d_hi(m) & 0x000fffff;
  if ((0x000fffff & (2 + hx)) < 3) {
    if (f == 0.0lf) return k == 0 ? 0.0lf : dk * D_LN2_HI + dk * D_LN2_LO;
    double Rv = f * f * (0.5lf - 0.33333333333333333lf * f);
    return k == 0 ? f - Rv : dk * D_LN2_HI - ((Rv - dk * D_LN2_LO) - f);
  }
  double s = f / (2.0lf + f);
  double z = s * s;
  double w = z * z;
  int ii = (hx - 0x6147a) | (0x6b851 - hx);
  double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  double Rv = t2 + t1;
  if (ii > 0) {
    double hfsq = 0.5lf * f * f;
    return k == 0 ? f - (hfsq - s * (hfsq + Rv)) : dk * D_LN2_HI - ((hfsq - (s * (hfsq + Rv) + dk * D_LN2_LO)) - f);
  }
  return k == 0 ? f - s * (f - Rv) : dk * D_LN2_HI - ((s * (f - Rv) - dk * D_LN2_LO) - f);
}

// log(x) as a double-double, relative error ~2^-100 (pow). x finite > 0.
dvec2 d_log_dd(double x) {
  int k;
  double m, special;
  d_log_reduce(x, k, m, special);
  // s = (m - 1) / (m + 1) as a double-double; log(m) = 2 atanh(s) = 2s + 2s^3/3 + s^5 Rv(s^2).
  double u = m - 1.0lf;  // exact
  dvec2 v = dd_two_sum(m, 1.0lf);
  double sh = u / v.x;
  dvec2 p = dd_two_prod(sh, v.x);
  precise double rr = ((u - p.x) - p.y) - sh * v.y;
  dvec2 s = dd_fast_sum(sh, rr / v.x);
  dvec2 s2 = dd_mul(s, s);
  dvec2 s3 = dd_mul(s2, s);
  double z = s2.x;
  // 2/5 + 2z/7 + ... (|s| < 0.172: 12 terms reach 2^-110)
  double Rv = 2.0lf / 23.0lf;
  Rv = 2.0lf / 21.0lf + z * Rv;
  Rv = 2.0lf / 19.0lf + z * Rv;
  Rv = 2.0lf / 17.0lf + z * Rv;
  Rv = 2.0lf / 15.0lf + z * Rv;
  Rv = 2.0lf / 13.0lf + z * Rv;
  Rv = 2.0lf / 11.0lf + z * Rv;
  Rv = 2.0lf / 9.0lf + z * Rv;
  Rv = 2.0lf / 7.0lf + z * Rv;
  Rv = 2.0lf / 5.0lf + z * Rv;
  const dvec2 two_thirds = dvec2(6.66666666666666629659e-01lf, 3.70074341541718826374e-17lf);
  dvec2 lm = dd_add(dvec2(2.0lf * s.x, 2.0lf * s.y), dd_mul(two_thirds, s3));
  lm = dd_add(lm, dd_two_prod(s3.x * z, Rv));
  const dvec2 ln2 = dvec2(6.93147180559945286227e-01lf, 2.31904681384629955842e-17lf);
  return dd_add(dd_mul(dvec2(double(k), 0.0lf), ln2), lm);
}

double m_log1p(double x) {
  const double Lp1 = 6.666666666666735130e-01lf, Lp2 = 3.999999999940941908e-01lf,
               Lp3 = 2.857142874366239149e-01lf, Lp4 = 2.222219843214978396e-01lf,
               Lp5 = 1.818357216161805012e-01lf, Lp6 = 1.531383769920937332e-01lf,
               Lp7 = 1.479819860511658591e-01lf;
  int hx = d_hi(x);
  int ax = hx & 0x7fffffff;
  int k = 1, hu = 0;
  double f = 0.0lf, c = 0.0lf;
  if (hx < 0x3FDA827A) {
    if (ax >= 0x3ff00000) return x == -1.0lf ? -d_inf() : d_nan();
    if (ax < 0x3e200000) return ax < 0x3c900000 ? x : x - x * x * 0.5lf;
    if (hx > 0 || hx <= int(0xbfd2bec4u)) {
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7ff00000) return x + x;
  if (k != 0) {
    double u;
    if (hx < 0x43400000) {
      precise double uu = 1.0lf + x;
      u = uu;
      hu = d_hi(u);
      k = (hu >> 20) - 1023;
      precise double cc = k > 0 ? 1.0lf - (u - x) : x - (u - 1.0lf);
      c = cc / u;
    } else {
      u = x;
      hu = d_hi(u);
      k = (hu >> 20) - 1023;
      c = 0.0lf;
    }
    hu &= 0x000fffff;
    if (hu < 0x6a09e) {
      u = d_make(hu | 0x3ff00000, d_lo(u));
    } else {
      k += 1;
      u = d_make(hu | 0x3fe00000, d_lo(u));
      hu = (0x00100000 - hu) >> 2;
    }
    f = u - 1.0lf;
  }
  double hfsq = 0.5lf * f * f;
  double dk = double(k);
  if (hu == 0) {
    if (f == 0.0lf) return k == 0 ? 0.0lf : dk * D_LN2_HI + (c + dk * D_LN2_LO);
    double Rv = hfsq * (1.0lf - 0.66666666666666666lf * f);
    return k == 0 ? f - Rv : dk * D_LN2_HI - ((Rv - (dk * D_LN2_LO + c)) - f);
  }
  double s = f / (2.0lf + f);
  double z = s * s;
  double Rv = z * (Lp1 + z * (Lp2 + z * (Lp3 + z * (Lp4 + z * (Lp5 + z * (Lp6 + z * Lp7))))));
  return k == 0 ? f - (hfsq - s * (hfsq + Rv)) : dk * D_LN2_HI - ((hfsq - (s * (hfsq + Rv) + (dk * D_LN2_LO + c))) - f);
}

// ---- sin / cos ---------------------------------------------------------------------------------
double d_ksin(double x, double y) {  // sin(x + y) on [-pi/4, pi/4]
  const double S1 = -1.66666666666666324348e-01lf, S2 = 8.33333333332248946124e-03lf,
               S3 = -1.98412698298579493134e-04lf, S4 = 2.75573137070700676789e-06lf,
               S5 = -2.50507602534068634195e-08lf, S6 = 1.58969099521155010221e-10lf;
  double z = x * x, v = z * x;
  double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x - ((z * (0.5lf * y - v * r) - y) - v * S1);
}
double d_kcos(double x, double y) {  // cos(x + y) on [-pi/4, pi/4]
  const double C1 = 4.16666666666666019037e-02lf, C2 = -1.38888888888741095749e-03lf,
               C3 = 2.48015872894767294178e-05lf, C4 = -2.75573143513906633035e-07lf,
               C5 = 2.08757232129817482790e-09lf, C6 = -1.13596475577881948265e-11lf;
  double z = x * x, w = z * z;
  double r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  double hz = 0.5lf * z;
  precise double ww = 1.0lf - hz;
  return ww + (((1.0lf - ww) - hz) + (z * r - x * y));
}

// x = n pi/2 + y0 + y1 for |x| > pi/4: Cody-Waite with a 3-part pi/2 (fdlibm) below 2^20 pi/2,
// exact Payne-Hanek above.
int d_rem_pio2(double x, out double y0, out double y1) {
  const double invpio2 = 6.36619772367581382433e-01lf;
  const double pio2_1 = 1.57079632673412561417e+00lf, pio2_1t = 6.07710050650619224932e-11lf,
               pio2_2 = 6.07710050630396597660e-11lf, pio2_2t = 2.02226624879595063154e-21lf,
               pio2_3 = 2.02226624871116645580e-21lf, pio2_3t = 8.47842766036889956997e-32lf;
  const int ix = d_hi(x) & 0x7fffffff;
  if (ix <= 0x413921fb) {
    double fn = floor(x * invpio2 + 0.5lf);
    int n = int(fn);
    precise double r = x - fn * pio2_1;
    precise double w = fn * pio2_1t;
    precise double yy = r - w;
    const int j = ix >> 20;
    if (j - ((d_hi(yy) >> 20) & 0x7ff) > 16) {
      precise double t = r;
      w = fn * pio2_2;
      r = t - w;
      w = fn * pio2_2t - ((t - r) - w);
      yy = r - w;
      if (j - ((d_hi(yy) >> 20) & 0x7ff) > 49) {
        t = r;
        w = fn * pio2_3;
        r = t - w;
        w = fn * pio2_3t - ((t - r) - w);
        yy = r - w;
      }
    }
    precise double tail = (r - yy) - w;
    y0 = yy;
    y1 = tail;
    return n;
  }
  const double PIO2_HI = 1.57079632679489655800e+00lf, PIO2_LO = 6.12323399573676603587e-17lf;
  uvec2 b = unpackDouble2x32(abs(x));
  const int e2 = int(b.y >> 20) - 1075;
  const uint mhi = (b.y & 0x000fffffu) | 0x00100000u;
  bool fneg;
  uint64_t fhi, flo;
  int fe;
  int n = tf_ph_reduce(mhi, b.x, e2, fneg, fhi, flo, fe);
  double h = ldexp(double(fhi >> 11), fe - 53);
  double l = ldexp(double(((fhi & 0x7fful) << 42) | (flo >> 22)), fe - 106);
  dvec2 p = dd_two_prod(h, PIO2_HI);
  precise double rl = p.y + (h * PIO2_LO + l * PIO2_HI);
  dvec2 r = dd_fast_sum(p.x, rl);
  if (fneg != (x < 0.0lf)) r = -r;
  y0 = r.x;
  y1 = r.y;
  return x < 0.0lf ? -n : n;
}

void m_sincos(double x, out double s, out double c) {
  if (isinf(x) || isnan(x)) {
    s = c = d_nan();
    return;
  }
  if ((d_hi(x) & 0x7fffffff) <= 0x3fe921fb) {
    s = abs(x) < 1.0e-300lf ? x : d_ksin(x, 0.0lf);
    c = d_kcos(x, 0.0lf);
    return;
  }
  double y0, y1;
  int n = d_rem_pio2(x, y0, y1);
  double ks = d_ksin(y0, y1), kc = d_kcos(y0, y1);
  switch (n & 3) {
    case 0: s = ks; c = kc; break;
    case 1: s = kc; c = -ks; break;
    case 2: s = -ks; c = -kc; break;
    default: s = -kc; c = ks; break;
  }
}

// ---- tanh, atan2, hypot, erf -------------------------------------------------------------------
double m_tanh(double x) {
  int jx = d_hi(x);
  int ix = jx & 0x7fffffff;
  if (ix >= 0x7ff00000) return isnan(x) ? x : (jx >= 0 ? 1.0lf : -1.0lf);
  double z;
  if (ix < 0x40360000) {  // |x| < 22
    if (ix < 0x3c800000) return x;
    if (ix >= 0x3ff00000) {
      double t = m_expm1(2.0lf * abs(x));
      z = 1.0lf - 2.0lf / (t + 2.0lf);
    } else {
      double t = m_expm1(-2.0lf * abs(x));
      z = -t / (t + 2.0lf);
    }
  } else {
    z = 1.0lf;
  }
  return jx >= 0 ? z : -z;
}

double d_atan(double x) {
  const double atanhi[4] = double[4](4.63647609000806093515e-01lf, 7.85398163397448278999e-01lf,
                                     9.82793723247329054082e-01lf, 1.57079632679489655800e+00lf);
  const double atanlo[4] = double[4](2.26987774529616870924e-17lf, 3.06161699786838301793e-17lf,
                                     1.39033110312309984516e-17lf, 6.12323399573676603587e-17lf);
  const double aT0 = 3.33333333333329318027e-01lf, aT1 = -1.99999999998764832476e-01lf,
               aT2 = 1.42857142725034663711e-01lf, aT3 = -1.11111104054623557880e-01lf,
               aT4 = 9.09088713343650656196e-02lf, aT5 = -7.69187620504482999495e-02lf,
               aT6 = 6.66107313738753120669e-02lf, aT7 = -5.83357013379057348645e-02lf,
               aT8 = 4.97687799461593236017e-02lf, aT9 = -3.65315727442169155270e-02lf,
               aT10 = 1.62858201153657823623e-02lf;
  int hx = d_hi(x);
  int ix = hx & 0x7fffffff;
  int id;
  if (ix >= 0x44100000) {
    if (isnan(x)) return x + x;
    return hx > 0 ? atanhi[3] + atanlo[3] : -atanhi[3] - atanlo[3];
  }
  if (ix < 0x3fdc0000) {
    if (ix < 0x3e400000) return x;
    id = -1;
  } else {
    x = abs(x);
    if (ix < 0x3ff30000) {
      if (ix < 0x3fe60000) {
        id = 0;
        x = (2.0lf * x - 1.0lf) / (2.0lf + x);
      } else {
        id = 1;
        x = (x - 1.0lf) / (x + 1.0lf);
      }
    } else if (ix < 0x40038000) {
      id = 2;
      x = (x - 1.5lf) / (1.0lf + 1.5lf * x);
    } else {
      id = 3;
      x = -1.0lf / x;
    }
  }
  double z = x * x, w = z * z;
  double s1 = z * (aT0 + w * (aT2 + w * (aT4 + w * (aT6 + w * (aT8 + w * aT10)))));
  double s2 = w * (aT1 + w * (aT3 + w * (aT5 + w * (aT7 + w * aT9))));
  if (id < 0) return x - x * (s1 + s2);
  z = atanhi[id] - ((x * (s1 + s2) - atanlo[id]) - x);
  return hx < 0 ? -z : z;
}

double m_atan2(double y, double x) {
  const double pi_o_4 = 7.8539816339744827900E-01lf, pi_o_2 = 1.5707963267948965580E+00lf,
               pi = 3.1415926535897931160E+00lf, pi_lo = 1.2246467991473531772E-16lf;
  if (isnan(x) || isnan(y)) return x + y;
  if (x == 1.0lf) return d_atan(y);
  const bool sy = d_hi(y) < 0, sx = d_hi(x) < 0;
  const int m = (sy ? 1 : 0) | (sx ? 2 : 0);
  if (y == 0.0lf) return m < 2 ? y : (m == 2 ? pi + pi_lo : -pi - pi_lo);
  if (x == 0.0lf) return sy ? -pi_o_2 - pi_lo * 0.5lf : pi_o_2 + pi_lo * 0.5lf;
  if (isinf(x)) {
    if (isinf(y)) {
      double a = m < 2 ? pi_o_4 : 3.0lf * pi_o_4;
      return sy ? -a : a;
    }
    double a = m < 2 ? 0.0lf : pi + pi_lo;
    return sy ? -a : a;
  }
  if (isinf(y)) return sy ? -pi_o_2 : pi_o_2;
  const int k = ((d_hi(y) & 0x7fffffff) >> 20) - ((d_hi(x) & 0x7fffffff) >> 20);
  double z;
  if (k > 60) {
    z = pi_o_2 + 0.5lf * pi_lo;
    return sy ? -z : z;
  } else if (sx && k < -60) {
    z = 0.0lf;
  } else {
    z = d_atan(abs(y / x));
  }
  switch (m) {
    case 0: return z;
    case 1: return -z;
    case 2: return pi - (z - pi_lo);
  }
  return (z - pi_lo) - pi;
}

// sqrt(x^2 + y^2) without overflow or underflow in the squares; ~1 ulp.
double m_hypot(double x, double y) {
  double a = abs(x), b = abs(y);
  if (isinf(a) || isinf(b)) return d_inf();
  if (isnan(a) || isnan(b)) return a + b;
  double m = max(a, b), s = min(a, b);
  if (m == 0.0lf) return 0.0lf;
  int e = ((d_hi(m) >> 20) & 0x7ff) - 1023;
  double sc = d_pow2(clamp(-e, -1022, 1022)), un = d_pow2(clamp(e, -1022, 1022));
  if (e < -1022) {  // m subnormal
    sc = d_pow2(1000);
    un = d_pow2(-1000);
  }
  double u = m * sc, v = s * sc;
  dvec2 uu = dd_two_prod(u, u), vv = dd_two_prod(v, v);
  precise double hi = uu.x + vv.x;
  precise double lo = ((uu.x - hi) + vv.x) + uu.y + vv.y;
  double q = m_sqrt(hi);
  q = q + lo * (0.5lf / q);
  return q * un;
}

double m_erf(double x) {
  const double erx = 8.45062911510467529297e-01lf, efx = 1.28379167095512586316e-01lf;
  const double pp0 = 1.28379167095512558561e-01lf, pp1 = -3.25042107247001499370e-01lf,
               pp2 = -2.84817495755985104766e-02lf, pp3 = -5.77027029648944159157e-03lf,
               pp4 = -2.37630166566501626084e-05lf, qq1 = 3.97917223959155352819e-01lf,
               qq2 = 6.50222499887672944485e-02lf, qq3 = 5.08130628187576562776e-03lf,
               qq4 = 1.32494738004321644526e-04lf, qq5 = -3.96022827877536812320e-06lf;
  const double pa0 = -2.36211856075265944077e-03lf, pa1 = 4.14856118683748331666e-01lf,
               pa2 = -3.72207876035701323847e-01lf, pa3 = 3.18346619901161753674e-01lf,
               pa4 = -1.10894694282396677476e-01lf, pa5 = 3.54783043256182359371e-02lf,
               pa6 = -2.16637559486879084300e-03lf, qa1 = 1.06420880400844228286e-01lf,
               qa2 = 5.40397917702171048937e-01lf, qa3 = 7.18286544141962662868e-02lf,
               qa4 = 1.26171219808761642112e-01lf, qa5 = 1.36370839120290507362e-02lf,
               qa6 = 1.19844998467991074170e-02lf;
  const double ra0 = -9.86494403484714822705e-03lf, ra1 = -6.93858572707181764372e-01lf,
               ra2 = -1.05586262253232909814e+01lf, ra3 = -6.23753324503260060396e+01lf,
               ra4 = -1.62396669462573470355e+02lf, ra5 = -1.84605092906711035994e+02lf,
               ra6 = -8.12874355063065934246e+01lf, ra7 = -9.81432934416914548592e+00lf,
               sa1 = 1.96512716674392571292e+01lf, sa2 = 1.37657754143519042600e+02lf,
               sa3 = 4.34565877475229228821e+02lf, sa4 = 6.45387271733267880336e+02lf,
               sa5 = 4.29008140027567833386e+02lf, sa6 = 1.08635005541779435134e+02lf,
               sa7 = 6.57024977031928170135e+00lf, sa8 = -6.04244152148580987438e-02lf;
  const double rb0 = -9.86494292470009928597e-03lf, rb1 = -7.99283237680523006574e-01lf,
               rb2 = -1.77579549177547519889e+01lf, rb3 = -1.60636384855821916062e+02lf,
               rb4 = -6.37566443368389627722e+02lf, rb5 = -1.02509513161107724954e+03lf,
               rb6 = -4.83519191608651397019e+02lf, sb1 = 3.03380607434824582924e+01lf,
               sb2 = 3.25792512996573918826e+02lf, sb3 = 1.53672958608443695994e+03lf,
               sb4 = 3.19985821950859553908e+03lf, sb5 = 2.55305040643316442583e+03lf,
               sb6 = 4.74528541206955367215e+02lf, sb7 = -2.24409524465858183362e+01lf;
  int hx = d_hi(x);
  int ix = hx & 0x7fffffff;
  if (ix >= 0x7ff00000) return isnan(x) ? x : (hx >= 0 ? 1.0lf : -1.0lf);
  if (ix < 0x3feb0000) {
    if (ix < 0x3e300000) return x + efx * x;
    double z = x * x;
    double r = pp0 + z * (pp1 + z * (pp2 + z * (pp3 + z * pp4)));
    double s = 1.0lf + z * (qq1 + z * (qq2 + z * (qq3 + z * (qq4 + z * qq5))));
    return x + x * (r / s);
  }
  if (ix < 0x3ff40000) {
    double s = abs(x) - 1.0lf;
    double P = pa0 + s * (pa1 + s * (pa2 + s * (pa3 + s * (pa4 + s * (pa5 + s * pa6)))));
    double Q = 1.0lf + s * (qa1 + s * (qa2 + s * (qa3 + s * (qa4 + s * (qa5 + s * qa6)))));
    return hx >= 0 ? erx + P / Q : -erx - P / Q;
  }
  if (ix >= 0x40180000) return hx >= 0 ? 1.0lf : -1.0lf;
  double ax = abs(x);
  double s = 1.0lf / (ax * ax);
  double Rv, S;
  if (ix < 0x4006DB6E) {
    Rv = ra0 + s * (ra1 + s * (ra2 + s * (ra3 + s * (ra4 + s * (ra5 + s * (ra6 + s * ra7))))));
    S = 1.0lf + s * (sa1 + s * (sa2 + s * (sa3 + s * (sa4 + s * (sa5 + s * (sa6 + s * (sa7 + s * sa8)))))));
  } else {
    Rv = rb0 + s * (rb1 + s * (rb2 + s * (rb3 + s * (rb4 + s * (rb5 + s * rb6)))));
    S = 1.0lf + s * (sb1 + s * (sb2 + s * (sb3 + s * (sb4 + s * (sb5 + s * (sb6 + s * sb7))))));
  }
  double z = d_make(d_hi(ax), 0u);
  precise double d = (z - ax) * (z + ax);
  double r = m_exp(-z * z - 0.5625lf) * m_exp(d + Rv / S);
  return hx >= 0 ? 1.0lf - r / ax : r / ax - 1.0lf;
}

// ---- pow -------------------------------------------------------------------------------------
// C pow: exp(y log x) with log in double-double (the product y log x keeps ~2^-100 relative
// error, so large results stay within ~1 ulp); negative base: NaN unless y is integral (then the
// sign of an odd y); C99 special cases for zeros, infinities and NaN.
double m_pow(double x, double y) {
  if (y == 0.0lf || x == 1.0lf) return 1.0lf;
  if (isnan(x) || isnan(y)) return d_nan();
  const bool yint = !isinf(y) && floor(y) == y;
  const bool yodd = yint && abs(y) < 9007199254740992.0lf && floor(y * 0.5lf) != y * 0.5lf;
  if (isinf(y)) {
    double ax = abs(x);
    if (ax == 1.0lf) return 1.0lf;
    return (ax < 1.0lf) == (y > 0.0lf) ? 0.0lf : d_inf();
  }
  if (x == 0.0lf) {
    if (y < 0.0lf) return yodd ? 1.0lf / x : d_inf();  // 1/x keeps the sign of zero
    return yodd ? x : 0.0lf;
  }
  if (isinf(x)) {
    if (x > 0.0lf) return y > 0.0lf ? d_inf() : 0.0lf;
    double m = y > 0.0lf ? d_inf() : 0.0lf;
    return yodd ? -m : m;
  }
  bool negate = false;
  if (x < 0.0lf) {
    if (!yint) return d_nan();
    negate = yodd;
    x = -x;
    if (x == 1.0lf) return negate ? -1.0lf : 1.0lf;  // (-1)^y, y integral: even when |y| is huge
  }
  double r;
  if (abs(y) > 1.0e20lf) {  // |log x| >= 2^-53 for x != 1: the result over- or underflows
    r = (x < 1.0lf) == (y > 0.0lf) ? 0.0lf : d_inf();
  } else {
    dvec2 L = d_log_dd(x);
    dvec2 P = dd_mul(dvec2(y, 0.0lf), L);
    r = d_exp_dd(P.x, P.y);
  }
  return negate ? -r : r;
}

#endif  // TF_MATH_F64_GLSL
