#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: the element passes of the Ozaki-II products (f64; ozaki_ext also f32, c32, c64;
// src/vulkan/kernels/gemm/ozaki.cpp; ozaki_params.h). A line is a row of A or a column of B; P (dims word 9) is the bits per line.
//
// MODE TFO_SCAN: the operand X (GemmParams::a, element (0, 0, 0); dims: 0 L lines, 1 K, 2 NB
//   batches, 3-5 strides of line, k, batch) gives, per line and K chunk of TFO_CHUNK, the
//   frexp exponent e of its largest |x| (|x| < 2^e; -2^31 + 1 for an all-zero chunk,
//   TFO_BAD_LINE when it holds Inf or NaN) at word 10 (int32 [NB][nch][L], nch = word 8).
//   Certified products (word 14 != 0): also sum |x| and the count of nonzero x per line and
//   chunk, as a dvec2 at word 14 ([NB][nch][L]); where word 17 (the outcome word, A's only) is
//   nonzero, invocation 0 zeroes it and the four int32 words at word 16 (the certificate's
//   dispatch arguments, the fourth its zeros flag).
// MODE TFO_SCALE: per line, s = P - max e (0 for a zero line; TFO_BAD_LINE for a non-finite
//   line) goes to word 11 (int32 [NB][L]); word 18 != 0: s = P - e' instead, with 2^(e'-1) <=
//   (an upper bound of) sum |x| < 2^e' (certified products' A: rows scaled by their sums).
//   Certified (word 14 != 0): per line, an upper bound of sum |x| 2^s, the nonzero count and
//   w = 2^(e + s - 7) (dvec4 [NB][L], word 15); 1 goes to the zeros flag (int32 at word 19)
//   where a line holds a zero.
// MODE TFO_SPLIT: X' = roundEven(x 2^s) (|X'| <= 2^P) is written as NMOD planes of its
//   residues (X' mod m_l in [0, m_l), bytes) at word 12: plane z = l * NB + b is [Lp][Kp]
//   bytes (words 6, 7), k fastest, zero outside the operand and on non-finite lines. Word 13
//   != 0: the line stride is the unit one (the order of the invocations' blocks). Certified
//   (word 14 != 0): plane NMOD (z = NMOD * NB + b) holds the bytes of the certificate's product
//   (w from word 15): where the zeros flag is 0 (dense operands), q = floor(|x| 2^s / w) in
//   [0, 127] of every second k at column k / 2 if Kq (word 20) < Kp (zero up to Kq), else of
//   every k; where it is 1, q = floor(|x| 2^s / w) + (x != 0) in [0, 128] of every k.
// MODE TFO_COMBINE: C[m, n, b] = alpha * X 2^-(sA_m + sB_n) + beta * C, X the integer whose
//   residues mod m_l are the bytes of the residue products (word 17: plane z = l * NB + b is
//   [Np][Mp] bytes, m fastest), recovered by the Chinese remainder theorem as one f64 sum in
//   three parts (ozaki_crt.h; exact but for 2 u |X| + 2^(E-76)). Where sA_m or sB_n is
//   TFO_BAD_LINE: C = alpha * sum_k a b (+ beta C), a plain f64 dot product. dims: 0 M, 1 N,
//   2 K, 3 NB, 4-6 A strides (m, k, b), 7-9 B strides (k, n, b), 10-12 C strides (m, n, b),
//   13 Mp, 14 Np, 15 sA, 16 sB, 17 planes; GemmParams a, b, c, alpha, beta, flags (TFG_READ_C).
//   One invocation per four rows m of one (n, b).
//   Word 18 != 0: a certified product's dispatch arguments (int32 x 4); where its first word is
//   nonzero the certificate failed and nothing is written (the FMA kernels recompute C).
// MODE TFO_CERTIFY: per output (m, n, b) of a certified product (an invocation per row m and
//   run of TFO_CERTIFY_RUN columns), an error bound of the scheme against K u sum |a||b|
//   (docs/gemm.md, "certified"): where it does not hold, words 12-13
//   (gx, gy) and 1 go to the dispatch arguments at word 11, and 1 to the outcome word at word 16.
//   dims: 0 M, 1 N, 3 NB, 4 Mp, 5 Np, 6 sA, 7 sB, 8 / 9 the lines' dvec4 (sum bound, nonzero
//   count, w) of A / B, 10 Q (uint32 [NB][Np][Mp], the product of the q planes), 11 arguments,
//   12 gx, 13 gy, 14 the zeros flag (the arguments' fourth word, kept), 15 the bits of tau =
//   (K - 8) 2^-53, 16 the outcome word.
// Variant ozaki_ext (TFO_EXT defined; ozaki_f64 is f64 alone): specialization constant 1 or'ed
// with TFO_COMPLEX (c64 products, certified only): elements are
//   dvec2 (strides in elements of 16 bytes); with TFO_SINGLE too (c32), vec2 read into f64 and C's
//   parts rounded to f32 where written (alpha / beta as float bits). TFO_SINGLE alone: f32. Scan: e over both parts, sum
//   |re| + |im|, the count of nonzero elements (either part), TFO_BAD_LINE where either part is Inf
//   or NaN. Split: three plane sets per modulus, the residues of X'_re, X'_im and X'_re + X'_im
//   (exact integers, |.| <= 2^62 with P <= 61): set s of plane l, batch b is plane z = (l * 3 + s) *
//   NB + b, so that the residue products treat the sets as batches (3 NB); the q plane from max(|re|,
//   |im|) (a lower bound of |x|); the imaginary parts negated where word 21 != 0 (conjugated
//   operand). Combine: Re X from the residues P_re - P_im, Im X from P_sum - P_re - P_im (mod m_l),
//   complex alpha / beta, conj flags (GemmParams::flags) in the plain dot products of non-finite
//   lines. Certify: |S| / 2 instead of |S| / 4 (two rounded terms per element product); the host's
//   tau is per part.
// Specialization constant 2: NMOD, the number of moduli. Grid-stride, 64-bit offsets.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "gemm/gemm_params.h"
#include "ozaki/ozaki_params.h"
#include "ozaki/ozaki_crt.h"
#include "common/divmod.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MODE = 0u;
layout(constant_id = 2) const uint NMOD = 14u;
const uint KIND = MODE & TFO_MODE_MASK;
#ifdef TFO_EXT  // the ozaki_ext variant: f32 / c32 / c64 by specialization
const bool CPLX = (MODE & TFO_COMPLEX) != 0u;
const bool SINGLE = (MODE & TFO_SINGLE) != 0u;
#else  // ozaki_f64: f64 alone, folded by the front end
const bool CPLX = false;
const bool SINGLE = false;
#endif
const uint SETS = CPLX ? 3u : 1u;                         // plane sets per modulus
const uint ESZ = (CPLX ? 2u : 1u) * (SINGLE ? 4u : 8u);  // element bytes
layout(push_constant) uniform Push { GemmParams p; };

