// Chained C (a rank-10 GemmCall::c; gemm_params.h, words 16-29 of the dims block): each free
// group of C in up to four stride chains, the batch group in up to two. Included by gemm.comp
// and gemm_small.comp after DimsRef, for their TFG_SCHED_CHAINS / TFG_SMALL_CHAINS pipelines;
// divmod (common/divmod.glsl) also serves gemm.comp's tile index arithmetic.

#include "common/divmod.glsl"

// divmod of chain indices: 32-bit only unless CHAINS_WIDE (the includer's specialization
// constant; the host sets it for groups of 2^31 elements or more): no 64-bit division code
// (a subroutine on NVIDIA) in the pipelines that do not need it.
void chain_divmod(int64_t a, int64_t b, out int64_t q, out int64_t r) {
  if (CHAINS_WIDE) {
    divmod(a, b, q, r);
  } else {
    const uint ua = uint(a), ub = uint(b), uq = ua / ub;
    q = int64_t(uq);
    r = int64_t(ua - uq * ub);
  }
}

// Offset of index i of a free group: words w .. w+2 the first three chains' extents, w+3 .. w+5
// the last three chains' strides; s0 the first chain's stride.
int64_t chain_offset(DimsRef D, int64_t i, int64_t s0, uint w) {
  int64_t q, r, j, off;
  chain_divmod(i, D.v[w], q, r);
  off = r * s0;
  chain_divmod(q, D.v[w + 1u], j, r);
  off += r * D.v[w + 3u];
  chain_divmod(j, D.v[w + 2u], q, r);
  return off + r * D.v[w + 4u] + q * D.v[w + 5u];
}

// Offset of batch b: word 28 the first chain's extent, 29 the second chain's stride.
int64_t chain_batch_offset(DimsRef D, int64_t b, int64_t s0) {
  int64_t q, r;
  chain_divmod(b, D.v[28], q, r);
  return r * s0 + q * D.v[29];
}
