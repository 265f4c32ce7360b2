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

void main() {
  TF_FOR_EACH_ELEMENT(i, 2u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 2u, o);
    store_T(p.addr[0], o[0], load_T(p.addr[1], o[1]));
  }
}