layout(buffer_reference, std430, buffer_reference_align = 8) buffer F64 { double v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer F64R { double v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32 { int v; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer U32 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer U4 { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) writeonly buffer U2 { uvec2 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer D2 { dvec2 v; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer D2R { dvec2 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer F2 { vec2 v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer F1 { float v; };
layout(buffer_reference, std430, buffer_reference_align = 32) buffer D4 { dvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer I4 { ivec4 v; };

const int kCrtE[TFO_MAX_MODULI - TFO_MIN_MODULI + 1] = int[](TFO_CRT_E);
const int kCrtInv[(TFO_MAX_MODULI - TFO_MIN_MODULI + 1) * TFO_MAX_MODULI] = int[](TFO_CRT_INV);
const uint64_t kCrtH[(TFO_MAX_MODULI - TFO_MIN_MODULI + 1) * TFO_MAX_MODULI] = uint64_t[](TFO_CRT_H);
const uint64_t kCrtL[(TFO_MAX_MODULI - TFO_MIN_MODULI + 1) * TFO_MAX_MODULI] = uint64_t[](TFO_CRT_L);
const uint64_t kCrtR[(TFO_MAX_MODULI - TFO_MIN_MODULI + 1) * TFO_MAX_MODULI] = uint64_t[](TFO_CRT_R);
const uint64_t kCrtMH[TFO_MAX_MODULI - TFO_MIN_MODULI + 1] = uint64_t[](TFO_CRT_MH);
const uint64_t kCrtML[TFO_MAX_MODULI - TFO_MIN_MODULI + 1] = uint64_t[](TFO_CRT_ML);
const uint64_t kCrtMR[TFO_MAX_MODULI - TFO_MIN_MODULI + 1] = uint64_t[](TFO_CRT_MR);
const uint64_t kCrtRecip[TFO_MAX_MODULI] = uint64_t[](TFO_CRT_RECIP);
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

/// x != 0 from its bits (a device that flushes subnormals in comparisons would miss them).
bool nonzero_bits(double x) { return (unpackDouble2x32(x) & uvec2(0xffffffffu, 0x7fffffffu)) != uvec2(0u); }

/// The e with 2^(e-1) <= |x| < 2^e of a finite nonzero x, from its bits (frexp may mishandle
/// subnormals).
int exponent_of(double x) {
  const uvec2 w = unpackDouble2x32(x);
  const int biased = int((w.y >> 20) & 0x7ffu);
  if (biased != 0) return biased - 1022;
  const uint hi = w.y & 0xfffffu;  // subnormal: mantissa * 2^-1074
  return (hi != 0u ? 32 + findMSB(hi) : findMSB(w.x)) + 1 - 1074;
}

/// An element at `at` as (re, im) in f64: im 0 for real operands.
dvec2 load_x(uint64_t at) {
  if (SINGLE) return CPLX ? dvec2(F2(at).v) : dvec2(double(F1(at).v), 0.0);
  return CPLX ? D2R(at).v : dvec2(F64R(at).v, 0.0);
}

/// C's element at `at` as (re, im), and its store (f32 parts rounded once).
dvec2 load_c(uint64_t at) {
  if (SINGLE) return CPLX ? dvec2(F2(at).v) : dvec2(double(F1(at).v), 0.0);
  return CPLX ? D2(at).v : dvec2(F64(at).v, 0.0);
}
void store_c(uint64_t at, dvec2 v) {
  if (SINGLE && CPLX) F2(at).v = vec2(v);
  else if (SINGLE) F1(at).v = float(v.x);
  else if (CPLX) D2(at).v = v;
  else F64(at).v = v.x;
}

/// alpha's or beta's bits (GemmParams) as (re, im) in f64.
dvec2 scalar_of(uint64_t re, uint64_t im) {
  if (SINGLE) return dvec2(uintBitsToFloat(uint(re)), CPLX ? uintBitsToFloat(uint(im)) : 0.0);
  return dvec2(bits_f64(re), CPLX ? bits_f64(im) : 0.0);
}

void scan() {
  DimsRef D = DimsRef(p.dims);
  const int64_t L = D.v[0], K = D.v[1], NB = D.v[2], sl = D.v[3], sk = D.v[4], sb = D.v[5], nch = D.v[8];
  const uint64_t dst = uint64_t(D.v[10]);
  if (D.v[14] != 0 && D.v[17] != 0 && gl_GlobalInvocationID.x == 0u) {  // certified, A's scan
    I4(uint64_t(D.v[16])).v = ivec4(0);
    I32(uint64_t(D.v[17])).v = 0;
  }
  const int64_t total = L * nch * NB, step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    int64_t line, q, c, b;
    divmod(i, L, q, line);
    divmod(q, nch, b, c);  // q = b * nch + c
    const int64_t k0 = c * TFO_CHUNK;
    int e = kZeroExp;
    bool bad = false;
    double asum = 0.0, nonzero = 0.0;
    const uint64_t base = p.a + uint64_t((line * sl + b * sb) * int64_t(ESZ));
    for (int kk = 0; kk < TFO_CHUNK; kk += 16) {
      // Unconditional loads (k clamped, the excess ignored), so that all 16 are in flight at once.
      dvec2 x[16];
      [[unroll]] for (int j = 0; j < 16; ++j)
        x[j] = load_x(base + uint64_t(min(k0 + kk + j, K - 1) * sk * int64_t(ESZ)));
      [[unroll]] for (int j = 0; j < 16; ++j) {
        if (k0 + kk + j >= K) continue;
        if (any(isnan(x[j])) || any(isinf(x[j]))) {
          bad = true;
        } else {
          const bool nr = nonzero_bits(x[j].x), ni = CPLX && nonzero_bits(x[j].y);
          if (nr || ni) {
            if (nr) e = max(e, exponent_of(x[j].x));
            if (ni) e = max(e, exponent_of(x[j].y));
            asum += CPLX ? abs(x[j].x) + abs(x[j].y) : abs(x[j].x);
            nonzero += 1.0;
          }
        }
      }
    }
    I32(dst + uint64_t(i * 4)).v = bad ? TFO_BAD_LINE : e;
    if (D.v[14] != 0) D2(uint64_t(D.v[14]) + uint64_t(i * 16)).v = dvec2(asum, nonzero);
  }
}

void scale() {
  DimsRef D = DimsRef(p.dims);
  const int64_t L = D.v[0], NB = D.v[2], nch = D.v[8], P = D.v[9];
  const uint64_t ex = uint64_t(D.v[10]), scales = uint64_t(D.v[11]), chunks = uint64_t(D.v[14]);
  const int64_t total = L * NB, step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    int64_t line, b;
    divmod(i, L, b, line);
    // The chunks' exponents and (certified) their (sum, count), eight chunks' loads in flight
    // (the chunk clamped, the excess ignored), summed in chunk order. sum |x| in f64 is within
    // (TFO_CHUNK + nch) u of the exact sum (below 2^-36 for K <= TFO_MAX_K): 1 + 2^-30 makes
    // it an upper bound.
    int e = kZeroExp;
    dvec2 t = dvec2(0.0);
    for (int64_t c0 = 0; c0 < nch; c0 += 8) {
      int ec[8];
      dvec2 u[8];
      [[unroll]] for (int j = 0; j < 8; ++j) {
        const int64_t at = (b * nch + min(c0 + j, nch - 1)) * L + line;
        ec[j] = I32(ex + uint64_t(at * 4)).v;
        u[j] = chunks != 0 ? D2(chunks + uint64_t(at * 16)).v : dvec2(0.0);
      }
      [[unroll]] for (int j = 0; j < 8; ++j)
        if (c0 + j < nch) {
          e = max(e, ec[j]);
          t += u[j];
        }
    }
    const double sum_up = t.x * (1.0 + pow2(-30));
    if (chunks != 0 && t.y < double(D.v[1])) I32(uint64_t(D.v[19])).v = 1;  // a zero: not dense
    // Word 18 != 0: the line's sum of |x| (not its largest) scaled below 2^P (an overflowed
    // sum: the bound 2^(e + 17) of K <= 2^16 elements below 2^e).
    const int e_scale = D.v[18] == 0 || e == kZeroExp || e == TFO_BAD_LINE ? e
                        : isinf(sum_up) || isnan(sum_up) ? e + 17 : exponent_of(sum_up);
    const int s = e == TFO_BAD_LINE ? TFO_BAD_LINE : e == kZeroExp ? 0 : int(P) - e_scale;
    I32(scales + uint64_t(i * 4)).v = s;
    // Certified: the bound of sum |x| 2^s (exact scaling), the nonzero count, and w = 2^(e + s
    // - 7), the unit of the line's q (its largest scaled |x| lies in [2^(e+s-1), 2^(e+s))).
    if (chunks != 0)
      D4(uint64_t(D.v[15]) + uint64_t(i * 32)).v =
          dvec4(s == TFO_BAD_LINE ? 0.0 : scale2(sum_up, s), t.y, e == kZeroExp || s == TFO_BAD_LINE ? 1.0 : pow2(e + s - 7), 0.0);
  }
}

/// The split's residues of 16 integers given as digits X' = d2 2^42 + d1 2^21 + d0, one 16-byte
/// word per modulus from `dst`, plane_bytes apart. Per modulus (a rolled loop: the unrolled
/// planes' code outgrew the instruction cache; its constants tabulated in ozaki_params.h:
/// computed here, they cost as much as the residues): t = d2 (2^42 mod m) + d1 (2^21 mod m) + d0 + a
/// multiple of m above 2^28 lies in [0, 2^31), its quotient by m exact through TFO_RECIP39, the
/// remainder in [0, m) its byte.
void residues(const int d0[16], const int d1[16], const int d2[16], uint64_t dst, const uint64_t plane_bytes) {
  [[dont_unroll]] for (uint l = 0; l < NMOD; ++l, dst += plane_bytes) {
    const uint m = uint(kMod[l]), recip = kRecip39[l], c21 = kC21[l], c42 = kC42[l], bias = kBias28[l];
    uint w[4] = uint[4](0u, 0u, 0u, 0u);
    [[unroll]] for (int j = 0; j < 16; ++j) {
      const uint t = uint(d2[j] * int(c42)) + uint(d1[j]) * c21 + uint(d0[j]) + bias;
      uint quo, low;
      umulExtended(t, recip, quo, low);
      w[j / 4] |= (t - (quo >> 7) * m) << (8 * (j % 4));
    }
    U4(dst).v = uvec4(w[0], w[1], w[2], w[3]);
  }
}

void split() {
  DimsRef D = DimsRef(p.dims);
  const int64_t L = D.v[0], K = D.v[1], NB = D.v[2], sl = D.v[3], sk = D.v[4], sb = D.v[5];
  const int64_t Lp = D.v[6], Kp = D.v[7];
  const uint64_t scales = uint64_t(D.v[11]), planes = uint64_t(D.v[12]);
  const bool line_fastest = D.v[13] != 0;
  const int64_t groups = Kp >> 4, total = Lp * groups * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    // 32 invocations: 8 adjacent lines x 4 adjacent runs of 16 k, so that each load instruction
    // reads whole 32-byte sectors along a unit line stride and each plane row gets 64
    // contiguous bytes; then the next 8 lines (word 13 != 0: for a unit line stride) or the next
    // 64 k.
    const int64_t q = i >> 5, lq = Lp >> 3, gq = groups >> 2;
    int64_t b, r, hi, lo;
    divmod(q, lq * gq, b, r);
    divmod(r, line_fastest ? lq : gq, hi, lo);
    const int64_t l8 = line_fastest ? lo : hi, g4 = line_fastest ? hi : lo;
    const int64_t line = l8 * 8 + (i & 7), g = g4 * 4 + ((i >> 3) & 3);
    const int s = I32(scales + uint64_t((b * L + min(line, L - 1)) * 4)).v;
    // Certified: the unit w of the line's q (2^k, so 1 / w is exact), loaded with the scale.
    const double to7 = D.v[14] != 0 ? 1.0 / D4(uint64_t(D.v[15]) + uint64_t((b * L + min(line, L - 1)) * 32)).v.z : 0.0;
    const bool zero_line = line >= L || s == TFO_BAD_LINE;
    // Unconditional loads (line and k clamped, the excess zeroed after), so that all 16 are in
    // flight at once: guarded, each load waited in its own branch.
    const uint64_t base = p.a + uint64_t((min(line, L - 1) * sl + b * sb) * int64_t(ESZ));
    double v[16], vi[16];  // (vi: complex operands' imaginary parts; 0 and dead for real ones)
    [[unroll]] for (int j = 0; j < 16; ++j) {
      const dvec2 x = load_x(base + uint64_t(min(g * 16 + j, K - 1) * sk * int64_t(ESZ)));
      v[j] = x.x;
      vi[j] = x.y;
    }
    // X' = d2 2^42 + d1 2^21 + d0 (0 <= d0, d1 < 2^21, |d2| <= 2^20 as |X'| <= 2^62): the real
    // parts' (complex: plane set 0) first, in the f64 pass's order (digits, q plane, residues).
    int d0[16], d1[16], d2[16];
    const int sc = zero_line ? 0 : s;  // (zero lines: v is zeroed below)
    const bool conj = CPLX && D.v[21] != 0;
    [[unroll]] for (int j = 0; j < 16; ++j) {
      if (zero_line || g * 16 + j >= K) {
        v[j] = 0.0;
        vi[j] = 0.0;
      }
      if (conj) vi[j] = -vi[j];
      const int64_t x = int64_t(roundEven(scale2(v[j], sc)));
      d0[j] = int(uint(x) & 0x1fffffu);
      d1[j] = int(uint(x >> 21) & 0x1fffffu);
      d2[j] = int(x >> 42);
    }
    const uint64_t dst = planes + uint64_t((b * Lp + line) * Kp + g * 16);
    const uint64_t plane_bytes = uint64_t(SETS * NB * Lp * Kp);  // one modulus' planes
    if (D.v[14] != 0) {  // certified: plane NMOD, the q bytes (before the residues: real v dies here)
      // Dense operands (no zero element in A or B: the flag at word 19 is 0): q = floor(x / w)
      // of every second k where Kq (word 20) < Kp, at column k / 2; else q = floor(x / w) + (x
      // != 0) of every k. Complex: x = max(|re|, |im|) (a lower bound of |x|).
      const bool dense = I32(uint64_t(D.v[19])).v == 0, halved = dense && D.v[20] < Kp;
      const uint one = dense ? 0u : 1u;
      uint w[4] = uint[4](0u, 0u, 0u, 0u);
      [[unroll]] for (int j = 0; j < 16; ++j) {
        const bool nz = nonzero_bits(v[j]) || (CPLX && nonzero_bits(vi[j]));
        const double x = CPLX ? scale2(max(abs(v[j]), abs(vi[j])), sc) : abs(scale2(v[j], sc));
        const uint q = nz ? uint(floor(x * to7)) + one : 0u;
        if (!halved) w[j / 4] |= q << (8 * (j % 4));
        else if (j % 2 == 0) w[j / 8] |= q << (8 * ((j / 2) % 4));
      }
      const uint64_t qrow = planes + NMOD * plane_bytes + uint64_t((b * Lp + line) * Kp);
      if (!halved) {
        U4(qrow + uint64_t(g * 16)).v = uvec4(w[0], w[1], w[2], w[3]);
      } else {
        U2(qrow + uint64_t(g * 8)).v = uvec2(w[0], w[1]);
        if (g == groups - 1)  // the columns from Kp / 2 to Kq, read by the product
          for (int64_t c = Kp / 2; c < D.v[20]; c += 16) U4(qrow + uint64_t(c)).v = uvec4(0u);
      }
    }
    residues(d0, d1, d2, dst, plane_bytes);
    // Complex: plane sets 1 (X'_im) and 2 (X'_re + X'_im, exact), NB Lp Kp bytes apart.
    if (CPLX)
      [[unroll]] for (uint set = 1u; set < 3u; ++set) {
        [[unroll]] for (int j = 0; j < 16; ++j) {
          int64_t x = int64_t(roundEven(scale2(vi[j], sc)));
          if (set == 2u) x += int64_t(roundEven(scale2(v[j], sc)));
          d0[j] = int(uint(x) & 0x1fffffu);
          d1[j] = int(uint(x >> 21) & 0x1fffffu);
          d2[j] = int(x >> 42);
        }
        residues(d0, d1, d2, dst + uint64_t(set) * uint64_t(NB * Lp * Kp), plane_bytes);
      }
  }
}

/// The integer X (|X| <= M / 4 by the scaling) whose residue mod m_l is byte t of w[l]: the
/// Chinese remainder theorem as one sum (ozaki_crt.h). With y_l = r_l P_l^-1 mod m_l, X = sum_l
/// y_l P_l - k M, k = round(sum_l y_l / m_l). P_l = H_l + L_l + R_l: the H terms are multiples
/// of 2^E below 2^(E + 53), the L terms multiples of 2^(E-41) below 2^(E + 12), so both sums are
/// exact in any order; the R terms err by less than 2^(E-77) in all, the last two additions by
/// 2 u |X| (certify() adds 2^(E-75) to its bound). Fused or not, the fmas keep these bounds.
double crt(const uint w[TFO_MAX_MODULI], const uint t) {
  uint row = (NMOD - TFO_MIN_MODULI) * TFO_MAX_MODULI;  // (not const, as rm below)
  precise double th = 0.0, tm = 0.0, tl = 0.0, f = 0.0;
  [[unroll]] for (uint l = 0; l < NMOD; ++l) {
    const uint y = ((w[l] >> (8 * t)) & 0xffu) * uint(kCrtInv[row + l]) % uint(kMod[l]);
    const double yd = packDouble2x32(uvec2(y, 0x43300000u)) - 4503599627370496.0;  // exact
    th = fma(yd, bits_f64(kCrtH[row + l]), th);
    tm = fma(yd, bits_f64(kCrtL[row + l]), tm);
    tl = fma(yd, bits_f64(kCrtR[row + l]), tl);
    f = fma(yd, bits_f64(kCrtRecip[l]), f);
  }
  const double k = -roundEven(f);
  uint rm = NMOD - TFO_MIN_MODULI;  // (not const: glslang 12 mistranslates a const index here)
  th = fma(k, bits_f64(kCrtMH[rm]), th);
  tm = fma(k, bits_f64(kCrtML[rm]), tm);
  tl = fma(k, bits_f64(kCrtMR[rm]), tl);
  return (th + tm) + tl;
}

/// Complex products: the residues of Re X = P_re - P_im and Im X = P_sum - P_re - P_im modulo m,
/// four outputs' bytes per word, from the three products' words.
void complex_residues(uint p_re, uint p_im, uint p_sum, uint m, out uint re, out uint im) {
  re = 0u;
  im = 0u;
  [[unroll]] for (int t = 0; t < 32; t += 8) {
    const uint r1 = bitfieldExtract(p_re, t, 8), r2 = bitfieldExtract(p_im, t, 8), r3 = bitfieldExtract(p_sum, t, 8);
    uint x = r1 + m - r2, y = r3 + 2u * m - r1 - r2;  // in [0, 2m) and [0, 3m)
    x = x >= m ? x - m : x;
    y = y >= m ? y - m : y;
    y = y >= m ? y - m : y;
    re |= x << t;
    im |= y << t;
  }
}

void combine() {
  DimsRef D = DimsRef(p.dims);
  const int64_t M = D.v[0], N = D.v[1], K = D.v[2], NB = D.v[3];
  const int64_t sam = D.v[4], sak = D.v[5], sab = D.v[6], sbk = D.v[7], sbn = D.v[8], sbb = D.v[9];
  const int64_t scm = D.v[10], scn = D.v[11], scb = D.v[12], Mp = D.v[13], Np = D.v[14];
  const uint64_t sa = uint64_t(D.v[15]), sbs = uint64_t(D.v[16]), planes = uint64_t(D.v[17]);
  const dvec2 alpha = scalar_of(p.alpha[0], p.alpha[1]), beta = scalar_of(p.beta[0], p.beta[1]);
  const bool read_c = (p.flags & TFG_READ_C) != 0u;
  const double conj_a = CPLX && (p.flags & TFG_CONJ_A) != 0u ? -1.0 : 1.0;
  const double conj_b = CPLX && (p.flags & TFG_CONJ_B) != 0u ? -1.0 : 1.0;
  if (D.v[18] != 0 && I32(uint64_t(D.v[18])).v != 0) return;  // the certificate failed
  const int64_t quads = (M + 3) >> 2, total = quads * N * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  const uint64_t set_bytes = uint64_t(NB * Np * Mp);  // (complex: the residue products' sets)
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    int64_t mq, q, n, b;
    divmod(i, quads, q, mq);
    divmod(q, N, b, n);
    // Every load before any is used: the residues' words (four outputs each), both scales.
    uint w[TFO_MAX_MODULI], wi[TFO_MAX_MODULI], w2[TFO_MAX_MODULI], w3[TFO_MAX_MODULI];
    [[unroll]] for (uint l = 0; l < NMOD; ++l) {
      const uint64_t at = planes + uint64_t(((int64_t(l * SETS) * NB + b) * Np + n) * Mp + mq * 4);
      w[l] = U32(at).v;
      if (CPLX) {
        w2[l] = U32(at + set_bytes).v;
        w3[l] = U32(at + 2u * set_bytes).v;
      }
    }
    const int s_n = I32(sbs + uint64_t((b * N + n) * 4)).v;
    const uint64_t sab_m = sa + uint64_t(b * M * 4);
    const ivec4 s4 = ivec4(I32(sab_m + uint64_t(min(mq * 4, M - 1) * 4)).v, I32(sab_m + uint64_t(min(mq * 4 + 1, M - 1) * 4)).v,
                           I32(sab_m + uint64_t(min(mq * 4 + 2, M - 1) * 4)).v, I32(sab_m + uint64_t(min(mq * 4 + 3, M - 1) * 4)).v);
    if (CPLX)
      [[unroll]] for (uint l = 0; l < NMOD; ++l) complex_residues(w[l], w2[l], w3[l], uint(kMod[l]), w[l], wi[l]);
    // The four outputs' integers first: independent chains of fmas, which the compiler interleaves.
    double xs[4], ys[4];
    [[unroll]] for (uint t = 0; t < 4; ++t) {
      xs[t] = crt(w, t);
      ys[t] = CPLX ? crt(wi, t) : 0.0;
    }
    [[unroll]] for (int t = 0; t < 4; ++t) {
      const int64_t m = mq * 4 + t;
      if (m >= M) continue;
      const int s_m = s4[t];
      dvec2 v;
      if (s_m == TFO_BAD_LINE || s_n == TFO_BAD_LINE) {
        v = dvec2(0.0);
        for (int64_t k = 0; k < K; ++k) {
          const dvec2 x = load_x(p.a + uint64_t((m * sam + k * sak + b * sab) * int64_t(ESZ))) * dvec2(1.0, conj_a);
          const dvec2 y = load_x(p.b + uint64_t((k * sbk + n * sbn + b * sbb) * int64_t(ESZ))) * dvec2(1.0, conj_b);
          v.x = fma(x.x, y.x, v.x);
          if (CPLX) v = dvec2(fma(-x.y, y.y, v.x), fma(x.y, y.x, fma(x.x, y.y, v.y)));
        }
      } else {
        v = dvec2(scale2(xs[t], -(s_m + s_n)), CPLX ? scale2(ys[t], -(s_m + s_n)) : 0.0);
      }
      const uint64_t at = p.c + uint64_t((m * scm + n * scn + b * scb) * int64_t(ESZ));
      if (CPLX) {  // (a real alpha or beta scales both parts: no 0 * Inf from a zero imaginary part)
        v = alpha.y == 0.0 ? alpha.x * v : dvec2(alpha.x * v.x - alpha.y * v.y, alpha.x * v.y + alpha.y * v.x);
        if (read_c) {
          const dvec2 c = load_c(at);
          v += beta.y == 0.0 ? beta.x * c : dvec2(beta.x * c.x - beta.y * c.y, beta.x * c.y + beta.y * c.x);
        }
      } else {
        v.x *= alpha.x;
        if (read_c) v.x = fma(beta.x, load_c(at).x, v.x);
      }
      store_c(at, v);
    }
  }
}

// The certificate (docs/gemm.md, "certified"). In units of 2^-(sA + sB), with x = |a| 2^sA, y = |b|
// 2^sB and S the k where a and b are both nonzero (zero elements are exact, so only S contributes):
// the rounding to integers errs by at most 1/2 per element, hence |err| <= 1/2 sum_S y + 1/2 sum_S
// x + |S| / 4 <= (RA + RB) / 2 + min(NZA, NZB) / 4; and x >= (q - 1) wA on S (wA = 2^(ex - 7), ex
// the exponent of the line's largest x), hence sum_S x y >= wA wB (Q - QA - QB) with QA = sum_k q
// <= RA / wA + NZA (and QB alike). Q == 0: S is empty and the result exact. Dense operands (no zero
// element: S is every k) have q = floor(x / wA) on a subset of k instead, so x >= q wA there and
// sum x y >= wA wB Q. The combine recovers the integer X within 2 u |X| + 2^(E-76) (combine(); E
// from ozaki_crt.h), and |X| <= sum_S x y + err: the absolute part (doubled) is added to err here,
// and tau = (K - 8) u leaves the relative one the rest of K u (alpha's and beta's roundings come on
// top, as for the FMA kernels).
void certify() {
  DimsRef D = DimsRef(p.dims);
  const int64_t M = D.v[0], N = D.v[1], NB = D.v[3], Mp = D.v[4], Np = D.v[5];
  const uint64_t sa = uint64_t(D.v[6]), sbs = uint64_t(D.v[7]), la = uint64_t(D.v[8]), lb = uint64_t(D.v[9]);
  const uint64_t qs = uint64_t(D.v[10]);
  const double tau = bits_f64(uint64_t(D.v[15]));
  // One invocation per row m and run of TFO_CERTIFY_RUN columns n: the row's words are read
  // once, the columns' are the same across a subgroup (consecutive m), and Q's are coalesced.
  const int64_t runs = (N + TFO_CERTIFY_RUN - 1) / TFO_CERTIFY_RUN, total = M * runs * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  bool fail = false;
  uint rm = NMOD - TFO_MIN_MODULI;  // (not const, as in combine())
  const double crt_err = pow2(kCrtE[rm] - 75);
  const bool dense = I32(uint64_t(D.v[14])).v == 0;  // (the split's q encoding)
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    int64_t m, q, r, b;
    divmod(i, M, q, m);
    divmod(q, runs, b, r);
    if (I32(sa + uint64_t((b * M + m) * 4)).v == TFO_BAD_LINE) continue;  // plain dot products
    const dvec4 ra = D4(la + uint64_t((b * M + m) * 32)).v;
    const double qa = (ra.x / ra.z + ra.y) * (1.0 + pow2(-40));  // (not dense: QA's bound)
    const int64_t n1 = min(N, (r + 1) * TFO_CERTIFY_RUN);
    for (int64_t n = r * TFO_CERTIFY_RUN; n < n1; ++n) {
      const uint Q = U32(qs + uint64_t(((b * Np + n) * Mp + m) * 4)).v;
      if ((Q == 0u && !dense) || I32(sbs + uint64_t((b * N + n) * 4)).v == TFO_BAD_LINE)
        continue;  // exact, or a plain dot product
      const dvec4 rb = D4(lb + uint64_t((b * N + n) * 32)).v;
      const double err = 0.5 * (ra.x + rb.x) + (CPLX ? 0.5 : 0.25) * min(ra.y, rb.y) + crt_err;
      const double low = dense ? double(Q) : double(Q) - qa - (rb.x / rb.z + rb.y) * (1.0 + pow2(-40));
      if (!(low > 0.0 && err <= tau * low * (ra.z * rb.z))) fail = true;  // (NaN: fails)
    }
  }
  if (fail) {
    I4(uint64_t(D.v[11])).v = ivec4(int(D.v[12]), int(D.v[13]), 1, dense ? 0 : 1);
    I32(uint64_t(D.v[16])).v = 1;  // the outcome word (host-visible)
  }
}

void main() {
  if (KIND == TFO_SCAN) scan();
  else if (KIND == TFO_SCALE) scale();
  else if (KIND == TFO_SPLIT) split();
  else if (KIND == TFO_CERTIFY) certify();
  else combine();
}
