#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: ozaki_mm.comp's (the same planes, the same result), on NVIDIA's tensor cores through
// VK_NV_cooperative_matrix (16 x 16 x 32 u8 -> u32; only where the device lists that shape).
// Workgroup: 256 invocations (8 subgroups of 32, 2 along m x 4 along n), a 128 x 128 tile of one
// plane, each subgroup 4 x 2 accumulators of 16 x 16; K in slices of 128 bytes through one
// shared buffer (rows padded by 16 bytes), the next slice's global loads issued after this
// slice's first k step of products. Epilogue: each accumulator element reduced modulo m_l
// (tfo_rem), narrowed to 8 bits and stored column-major. Tiles and planes grid-stride.
// Planes z >= word 9 (certified products: the q planes) store their uint32 sums at word 8
// ([Np][Mp] per plane, m fastest) instead; they sum k < Kq (word 10) only where the int32 at
// word 11 is 0 (dense operands: ozaki.comp's split wrote every second k there). (H200, int8
// products at 4096^3 / 8192^3: 529 / 517 TOPS with the next slice's loads after the first k
// step; 495 / 531-544 with them before the products.)
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_control_flow_attributes : require
#include "gemm/gemm_params.h"
#include "ozaki/ozaki_params.h"

#define WM 2
#define WN 4
#define FM 4
#define FN 2
#define BK 128
#define NT (WM * WN * 32)
#define BM (WM * FM * 16)
#define BN (WN * FN * 16)
#define KW (BK / 16)
#define RW (KW + 1)
#define LA (BM * KW / NT)
#define LB (BN * KW / NT)
layout(local_size_x = NT) in;
layout(push_constant) uniform Push { GemmParams p; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer V4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer W32 { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer I32 { int v; };
shared uvec4 sa[BM * RW];
shared uvec4 sb[BN * RW];
#define ACC ucoopmatNV<32, gl_ScopeSubgroup, 16, 16>

void main() {
  DimsRef D = DimsRef(p.dims);
  const int64_t Mp = D.v[0], Np = D.v[1], Kp = D.v[2], NB = D.v[3], NZ = D.v[4], NZQ = D.v[9];
  const int64_t tiles_m = Mp / BM, tiles = tiles_m * (Np / BN), total = tiles * NZ;
  const uint t = gl_LocalInvocationID.x, warp = t / 32u, wm = warp % WM, wn = warp / WM;
  const uint ukw = uint(Kp / 16);
  const bool dense = NZQ < NZ && I32(uint64_t(D.v[11])).v == 0;
  for (int64_t job = int64_t(gl_WorkGroupID.x); job < total; job += int64_t(gl_NumWorkGroups.x)) {
    const int64_t z = job / tiles, tile = job % tiles, tm = tile % tiles_m, tn = tile / tiles_m;
    const int64_t nk = (z >= NZQ && dense ? D.v[10] : Kp) / BK;
    V4 A = V4(uint64_t(D.v[5]) + uint64_t((z * Mp + tm * BM) * Kp));
    V4 B = V4(uint64_t(D.v[6]) + uint64_t((z * Np + tn * BN) * Kp));
    ACC acc[FM][FN];
    [[unroll]] for (int i = 0; i < FM; ++i) [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = ACC(0);
    uvec4 ra[LA], rb[LB];
    [[unroll]] for (int s = 0; s < LA; ++s) { const uint i = t + s * NT; ra[s] = A.v[(i / KW) * ukw + i % KW]; }
    [[unroll]] for (int s = 0; s < LB; ++s) { const uint i = t + s * NT; rb[s] = B.v[(i / KW) * ukw + i % KW]; }
    for (int64_t kt = 0; kt < nk; ++kt) {
      barrier();  // the previous slice's (or tile's) fragment reads are done
      [[unroll]] for (int s = 0; s < LA; ++s) { const uint i = t + s * NT; sa[(i / KW) * RW + i % KW] = ra[s]; }
      [[unroll]] for (int s = 0; s < LB; ++s) { const uint i = t + s * NT; sb[(i / KW) * RW + i % KW] = rb[s]; }
      barrier();
      [[unroll]] for (uint kk = 0; kk < KW; kk += 2) {
        ucoopmatNV<8, gl_ScopeSubgroup, 16, 32> fa[FM];
        ucoopmatNV<8, gl_ScopeSubgroup, 32, 16> fb[FN];
        [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(fa[i], sa, (wm * FM * 16 + i * 16) * RW + kk, RW, false);
        [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(fb[j], sb, (wn * FN * 16 + j * 16) * RW + kk, RW, true);
        [[unroll]] for (int i = 0; i < FM; ++i) [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAddNV(fa[i], fb[j], acc[i][j]);
        if (kk == 0u && kt + 1 < nk) {  // the next slice's global loads, after the first k step
          const uint k1 = uint(kt + 1) * KW;
          [[unroll]] for (int s = 0; s < LA; ++s) { const uint i = t + s * NT; ra[s] = A.v[(i / KW) * ukw + k1 + i % KW]; }
          [[unroll]] for (int s = 0; s < LB; ++s) { const uint i = t + s * NT; rb[s] = B.v[(i / KW) * ukw + k1 + i % KW]; }
        }
      }
    }
    const int64_t m0 = tm * BM + wm * FM * 16, n0 = tn * BN + wn * FN * 16;
    if (z >= NZQ) {  // a certificate's plane: the uint32 sums as they are
      W32 Q = W32(uint64_t(D.v[8]) + uint64_t((z - NZQ) * Mp * Np * 4));
      [[unroll]] for (int i = 0; i < FM; ++i)
        [[unroll]] for (int j = 0; j < FN; ++j)
          coopMatStoreNV(acc[i][j], Q.v, uint((n0 + j * 16) * Mp + m0 + i * 16), uint(Mp), true);
      continue;
    }
    const uint m = uint(kMod[int(z / NB)]), magic = tfo_magic(m);
    W32 C = W32(uint64_t(D.v[7]) + uint64_t(z * Mp * Np));
    [[unroll]] for (int i = 0; i < FM; ++i)
      [[unroll]] for (int j = 0; j < FN; ++j) {
        ACC r = acc[i][j];
        for (int e = 0; e < r.length(); ++e) r[e] = tfo_rem(r[e], m, magic);
        const ucoopmatNV<8, gl_ScopeSubgroup, 16, 16> r8 = ucoopmatNV<8, gl_ScopeSubgroup, 16, 16>(r);
        coopMatStoreNV(r8, C.v, uint(((n0 + j * 16) * Mp + m0 + i * 16) / 4), uint(Mp / 4), true);
      }
  }
}
