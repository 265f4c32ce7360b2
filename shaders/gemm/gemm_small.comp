#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: as gemm.comp (C[m,n,b] = alpha * sum_k op(A)[m,k,b] op(B)[k,n,b] + beta * C[m,n,b],
// any strides, GemmParams; without TFG_READ_C, C is never read), for products whose tiles would
// be mostly empty: small M x N with many batches (Hadamard and outer products, einsum steps of
// small tensors), matrix-vector products with short K.
//
// One invocation per output element, m fastest, then n, then b (C is usually unit-stride along
// m, so a warp's stores are coalesced); each invocation runs its own K loop through the strides.
// Grid-stride over the elements. Specialization constant 1: 1 when M*N*B needs 64-bit index
// arithmetic (64-bit division is slow on GPUs: the 32-bit form is used whenever it fits).
// Variants: DT_F32 DT_F64 DT_C32 DT_C64.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
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
layout(constant_id = 1) const uint IDX64 = 0u;
layout(push_constant) uniform Push { GemmParams p; };

layout(buffer_reference, std430, buffer_reference_align = ES) readonly buffer ERef { T v; };
layout(buffer_reference, std430, buffer_reference_align = ES) buffer OERef { T v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };

#ifdef COMPLEX
T conj_if(T x, bool c) { return c ? T(x.x, -x.y) : x; }
T mul(T a, T b) { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
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

void element(int64_t m, int64_t n, int64_t b, int64_t K, DimsRef D, T alpha, T beta) {
  const bool conj_a = (p.flags & TFG_CONJ_A) != 0u, conj_b = (p.flags & TFG_CONJ_B) != 0u;
  T acc = T(0);
  if (K > 0) {
    const int64_t sak = D.v[5], sbk = D.v[7];
    uint64_t pa = addr_of(p.a, m * D.v[4] + b * D.v[6]);
    uint64_t pb = addr_of(p.b, n * D.v[8] + b * D.v[9]);
    const uint64_t da = uint64_t(sak * int64_t(ES)), db = uint64_t(sbk * int64_t(ES));
    for (int64_t k = 0; k < K; ++k) {
      acc = mac(conj_if(ERef(pa).v, conj_a), conj_if(ERef(pb).v, conj_b), acc);
      pa += da;
      pb += db;
    }
  }
  const uint64_t at = addr_of(p.c, m * D.v[10] + n * D.v[11] + b * D.v[12]);
  T v = mul(alpha, acc);
  if ((p.flags & TFG_READ_C) != 0u) v += mul(beta, OERef(at).v);
  OERef(at).v = v;
}

void main() {
  DimsRef D = DimsRef(p.dims);
  const int64_t M = D.v[0], N = D.v[1], K = D.v[2], NB = D.v[3];
  const T alpha = scalar_of(p.alpha[0], p.alpha[1]);
  const T beta = scalar_of(p.beta[0], p.beta[1]);
  const uint local = gl_WorkGroupSize.x;
  if (IDX64 == 0u) {
    const uint m32 = uint(M), n32 = uint(N), total = uint(M * N * NB);
    const uint stride = gl_NumWorkGroups.x * local;
    for (uint i = gl_WorkGroupID.x * local + gl_LocalInvocationID.x; i < total; i += stride) {
      const uint mn = i / m32;
      element(int64_t(i - mn * m32), int64_t(mn % n32), int64_t(mn / n32), K, D, alpha, beta);
    }
  } else {
    const int64_t total = M * N * NB;
    const int64_t stride = int64_t(gl_NumWorkGroups.x) * int64_t(local);
    for (int64_t i = int64_t(gl_WorkGroupID.x * local + gl_LocalInvocationID.x); i < total; i += stride) {
      const int64_t mn = i / M;
      element(i - mn * M, mn % N, mn / N, K, D, alpha, beta);
    }
  }
}
