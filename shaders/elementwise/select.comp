#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = pred[i] ? on_true[i] : on_false[i] (operands 0 = out, 1 = pred Bool,
// 2 = on_true, 3 = on_false); raw bits DT_B{1,4,8,16}. Push constants = KernelParams.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"

#ifdef TF_CONTIG
void tf_elem(uint i) {
  const bool pred = load_bool(p.addr[1], int(tf_ci(1u, i)));
  store_T(p.addr[0], int(i), pred ? load_T(p.addr[2], int(tf_ci(2u, i))) : load_T(p.addr[3], int(tf_ci(3u, i))));
}
void tf_vec(uint i) {
  uint8_t c[4];
  T a[4], b[4];
  tf_in4_Bool(1u, i, c);
  tf_in4_T(2u, i, a);
  tf_in4_T(3u, i, b);
  for (int k = 0; k < 4; ++k) a[k] = uint(c[k]) != 0u ? a[k] : b[k];
  store4_T(p.addr[0], i, a);
}
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  TF_FOR_EACH_ELEMENT(i, 4u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 4u, o);
    const bool pred = load_bool(p.addr[1], o[1]);
    store_T(p.addr[0], o[0], pred ? load_T(p.addr[2], o[2]) : load_T(p.addr[3], o[3]));
  }
}
#endif
