// Ozaki scheme II (opt-in f64 products on exact int8 products; src/vulkan/kernels/gemm_ozaki.cpp),
// included by GLSL and C++. Ozaki, Uchino, Imamura, "Ozaki Scheme II: A GEMM-oriented emulation
// of floating-point matrix multiplication using an integer modular technique" (2025).
//
// The moduli: pairwise coprime, at most 256, so that a symmetric residue fits int8 ([-128, 127]
// for 256, [-(m-1)/2, (m-1)/2] for the odd ones). A call uses the first n (8 <= n <= 20).
#ifndef TENFERRO_SHADERS_OZAKI_OZAKI_PARAMS_H
#define TENFERRO_SHADERS_OZAKI_OZAKI_PARAMS_H

#define TFO_MODULI 256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 211, 199, 197, 193, 191, 181, 179, 173, 167
#define TFO_MAX_MODULI 20
#define TFO_MIN_MODULI 8
// Planes (residue matrices) are padded with zeros to multiples of TFO_TILE lines and of TFO_TILE
// along k: the cooperative-matrix kernel's tile and K slice.
#define TFO_TILE 128
// k per invocation of the scan pass.
#define TFO_CHUNK 64
// K limit: an int8 product sums at most TFO_MAX_K terms of |r| <= 128 * 128, so |c| <= 2^30
// (tfo_mod below, used by the residue-product kernels).
#define TFO_MAX_K 65536
// Scale word of a line (row of A, column of B) holding a non-finite element: its outputs are
// computed by a plain f64 dot product instead (IEEE Inf / NaN propagation).
#define TFO_BAD_LINE 0x7fffffff

// Specialization constant 1 of ozaki.comp (MODE).
#define TFO_SCAN 0u     // exponent of the largest |x| per line and K chunk
#define TFO_SPLIT 1u    // scale, round, residues: the int8 planes
#define TFO_COMBINE 2u  // CRT (Garner) of the residue products, scale back, alpha / beta
#define TFO_SCALE 3u    // per line: the scale exponent from the chunks' exponents

#ifndef __cplusplus
const int kMod[TFO_MAX_MODULI] = int[TFO_MAX_MODULI](TFO_MODULI);
/// The residue in [0, m) of an int32 c with |c| <= 2^30: c plus a multiple of m >= 2^30 is a
/// uint (wrapping) below 2^32.
uint tfo_mod(int c, uint m) { return (uint(c) + m * ((1u << 30) / m + 1u)) % m; }
#endif

#endif
