#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: the element passes of the opt-in Ozaki-II f64 product (gemm_ozaki.cpp;
// ozaki_params.h). A line is a row of A or a column of B; P (dims word 9) is the bits per line.
//
// MODE TFO_SCAN: the operand X (GemmParams::a, element (0, 0, 0); dims: 0 L lines, 1 K, 2 NB
//   batches, 3-5 strides of line, k, batch) gives, per line and K chunk of TFO_CHUNK, the
//   frexp exponent e of its largest |x| (|x| < 2^e; -2^31 + 1 for an all-zero chunk,
//   TFO_BAD_LINE when it holds Inf or NaN) at word 10 (int32 [NB][nch][L], nch = word 8).
// MODE TFO_SCALE: per line, s = P - max e (0 for a zero line; TFO_BAD_LINE for a non-finite
//   line) goes to word 11 (int32 [NB][L]).
// MODE TFO_SPLIT: X' = roundEven(x 2^s) (|X'| <= 2^P) is written as NMOD int8 planes of
//   symmetric residues at word 12: plane z = l * NB + b is [Lp][Kp] bytes (words 6, 7), k
//   fastest, zero outside the operand and on non-finite lines.
// MODE TFO_COMBINE: C[m, n, b] = alpha * X 2^-(sA_m + sB_n) + beta * C, X the integer whose
//   residues mod m_l are the bytes of the residue products (word 17: plane z = l * NB + b is
//   [Np][Mp] bytes, m fastest), recovered by Garner's mixed radix with symmetric digits and
//   Horner's rule in f64. Where sA_m or sB_n is TFO_BAD_LINE: C = alpha * sum_k a b (+ beta C), a
//   plain f64 dot product. dims: 0 M, 1 N, 2 K, 3 NB, 4-6 A strides (m, k, b), 7-9 B strides
//   (k, n, b), 10-12 C strides (m, n, b), 13 Mp, 14 Np, 15 sA, 16 sB, 17 planes; GemmParams a,
//   b, c, alpha, beta, flags (TFG_READ_C). One invocation per four rows m of one (n, b).
// Specialization constant 2: NMOD, the number of moduli. Grid-stride, 64-bit offsets.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "gemm/gemm_params.h"
#include "ozaki/ozaki_params.h"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MODE = 0u;
layout(constant_id = 2) const uint NMOD = 14u;
layout(push_constant) uniform Push { GemmParams p; };

