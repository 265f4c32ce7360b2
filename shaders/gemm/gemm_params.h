// Push constants of the gemm kernels (shaders/gemm/gemm.comp), included by GLSL and C++
// (src/vulkan/kernels/gemm/gemm.cpp). C[m,n,b] = alpha * sum_k op(A)[m,k,b] op(B)[k,n,b] + beta*C.
//
// a, b, c: device address of element (0,0,0) of each operand (the view offset folded in; the
// other elements may lie below it when strides are negative). dims: int64 block written by
// upload_params: [M, N, K, B, A strides (m,k,b), B strides (k,n,b), C strides (m,n,b)] in
// elements, then the split-K words [k per split (Kc), element stride of C per split z,
// number of splits S], then a chained C's words (gemm_chains.glsl; read by the TFG_SCHED_CHAINS
// and TFG_SMALL_CHAINS pipelines only): 16-18 the first three chains' extents of the m group,
// 19-21 its last three chains' strides (the first's is C's m stride), 22-27 the same for n,
// 28 the batch group's first chain extent, 29 its second chain's stride. alpha/beta: raw bits (re, im); f32/c32 keep float bits in the low word.
// The tile, the operands' load modes and the kernel options are specialization constant 1
// (TFG_SHIFT_*, TFG_A_*, TFG_B_*, TFG_OPT_*: they shape the hot loop); conjugation and C's
// handling are runtime `flags` (TFG_CONJ_*, TFG_READ_C, TFG_C_VEC), which keeps the number of
// pipelines small.
//
// Split K: workgroup z of a dispatch sums k in [z*Kc, min(K, (z+1)*Kc)) and writes its C tile
// at c + z * (split stride); a non-split dispatch has Kc = K, stride 0 and one z. The partial
// sums are then added by the TFG_OPT_REDUCE pass: a = the partials (compact [M,N,B] per split,
// split stride apart), c = C: C = alpha * sum_z partial_z (+ beta * C).
#ifndef TENFERRO_SHADERS_GEMM_GEMM_PARAMS_H
#define TENFERRO_SHADERS_GEMM_GEMM_PARAMS_H

#ifdef __cplusplus
#include <cstdint>
namespace tenferro::vk {
using tfg_u64 = std::uint64_t;
using tfg_u32 = std::uint32_t;
#else
#define tfg_u64 uint64_t
#define tfg_u32 uint
#endif

#define TFG_DIMS_WORDS 30

// Specialization constant 1 (a 32-bit word): log2 of the tile extents and load modes.
#define TFG_SHIFT_BM 0    // 4 bits: log2 BM (workgroup tile rows)
#define TFG_SHIFT_BN 4    // 4 bits: log2 BN (workgroup tile columns)
#define TFG_SHIFT_BK 8    // 4 bits: log2 BK (K slice per shared-memory stage)
#define TFG_SHIFT_TM 12   // 4 bits: log2 TM (rows per thread)
#define TFG_SHIFT_TN 16   // 4 bits: log2 TN (columns per thread)
#define TFG_A_ALONG_K 0x100000   // load A along k (A's k stride is 1), else along m
#define TFG_A_VEC 0x200000       // 16-byte loads of A along its load axis are aligned
#define TFG_B_ALONG_N 0x400000   // load B along n (B's n stride is 1), else along k
#define TFG_B_VEC 0x800000       // 16-byte loads of B along its load axis are aligned
// Kernel options (specialization constant 1 as well; src/vulkan/kernels/gemm/config.hpp).
#define TFG_OPT_WARP 0x1000000    // warp-tiled thread mapping: 32 lanes own 8 (m) x 4 (n) threads
#define TFG_OPT_WARP_T 0x2000000  // with TFG_OPT_WARP: 4 (m) x 8 (n) threads per warp instead
#define TFG_OPT_FAST 0x4000000    // unguarded loads for full slices of interior tiles
#define TFG_OPT_SINGLE 0x8000000  // one shared buffer (two barriers per slice, half the memory)
#define TFG_OPT_REDUCE 0x10000000 // the split-K reduction pass (not a gemm tile)
#define TFG_OPT_REGDB 0x20000000u // double-buffered register fragments (shared reads of k+1 before the FMAs of k)
#define TFG_OPT_GROUP 0x40000000u // tile order: groups of 8 tiles along m, then n (L2 reuse)
#define TFG_OPT_NOPAD 0x80000000u // shared rows unpadded; XOR swizzle of the words where stores transpose
#define TFG_OPT_MASK 0xFF000000u
// Specialization constant 2 (the schedule word; src/vulkan/kernels/gemm/gemm.cpp).
#define TFG_SCHED_ROLL 3u      // 2 bits: 0 = slice k loop unrolled, r = rolled by 2^(r-1) steps
#define TFG_SCHED_INTERIOR 4u  // interior tiles: full slices in a branch-free loop (needs FAST)
#define TFG_SCHED_LEAN 8u      // with INTERIOR: one address per operand in that loop (uniform slot steps)
#define TFG_SCHED_PAIR 16u     // with WARP: lane pairs share A rows (n, n^1) and B columns (n, n^2)
#define TFG_SCHED_CHAINS 32u   // a chained C (words 16-29; element stores)
#define TFG_SCHED_CHAINS_WIDE 64u  // with CHAINS: a group of 2^31 elements or more (64-bit divisions)
#define TFG_SCHED_STAGE 128u   // C's tile leaves through shared memory: consecutive lanes, consecutive elements
#define TFG_SCHED_STAGE_N 256u  // with STAGE: consecutive lanes along n (C's n stride is the smaller)
// gemm_small.comp's specialization constant 1: bit 0 64-bit indices, bit 1 four rows per
// invocation, and
#define TFG_SMALL_CHAINS 4u    // a chained C
#define TFG_SMALL_CHAINS_WIDE 8u  // with CHAINS: a group of 2^31 elements or more
// Runtime flags (GemmParams::flags; a separate word, the values overlap TFG_OPT_* on purpose).
#define TFG_CONJ_A 0x1000000
#define TFG_CONJ_B 0x2000000
#define TFG_READ_C 0x4000000     // beta != 0: C is read (never read when beta == 0)
#define TFG_C_VEC 0x8000000      // C's m stride is 1 and 16-byte stores along m are aligned

struct GemmParams {
  tfg_u64 a, b, c;
  tfg_u64 dims;
  tfg_u64 alpha[2];
  tfg_u64 beta[2];
  tfg_u32 flags;  // TFG_CONJ_A | TFG_CONJ_B | TFG_READ_C | TFG_C_VEC
  tfg_u32 pad;
};

#ifdef __cplusplus
static_assert(sizeof(GemmParams) == 72 && sizeof(GemmParams) <= 128);
}  // namespace tenferro::vk
#else
#undef tfg_u64
#undef tfg_u32
#endif

#endif  // TENFERRO_SHADERS_GEMM_GEMM_PARAMS_H
