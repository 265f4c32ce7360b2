#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = operand[clamped window start(i) + window offset(i)], raw bits (DT_B1/4/8/16);
// operand 0 = out, 1 = operand, 2 = indices (I32/I64). Push constants = KernelParams, layout_addr = indexing block.
#include "common/types.glsl"
#include "common/params.h"
#include "indexing/indexing_params.h"
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "indexing/indexing.glsl"

void main() {
  for (IDX i = IDX(gl_GlobalInvocationID.x); i < IDX(p.numel); i += IDX(gl_NumWorkGroups.x) * IDX(gl_WorkGroupSize.x)) {
    IDX oo, bo;
    ix_locate(i, p.addr[2], oo, bo);
    store_T(p.addr[0], bo, load_T(p.addr[1], oo));
  }
}
