// Typed loads/stores through buffer device addresses: element `off` of the storage at `base`.
// TF_ACCESS(Name, Type, Size) declares load_Name(base, off) and store_Name(base, off, x).
#define TF_ACCESS(NAME, TYPE, SIZE)                                                       \
  layout(buffer_reference, std430, buffer_reference_align = SIZE) buffer NAME##Ref {      \
    TYPE v;                                                                               \
  };                                                                                      \
  TYPE load_##NAME(uint64_t base, IDX off) {                                              \
    return NAME##Ref(base + uint64_t(off) * uint64_t(SIZE)).v;                            \
  }                                                                                       \
  void store_##NAME(uint64_t base, IDX off, TYPE x) {                                     \
    NAME##Ref(base + uint64_t(off) * uint64_t(SIZE)).v = x;                               \
  }

#ifdef TF_F32_STORAGE
// f32 / c32 elements computed as f64 / c64 (types.glsl): widened exactly from their bits, also
// subnormals where the device flushes them (f32_bits.glsl), and rounded once when stored.
#include "common/f32_bits.glsl"
#ifdef TF_KIND_COMPLEX
TF_ACCESS(Bits, uvec2, 8)
#else
TF_ACCESS(Bits, uint, 4)
#endif
TF_ACCESS(RBits, uint, 4)
T load_T(uint64_t base, IDX off) { return f32_widen(load_Bits(base, off)); }
void store_T(uint64_t base, IDX off, T x) { store_Bits(base, off, f32_narrow(x)); }
R load_R(uint64_t base, IDX off) { return f32_widen(load_RBits(base, off)); }
void store_R(uint64_t base, IDX off, R x) { store_RBits(base, off, f32_narrow(x)); }
#else
TF_ACCESS(T, T, TF_SIZE)
#ifdef R
TF_ACCESS(R, R, TF_RSIZE)
#endif
#endif
TF_ACCESS(Bool, uint8_t, 1)

bool load_bool(uint64_t base, IDX off) { return uint(load_Bool(base, off)) != 0u; }
void store_bool(uint64_t base, IDX off, bool b) { store_Bool(base, off, uint8_t(b ? 1u : 0u)); }

#ifdef TF_CONTIG
// Contiguous fast path (variants <kernel>_<type>_contig): 4 consecutive elements at element
// `i` (a multiple of 4) of the storage at `base` as raw 16-byte words (uvec4, align 16) or, for
// 1-byte elements, one uint (align 4). Only used when the host checked every non-broadcast
// operand address for that alignment (TF_CONTIG_VEC in index.glsl).
uint tf_bits(float x) { return floatBitsToUint(x); }
uint tf_bits(int x) { return uint(x); }
uint tf_bits(uint x) { return x; }
uvec2 tf_bits(vec2 x) { return floatBitsToUint(x); }
uvec2 tf_bits(uvec2 x) { return x; }
uvec2 tf_bits(int64_t x) { return unpackUint2x32(uint64_t(x)); }
uvec4 tf_bits(uvec4 x) { return x; }
uint tf_bits(uint8_t x) { return uint(x); }
void tf_unbits(uint w, out float x) { x = uintBitsToFloat(w); }
void tf_unbits(uint w, out int x) { x = int(w); }
void tf_unbits(uint w, out uint x) { x = w; }
void tf_unbits(uvec2 w, out vec2 x) { x = uintBitsToFloat(w); }
void tf_unbits(uvec2 w, out uvec2 x) { x = w; }
void tf_unbits(uvec2 w, out int64_t x) { x = int64_t(packUint2x32(w)); }
void tf_unbits(uvec4 w, out uvec4 x) { x = w; }
void tf_unbits(uint w, out uint8_t x) { x = uint8_t(w & 0xffu); }
#if defined(TF_F32_STORAGE)
uint tf_bits(double x) { return f32_narrow(x); }
uvec2 tf_bits(dvec2 x) { return f32_narrow(x); }
void tf_unbits(uint w, out double x) { x = f32_widen(w); }
void tf_unbits(uvec2 w, out dvec2 x) { x = f32_widen(w); }
#elif defined(TF_F64)
uvec2 tf_bits(double x) { return unpackDouble2x32(x); }
uvec4 tf_bits(dvec2 x) { return uvec4(unpackDouble2x32(x.x), unpackDouble2x32(x.y)); }
void tf_unbits(uvec2 w, out double x) { x = packDouble2x32(w); }
void tf_unbits(uvec4 w, out dvec2 x) { x = dvec2(packDouble2x32(w.xy), packDouble2x32(w.zw)); }
#endif

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TfW1Ref { uint w; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer TfW4Ref { uvec4 w; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer TfW8Ref { uvec4 w[2]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer TfW16Ref { uvec4 w[4]; };

// TF_ACCESS4_<size>(Name, Type): load4_Name(base, i, out x[4]) / store4_Name(base, i, x[4]).
#define TF_ACCESS4_1(NAME, TYPE)                                                          \
  void load4_##NAME(uint64_t base, uint i, out TYPE x[4]) {                               \
    uint w = TfW1Ref(base + uint64_t(i)).w;                                               \
    tf_unbits(w, x[0]); tf_unbits(w >> 8, x[1]); tf_unbits(w >> 16, x[2]);                \
    tf_unbits(w >> 24, x[3]);                                                             \
  }                                                                                       \
  void store4_##NAME(uint64_t base, uint i, TYPE x[4]) {                                  \
    TfW1Ref(base + uint64_t(i)).w = tf_bits(x[0]) | (tf_bits(x[1]) << 8) |                \
                                    (tf_bits(x[2]) << 16) | (tf_bits(x[3]) << 24);        \
  }
#define TF_ACCESS4_4(NAME, TYPE)                                                          \
  void load4_##NAME(uint64_t base, uint i, out TYPE x[4]) {                               \
    uvec4 w = TfW4Ref(base + uint64_t(i) * 4ul).w;                                        \
    tf_unbits(w.x, x[0]); tf_unbits(w.y, x[1]); tf_unbits(w.z, x[2]); tf_unbits(w.w, x[3]); \
  }                                                                                       \
  void store4_##NAME(uint64_t base, uint i, TYPE x[4]) {                                  \
    TfW4Ref(base + uint64_t(i) * 4ul).w =                                                 \
        uvec4(tf_bits(x[0]), tf_bits(x[1]), tf_bits(x[2]), tf_bits(x[3]));               \
  }