layout(buffer_reference, std430, buffer_reference_align = 8) buffer F64 { double v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32 { int v; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer U32 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer U4 { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };

// kInv[j * 20 + l] = m_j^-1 mod m_l for j < l (Garner's constants; 0 elsewhere).
const int kInv[TFO_MAX_MODULI * TFO_MAX_MODULI] = int[TFO_MAX_MODULI * TFO_MAX_MODULI](
    0, 1, 169, 201, 55, 225, 225, 152, 17, 47, 196, 136, 7, 187, 144, 144, 70, 93, 148, 152,
    0, 0, 127, 63, 31, 155, 15, 53, 185, 73, 7, 24, 32, 17, 165, 3, 159, 106, 19, 93,
    0, 0, 0, 126, 206, 221, 222, 35, 105, 131, 171, 206, 129, 95, 74, 114, 88, 75, 93, 134,
    0, 0, 0, 0, 62, 217, 20, 13, 177, 123, 8, 153, 111, 135, 10, 156, 75, 92, 122, 2,
    0, 0, 0, 0, 0, 201, 30, 50, 140, 193, 158, 170, 170, 67, 168, 58, 96, 129, 166, 119,
    0, 0, 0, 0, 0, 0, 120, 204, 210, 146, 62, 204, 109, 103, 189, 149, 178, 26, 28, 79,
    0, 0, 0, 0, 0, 0, 0, 39, 23, 19, 14, 98, 5, 61, 21, 4, 103, 3, 97, 58,
    0, 0, 0, 0, 0, 0, 0, 0, 172, 38, 67, 48, 41, 104, 111, 141, 94, 63, 124, 124,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 114, 186, 129, 73, 117, 59, 186, 132, 111, 34, 132,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 56, 66, 64, 46, 176, 69, 122, 138, 157, 103,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 88, 141, 144, 148, 6, 125, 118, 45, 3,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 83, 183, 118, 86, 175, 28, 41, 19,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 99, 161, 24, 171, 9, 20, 47,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 145, 32, 34, 10, 137, 39,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 96, 166, 64, 26, 45,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 163, 15, 125, 7,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 65, 12,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 29, 14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 28,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
);
const int kZeroExp = -2147483647;

double bits_f64(uint64_t x) { return packDouble2x32(uvec2(uint(x), uint(x >> 32))); }

/// 2^e for -1022 <= e <= 1023, from its bits.
double pow2(int e) { return packDouble2x32(uvec2(0u, uint(e + 1023) << 20)); }

/// x 2^s (|s| < 3000) as multiplications by powers of two of s's sign, so every intermediate
/// lies between x and the result: exact while the result is normal. Not ldexp: lavapipe's
/// misbehaves for subnormal x and for exponents beyond the double range.
double scale2(double x, int s) {
  const int c1 = clamp(s, -1000, 1000), c2 = clamp(s - c1, -1000, 1000);
  return x * pow2(c1) * pow2(c2) * pow2(s - c1 - c2);
}

/// The e with 2^(e-1) <= |x| < 2^e of a finite nonzero x, from its bits (frexp may mishandle
/// subnormals).
int exponent_of(double x) {
  const uvec2 w = unpackDouble2x32(x);
  const int biased = int((w.y >> 20) & 0x7ffu);
  if (biased != 0) return biased - 1022;
  const uint hi = w.y & 0xfffffu;  // subnormal: mantissa * 2^-1074
  return (hi != 0u ? 32 + findMSB(hi) : findMSB(w.x)) + 1 - 1074;
}

/// Residue of the integer x (|x| <= 2^62) modulo m in [-(m-1)/2, m/2] (128 for m = 256 is the
/// byte of -128: the same residue), in 32-bit integer arithmetic (no fused multiply-add needed:
/// GLSL's fma need not be fused): x = hi 2^32 + lo, |hi| <= 2^30.
int residue(int64_t x, uint m) {
  const uint c32 = (0xffffffffu % m + 1u) % m;  // 2^32 mod m
  const uint r = (tfo_mod(int(x >> 32), m) * c32 + uint(x) % m) % m;
  return int(r) > int(m / 2u) ? int(r) - int(m) : int(r);
}

void scan() {
  DimsRef D = DimsRef(p.dims);
  const int64_t L = D.v[0], K = D.v[1], NB = D.v[2], sl = D.v[3], sk = D.v[4], sb = D.v[5], nch = D.v[8];
  const uint64_t dst = uint64_t(D.v[10]);
  const int64_t total = L * nch * NB, step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    const int64_t line = i % L, q = i / L, c = q % nch, b = q / nch;  // q = b * nch + c
    const int64_t k0 = c * TFO_CHUNK;
    int e = kZeroExp;
    bool bad = false;
    const uint64_t base = p.a + uint64_t((line * sl + b * sb) * 8);
    for (int kk = 0; kk < TFO_CHUNK; kk += 8) {
      double x[8];
      [[unroll]] for (int j = 0; j < 8; ++j) {
        const int64_t k = k0 + kk + j;
        x[j] = k < K ? F64(base + uint64_t(k * sk * 8)).v : 0.0;
      }
      [[unroll]] for (int j = 0; j < 8; ++j) {
        if (isnan(x[j]) || isinf(x[j])) bad = true;
        else if ((unpackDouble2x32(x[j]) & uvec2(0xffffffffu, 0x7fffffffu)) != uvec2(0u)) {  // nonzero (bits)
          e = max(e, exponent_of(x[j]));
        }
      }
    }
    I32(dst + uint64_t(i * 4)).v = bad ? TFO_BAD_LINE : e;
  }
}

void scale() {
  DimsRef D = DimsRef(p.dims);
  const int64_t L = D.v[0], NB = D.v[2], nch = D.v[8], P = D.v[9];
  const uint64_t ex = uint64_t(D.v[10]), scales = uint64_t(D.v[11]);
  const int64_t total = L * NB, step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    const int64_t line = i % L, b = i / L;
    int e = kZeroExp;
    for (int64_t c = 0; c < nch; ++c) e = max(e, I32(ex + uint64_t(((b * nch + c) * L + line) * 4)).v);
    I32(scales + uint64_t(i * 4)).v = e == TFO_BAD_LINE ? TFO_BAD_LINE : e == kZeroExp ? 0 : int(P) - e;
  }
}

