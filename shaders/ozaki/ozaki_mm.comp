#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: the residue products of the opt-in Ozaki-II f64 product (src/vulkan/kernels/gemm/ozaki.cpp), portable
// form (any device; ozaki_mm_nv.comp is the tensor-core form). For plane z = l * NB + b (l the
// modulus, NB = dims word 3, z < dims word 4): C_z = (A_z B_z^T mod m_l) as bytes in [0, m_l),
// A_z [Mp][Kp] and B_z [Np][Kp] unsigned bytes (k fastest; words 5, 6), C_z [Np][Mp] bytes (m
// fastest, word 7); Mp, Np, Kp (words 0-2) multiples of TFO_TILE. The uint32 sums are exact (Kp
// <= TFO_MAX_K). Planes z >= word 9 (certified products: the q planes) store their uint32
// sums at word 8 ([Np][Mp] per plane, m fastest) instead; they sum k < Kq (word 10) only where
// the int32 at word 11 is 0 (dense operands: ozaki.comp's split wrote every second k there).
// One invocation per four rows m of one column n, grid-stride, 64-bit offsets.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "gemm/gemm_params.h"
#include "ozaki/ozaki_params.h"

layout(local_size_x_id = 0) in;
layout(push_constant) uniform Push { GemmParams p; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer U32 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer W32 { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };

uint dot4(uint a, uint b) {
  uint s = 0u;
  [[unroll]] for (int i = 0; i < 32; i += 8) s += bitfieldExtract(a, i, 8) * bitfieldExtract(b, i, 8);
  return s;
}

void main() {
  DimsRef D = DimsRef(p.dims);
  const int64_t Mp = D.v[0], Np = D.v[1], Kp = D.v[2], NB = D.v[3], NZ = D.v[4], NZQ = D.v[9];
  const uint64_t A = uint64_t(D.v[5]), B = uint64_t(D.v[6]), C = uint64_t(D.v[7]);
  const int64_t quads = Mp / 4, total = quads * Np * NZ;
  const bool dense = NZQ < NZ && U32(uint64_t(D.v[11])).v == 0u;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    const int64_t mq = i % quads, q = i / quads, n = q % Np, z = q / Np;
    const uint64_t arow = A + uint64_t((z * Mp + mq * 4) * Kp), bcol = B + uint64_t((z * Np + n) * Kp);
    uint acc[4] = uint[4](0u, 0u, 0u, 0u);
    const int64_t kend = z >= NZQ && dense ? D.v[10] : Kp;
    for (int64_t k = 0; k < kend; k += 4) {
      const uint bw = U32(bcol + uint64_t(k)).v;
      [[unroll]] for (int t = 0; t < 4; ++t) acc[t] += dot4(U32(arow + uint64_t(t * Kp + k)).v, bw);
    }
    if (z >= NZQ) {  // a certificate's plane: the uint32 sums as they are
      [[unroll]] for (int t = 0; t < 4; ++t) W32(uint64_t(D.v[8]) + uint64_t((((z - NZQ) * Np + n) * Mp + mq * 4 + t) * 4)).v = acc[t];
      continue;
    }
    const uint m = uint(kMod[int(z / NB)]);
    uint packed = 0u;
    [[unroll]] for (int t = 0; t < 4; ++t) packed |= (acc[t] % m) << (8 * t);
    W32(C + uint64_t((z * Np + n) * Mp + mq * 4)).v = packed;
  }
}
