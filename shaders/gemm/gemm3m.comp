#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: the two element passes of a complex product in the 3-multiply form (opt-in,
// src/vulkan/kernels/gemm/gemm3m.cpp): P1 = Ar Br, P2 = Ai Bi, P3 = (Ar + Ai)(Br + Bi) as
// three real products, then Re C = P1 - P2, Im C = P3 - P1 - P2.
//
// Specialization constant 1 (MODE):
//   0 (split): X, a complex [E0, E1, NB] view (GemmParams::a = element (0,0,0), dims words 3-5
//     its strides), is written as three real planes at GemmParams::c, each compact in the order
//     e0 + E0 * (e1 + E1 * b), Z elements apart (dims word 6): Re X, Im X, Re X + Im X. With
//     TFG_CONJ_A the imaginary part is negated first (conj(X)).
//   1 (combine): the planes P1, P2, P3 at GemmParams::a (compact as above, Z apart) give the
//     complex view C at GemmParams::c (strides words 3-5): C = alpha * (P1 - P2 + i (P3 - P1 -
//     P2)) + beta * C, C read only with TFG_READ_C.
// The host orders E0, E1 so that the strided side's unit stride is along e0 where it has one.
// One invocation per element, grid-stride; 32-bit index arithmetic where the extents fit.
// Variants: DT_C32 DT_C64.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "gemm/gemm_params.h"

#if defined(DT_C32)
#define T vec2
#define R float
#define ES 8
#define RS 4
float rbits(uint64_t x) { return uintBitsToFloat(uint(x)); }
#else
#define T dvec2
#define R double
#define ES 16
#define RS 8
double rbits(uint64_t x) { return packDouble2x32(uvec2(uint(x), uint(x >> 32))); }
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MODE = 0u;
layout(push_constant) uniform Push { GemmParams p; };

layout(buffer_reference, std430, buffer_reference_align = ES) buffer CRef { T v; };
layout(buffer_reference, std430, buffer_reference_align = RS) buffer RRef { R v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };
#include "common/divmod.glsl"

#include "gemm/gemm_coef.glsl"

void main() {
  DimsRef D = DimsRef(p.dims);
  const int64_t E0 = D.v[0], E1 = D.v[1], NB = D.v[2], s0 = D.v[3], s1 = D.v[4], sb = D.v[5], Z = D.v[6];
  const int64_t total = E0 * E1 * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  const T alpha = T(rbits(p.alpha[0]), rbits(p.alpha[1]));
  const T beta = T(rbits(p.beta[0]), rbits(p.beta[1]));
  const bool conj_x = (p.flags & TFG_CONJ_A) != 0u, read_c = (p.flags & TFG_READ_C) != 0u;
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    int64_t q, e0, e1, b;
    divmod(i, E0, q, e0);
    divmod(q, E1, b, e1);
    const uint64_t x = MODE == 0u ? p.a : p.c;  // the strided side
    const uint64_t at = x + uint64_t((e0 * s0 + e1 * s1 + b * sb) * int64_t(ES));
    const uint64_t planes = MODE == 0u ? p.c : p.a;
    const uint64_t p1 = planes + uint64_t(i * int64_t(RS)), p2 = p1 + uint64_t(Z * int64_t(RS));
    const uint64_t p3 = p2 + uint64_t(Z * int64_t(RS));
    if (MODE == 0u) {
      const T v = CRef(at).v;
      const R im = conj_x ? -v.y : v.y;
      RRef(p1).v = v.x;
      RRef(p2).v = im;
      RRef(p3).v = v.x + im;
    } else {
      const R r1 = RRef(p1).v, r2 = RRef(p2).v, r3 = RRef(p3).v;
      T v = scale(alpha, T(r1 - r2, r3 - (r1 + r2)));
      if (read_c) v += scale(beta, CRef(at).v);
      CRef(at).v = v;
    }
  }
}