void split() {
  DimsRef D = DimsRef(p.dims);
  const int64_t L = D.v[0], K = D.v[1], NB = D.v[2], sl = D.v[3], sk = D.v[4], sb = D.v[5];
  const int64_t Lp = D.v[6], Kp = D.v[7];
  const uint64_t scales = uint64_t(D.v[11]), planes = uint64_t(D.v[12]);
  const int64_t groups = Kp / 16, total = Lp * groups * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    const int64_t g = i % groups, q = i / groups, line = q % Lp, b = q / Lp;
    int64_t x[16];
    [[unroll]] for (int j = 0; j < 16; ++j) x[j] = 0;
    if (line < L) {
      const int s = I32(scales + uint64_t((b * L + line) * 4)).v;
      if (s != TFO_BAD_LINE) {
        const uint64_t base = p.a + uint64_t((line * sl + b * sb) * 8);
        [[unroll]] for (int j = 0; j < 16; ++j) {
          const int64_t k = g * 16 + j;
          if (k < K) x[j] = int64_t(roundEven(scale2(F64(base + uint64_t(k * sk * 8)).v, s)));
        }
      }
    }
    [[unroll]] for (uint l = 0; l < NMOD; ++l) {
      uint w[4] = uint[4](0u, 0u, 0u, 0u);
      [[unroll]] for (int j = 0; j < 16; ++j) w[j / 4] |= (uint(residue(x[j], uint(kMod[l]))) & 0xffu) << (8 * (j % 4));
      const int64_t z = int64_t(l) * NB + b;
      U4(planes + uint64_t((z * Lp + line) * Kp + g * 16)).v = uvec4(w[0], w[1], w[2], w[3]);
    }
  }
}

void combine() {
  DimsRef D = DimsRef(p.dims);
  const int64_t M = D.v[0], N = D.v[1], K = D.v[2], NB = D.v[3];
  const int64_t sam = D.v[4], sak = D.v[5], sab = D.v[6], sbk = D.v[7], sbn = D.v[8], sbb = D.v[9];
  const int64_t scm = D.v[10], scn = D.v[11], scb = D.v[12], Mp = D.v[13], Np = D.v[14];
  const uint64_t sa = uint64_t(D.v[15]), sbs = uint64_t(D.v[16]), planes = uint64_t(D.v[17]);
  const double alpha = bits_f64(p.alpha[0]), beta = bits_f64(p.beta[0]);
  const bool read_c = (p.flags & TFG_READ_C) != 0u;
  const int64_t quads = (M + 3) / 4, total = quads * N * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    const int64_t mq = i % quads, q = i / quads, n = q % N, b = q / N;
    uint w[TFO_MAX_MODULI];
    [[unroll]] for (uint l = 0; l < NMOD; ++l)
      w[l] = U32(planes + uint64_t(((int64_t(l) * NB + b) * Np + n) * Mp + mq * 4)).v;
    const int s_n = I32(sbs + uint64_t((b * N + n) * 4)).v;
    for (int t = 0; t < 4; ++t) {
      const int64_t m = mq * 4 + t;
      if (m >= M) break;
      const int s_m = I32(sa + uint64_t((b * M + m) * 4)).v;
      double v;
      if (s_m == TFO_BAD_LINE || s_n == TFO_BAD_LINE) {
        v = 0.0;
        for (int64_t k = 0; k < K; ++k)
          v = fma(F64(p.a + uint64_t((m * sam + k * sak + b * sab) * 8)).v,
                  F64(p.b + uint64_t((k * sbk + n * sbn + b * sbb) * 8)).v, v);
      } else {
        int dg[TFO_MAX_MODULI];
        [[unroll]] for (uint l = 0; l < NMOD; ++l) {
          int r = int((w[l] >> (8 * t)) & 0xffu);
          [[unroll]] for (uint j = 0; j < l; ++j) {
            int u = r - dg[j];
            if (u < 0) u += kMod[l];
            r = int((uint(u) * uint(kInv[j * TFO_MAX_MODULI + l])) % uint(kMod[l]));
          }
          dg[l] = r > kMod[l] / 2 ? r - kMod[l] : r;
        }
        precise double x = double(dg[NMOD - 1]);  // (precise: fused where the device has it)
        [[unroll]] for (int l = int(NMOD) - 2; l >= 0; --l) x = fma(x, double(kMod[l]), double(dg[l]));
        v = scale2(x, -(s_m + s_n));
      }
      const uint64_t at = p.c + uint64_t((m * scm + n * scn + b * scb) * 8);
      v *= alpha;
      if (read_c) v = fma(beta, F64(at).v, v);
      F64(at).v = v;
    }
  }
}

void main() {
  if (MODE == TFO_SCAN) scan();
  else if (MODE == TFO_SCALE) scale();
  else if (MODE == TFO_SPLIT) split();
  else combine();
}
