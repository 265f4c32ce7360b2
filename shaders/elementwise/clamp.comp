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

void main() {
  TF_FOR_EACH_ELEMENT(i, 4u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 4u, o);
    T x = load_T(p.addr[1], o[1]);
    store_T(p.addr[0], o[0], op_min(op_max(x, load_T(p.addr[2], o[2])), load_T(p.addr[3], o[3])));
  }
}
