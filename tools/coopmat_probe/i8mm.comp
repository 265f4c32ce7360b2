#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_control_flow_attributes : require
// Throughput probe (seventeenth session; tools/coopmat_probe/README.md), not a library kernel:
// C (int32, M x N column-major) = A (int8, M x K, K contiguous) * B^T (B: int8, N x K, K
// contiguous) on VK_NV_cooperative_matrix's 16x16x32 s8 -> s32 shape (GL_NV_cooperative_matrix,
// GL_NV_integer_cooperative_matrix: Debian 12's glslang 12 compiles them).
// M % BM == 0, N % BN == 0, K % BK == 0 (the probe's sizes).
// Macros: WM x WN subgroups of 32 per workgroup, each FM x FN 16x16 accumulators (BM = WM FM 16,
// BN = WN FN 16); BK bytes of K per shared stage (rows padded by one 16-byte word); SB one shared
// buffer (two barriers per slice) instead of two; PF the next k step's fragments read before
// this step's products; COMPUTE_ONLY: fragments read once, then only products (the ceiling of
// the products' issue, wrong results by design); GLOBAL with PD: fragments loaded from global
// memory, PD k steps ahead, no shared memory; LATE (with SB, without PF): the next slice's
// global loads after this slice's first k step (eighteenth session).
#ifndef WM
#define WM 2
#endif
#ifndef WN
#define WN 2
#endif
#ifndef FM
#define FM 4
#endif
#ifndef FN
#define FN 4
#endif
#ifndef BK
#define BK 64
#endif
#define NT (WM * WN * 32)
#define BM (WM * FM * 16)
#define BN (WN * FN * 16)
#define KW (BK / 16)
#define RW (KW + 1)
#define LA ((BM * KW + NT - 1) / NT)
#define LB ((BN * KW + NT - 1) / NT)
layout(local_size_x = NT) in;
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer V4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32 { int32_t v[]; };
layout(push_constant) uniform P { uint64_t a, b, c; uint M, N, K; } p;
#ifdef SB
#define NBUF 1
#else
#define NBUF 2
#endif
#ifndef GLOBAL
shared uvec4 sa[NBUF * BM * RW];
shared uvec4 sb[NBUF * BN * RW];
#endif
#define CM icoopmatNV<32, gl_ScopeSubgroup, 16, 16>
void main() {
  const uint tiles_m = p.M / BM;
  const uint tm = gl_WorkGroupID.x % tiles_m, tn = gl_WorkGroupID.x / tiles_m;
  const uint t = gl_LocalInvocationID.x, warp = t / 32u;
  const uint wm = warp % WM, wn = warp / WM;
  const uint kw = p.K / 16u;
  V4 A = V4(p.a), B = V4(p.b);
  CM acc[FM][FN];
  for (int i = 0; i < FM; ++i) for (int j = 0; j < FN; ++j) acc[i][j] = CM(0);
#ifdef GLOBAL
  // Fragments straight from global memory (L1), PD k steps of 32 in flight per subgroup; no
  // shared memory, no barriers. K % (32 PD) == 0.
  {
    const uint ks = p.K / 32u, ra0 = tm * BM + wm * FM * 16, rb0 = tn * BN + wn * FN * 16;
    icoopmatNV<8, gl_ScopeSubgroup, 16, 32> ga[PD][FM];
    icoopmatNV<8, gl_ScopeSubgroup, 32, 16> gb[PD][FN];
    [[unroll]] for (int u = 0; u < PD; ++u) {
      [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(ga[u][i], A.v, (ra0 + i * 16) * kw + u * 2, kw, false);
      [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(gb[u][j], B.v, (rb0 + j * 16) * kw + u * 2, kw, true);
    }
    for (uint s = 0; s < ks; s += PD) {
      [[unroll]] for (int u = 0; u < PD; ++u) {
        [[unroll]] for (int i = 0; i < FM; ++i) [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAddNV(ga[u][i], gb[u][j], acc[i][j]);
        const uint nx = s + uint(u) + PD;
        if (nx < ks) {
          [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(ga[u][i], A.v, (ra0 + i * 16) * kw + nx * 2, kw, false);
          [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(gb[u][j], B.v, (rb0 + j * 16) * kw + nx * 2, kw, true);
        }
      }
    }
  }
#else
  uvec4 ra[LA], rb[LB];
  // slot s of thread t: word i = t + s*NT, row i / KW, column i % KW
  const uint nk = p.K / BK;
  [[unroll]] for (int s = 0; s < LA; ++s) { uint i = t + s * NT; if (i < BM * KW) ra[s] = A.v[(tm * BM + i / KW) * kw + i % KW]; }
  [[unroll]] for (int s = 0; s < LB; ++s) { uint i = t + s * NT; if (i < BN * KW) rb[s] = B.v[(tn * BN + i / KW) * kw + i % KW]; }
  [[unroll]] for (int s = 0; s < LA; ++s) { uint i = t + s * NT; if (i < BM * KW) sa[(i / KW) * RW + i % KW] = ra[s]; }
  [[unroll]] for (int s = 0; s < LB; ++s) { uint i = t + s * NT; if (i < BN * KW) sb[(i / KW) * RW + i % KW] = rb[s]; }
  barrier();
  uint buf = 0;
#ifndef PF
  icoopmatNV<8, gl_ScopeSubgroup, 16, 32> fa[FM];
  icoopmatNV<8, gl_ScopeSubgroup, 32, 16> fb[FN];
#endif
  for (uint kt = 0; kt < nk; ++kt) {
#ifdef COMPUTE_ONLY
    const bool more = false;
#else
    const bool more = kt + 1 < nk;
#endif
#ifdef LATE
    // LATE: the next slice's global loads issued after this slice's first k step of products.
    [[unroll]] for (uint kk = 0; kk < KW; kk += 2) {
      [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(fa[i], sa, (wm * FM * 16 + i * 16) * RW + kk, RW, false);
      [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(fb[j], sb, (wn * FN * 16 + j * 16) * RW + kk, RW, true);
      [[unroll]] for (int i = 0; i < FM; ++i) [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAddNV(fa[i], fb[j], acc[i][j]);
      if (kk == 0u && more) {
        const uint k1 = (kt + 1) * KW;
        [[unroll]] for (int s = 0; s < LA; ++s) { uint i = t + s * NT; if (i < BM * KW) ra[s] = A.v[(tm * BM + i / KW) * kw + k1 + i % KW]; }
        [[unroll]] for (int s = 0; s < LB; ++s) { uint i = t + s * NT; if (i < BN * KW) rb[s] = B.v[(tn * BN + i / KW) * kw + k1 + i % KW]; }
      }
    }
#else
    if (more) {
      const uint k1 = (kt + 1) * KW;
      [[unroll]] for (int s = 0; s < LA; ++s) { uint i = t + s * NT; if (i < BM * KW) ra[s] = A.v[(tm * BM + i / KW) * kw + k1 + i % KW]; }
      [[unroll]] for (int s = 0; s < LB; ++s) { uint i = t + s * NT; if (i < BN * KW) rb[s] = B.v[(tn * BN + i / KW) * kw + k1 + i % KW]; }
    }
    const uint oa = (NBUF == 1 ? 0u : buf) * BM * RW, ob = (NBUF == 1 ? 0u : buf) * BN * RW;
#ifdef PF
    icoopmatNV<8, gl_ScopeSubgroup, 16, 32> fa[2][FM];
    icoopmatNV<8, gl_ScopeSubgroup, 32, 16> fb[2][FN];
    [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(fa[0][i], sa, oa + (wm * FM * 16 + i * 16) * RW, RW, false);
    [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(fb[0][j], sb, ob + (wn * FN * 16 + j * 16) * RW, RW, true);
    [[unroll]] for (uint kk = 0; kk < KW; kk += 2) {
      const uint c = (kk / 2) & 1u;
      if (kk + 2 < KW) {
        [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(fa[c ^ 1u][i], sa, oa + (wm * FM * 16 + i * 16) * RW + kk + 2, RW, false);
        [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(fb[c ^ 1u][j], sb, ob + (wn * FN * 16 + j * 16) * RW + kk + 2, RW, true);
      }
      [[unroll]] for (int i = 0; i < FM; ++i) [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAddNV(fa[c][i], fb[c][j], acc[i][j]);
    }
#else
    [[unroll]] for (uint kk = 0; kk < KW; kk += 2) {
#ifdef COMPUTE_ONLY
      if (kt == 0u) {
#endif
      [[unroll]] for (int i = 0; i < FM; ++i) coopMatLoadNV(fa[i], sa, oa + (wm * FM * 16 + i * 16) * RW + kk, RW, false);
      [[unroll]] for (int j = 0; j < FN; ++j) coopMatLoadNV(fb[j], sb, ob + (wn * FN * 16 + j * 16) * RW + kk, RW, true);
#ifdef COMPUTE_ONLY
      }
#endif
      [[unroll]] for (int i = 0; i < FM; ++i) [[unroll]] for (int j = 0; j < FN; ++j) acc[i][j] = coopMatMulAddNV(fa[i], fb[j], acc[i][j]);
    }
#endif
#endif
#ifdef SB
    barrier();
#endif
    if (more) {
      const uint na = (NBUF == 1 ? 0u : buf ^ 1u) * BM * RW, nb = (NBUF == 1 ? 0u : buf ^ 1u) * BN * RW;
      [[unroll]] for (int s = 0; s < LA; ++s) { uint i = t + s * NT; if (i < BM * KW) sa[na + (i / KW) * RW + i % KW] = ra[s]; }
      [[unroll]] for (int s = 0; s < LB; ++s) { uint i = t + s * NT; if (i < BN * KW) sb[nb + (i / KW) * RW + i % KW] = rb[s]; }
    }
    barrier();
    buf ^= 1u;
  }
#endif
  const uint m0 = tm * BM + wm * FM * 16, n0 = tn * BN + wn * FN * 16;
  for (int i = 0; i < FM; ++i) for (int j = 0; j < FN; ++j)
    coopMatStoreNV(acc[i][j], I32(p.c).v, (n0 + j * 16) * p.M + m0 + i * 16, p.M, true);
}
