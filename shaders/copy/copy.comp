#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = in[i] (operand 0 = dst view, operand 1 = src view), raw bits, any strides.
// Push constants = KernelParams (common/params.h). DT_B{1,4,8,16}.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"

#ifdef TF_CONTIG
void tf_elem(uint i) { store_T(p.addr[0], int(i), load_T(p.addr[1], int(tf_ci(1u, i)))); }
void tf_vec(uint i) {
  T x[4];
  tf_in4_T(1u, i, x);
  store4_T(p.addr[0], i, x);
}
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  TF_FOR_EACH_ELEMENT(i, 2u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 2u, o);
    store_T(p.addr[0], o[0], load_T(p.addr[1], o[1]));
  }
}
#endif
