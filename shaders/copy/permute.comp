#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// Contract: dst[i] = src[i] (operand 0 = dst view, operand 1 = src view), raw bits, for jointly
// coalesced layouts of rank >= 2 whose element offsets fit 32-bit indexing. DT_B{1,4,8,16}.
// Host side and the parameter block: record_permute in src/vulkan/kernels/dispatch.cpp.
//
// The axes are split into three groups: A (dst's fastest axes), B (src's fastest axes, or in
// direct mode dst's next fastest ones) and R (the rest). The index spaces of A and B are cut
// into pieces of TA and TB indices (powers of two, TA * TB = 1024: 32 x 32, or e.g. 256 x 4
// when B has only 3 indices; direct mode: up to 256 x 64, four loads in flight per
// invocation); one workgroup (256 invocations) copies a TA x TB tile for one
// index of R, looping over tiles. Per tile, the invocations decompose the tile's A and B
// indices into element offsets (tables in shared memory) and the R index into base offsets;
// per element the offsets are two table reads and adds. Transposed mode (src's fastest axis
// outside A): reads walk B first (coalesced in src) into a shared tile, writes walk A first
// (coalesced in dst). Direct mode: reads and writes both walk A first.
//
// A workgroup takes one A tile, one B tile and a chunk of up to RC (<= 64) indices of R: the
// offset tables and the chunk's base offsets are built once per chunk; in transposed mode
// the loads of the next R index are in flight while the current tile is written.
//
// Parameter block (int64 words at p.layout_addr):
//   [0] nA [1] nB [2] nR [3] extA [4] extB [5] tilesA [6] tilesB [7] groups (tilesA * tilesB
//   * chunks) [8] direct (as TF_PERMUTE_DIRECT) [9] dst offset [10] src offset [11] log2 TA [12] log2 TB [13] extent
//   of R [14] RC, then per axis (A axes, B axes, R axes; each group fastest first): extent,
//   dst stride, src stride.
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x = 256) in;
// Direct mode (1) or transposed mode (0), a specialization constant (Launch::aux) so that each
// mode's pipeline holds only its own code and registers.
layout(constant_id = 2) const uint TF_PERMUTE_DIRECT = 0u;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer PermRef {
  int64_t v[];
};

#if TF_SIZE == 1
#define ST uint
ST to_st(T x) { return uint(x); }
T from_st(ST x) { return uint8_t(x); }
#else
#define ST T
ST to_st(T x) { return x; }
T from_st(ST x) { return x; }
#endif

shared ST tile[1024 + 256];  // TA rows of TB + 1 (padding against bank conflicts), TA <= 256
shared int tab[4][256];      // A dst, A src, B dst, B src offsets of the tile's TA and TB indices
shared ivec2 base_off[64];   // (dst, src) base offsets of the chunk's R indices (RC <= 64)

// Offsets (dst, src) of index `idx` of the mixed-radix group of `n` axes starting at word `w`.
ivec2 group_offsets(PermRef L, uint w, uint n, int idx) {
  ivec2 o = ivec2(0);
  for (uint k = 0u; k < n; ++k) {
    const int e = int(L.v[w + 3u * k]);
    const int c = idx % e;
    idx /= e;
    o += c * ivec2(int(L.v[w + 3u * k + 1u]), int(L.v[w + 3u * k + 2u]));
  }
  return o;
}

// Transposed mode: invocation li's four elements of the tile in B-major order (coalesced in
// src), read from src at base offset bs; elements outside the tile's na x nb are left alone.
void load_b_major(int bs, uint na, uint nb, uint TB, uint lb, inout T v[4]) {
  [[unroll]] for (uint j = 0u; j < 4u; ++j) {
    const uint e = gl_LocalInvocationID.x + j * gl_WorkGroupSize.x, ib = e & (TB - 1u), ia = e >> lb;
    if (ia < na && ib < nb) v[j] = load_T(p.addr[1], bs + tab[1][ia] + tab[3][ib]);
  }
}

