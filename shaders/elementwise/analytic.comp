#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = OP(x[i]) for the analytic family (operand 0 = out, 1 = x); OP = spec
// constant 1 (TF_OP_<NAME>, common/params.h). Push constants = KernelParams (common/params.h).
// TF_CONTIG: the contiguous fast path (common/index.glsl), 4 elements per invocation.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int OP = 0;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"
#include "common/complex.glsl"
#ifdef TF_F64
#include "common/math_f64.glsl"
#else
#include "common/math_f32.glsl"
#endif

#include "elementwise/analytic.glsl"

#ifdef TF_CONTIG
void tf_elem(uint i) { store_T(p.addr[0], int(i), analytic_op_k(OP, load_T(p.addr[1], int(tf_ci(1u, i))))); }
void tf_vec(uint i) {
  T x[4];
  tf_in4_T(1u, i, x);
  for (int k = 0; k < 4; ++k) x[k] = analytic_op_k(OP, x[k]);
  store4_T(p.addr[0], i, x);
}
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  TF_FOR_EACH_ELEMENT(i, 2u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 2u, o);
    store_T(p.addr[0], o[0], analytic_op_k(OP, load_T(p.addr[1], o[1])));
  }
}
#endif
