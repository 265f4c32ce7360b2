// The analytic family for one element type T (types.glsl): analytic_op_k(op, x) with op a
// TF_OP_<NAME> code (exp log sin cos tanh sqrt rsqrt expm1 log1p; erf on reals). Requires the
// math library of T (common/math_f32.glsl, or math_f64.glsl with TF_F64) and, for complex T,
// common/complex.glsl. Included by analytic.comp (op = its specialization constant) and by the
// generated fused kernels (a literal per step).
#ifdef TF_F32_STORAGE
// exp of an f32 operand for a result rounded to f32 (the real "w" variant): x = k ln2 + r with
// |r| <= ln2 / 2 (ln2 in two parts, k ln2_hi exact), e^r by its Taylor polynomial to r^11
// (truncation below 2^-47 relative) and the exact scaling by 2^k; the one rounding to f32 is
// the store's. With m_exp's full f64 accuracy (a division per element) the wide exp took 1.33x
// the f32 kernel's time on the H200, with this 1.02x (exp, f32 2^28 elements, tenferro_bench_vk).
// Results beyond f32's range: inf, or 0 below 2^-150.
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
#define TF_EXP w_exp
#else
#define TF_EXP m_exp
#endif

#ifdef TF_KIND_COMPLEX
#include "common/math_complex.glsl"
T analytic_op_k(int op, T z) {
  switch (op) {
    case TF_OP_EXP: return cm_exp(z);
    case TF_OP_LOG: return cm_log(z);
    case TF_OP_SIN: return cm_sin(z);
    case TF_OP_COS: return cm_cos(z);
    case TF_OP_TANH: return cm_tanh(z);
    case TF_OP_SQRT: return cm_sqrt(z);
    case TF_OP_RSQRT: return cm_rsqrt(z);
    case TF_OP_EXPM1: return cm_expm1(z);
    case TF_OP_LOG1P: return cm_log1p(z);
  }
  return z;  // erf: not in the contract for complex (supports_analytic says no)
}
#else
T analytic_op_k(int op, T x) {
  R s, c;
  switch (op) {
    case TF_OP_EXP: return TF_EXP(x);
    case TF_OP_LOG: return m_log(x);
    case TF_OP_SIN: m_sincos(x, s, c); return s;
    case TF_OP_COS: m_sincos(x, s, c); return c;
    case TF_OP_TANH: return m_tanh(x);
    case TF_OP_SQRT: return m_sqrt(x);
    case TF_OP_RSQRT: return m_rsqrt(x);
    case TF_OP_EXPM1: return m_expm1(x);
    case TF_OP_LOG1P: return m_log1p(x);
    case TF_OP_ERF: return m_erf(x);
  }
  return x;
}
#endif
