// Constants of the reduce kernel, shared by shaders/reduce/reduce.comp and
// src/vulkan/kernels/reduce.cpp. Push constants are the common KernelParams (addr[0] = out,
// addr[1] = x, layout_addr = the block below, tag = OpId + 1); the op is specialization
// constant 1 (TF_OP_REDUCE_*, common/params.h).
//
// Block (int64 words at layout_addr):
//   [TF_RB_O] outputs O        [TF_RB_N] reduced count N   [TF_RB_CHUNK] reduced elements per chunk
//   [TF_RB_COLS] outputs per workgroup   [TF_RB_LANES] lanes per output (COLS * LANES = 256)
//   [TF_RB_LANES_FAST] 1: lanes of one output are adjacent invocations, 0: outputs are
//   [TF_RB_X0] x offset   [TF_RB_O0] out offset   [TF_RB_GSTRIDE] out offset step per chunk g
//   [TF_RB_KR] kept rank  [TF_RB_RR] reduced rank (>= 1)
//   then kept axes (extent, x stride, out stride) x KR, then reduced axes (extent, x stride) x RR.
// When RR > 1, CHUNK is a multiple of the extent of reduced axis 0 (chunks hold whole rows).
// Output o (colex over kept axes) of chunk g = workgroup y reduces reduced indices
// [g * CHUNK, min(N, (g + 1) * CHUNK)) into out[O0 + g * GSTRIDE + sum_k o_k * so_k].
#ifndef TENFERRO_SHADERS_REDUCE_REDUCE_H
#define TENFERRO_SHADERS_REDUCE_REDUCE_H

#define TF_RB_O 0
#define TF_RB_N 1
#define TF_RB_CHUNK 2
#define TF_RB_COLS 3
#define TF_RB_LANES 4
#define TF_RB_LANES_FAST 5
#define TF_RB_X0 6
#define TF_RB_O0 7
#define TF_RB_GSTRIDE 8
#define TF_RB_KR 9
#define TF_RB_RR 10
#define TF_RB_AXES 11

#define TF_RED_WORKGROUP 256

#endif  // TENFERRO_SHADERS_REDUCE_REDUCE_H
