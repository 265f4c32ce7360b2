// The analytic family for one element type T (types.glsl): analytic_op_k(op, x) with op a
// TF_OP_<NAME> code (exp log sin cos tanh sqrt rsqrt expm1 log1p; erf on reals). Requires the
// math library of T (common/math_f32.glsl, or math_f64.glsl with TF_F64) and, for complex T,
// common/complex.glsl. Included by analytic.comp (op = its specialization constant) and by the
// generated fused kernels (a literal per step).
#if defined(TF_F32_STORAGE) && !defined(TF_KIND_COMPLEX)
// The real f32 "w" variant: f32 operands and results, dedicated double evaluations accurate to
// the f32 result (analytic_wide.glsl) instead of the full-f64 ones.
#include "elementwise/analytic_wide.glsl"
#define TF_EXP w_exp
#define TF_LOG w_log
#define TF_SINCOS w_sincos
#define TF_TANH w_tanh
#define TF_SQRT w_sqrt
#define TF_RSQRT w_rsqrt
#define TF_EXPM1 w_expm1
#define TF_LOG1P w_log1p
#define TF_ERF w_erf
#else
#define TF_EXP m_exp
#define TF_LOG m_log
#define TF_SINCOS m_sincos
#define TF_TANH m_tanh
#define TF_SQRT m_sqrt
#define TF_RSQRT m_rsqrt
#define TF_EXPM1 m_expm1
#define TF_LOG1P m_log1p
#define TF_ERF m_erf
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
    case TF_OP_LOG: return TF_LOG(x);
    case TF_OP_SIN: TF_SINCOS(x, s, c); return s;
    case TF_OP_COS: TF_SINCOS(x, s, c); return c;
    case TF_OP_TANH: return TF_TANH(x);
    case TF_OP_SQRT: return TF_SQRT(x);
    case TF_OP_RSQRT: return TF_RSQRT(x);
    case TF_OP_EXPM1: return TF_EXPM1(x);
    case TF_OP_LOG1P: return TF_LOG1P(x);
    case TF_OP_ERF: return TF_ERF(x);
  }
  return x;
}
#endif
