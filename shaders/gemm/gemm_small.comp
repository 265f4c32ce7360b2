#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: as gemm.comp (C[m,n,b] = alpha * sum_k op(A)[m,k,b] op(B)[k,n,b] + beta * C[m,n,b],
// any strides, GemmParams; without TFG_READ_C, C is never read), for products whose tiles would
// be mostly empty: small M x N with many batches (Hadamard and outer products, einsum steps of
// small tensors), matrix-vector products with short K.
//
// One invocation per output element (or per RM consecutive elements along m, below), m fastest,
// then n, then b (C is usually unit-stride along m, so a warp's stores are coalesced); each
// invocation runs its own K loop through the strides.
// Grid-stride over the elements. Specialization constant 1: 1 when M*N*B needs 64-bit index
// arithmetic (64-bit division is slow on GPUs: the 32-bit form is used whenever it fits).
// Variants: DT_F32 DT_F64 DT_C32 DT_C64.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "gemm/gemm_params.h"

#if defined(DT_F32)
#define T float
#define ES 4
#elif defined(DT_F64)
#define T double
#define ES 8
#elif defined(DT_C32)
#define T vec2
#define ES 8
#define COMPLEX 1
#elif defined(DT_C64)
#define T dvec2
#define ES 16
#define COMPLEX 1
#endif

layout(local_size_x_id = 0) in;
// Specialization constant 1: bit 0 = 64-bit index arithmetic (M*N*B near 2^31 or more); bit 1 =
// four consecutive outputs along m per invocation (RM = 4: the index arithmetic and the B loads
// are shared by four outputs; products with many outputs and short K, which are memory-bound);
// TFG_SMALL_CHAINS: a chained C (gemm_chains.glsl).
layout(constant_id = 1) const uint CFG = 0u;
const uint IDX64 = CFG & 1u;
const bool CHAINS = (CFG & TFG_SMALL_CHAINS) != 0u;
const bool CHAINS_WIDE = (CFG & TFG_SMALL_CHAINS_WIDE) != 0u;
const uint LRM = 2u * ((CFG >> 1) & 1u);  // log2 RM
const uint RM = 1u << LRM;
layout(push_constant) uniform Push { GemmParams p; };

layout(buffer_reference, std430, buffer_reference_align = ES) readonly buffer ERef { T v; };
layout(buffer_reference, std430, buffer_reference_align = ES) buffer OERef { T v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };
#include "gemm/gemm_chains.glsl"

#ifdef COMPLEX
T conj_if(T x, bool c) { return c ? T(x.x, -x.y) : x; }
#include "gemm/gemm_coef.glsl"
T mac(T a, T b, T c) {
  c.x = fma(a.x, b.x, c.x);
  c.x = fma(-a.y, b.y, c.x);
  c.y = fma(a.x, b.y, c.y);
  c.y = fma(a.y, b.x, c.y);
  return c;
}
#else
T conj_if(T x, bool c) { return x; }
T mul(T a, T b) { return a * b; }
T scale(T s, T x) { return s * x; }
T mac(T a, T b, T c) { return fma(a, b, c); }
#endif

#if defined(DT_F32) || defined(DT_C32)
float rbits(uint64_t x) { return uintBitsToFloat(uint(x)); }
#else
double rbits(uint64_t x) { return packDouble2x32(uvec2(uint(x), uint(x >> 32))); }
#endif
#ifdef COMPLEX
T scalar_of(uint64_t re, uint64_t im) { return T(rbits(re), rbits(im)); }
#else
T scalar_of(uint64_t re, uint64_t im) { return rbits(re); }
#endif

uint64_t addr_of(uint64_t base, int64_t off) { return base + uint64_t(off * int64_t(ES)); }

// Outputs m0 .. m0 + RM - 1 (those < M) of column n, batch b.
void element(int64_t m0, int64_t M, int64_t n, int64_t b, int64_t K, DimsRef D, T alpha, T beta) {
  const bool conj_a = (p.flags & TFG_CONJ_A) != 0u, conj_b = (p.flags & TFG_CONJ_B) != 0u;
  const int rows = int(min(M - m0, int64_t(RM)));
  T acc[RM];
  [[unroll]] for (uint e = 0u; e < RM; ++e) acc[e] = T(0);
  const int64_t sam = D.v[4];
  if (K > 0) {
    const int64_t sak = D.v[5], sbk = D.v[7];
    uint64_t pa = addr_of(p.a, m0 * sam + b * D.v[6]);
    uint64_t pb = addr_of(p.b, n * D.v[8] + b * D.v[9]);
    const uint64_t da = uint64_t(sak * int64_t(ES)), db = uint64_t(sbk * int64_t(ES));
    const uint64_t de = uint64_t(sam * int64_t(ES));
    for (int64_t k = 0; k < K; ++k) {
      const T bv = conj_if(ERef(pb).v, conj_b);
      [[unroll]] for (uint e = 0u; e < RM; ++e)
        if (int(e) < rows) acc[e] = mac(conj_if(ERef(pa + uint64_t(e) * de).v, conj_a), bv, acc[e]);
      pa += da;
      pb += db;
    }
  }
  const int64_t scm = D.v[10];
  const uint64_t at = CHAINS ? addr_of(p.c, chain_offset(D, n, D.v[11], 22u) + chain_batch_offset(D, b, D.v[12]))
                             : addr_of(p.c, m0 * scm + n * D.v[11] + b * D.v[12]);
  const uint64_t dc = uint64_t(scm * int64_t(ES));
  [[unroll]] for (uint e = 0u; e < RM; ++e) {
    if (int(e) >= rows) break;
    const uint64_t ate = CHAINS ? addr_of(at, chain_offset(D, m0 + int64_t(e), scm, 16u)) : at + uint64_t(e) * dc;
    T v = scale(alpha, acc[e]);
    if ((p.flags & TFG_READ_C) != 0u) v += scale(beta, OERef(ate).v);
    OERef(ate).v = v;
  }
}

void main() {
  DimsRef D = DimsRef(p.dims);
  const int64_t M = D.v[0], N = D.v[1], K = D.v[2], NB = D.v[3];
  // Groups of RM rows (a shift: NVIDIA's driver calls a subroutine for 64-bit divisions, even by
  // constants).
  const int64_t MQ = (M + int64_t(RM) - 1) >> LRM;
  const T alpha = scalar_of(p.alpha[0], p.alpha[1]);
  const T beta = scalar_of(p.beta[0], p.beta[1]);
  const uint local = gl_WorkGroupSize.x;
  if (IDX64 == 0u) {
    const uint mq32 = uint(MQ), n32 = uint(N), total = uint(MQ * N * NB);
    const uint stride = gl_NumWorkGroups.x * local;
    for (uint i = gl_WorkGroupID.x * local + gl_LocalInvocationID.x; i < total; i += stride) {
      const uint mn = i / mq32;
      element(int64_t((i - mn * mq32) * RM), M, int64_t(mn % n32), int64_t(mn / n32), K, D, alpha, beta);
    }
  } else {
    const int64_t total = MQ * N * NB;
    const int64_t stride = int64_t(gl_NumWorkGroups.x) * int64_t(local);
    for (int64_t i = int64_t(gl_WorkGroupID.x * local + gl_LocalInvocationID.x); i < total; i += stride) {
      const int64_t mn = i / MQ;
      element((i - mn * MQ) * int64_t(RM), M, mn % N, mn / N, K, D, alpha, beta);
    }
  }
}
