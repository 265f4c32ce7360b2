// The reduce kernel's declarations (reduce.comp; the generated fused reductions of
// src/vulkan/kernels/fused.cpp include it too): element type, push constants, the block of
// reduce/reduce.h and OP, specialization constant 1 (TF_OP_REDUCE_*).
#include "common/types.glsl"
#include "common/params.h"
#include "reduce/reduce.h"
layout(local_size_x_id = 0) in;  // must be TF_RED_WORKGROUP
layout(constant_id = 1) const int OP = TF_OP_REDUCE_SUM;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/complex.glsl"
#include "common/minmax.glsl"

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer BlockRef {
  int64_t v[];
};