void main() {
  PermRef L = PermRef(p.layout_addr);
  const uint nA = uint(L.v[0]), nB = uint(L.v[1]), nR = uint(L.v[2]);
  const int extA = int(L.v[3]), extB = int(L.v[4]);
  const int tilesA = int(L.v[5]), tilesB = int(L.v[6]), ngroups = int(L.v[7]);
  const bool direct = TF_PERMUTE_DIRECT != 0u;
  const uint la = uint(L.v[11]), lb = uint(L.v[12]);
  const int batch = int(L.v[13]), RC = int(L.v[14]);
  const uint TA = 1u << la, TB = 1u << lb, TE = TA * TB;
  const uint wA = 15u, wB = wA + 3u * nA, wR = wB + 3u * nB;
  const uint li = gl_LocalInvocationID.x, nthreads = gl_WorkGroupSize.x;

  // One (A tile, B tile) and a chunk of up to RC indices of R per iteration: the offset
  // tables and the chunk's base offsets are built once, then the tile is copied for each R
  // index of the chunk.
  for (int g = int(gl_WorkGroupID.x); g < ngroups; g += int(gl_NumWorkGroups.x)) {
    const int ta = g % tilesA, rest = g / tilesA;
    const int tb = rest % tilesB, r0 = (rest / tilesB) * RC;
    const int nr = min(RC, batch - r0);
    for (uint k = li; k < TA + TB + uint(nr); k += nthreads) {
      if (k < TA + TB) {
        const bool isA = k < TA;
        const uint kk = isA ? k : k - TA;
        const int idx = (isA ? ta * int(TA) : tb * int(TB)) + int(kk);
        const ivec2 o = idx < (isA ? extA : extB) ? group_offsets(L, isA ? wA : wB, isA ? nA : nB, idx) : ivec2(0);
        tab[isA ? 0 : 2][kk] = o.x;
        tab[isA ? 1 : 3][kk] = o.y;
      } else {
        const int r = int(k - TA - TB);
        base_off[r] = ivec2(int(L.v[9]), int(L.v[10])) + group_offsets(L, wR, nR, r0 + r);
      }
    }
    barrier();
    const uint na = uint(min(int(TA), extA - ta * int(TA))), nb = uint(min(int(TB), extB - tb * int(TB)));
    if (direct) {  // tiles of up to 256 x 64: four loads in flight per invocation
      for (int r = 0; r < nr; ++r) {
        const int bd = base_off[r].x, bs = base_off[r].y;
        for (uint e0 = li; e0 < TE; e0 += 4u * nthreads) {
          T v[4];
          [[unroll]] for (uint j = 0u; j < 4u; ++j) {
            const uint e = e0 + j * nthreads, ia = e & (TA - 1u), ib = e >> la;
            if (e < TE && ia < na && ib < nb) v[j] = load_T(p.addr[1], bs + tab[1][ia] + tab[3][ib]);
          }
          [[unroll]] for (uint j = 0u; j < 4u; ++j) {
            const uint e = e0 + j * nthreads, ia = e & (TA - 1u), ib = e >> la;
            if (e < TE && ia < na && ib < nb) store_T(p.addr[0], bd + tab[0][ia] + tab[2][ib], v[j]);
          }
        }
      }
    } else {
      // Transposed: the four elements of each invocation for R index r + 1 are loaded into
      // registers while the shared tile of r is written out (TE == 1024 == 4 * 256).
      T v[4];
      load_b_major(base_off[0].y, na, nb, TB, lb, v);
      for (int r = 0; r < nr; ++r) {
        [[unroll]] for (uint j = 0u; j < 4u; ++j) {
          const uint e = li + j * nthreads, ib = e & (TB - 1u), ia = e >> lb;
          if (ia < na && ib < nb) tile[ia * (TB + 1u) + ib] = to_st(v[j]);
        }
        barrier();
        if (r + 1 < nr) load_b_major(base_off[r + 1].y, na, nb, TB, lb, v);
        const int bd = base_off[r].x;
        [[unroll]] for (uint j = 0u; j < 4u; ++j) {
          const uint e = li + j * nthreads, ia = e & (TA - 1u), ib = e >> la;
          if (ia < na && ib < nb) store_T(p.addr[0], bd + tab[0][ia] + tab[2][ib], from_st(tile[ia * (TB + 1u) + ib]));
        }
        barrier();  // the tile is rewritten for the next R index
      }
    }
    barrier();  // the tables are rewritten for the next iteration
  }
}
