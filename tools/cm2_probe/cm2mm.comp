#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_control_flow_attributes : require
// Throughput probe (tools/cm2_probe/README.md), not a library kernel: C (int32, M x N
// column-major) = A (int8, M x K, K contiguous) * B^T (B: int8, N x K, K contiguous) on
// workgroup-scope cooperative matrices of BM x BK, BK x BN and BM x BN (VK_KHR_cooperative_matrix
// with VK_NV_cooperative_matrix2's workgroupScope and flexibleDimensions; glslang 13 compiles
// gl_ScopeWorkgroup). M % BM == 0, N % BN == 0, K % BK == 0.
// Macros: BM, BN, BK, NT invocations; VEC: operands read through uvec4 arrays (offsets in 16-byte
// words) instead of int8 ones; SH: each BK slice staged in shared memory by the invocations'
// own 16-byte loads, the matrices loaded from there (rows padded by one word); PF (with VEC):
// the next slice's matrices loaded before this slice's product.
layout(local_size_x = NT) in;
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer V4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) readonly buffer I8 { int8_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32 { int32_t v[]; };
layout(push_constant) uniform P { uint64_t a, b, c; uint M, N, K; } p;
#define MA coopmat<int8_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA>
#define MB coopmat<int8_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB>
#define MC coopmat<int32_t, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define KW (BK / 16)
#define RW (KW + 1)
#ifdef SH
shared uvec4 sa[BM * RW];
shared uvec4 sb[BN * RW];
#endif
void main() {
  const uint tiles_m = p.M / BM;
  const uint tm = gl_WorkGroupID.x % tiles_m, tn = gl_WorkGroupID.x / tiles_m;
  const uint m0 = tm * BM, n0 = tn * BN;
  MC acc = MC(0);
#ifdef SH
  V4 a4 = V4(p.a), b4 = V4(p.b);
  const uint kw = p.K / 16, t = gl_LocalInvocationID.x;
  for (uint k = 0; k < kw; k += KW) {
    [[unroll]] for (uint i = t; i < BM * KW; i += NT) sa[(i / KW) * RW + i % KW] = a4.v[(m0 + i / KW) * kw + k + i % KW];
    [[unroll]] for (uint i = t; i < BN * KW; i += NT) sb[(i / KW) * RW + i % KW] = b4.v[(n0 + i / KW) * kw + k + i % KW];
    barrier();
    MA a; MB b;
    coopMatLoad(a, sa, 0, RW, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b, sb, 0, RW, gl_CooperativeMatrixLayoutColumnMajor);
    acc = coopMatMulAdd(a, b, acc);
    barrier();
  }
#elif defined(VEC) && defined(PF)
  V4 a4 = V4(p.a), b4 = V4(p.b);
  const uint kw = p.K / 16;
  MA a; MB b;
  coopMatLoad(a, a4.v, m0 * kw, kw, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(b, b4.v, n0 * kw, kw, gl_CooperativeMatrixLayoutColumnMajor);
  for (uint k = KW; k < kw; k += KW) {
    MA an; MB bn;
    coopMatLoad(an, a4.v, m0 * kw + k, kw, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(bn, b4.v, n0 * kw + k, kw, gl_CooperativeMatrixLayoutColumnMajor);
    acc = coopMatMulAdd(a, b, acc);
    a = an; b = bn;
  }
  acc = coopMatMulAdd(a, b, acc);
#elif defined(VEC)
  V4 a4 = V4(p.a), b4 = V4(p.b);
  const uint kw = p.K / 16;
  for (uint k = 0; k < kw; k += KW) {
    MA a; MB b;
    coopMatLoad(a, a4.v, m0 * kw + k, kw, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b, b4.v, n0 * kw + k, kw, gl_CooperativeMatrixLayoutColumnMajor);
    acc = coopMatMulAdd(a, b, acc);
  }
#else
  I8 a8 = I8(p.a), b8 = I8(p.b);
  for (uint k = 0; k < p.K; k += BK) {
    MA a; MB b;
    coopMatLoad(a, a8.v, m0 * p.K + k, p.K, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b, b8.v, n0 * p.K + k, p.K, gl_CooperativeMatrixLayoutColumnMajor);
    acc = coopMatMulAdd(a, b, acc);
  }
#endif
  coopMatStore(acc, I32(p.c).v, n0 * p.M + m0, p.M, gl_CooperativeMatrixLayoutColumnMajor);
}
