#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = OP(lhs[i], rhs[i]) (operands 0 = out, 1 = lhs, 2 = rhs); OP = spec
// constant 1. Push constants = KernelParams (common/params.h). Integer div/rem by zero and
// negative integer exponents set the device error word.
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
void tf_elem(uint i) {
  store_T(p.addr[0], int(i),
          binary_op(load_T(p.addr[1], int(tf_ci(1u, i))), load_T(p.addr[2], int(tf_ci(2u, i)))));
}
void tf_vec(uint i) {
  T a[4], b[4];
  tf_in4_T(1u, i, a);
  tf_in4_T(2u, i, b);
  for (int k = 0; k < 4; ++k) a[k] = binary_op(a[k], b[k]);
  store4_T(p.addr[0], i, a);
}
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  TF_FOR_EACH_ELEMENT(i, 3u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 3u, o);
    store_T(p.addr[0], o[0], binary_op(load_T(p.addr[1], o[1]), load_T(p.addr[2], o[2])));
  }
}
#endif
