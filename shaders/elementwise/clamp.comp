#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = min(max(x[i], lower[i]), upper[i]) with NaN propagation (operands 0 = out,
// 1 = x, 2 = lower, 3 = upper); ordered dtypes. Push constants = KernelParams (params.h).
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
  T x = load_T(p.addr[1], int(tf_ci(1u, i)));
  store_T(p.addr[0], int(i),
          op_min(op_max(x, load_T(p.addr[2], int(tf_ci(2u, i)))), load_T(p.addr[3], int(tf_ci(3u, i)))));
}
void tf_vec(uint i) {
  T x[4], lo[4], hi[4];
  tf_in4_T(1u, i, x);
  tf_in4_T(2u, i, lo);
  tf_in4_T(3u, i, hi);
  for (int k = 0; k < 4; ++k) x[k] = op_min(op_max(x[k], lo[k]), hi[k]);
  store4_T(p.addr[0], i, x);
}
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  TF_FOR_EACH_ELEMENT(i, 4u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 4u, o);
    T x = load_T(p.addr[1], o[1]);
    store_T(p.addr[0], o[0], op_min(op_max(x, load_T(p.addr[2], o[2])), load_T(p.addr[3], o[3])));
  }
}
#endif
