// Complex analytic functions over T = vec2/dvec2 (R = float/double) built on the real library
// (math_f32.glsl or math_f64.glsl, included first) and complex.glsl (c_mul, c_div, c_nan, c_inf,
// c_signbit, c_copysign). Contract:
// cm_exp cm_log cm_sin cm_cos cm_tanh cm_sqrt cm_rsqrt cm_expm1 cm_log1p cm_pow follow std::complex
// for finite arguments (principal branches), within a few ulp normwise (docs/accuracy.md);
// expm1/log1p are accurate near 0 (formulas of src/cpu/elementwise.cpp); pow as NumPy at zeros.
#ifndef TF_MATH_COMPLEX_GLSL
#define TF_MATH_COMPLEX_GLSL
#ifdef TF_F64
#define CM_SINH_SERIES_MAX 22.0lf  // below: sinh/cosh through expm1
#define CM_EXP_OVF 709.0lf         // above: exp split in two halves
#define CM_BIG 1.0e300lf
#define CM_TINY 1.0e-300lf
R cm_pow2(int k) { return d_pow2(k); }
#define CM_TINY_UP 600
#define CM_LN2_HI 6.93147180369123816490e-01lf  // ln 2 in two parts (fdlibm); 600 CM_LN2_HI exact
#define CM_LN2_LO 1.90821492927058770002e-10lf
#else
#define CM_SINH_SERIES_MAX 9.0
#define CM_EXP_OVF 88.0
#define CM_BIG 1.0e37
// Scaled up below 2^-60, not only near the subnormal range: the error-free products inside
// hypot, sqrt and the corrected divisions have low parts ~2^-48 below their operands, which a
// device that flushes f32 subnormals (NVIDIA) would lose (docs/accuracy.md).
#define CM_TINY cm_pow2(-60)
R cm_pow2(int k) { return f_pow2(k); }
#define CM_TINY_UP 60
#define CM_LN2_HI 6.9313812256e-01  // 60 CM_LN2_HI exact
#define CM_LN2_LO 9.0580006145e-06
#endif

// t h^2 2^j for h = exp(a / 2) >= 1 (possibly inf), j in {-1, 0}, finite wherever the product is,
// also where h * h overflows or a part of t is tiny: the parts of t and h are scaled exactly near
// 1 (c_ilogb, c_pow2), the scaled values multiplied, and the product scaled by the exponents' sum
// (c_scale2). Written as (t * h) * h, NVIDIA's compiler evaluated t * (h * h) (c32 exp(88.6 + iy)
// gave infinite parts for finite results); with the 1/2 of sinh / cosh applied to t first,
// sin(5e-324 + 1.7e308i) gave 0 for inf (H200, tools/gpu/probe_range.py).
R cm_times_sq2_part(R v, R h, int j) {
  if (v == R(0) || !c_isfinite(v)) return v;
  if (isinf(h)) return c_copysign(c_inf(), v);
  const int ev = c_ilogb(abs(v)), eh = c_ilogb(h);
  const R hs = h * c_pow2(-eh);
  const R p = ((v * c_pow2(-ev)) * hs) * hs;
  const int k = ev + 2 * eh + j;
  return k > 2 * C_EMAX ? c_copysign(c_inf(), v) : c_scale2(p, k);
}
T cm_times_sq2(T t, R h, int j) { return T(cm_times_sq2_part(t.x, h, j), cm_times_sq2_part(t.y, h, j)); }

// sinh(y) and cosh(y) for real y (no cancellation near 0, no overflow before the result does).
void cm_sinhcosh(R y, out R sh, out R ch) {
  R a = abs(y);
  if (a < CM_SINH_SERIES_MAX) {
    R t = m_expm1(a);
    R e = t + R(1);
    sh = R(0.5) * (t + m_div(t, e));
    ch = R(0.5) * e + m_div(R(0.5), e);
  } else if (a < CM_EXP_OVF) {
    sh = ch = R(0.5) * m_exp(a);
  } else {
    sh = ch = cm_times_sq2(T(R(1)), m_exp(R(0.5) * a), -1).x;
  }
  if (c_signbit(y)) sh = -sh;  // sinh(-0) = -0
}

