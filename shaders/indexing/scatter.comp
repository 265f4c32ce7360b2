#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[window start(i) + offset(i)] = OP(out[...], updates[i]) for every update element i;
// operand 0 = out (read-modify-write), 1 = updates, 2 = indices (I32/I64), 3 = lock table (uint, zeroed).
// Push constants = KernelParams, layout_addr = indexing block; spec constant 1 = combiner (TF_SC_*),
// OR TF_SC_FENCES (memory barriers inside the spin lock), OR TF_SC_UNIQUE (one window: no
// element is targeted twice, plain read-modify-write).
//
// Duplicate targets combine atomically, in unspecified order:
//   replace: plain stores for 1- and 4-byte elements (last write wins), the lock for 8/16 bytes
//     (a wider store may tear between two writers);  i32: atomicAdd/Max/Min, mul by CAS;
//   f32: CAS loops on the bits;  c32 add: one f32 CAS loop per part (parts add independently);
//   i64 add: two 32-bit atomicAdds with the carry of the low word propagated (exact mod 2^64);
//   everything else (f64, c64, c32 mul, i64 mul/max/min/replace): a spin lock per element, hashed into
//   the lock table, held for one read-modify-write. Only 32-bit atomics are used: the device is
//   created without shaderBufferInt64Atomics.
// The "w" variants (DT_F64 / DT_C64 with TF_F32_STORAGE: f32 / c32 elements combined in double,
// where the driver flushes f32 subnormals; types.glsl) keep the f32 / c32 paths above on the
// 32-bit words: CAS loops on each f32 part (add, mul, max, min), the lock for c32 mul / replace,
// the words widened exactly and the combined value rounded once (f32_widen / f32_narrow).
// Lavapipe workaround: with a memory barrier compiled into the lock loop (even one never
// executed), Mesa lavapipe loses locked updates; its LLVM atomics are sequentially consistent,
// so CPU devices get the variant without fences (constant-false FENCES removes the barriers).
#include "common/types.glsl"
#include "common/params.h"
#include "indexing/indexing_params.h"
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int OP_CODE = 0;  // TF_SC_* | TF_SC_FENCES
const int OP = OP_CODE & 7;
const bool FENCES = (OP_CODE & TF_SC_FENCES) != 0;
const bool UNIQUE = (OP_CODE & TF_SC_UNIQUE) != 0;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/complex.glsl"
#include "common/minmax.glsl"
#include "indexing/indexing.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer U32Ref {
  uint v;
};
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer I32Ref {
  int v;
};

#if defined(TF_KIND_FLOAT) || defined(TF_KIND_INT)
// dst = OP(dst, src); max/min propagate NaN (a NaN dst stays, a NaN src wins). Integers wrap.
T combine(T d, T s) {
  if (OP == TF_SC_REPLACE) return s;
  if (OP == TF_SC_ADD) return d + s;
  if (OP == TF_SC_MUL) return d * s;
#ifdef TF_KIND_FLOAT
  return OP == TF_SC_MAX ? tf_fmax(d, s) : tf_fmin(d, s);  // NaN propagates, -0 < +0
#else
  if (OP == TF_SC_MAX) return s > d ? s : d;
  return s < d ? s : d;
#endif
}
#elif defined(TF_KIND_COMPLEX)
T combine(T d, T s) {
  if (OP == TF_SC_REPLACE) return s;
  if (OP == TF_SC_MUL) return c_mul(d, s);
  return d + s;  // add (core rejects complex max/min)
}
#endif

#if defined(DT_F32) || defined(DT_C32) || defined(TF_F32_STORAGE)
// One float at byte address `a`: v = OP(v, s) by compare-and-swap on its bits (the "w" variants:
// R is double, the bits widened and the result rounded once).
#ifdef TF_F32_STORAGE
R f32_of(uint u) { return f32_widen(u); }
uint bits_of(R x) { return f32_narrow(x); }
#else
R f32_of(uint u) { return uintBitsToFloat(u); }
uint bits_of(R x) { return floatBitsToUint(x); }
#endif
void cas_f32(uint64_t a, R s) {
  U32Ref r = U32Ref(a);
  uint cur = r.v;
  for (;;) {
    R d = f32_of(cur), n;
    if (OP == TF_SC_ADD) n = d + s;
    else if (OP == TF_SC_MUL) n = d * s;
    else n = OP == TF_SC_MAX ? tf_fmax(d, s) : tf_fmin(d, s);
    const uint nb = bits_of(n);
    if (nb == cur) return;
    const uint prev = atomicCompSwap(r.v, cur, nb);
    if (prev == cur) return;
    cur = prev;
  }
}
#endif

