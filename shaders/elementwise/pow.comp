#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = pow(lhs[i], rhs[i]) for F64, C32, C64 through the shader math library
// (operands 0 = out, 1 = lhs, 2 = rhs); push constants = KernelParams (common/params.h). pow_f32
// (devices with shaderFloat64) and the c32 "w" variant are DT_F64 / DT_C64 with TF_F32_STORAGE
// (types.glsl): the f64 pow of the exactly widened operands, rounded once to float (the double
// result's error ~1 ulp of double, so the float is the correctly rounded one but for rare
// near-halfway cases; overflow to inf and subnormal results by the rounding).
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"
#include "common/complex.glsl"
#ifdef TF_F64
#include "common/math_f64.glsl"
#else
#include "common/math_f32.glsl"
#endif
#ifdef TF_KIND_COMPLEX
#include "common/math_complex.glsl"
T pow_op(T a, T b) { return cm_pow(a, b); }
#else
T pow_op(T a, T b) { return m_pow(a, b); }
#endif

void main() {
  TF_FOR_EACH_ELEMENT(i, 3u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 3u, o);
    store_T(p.addr[0], o[0], pow_op(load_T(p.addr[1], o[1]), load_T(p.addr[2], o[2])));
  }
}
