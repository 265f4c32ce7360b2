// Complex helpers over vec2/dvec2 (x = re, y = im). R is the real scalar type.
#ifdef TF_KIND_COMPLEX
T c_mul(T a, T b) { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

// Smith's algorithm: avoids overflow of |b|^2 for large divisors. Divisors within a factor 4 of
// the largest finite value are scaled by 1/4 with the numerator (exact, the quotient unchanged),
// so that b.x + b.y * r cannot overflow ((1e308 + 1e308i) / (1e308 + 1e308i) = 1).
#ifdef TF_F64
#define C_DIV_HUGE 4.4942328371557898e307lf  // 2^1021
#else
#define C_DIV_HUGE 4.2535295865117308e37  // 2^125
#endif
T c_div(T a, T b) {
  if (max(abs(b.x), abs(b.y)) >= C_DIV_HUGE) {
    a *= R(0.25);
    b *= R(0.25);
  }
  if (abs(b.x) >= abs(b.y)) {
    if (b.x == R(0) && b.y == R(0)) return T(a.x / b.x, a.y / b.x);  // IEEE inf/nan as 1/0
    R r = b.y / b.x, d = b.x + b.y * r;
    return T((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  R r = b.x / b.y, d = b.y + b.x * r;
  return T((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}

// |z| without overflow in the squares (hypot).
R c_abs(T a) {
  R m = max(abs(a.x), abs(a.y));
  if (isinf(a.x) || isinf(a.y)) return R(1) / R(0);
  if (m == R(0) || isnan(m)) return m + abs(a.x) + abs(a.y);
  R u = a.x / m, v = a.y / m;
  return m * sqrt(u * u + v * v);
}
#endif
