#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = lhs[i] DIR rhs[i] as Bool (operands 0 = out Bool, 1 = lhs, 2 = rhs);
// DIR = spec constant 1 (TF_CMP_*). Push constants = KernelParams (common/params.h).
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
  TF_FOR_EACH_ELEMENT(i, 3u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 3u, o);
    store_bool(p.addr[0], o[0], compare_op(load_T(p.addr[1], o[1]), load_T(p.addr[2], o[2])));
  }
}
