// Parameter block of the gather / scatter kernels (shaders/indexing/*.comp), shared by GLSL and
// src/vulkan/kernels/indexing.cpp. Push constants stay KernelParams (common/params.h); its
// `layout_addr` points at this block of int64 words instead of an elementwise layout block.
//
// "big" is the tensor with one thread per element: gather's output, scatter's updates. Its
// element i splits (window-inner first) into a window index r < win_numel and a batch index w.
//   header [0, TF_IX_HEADER)        counts, offsets, flags (below)
//   batch axes   x n_batch: extent, big stride, indices stride, operand stride (batching dim, else 0)
//   window axes  x n_win:   extent, operand stride, big stride (jointly coalesced; with
//                            TF_IX_SKIP one per windowed operand dim), then the index-vector
//                            slot of that dim (-1: none) and the dim's extent
//   index vector x ivec_len: operand stride of the mapped dim, room = dim - window extent,
//                            1 when a window axis covers the dim (TF_IX_SKIP checks it per element)
// Strides are in elements and may be negative or zero; offsets are the views' element offsets.
#ifndef TENFERRO_SHADERS_INDEXING_INDEXING_PARAMS_H
#define TENFERRO_SHADERS_INDEXING_INDEXING_PARAMS_H

#define TF_IX_N_BATCH 0
#define TF_IX_N_WIN 1
#define TF_IX_IVEC_LEN 2
#define TF_IX_IVEC_STRIDE 3   // stride of the index vector in the indices tensor (0 if implicit)
#define TF_IX_BIG_OFFSET 4
#define TF_IX_IDX_OFFSET 5
#define TF_IX_OP_OFFSET 6
#define TF_IX_FLAGS 7
#define TF_IX_WIN_NUMEL 8     // > 0
#define TF_IX_LOCK_MASK 9     // scatter: lock table size - 1 (power of two), else 0
#define TF_IX_HEADER 10

#define TF_IX_BATCH_WORDS 4
#define TF_IX_WIN_WORDS 5
#define TF_IX_IVEC_WORDS 3

// Flag bits.
#define TF_IX_SKIP 1       // scatter: elements outside the operand are dropped (else windows clamped)
#define TF_IX_INDEX_I64 2  // indices are I64 (else I32)

// Scatter combiners (specialization constant 1).
#define TF_SC_ADD 0
#define TF_SC_REPLACE 1
#define TF_SC_MUL 2
#define TF_SC_MAX 3
#define TF_SC_MIN 4
#define TF_SC_FENCES 8   // OR-ed in: memory barriers inside the spin lock (scatter.comp)
#define TF_SC_UNIQUE 16  // OR-ed in: one window, so no element is targeted twice

#endif  // TENFERRO_SHADERS_INDEXING_INDEXING_PARAMS_H
