// Complex analytic functions over T = vec2/dvec2 (R = float/double) built on the real library
// (math_f32.glsl or math_f64.glsl, included first) and complex.glsl (c_mul, c_div). Contract:
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
R cm_nan() { return d_nan(); }
R cm_inf() { return d_inf(); }
R cm_pow2(int k) { return d_pow2(k); }
bool cm_signbit(R v) { return (unpackDouble2x32(v).y >> 31) != 0u; }
#define CM_TINY_UP 600
#else
#define CM_SINH_SERIES_MAX 9.0
#define CM_EXP_OVF 88.0
#define CM_BIG 1.0e37
// Scaled up below 2^-60, not only near the subnormal range: the error-free products inside
// hypot, sqrt and the corrected divisions have low parts ~2^-48 below their operands, which a
// device that flushes f32 subnormals (NVIDIA) would lose (docs/accuracy.md).
#define CM_TINY cm_pow2(-60)
R cm_nan() { return f_nan(); }
R cm_inf() { return f_inf(); }
R cm_pow2(int k) { return f_pow2(k); }
bool cm_signbit(R v) { return (floatBitsToUint(v) >> 31) != 0u; }
#define CM_TINY_UP 60
#endif

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
    R h = m_exp(R(0.5) * a);
    sh = ch = (R(0.5) * h) * h;
  }
  if (y < R(0)) sh = -sh;
}

T cm_exp(T z) {
  if (z.y == R(0)) return T(m_exp(z.x), z.y);
  R s, c;
  m_sincos(z.y, s, c);
  if (z.x > CM_EXP_OVF) {
    R h = m_exp(R(0.5) * z.x);
    return T((h * c) * h, (h * s) * h);
  }
  R e = m_exp(z.x);
  return T(e * c, e * s);
}

// log|z| accurately also near |z| = 1: log1p(x^2 + y^2 - 1) / 2 with exact squares.
R cm_log_abs(R x, R y) {
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
  return m_log(m_hypot(x, y));
}

T cm_log(T z) { return T(cm_log_abs(z.x, z.y), m_atan2(z.y, z.x)); }

T cm_sin(T z) {
  R s, c, sh, ch;
  m_sincos(z.x, s, c);
  cm_sinhcosh(z.y, sh, ch);
  return T(s * ch, c * sh);
}

T cm_cos(T z) {
  R s, c, sh, ch;
  m_sincos(z.x, s, c);
  cm_sinhcosh(z.y, sh, ch);
  return T(c * ch, -(s * sh));
}

// Kahan's algorithm (as FreeBSD ctanh): t = tan y, b = 1 + t^2, s = sinh x, rho = sqrt(1 + s^2),
// tanh z = (b rho s + i t) / (1 + b s^2); for large |x| the exponentially small imaginary part.
T cm_tanh(T z) {
  R x = z.x, y = z.y;
  if (isnan(x)) return T(x, y == R(0) ? y : x);
  if (isinf(x)) return T(x > R(0) ? R(1) : R(-1), (isinf(y) || isnan(y)) ? R(0) : y * R(0));
  if (isinf(y) || isnan(y)) return T(cm_nan(), cm_nan());
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
  if (z.x == R(0) && z.y == R(0)) return T(R(0), z.y);
  if (isinf(z.y)) return T(cm_inf(), z.y);
  if (isnan(z.x) || isnan(z.y)) return T(cm_nan(), cm_nan());
  if (isinf(z.x)) {
    if (z.x > R(0)) return T(z.x, z.y * R(0));
    return T(R(0), cm_signbit(z.y) ? -cm_inf() : cm_inf());
  }
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
  if (z.x >= R(0)) return T(t, cm_signbit(z.y) ? -v : v);
  return T(v, cm_signbit(z.y) ? -t : t);
}

T cm_rsqrt(T z) { return c_div(T(R(1), R(0)), cm_sqrt(z)); }

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
  if (a.x == R(0) && a.y == R(0)) return (b.y == R(0) && b.x > R(0)) ? T(R(0)) : T(cm_nan(), cm_nan());
  return cm_exp(c_mul(b, cm_log(a)));
}

#endif  // TF_MATH_COMPLEX_GLSL
