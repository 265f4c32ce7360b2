#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = OP(x[i]) (operand 0 = out, 1 = x); OP = specialization constant 1.
// Push constants = KernelParams (common/params.h). ABS_COMPLEX: out has the real type R.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int OP = 0;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"
#include "common/errors.glsl"
#include "common/complex.glsl"
#include "elementwise/ops.glsl"

#ifdef TF_CONTIG
#ifdef ABS_COMPLEX
void tf_elem(uint i) { store_R(p.addr[0], int(i), c_abs(load_T(p.addr[1], int(tf_ci(1u, i))))); }
void tf_vec(uint i) {
  T x[4];
  tf_in4_T(1u, i, x);
  R y[4];
  for (int k = 0; k < 4; ++k) y[k] = c_abs(x[k]);
  store4_R(p.addr[0], i, y);
}
#else
void tf_elem(uint i) { store_T(p.addr[0], int(i), unary_op(load_T(p.addr[1], int(tf_ci(1u, i))))); }
void tf_vec(uint i) {
  T x[4];
  tf_in4_T(1u, i, x);
  for (int k = 0; k < 4; ++k) x[k] = unary_op(x[k]);
  store4_T(p.addr[0], i, x);
}
#endif
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  TF_FOR_EACH_ELEMENT(i, 2u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 2u, o);
#ifdef ABS_COMPLEX
    store_R(p.addr[0], o[0], c_abs(load_T(p.addr[1], o[1])));
#else
    store_T(p.addr[0], o[0], unary_op(load_T(p.addr[1], o[1])));
#endif
  }
}
#endif