T cm_exp(T z) {
  // Annex G (glibc cexp): exp(+inf + i y) = +inf + NaN i, exp(-inf + i y) = +0 +- 0i (sign of
  // y) for y infinite or NaN. Other non-finite arguments come out right below.
  if (isinf(z.x) && !c_isfinite(z.y))
    return z.x > R(0) ? T(c_inf(), c_nan()) : T(R(0), c_copysign(R(0), z.y));
  if (z.y == R(0)) return T(m_exp(z.x), z.y);
  R s, c;
  m_sincos(z.y, s, c);
  if (z.x > CM_EXP_OVF) return cm_times_sq2(T(c, s), m_exp(R(0.5) * z.x), 0);
  R e = m_exp(z.x);
  return T(e * c, e * s);
}

// log|z| accurately also near |z| = 1: log1p(x^2 + y^2 - 1) / 2 with exact squares.
R cm_log_abs(R x, R y) {
  // Annex G: |z| = +inf when a part is infinite, even if the other is NaN; otherwise NaN in,
  // NaN out (GLSL max/min may drop a NaN operand, so this is decided first).
  if (isnan(x) || isnan(y)) return (isinf(x) || isinf(y)) ? c_inf() : c_nan();
  R ax = abs(x), ay = abs(y);
  R mx = max(ax, ay);
  if (mx >= R(0.5) && mx <= R(2)) {
    R mn = min(ax, ay);
    T a = m_two_prod(mx, mx), b = m_two_prod(mn, mn);
    T s = m_two_sum(a.x, R(-1));
    T u = m_two_sum(s.x, b.x);
    R t = u.x + (u.y + (s.y + a.y + b.y));
    return R(0.5) * m_log1p(t);
  }
  // |z| may exceed the largest finite value (c32 3e38 + 3e38i): log(|z| / 4) + log 4.
  if (mx > CM_BIG) return m_log(m_hypot(R(0.25) * x, R(0.25) * y)) + R(2) * m_log(R(2));
  // Tiny |z| may not be representable (5e-324 + 5e-324i: |z| rounds to 5e-324, log off by
  // log sqrt 2): log(|z| 2^UP) - UP log 2, the parts scaled exactly.
  if (mx < CM_TINY) {
    const R up = cm_pow2(CM_TINY_UP);
    return (m_log(m_hypot(x * up, y * up)) - R(CM_TINY_UP) * CM_LN2_HI) - R(CM_TINY_UP) * CM_LN2_LO;
  }
  return m_log(m_hypot(x, y));
}

T cm_log(T z) { return T(cm_log_abs(z.x, z.y), m_atan2(z.y, z.x)); }

// Special values of sin(x + iy) for non-finite x or y (C99 Annex G, as glibc csin).
T cm_sin_special(R x, R y) {
  if (c_isfinite(y)) return T(c_nan(), y == R(0) ? y : c_nan());  // x = +-inf or NaN
  if (isinf(y)) {
    if (x == R(0)) return T(x, y);
    if (c_isfinite(x)) {
      R s, c;
      m_sincos(x, s, c);
      return T(c_copysign(c_inf(), s), c_signbit(c) != c_signbit(y) ? -c_inf() : c_inf());
    }
    return T(c_nan(), c_inf());  // x = +-inf or NaN
  }
  return T(x == R(0) ? x : c_nan(), c_nan());  // y = NaN
}

T cm_sin(T z) {
  if (!c_isfinite(z.x) || !c_isfinite(z.y)) return cm_sin_special(z.x, z.y);
  R s, c, sh, ch;
  m_sincos(z.x, s, c);
  if (abs(z.y) >= CM_EXP_OVF) {  // cosh y overflows before sin x cosh y may: exp(|y| / 2) twice
    const T r = cm_times_sq2(T(s, c_signbit(z.y) ? -c : c), m_exp(R(0.5) * abs(z.y)), -1);
    return T(z.x == R(0) ? z.x : r.x, r.y);
  }
  cm_sinhcosh(z.y, sh, ch);
  // sin(+-0) * cosh(y) is +-0 also where cosh(y) overflows (0 * inf would be NaN).
  return T(z.x == R(0) ? z.x : s * ch, c * sh);
}