#define TF_ACCESS4_8(NAME, TYPE)                                                          \
  void load4_##NAME(uint64_t base, uint i, out TYPE x[4]) {                               \
    TfW8Ref r = TfW8Ref(base + uint64_t(i) * 8ul);                                        \
    uvec4 a = r.w[0], b = r.w[1];                                                         \
    tf_unbits(a.xy, x[0]); tf_unbits(a.zw, x[1]); tf_unbits(b.xy, x[2]); tf_unbits(b.zw, x[3]); \
  }                                                                                       \
  void store4_##NAME(uint64_t base, uint i, TYPE x[4]) {                                  \
    TfW8Ref r = TfW8Ref(base + uint64_t(i) * 8ul);                                        \
    r.w[0] = uvec4(tf_bits(x[0]), tf_bits(x[1]));                                         \
    r.w[1] = uvec4(tf_bits(x[2]), tf_bits(x[3]));                                         \
  }
#define TF_ACCESS4_16(NAME, TYPE)                                                         \
  void load4_##NAME(uint64_t base, uint i, out TYPE x[4]) {                               \
    TfW16Ref r = TfW16Ref(base + uint64_t(i) * 16ul);                                     \
    uvec4 a = r.w[0], b = r.w[1], c = r.w[2], d = r.w[3];                                 \
    tf_unbits(a, x[0]); tf_unbits(b, x[1]); tf_unbits(c, x[2]); tf_unbits(d, x[3]);       \
  }                                                                                       \
  void store4_##NAME(uint64_t base, uint i, TYPE x[4]) {                                  \
    TfW16Ref r = TfW16Ref(base + uint64_t(i) * 16ul);                                     \
    r.w[0] = tf_bits(x[0]); r.w[1] = tf_bits(x[1]);                                       \
    r.w[2] = tf_bits(x[2]); r.w[3] = tf_bits(x[3]);                                       \
  }
// (Selected with #if: a size argument would macro-expand the name T before pasting.)
#if TF_SIZE == 1
TF_ACCESS4_1(T, T)
#elif TF_SIZE == 4
TF_ACCESS4_4(T, T)
#elif TF_SIZE == 8
TF_ACCESS4_8(T, T)
#else
TF_ACCESS4_16(T, T)
#endif
#if TF_SIZE == 1
void load4_Bool(uint64_t base, uint i, out uint8_t x[4]) { load4_T(base, i, x); }
void store4_Bool(uint64_t base, uint i, uint8_t x[4]) { store4_T(base, i, x); }
#else
TF_ACCESS4_1(Bool, uint8_t)
#endif
#ifdef R
#if TF_RSIZE == TF_SIZE
void load4_R(uint64_t base, uint i, out R x[4]) { load4_T(base, i, x); }
void store4_R(uint64_t base, uint i, R x[4]) { store4_T(base, i, x); }
#elif TF_RSIZE == 4
TF_ACCESS4_4(R, R)
#else
TF_ACCESS4_8(R, R)
#endif
#endif
#endif  // TF_CONTIG
