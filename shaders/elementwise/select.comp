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

void main() {
  TF_FOR_EACH_ELEMENT(i, 4u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 4u, o);
    const bool pred = load_bool(p.addr[1], o[1]);
    store_T(p.addr[0], o[0], pred ? load_T(p.addr[2], o[2]) : load_T(p.addr[3], o[3]));
  }
}