// Special values of cos(x + iy) = cosh(u + iv), u = -y, v = x, for non-finite x or y (C99
// Annex G, as glibc ccos/ccosh).
T cm_cos_special(R x, R y) {
  R u = -y, v = x;
  if (c_isfinite(u)) return T(c_nan(), u == R(0) ? R(0) : c_nan());  // v = +-inf or NaN
  if (isinf(u)) {
    if (v == R(0)) return T(c_inf(), c_signbit(u) != c_signbit(v) ? -R(0) : R(0));
    if (c_isfinite(v)) {
      R s, c;
      m_sincos(v, s, c);
      return T(c_copysign(c_inf(), c), c_signbit(s) != c_signbit(u) ? -c_inf() : c_inf());
    }
    return T(c_inf(), c_nan());  // v = +-inf or NaN
  }
  return T(c_nan(), v == R(0) ? v : c_nan());  // u = NaN
}

T cm_cos(T z) {
  if (!c_isfinite(z.x) || !c_isfinite(z.y)) return cm_cos_special(z.x, z.y);
  R s, c, sh, ch;
  m_sincos(z.x, s, c);
  // -sin(+-0) * sinh(y) is a zero of sign -(x y) also where sinh(y) overflows.
  const R zero_im = c_signbit(z.x) != c_signbit(z.y) ? R(0) : -R(0);
  if (abs(z.y) >= CM_EXP_OVF) {  // as cm_sin
    const T r = cm_times_sq2(T(c, c_signbit(z.y) ? -s : s), m_exp(R(0.5) * abs(z.y)), -1);
    return T(r.x, z.x == R(0) ? zero_im : -r.y);
  }
  cm_sinhcosh(z.y, sh, ch);
  return T(c * ch, z.x == R(0) ? zero_im : -(s * sh));
}

// Kahan's algorithm (as FreeBSD ctanh): t = tan y, b = 1 + t^2, s = sinh x, rho = sqrt(1 + s^2),
// tanh z = (b rho s + i t) / (1 + b s^2); for large |x| the exponentially small imaginary part.
T cm_tanh(T z) {
  R x = z.x, y = z.y;
  // Special values as glibc ctanh (C99 Annex G): tanh(+-inf + iy) = +-1 + 0i with the zero's sign
  // that of sin(2y) for finite |y| > 1, else of y; tanh(NaN + 0i) = NaN + 0i; tanh(+-0 + iy) =
  // +-0 + NaN i for y infinite or NaN; NaN + NaN i otherwise.
  if (!c_isfinite(x) || !c_isfinite(y)) {
    if (isinf(x)) {
      R im = c_copysign(R(0), y);
      if (c_isfinite(y) && abs(y) > R(1)) {
        R s, c;
        m_sincos(y, s, c);
        im = c_signbit(s) != c_signbit(c) ? -R(0) : R(0);
      }
      return T(x > R(0) ? R(1) : R(-1), im);
    }
    if (y == R(0)) return z;
    return T(x == R(0) ? x : c_nan(), c_nan());
  }
  R s, c;
  m_sincos(y, s, c);
  if (abs(x) >= CM_SINH_SERIES_MAX) {
    R e = m_exp(-abs(x));
    return T(x > R(0) ? R(1) : R(-1), R(4) * s * c * e * e);
  }
  if (y == R(0)) return T(m_tanh(x), y);
  R t = m_div(s, c);
  R beta = R(1) + t * t;
  R sh, ch;
  cm_sinhcosh(x, sh, ch);
  R rho = m_sqrt(R(1) + sh * sh);
  R den = R(1) + beta * sh * sh;
  return T(m_div(beta * rho * sh, den), m_div(t, den));
}

// Principal sqrt: t = sqrt((|x| + |z|) / 2), then (t, y / 2t) or (|y| / 2t, +-t), scaled so
// that neither |x| + |z| overflows nor subnormals lose bits.
T cm_sqrt(T z) {
  // Special values as glibc csqrt (C99 Annex G): sqrt(x +- inf i) = +inf +- inf i for every x,
  // NaN included; sqrt(+inf + iy) = +inf + 0i (NaN i for y NaN); sqrt(-inf + iy) = 0 + inf i
  // (NaN + inf i for y NaN), the zero and infinity with y's sign; NaN + NaN i otherwise.
  if (!c_isfinite(z.x) || !c_isfinite(z.y)) {
    if (isinf(z.y)) return T(c_inf(), z.y);
    if (isinf(z.x)) {
      if (z.x > R(0)) return T(z.x, isnan(z.y) ? c_nan() : c_copysign(R(0), z.y));
      return T(isnan(z.y) ? c_nan() : R(0), c_copysign(c_inf(), z.y));
    }
    return T(c_nan(), c_nan());
  }
  if (z.x == R(0) && z.y == R(0)) return T(R(0), z.y);
  R ax = abs(z.x), ay = abs(z.y);
  R sc = R(1);
  R mx = max(ax, ay);
  if (mx > CM_BIG) {
    ax *= R(0.25);
    ay *= R(0.25);
    sc = R(2);
  } else if (mx < CM_TINY) {
    ax *= cm_pow2(CM_TINY_UP);
    ay *= cm_pow2(CM_TINY_UP);
    sc = cm_pow2(-CM_TINY_UP / 2);
  }
  R t = m_sqrt(R(0.5) * (ax + m_hypot(ax, ay)));
  R v = m_div(ay, R(2) * t);
  t *= sc;
  v *= sc;
  // The sign of y, -0 included: sqrt(-4 - 0i) = -2i (the branch cut's lower side).
  if (z.x >= R(0)) return T(t, c_signbit(z.y) ? -v : v);
  return T(v, c_signbit(z.y) ? -t : t);
}

