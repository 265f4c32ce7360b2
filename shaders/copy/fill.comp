#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = value for every element of the output view (operand 0); raw bits.
// Push constants = KernelParams (common/params.h): addr[0], layout, numel, value. DT_B{1,4,8,16}.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"

T fill_value() {
#if defined(DT_B1)
  return uint8_t(uint(p.value[0] & 0xfful));
#elif defined(DT_B4)
  return uint(p.value[0] & 0xfffffffful);
#elif defined(DT_B8)
  return unpackUint2x32(p.value[0]);
#else
  return uvec4(unpackUint2x32(p.value[0]), unpackUint2x32(p.value[1]));
#endif
}

#ifdef TF_CONTIG
void tf_elem(uint i) { store_T(p.addr[0], int(i), fill_value()); }
void tf_vec(uint i) {
  const T v = fill_value();
  T x[4] = T[4](v, v, v, v);
  store4_T(p.addr[0], i, x);
}
TF_CONTIG_MAIN(tf_elem, tf_vec)
#else
void main() {
  T v = fill_value();
  TF_FOR_EACH_ELEMENT(i, 1u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 1u, o);
    store_T(p.addr[0], o[0], v);
  }
}
#endif
