#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[o] = OP over the reduced indices of chunk g of x[o, r] (operand 0 = out, 1 = x);
// push constants = KernelParams (common/params.h) with the block of reduce/reduce.h; OP = TF_OP_REDUCE_* (common/params.h).
// Workgroup (256 invocations) = COLS outputs x LANES lanes; each lane folds a strided share of
// the chunk, lanes combine by a shared-memory tree. Integers wrap; float max/min propagate NaN.
#include "reduce/reduce_head.glsl"

void tf_reduce_prepare() {}
T tf_reduce_load(IDX off) { return load_T(p.addr[1], off); }

#include "reduce/reduce_main.glsl"