// 1 / sqrt(z) with c_div's Annex G special values (as the CPU's 1 / std::sqrt): rsqrt(0) = inf +
// NaN i, rsqrt(z) = 0 for sqrt(z) infinite.
T cm_rsqrt(T z) {
  T w = cm_sqrt(z);
  if (w.x == R(0) && w.y == R(0)) return c_div(T(R(1), R(0)), w);  // inf + NaN i
  // c_div(1 + 0i, w) (Smith) spelled out, so that the compiler cannot fold 0 - t into -t or
  // t + 0 into t, which flips the sign of a zero part (the CPU's 1 / sqrt(1 + 0i) = 1 + 0i).
  R a = R(1), u = w.x, v = w.y;
  if (max(abs(u), abs(v)) >= C_DIV_HUGE) {
    a = R(0.25);
    u *= R(0.25);
    v *= R(0.25);
  }
  T q;
  if (abs(u) >= abs(v)) {
    R r = v / u, d = u + v * r;
    q = T(a / d, r == R(0) ? c_copysign(R(0), d) : -(a * r) / d);  // (0 - a r) / d
  } else {
    R r = u / v, d = v + u * r;
    q = T(r == R(0) ? c_copysign(R(0), d) : (a * r) / d, -a / d);  // (a r + 0) / d, (0 r - a) / d
  }
  // NaN + NaN i (w infinite with an infinite or NaN part): c_div's Annex G recovery (zero).
  return (isnan(q.x) && isnan(q.y)) ? c_div(T(R(1), R(0)), w) : q;
}

// exp(z) - 1: (expm1(x) cos y - 2 sin^2(y/2), exp(x) sin y).
T cm_expm1(T z) {
  if (z.y == R(0)) return T(m_expm1(z.x), z.y);
  R s, c, sh, chh;
  m_sincos(z.y, s, c);
  m_sincos(R(0.5) * z.y, sh, chh);
  R em1 = m_expm1(z.x);
  return T(em1 * c - R(2) * sh * sh, m_exp(z.x) * s);
}

// log(1 + z): log|1+z| = log1p(2x + x^2 + y^2) / 2 near 0 (sum kept in double length),
// arg = atan2(y, 1 + x).
T cm_log1p(T z) {
  R x = z.x, y = z.y;
  R re;
  if (abs(x) < R(0.5) && abs(y) < R(0.5)) {
    T a = m_two_prod(x, x), b = m_two_prod(y, y);
    T s = m_two_sum(R(2) * x, a.x);
    T u = m_two_sum(s.x, b.x);
    re = R(0.5) * m_log1p(u.x + (u.y + (s.y + a.y + b.y)));
  } else {
    re = cm_log_abs(R(1) + x, y);
  }
  return T(re, m_atan2(y, R(1) + x));
}

// exp(b log a), with NumPy's rules where a or b is zero (src/cpu/elementwise.cpp, the same):
// a^0 = 1 for every a; 0^b = 0 for b real and positive, else NaN.
T cm_pow(T a, T b) {
  if (b.x == R(0) && b.y == R(0)) return T(R(1), R(0));
  if (a.x == R(0) && a.y == R(0)) return (b.y == R(0) && b.x > R(0)) ? T(R(0)) : T(c_nan(), c_nan());
  return cm_exp(c_mul(b, cm_log(a)));
}

#endif  // TF_MATH_COMPLEX_GLSL
