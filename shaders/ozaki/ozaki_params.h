// Ozaki scheme II (f64, c64, f32, c32 products on exact 8-bit products; src/vulkan/kernels/gemm/ozaki.cpp),
// included by GLSL and C++. Ozaki, Uchino, Imamura, "Ozaki Scheme II: A GEMM-oriented emulation
// of floating-point matrix multiplication using an integer modular technique" (2025).
//
// The moduli: pairwise coprime, at most 256, so that a residue in [0, m) fits an unsigned byte.
// A call uses the first n (7 <= n <= 20; 7: certified f32 / c32 products).
#ifndef TENFERRO_SHADERS_OZAKI_OZAKI_PARAMS_H
#define TENFERRO_SHADERS_OZAKI_OZAKI_PARAMS_H

#define TFO_MODULI 256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 211, 199, 197, 193, 191, 181, 179, 173, 167
#define TFO_MAX_MODULI 20
// The split pass's constants per modulus (checked by OzakiParams tests): TFO_RECIP39[l] =
// ceil(2^39 / m_l), so that floor(y / m) = (y TFO_RECIP39 / 2^32) >> 7 exactly for y < 2^31 (the
// excess e = TFO_RECIP39 m - 2^39 is below 2^8, hence y e / (m 2^39) < 1 / m); TFO_C21[l] = 2^21
// mod m_l, TFO_C42[l] = 2^42 mod m_l; TFO_BIAS28[l] = m_l (floor(2^28 / m_l) + 1), the multiple
// of m_l that makes a split's residue sum non-negative.
#define TFO_RECIP39                                                                                     \
    2147483648u, 2155905153u, 2172947881u, 2190262207u, 2225732041u, 2281144456u, 2300233531u,          \
    2359467013u, 2400680410u, 2421831780u, 2465272709u, 2605477791u, 2762592030u, 2790638650u,          \
    2848475720u, 2878302691u, 3037324939u, 3071261531u, 3177779272u, 3291950982u
#define TFO_C21 0u, 32u, 35u, 47u, 122u, 211u, 166u, 152u, 199u, 126u, 60u, 23u, 90u, 87u, 14u, 163u, 86u, 167u, 46u, 133u
#define TFO_C42 0u, 4u, 213u, 201u, 64u, 177u, 71u, 37u, 213u, 213u, 32u, 107u, 140u, 83u, 3u, 20u, 156u, 144u, 40u, 154u
#define TFO_BIAS28                                                                                      \
    268435712u, 268435695u, 268435530u, 268435464u, 268435648u, 268435681u, 268435479u, 268435572u,     \
    268435632u, 268435672u, 268435581u, 268435466u, 268435478u, 268435549u, 268435594u, 268435602u,     \
    268435489u, 268435560u, 268435623u, 268435466u
#define TFO_MIN_MODULI 7
// Planes (residue matrices) are padded with zeros to multiples of TFO_TILE lines and of TFO_TILE
// along k: the cooperative-matrix kernel's tile and K slice.
#define TFO_TILE 128
// k per invocation of the scan pass.
#define TFO_CHUNK 64
// Columns n per invocation of the certify pass (one row m each).
#define TFO_CERTIFY_RUN 16
// K limit: a residue product sums at most TFO_MAX_K terms of r r' <= 255 * 255, so that the
// sum stays below 2^32 (exact in uint32).
#define TFO_MAX_K 65536
// Scale word of a line (row of A, column of B) holding a non-finite element: its outputs are
// computed by a plain f64 dot product instead (IEEE Inf / NaN propagation).
#define TFO_BAD_LINE 0x7fffffff

// Specialization constant 1 of ozaki.comp (MODE).
#define TFO_SCAN 0u     // exponent of the largest |x| per line and K chunk
#define TFO_SPLIT 1u    // scale, round, residues: the byte planes
#define TFO_COMBINE 2u  // CRT of the residue products (ozaki_crt.h), scale back, alpha / beta
#define TFO_SCALE 3u    // per line: the scale exponent from the chunks' exponents
#define TFO_CERTIFY 4u  // certified products: the error bound per output (docs/gemm.md)
// Or'ed into specialization constant 1: the operands and C are complex (c64; certified products
// only): three plane sets per operand (re, im, re + im) and three residue products per modulus,
// Re = P_re - P_im, Im = P_sum - P_re - P_im (exact in residues; ozaki.comp).
#define TFO_COMPLEX 16u
// Or'ed into specialization constant 1 (with TFO_COMPLEX for c32): f32 elements (read into f64;
// C rounded to f32 where written).
#define TFO_SINGLE 32u
#define TFO_MODE_MASK 15u

#ifndef __cplusplus
const int kMod[TFO_MAX_MODULI] = int[TFO_MAX_MODULI](TFO_MODULI);
const uint kRecip39[TFO_MAX_MODULI] = uint[TFO_MAX_MODULI](TFO_RECIP39);
const uint kC21[TFO_MAX_MODULI] = uint[TFO_MAX_MODULI](TFO_C21);
const uint kC42[TFO_MAX_MODULI] = uint[TFO_MAX_MODULI](TFO_C42);
const uint kBias28[TFO_MAX_MODULI] = uint[TFO_MAX_MODULI](TFO_BIAS28);
/// 2^32 / m rounded up (2 <= m <= 256): tfo_rem's reciprocal.
uint tfo_magic(uint m) { return 0xffffffffu / m + 1u; }
/// x mod m for any uint x and 2 <= m <= 256, given magic = tfo_magic(m): the high word of
/// x * magic is the quotient or one more, so one correction. For a modulus known only at run
/// time (the compiler's remainder is then a float division).
uint tfo_rem(uint x, uint m, uint magic) {
  uint hi, lo;
  umulExtended(x, magic, hi, lo);
  const uint r = x - hi * m;
  return int(r) < 0 ? r + m : r;
}
#endif

#endif