#if defined(DT_F64) || defined(DT_C64) || defined(DT_I64) || defined(DT_C32)
// The 32-bit words of a value (TF_SIZE / 4 of them, little endian) and back.
#if defined(TF_F32_STORAGE) && defined(DT_C64)
T from_words(uvec4 w) { return f32_widen(w.xy); }
uvec4 to_words(T x) { return uvec4(f32_narrow(x), 0u, 0u); }
#elif defined(TF_F32_STORAGE)
T from_words(uvec4 w) { return f32_widen(w.x); }
uvec4 to_words(T x) { return uvec4(f32_narrow(x), 0u, 0u, 0u); }
#elif defined(DT_F64)
T from_words(uvec4 w) { return packDouble2x32(w.xy); }
uvec4 to_words(T x) { return uvec4(unpackDouble2x32(x), 0u, 0u); }
#elif defined(DT_C64)
T from_words(uvec4 w) { return T(packDouble2x32(w.xy), packDouble2x32(w.zw)); }
uvec4 to_words(T x) { return uvec4(unpackDouble2x32(x.x), unpackDouble2x32(x.y)); }
#elif defined(DT_I64)
T from_words(uvec4 w) { return int64_t(pack64(w.xy)); }
uvec4 to_words(T x) { return uvec4(unpack32(uint64_t(x)), 0u, 0u); }
#else
T from_words(uvec4 w) { return uintBitsToFloat(w.xy); }
uvec4 to_words(T x) { return uvec4(floatBitsToUint(x), 0u, 0u); }
#endif

// Element o of out: v = OP(v, s) under the element's hashed spin lock. The winner does its
// read-modify-write and releases inside the same loop iteration, so lanes of one subgroup that
// contend for a lock never wait on each other (no divergent spinning on a held lock). The
// element itself is read and written with 32-bit atomics, so no access can be cached, hoisted
// or reordered around the lock without the Vulkan memory model.
void locked_combine(IDX o, T s) {
  U32Ref lk = U32Ref(p.addr[3] + 4ul * (uint64_t(o) & uint64_t(IxBlockRef(p.layout_addr).v[TF_IX_LOCK_MASK])));
  const uint64_t a = p.addr[0] + uint64_t(o) * uint64_t(TF_SIZE);
  const uint nw = uint(TF_SIZE) / 4u;
  bool done = false;
  while (!done) {
    if (atomicCompSwap(lk.v, 0u, 1u) == 0u) {
      if (FENCES) memoryBarrierBuffer();
      uvec4 w = uvec4(0u);
      for (uint k = 0u; k < nw; ++k) w[k] = atomicOr(U32Ref(a + 4ul * k).v, 0u);
      w = to_words(combine(from_words(w), s));
      for (uint k = 0u; k < nw; ++k) atomicExchange(U32Ref(a + 4ul * k).v, w[k]);
      if (FENCES) memoryBarrierBuffer();
      atomicExchange(lk.v, 0u);
      done = true;
    }
  }
}
#endif

void apply(IDX o, T s) {
#if defined(TF_KIND_BOOL)
  store_T(p.addr[0], o, s);  // replace only (core rejects the other combiners)
#else
  if (UNIQUE) {
    store_T(p.addr[0], o, combine(load_T(p.addr[0], o), s));
    return;
  }
  if (OP == TF_SC_REPLACE && TF_SIZE <= 4) {
    store_T(p.addr[0], o, s);
    return;
  }
#if defined(DT_I32)
  I32Ref r = I32Ref(p.addr[0] + uint64_t(o) * 4ul);
  if (OP == TF_SC_ADD) {
    atomicAdd(r.v, s);
  } else if (OP == TF_SC_MAX) {
    atomicMax(r.v, s);
  } else if (OP == TF_SC_MIN) {
    atomicMin(r.v, s);
  } else {
    int cur = r.v;
    for (;;) {
      const int prev = atomicCompSwap(r.v, cur, cur * s);
      if (prev == cur) break;
      cur = prev;
    }
  }
#elif defined(DT_F32) || (defined(TF_F32_STORAGE) && defined(DT_F64))
  cas_f32(p.addr[0] + uint64_t(o) * 4ul, s);
#elif defined(DT_C32) || (defined(TF_F32_STORAGE) && defined(DT_C64))
  if (OP == TF_SC_ADD) {
    cas_f32(p.addr[0] + uint64_t(o) * 8ul, s.x);
    cas_f32(p.addr[0] + uint64_t(o) * 8ul + 4ul, s.y);
  } else {
    locked_combine(o, s);
  }
#elif defined(DT_I64)
  if (OP == TF_SC_ADD) {
    // Low word first; its wrap-around (old + lo overflowing 2^32) carries into the high word.
    const uint64_t u = uint64_t(s);
    const uint lo = uint(u), hi = uint(u >> 32);
    const uint old = atomicAdd(U32Ref(p.addr[0] + uint64_t(o) * 8ul).v, lo);
    const uint carry = old + lo < old ? 1u : 0u;
    if (hi + carry != 0u) atomicAdd(U32Ref(p.addr[0] + uint64_t(o) * 8ul + 4ul).v, hi + carry);
  } else {
    locked_combine(o, s);
  }
#elif defined(DT_F64) || defined(DT_C64)
  locked_combine(o, s);
#endif
#endif  // !TF_KIND_BOOL
}

void main() {
  for (IDX i = IDX(gl_GlobalInvocationID.x); i < IDX(p.numel); i += IDX(gl_NumWorkGroups.x) * IDX(gl_WorkGroupSize.x)) {
    IDX oo, uo;
    if (ix_locate(i, p.addr[2], oo, uo)) apply(oo, load_T(p.addr[1], uo));
  }
}
