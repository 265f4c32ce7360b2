// Colex index -> element offsets of the operands of one dispatch (layout block in params.h).
// Requires `p` (KernelParams push constants) and IDX. Operands: at most TF_INDEX_OPERANDS
// (TF_MAX_OPERANDS unless the kernel defines more: the generated fused kernels, whose operand
// addresses live outside KernelParams, and which never take the inner-block table).
#ifndef TF_INDEX_OPERANDS
#define TF_INDEX_OPERANDS TF_MAX_OPERANDS
#endif
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer LayoutRef {
  int64_t v[];
};

// Rank <= 2 (the common coalesced cases: elementwise runs, broadcasts such as outer products,
// transposed or offset 2-d views) is read once per invocation into registers, so the
// per-element path does no memory reads for indexing and at most one division.
//
// Higher ranks with an inner block (p.rank bits 8-15 = kin > 0, set by the host when the first
// kin axes hold TF_TAB_MIN..TF_TAB elements and at most TF_TAB_OUTER axes remain): each
// workgroup first tabulates the offsets of the inner block's elements in shared memory, then
// walks whole blocks (outer index o = workgroup, workgroup + groups, ...): the outer
// coordinates are decomposed once per block, and each element costs one table read per
// operand instead of a division per axis. Elements are visited in the order
// i = o * block + t, t = local id, local id + workgroup size, ... (coalesced along axis 0).
#ifndef TF_CONTIG
IDX tf_off[TF_INDEX_OPERANDS];
IDX tf_stride[TF_INDEX_OPERANDS];   // stride along axis 0
IDX tf_stride1[TF_INDEX_OPERANDS];  // stride along axis 1 (rank 2)
IDX tf_ext0;                      // extent of axis 0 (rank 2)

// The table's shared memory (16 KiB, 32 KiB with 64-bit indexing) exists only in pipelines
// specialized with TF_TAB_ON = 1 (specialization constant 2, set by the host for table
// dispatches): declared unconditionally it lowers the occupancy of every other strided dispatch
// (H200: a 4096 x 4096 f64 outer product took 90 us instead of 55).
layout(constant_id = 2) const uint TF_TAB_ON = 0u;
#define TF_TAB 1024u       // inner block elements at most (mirrored in dispatch.cpp)
#define TF_TAB_OUTER 48u   // outer axes at most
const uint TF_TAB_N = TF_TAB_ON * (TF_TAB - 1u) + 1u;              // TF_TAB, or 1 without table
const uint TF_TAB_OUTER_N = TF_TAB_ON * (TF_TAB_OUTER - 1u) + 1u;  // TF_TAB_OUTER, or 1
shared IDX tf_tab[TF_TAB_N * TF_INDEX_OPERANDS];              // inner offsets, operand-major
shared IDX tf_oshape[TF_TAB_OUTER_N];                       // outer extents
shared IDX tf_ostride[TF_TAB_OUTER_N * TF_INDEX_OPERANDS];    // outer strides, operand-major
uint tf_kin;                         // inner axes (0: no table)
uint tf_nout;                        // outer axes
IDX tf_block;                        // elements of the inner block
IDX tf_o;                            // this workgroup's current outer index
uint tf_t;                           // this invocation's position in the block
IDX tf_base[TF_INDEX_OPERANDS];        // offsets of the current block's first element

uint tf_rank() { return p.rank & 255u; }

// Offsets of outer index tf_o (plus each operand's offset) into tf_base.
void tf_set_base(uint nops) {
  LayoutRef L = LayoutRef(p.layout_addr);
  const uint r = tf_rank();
  for (uint j = 0u; j < nops; ++j) tf_base[j] = IDX(L.v[r + j * (r + 1u)]);
  IDX rest = tf_o;
  for (uint k = 0u; k < tf_nout; ++k) {
    const IDX e = tf_oshape[k];
    const IDX c = rest % e;
    rest /= e;
    for (uint j = 0u; j < nops; ++j) tf_base[j] += c * tf_ostride[j * TF_TAB_OUTER_N + k];
  }
}

void tf_prepare(uint nops) {
  LayoutRef L = LayoutRef(p.layout_addr);
  const uint r = tf_rank();
  tf_ext0 = r == 2u ? IDX(L.v[0]) : IDX(1);
  for (uint j = 0u; j < nops; ++j) {
    tf_off[j] = IDX(L.v[r + j * (r + 1u)]);
    tf_stride[j] = r == 1u || r == 2u ? IDX(L.v[r + j * (r + 1u) + 1u]) : IDX(0);
    tf_stride1[j] = r == 2u ? IDX(L.v[r + j * (r + 1u) + 2u]) : IDX(0);
  }
  tf_kin = TF_TAB_ON != 0u ? (p.rank >> 8) & 255u : 0u;
  if (tf_kin == 0u) return;  // uniform: the same push constants for the whole dispatch
  tf_nout = r - tf_kin;
  tf_block = IDX(1);
  for (uint k = 0u; k < tf_kin; ++k) tf_block *= IDX(L.v[k]);
  const uint lid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
  for (uint t = lid; t < uint(tf_block); t += wg) {
    IDX rest = IDX(t), off[TF_INDEX_OPERANDS];
    for (uint j = 0u; j < nops; ++j) off[j] = IDX(0);
    for (uint k = 0u; k < tf_kin; ++k) {
      const IDX e = IDX(L.v[k]);
      const IDX c = rest % e;
      rest /= e;
      for (uint j = 0u; j < nops; ++j) off[j] += c * IDX(L.v[r + j * (r + 1u) + 1u + k]);
    }
    for (uint j = 0u; j < nops; ++j) tf_tab[j * TF_TAB_N + t] = off[j];
  }
  for (uint k = lid; k < tf_nout; k += wg) {
    tf_oshape[k] = IDX(L.v[tf_kin + k]);
    for (uint j = 0u; j < nops; ++j) tf_ostride[j * TF_TAB_OUTER_N + k] = IDX(L.v[r + j * (r + 1u) + 1u + tf_kin + k]);
  }
  memoryBarrierShared();
  barrier();
}

// First element of this invocation, and the next one after i (numel or more when done).
IDX tf_first(uint nops) {
  if (tf_kin == 0u) return IDX(gl_GlobalInvocationID.x);
  tf_o = IDX(gl_WorkGroupID.x);
  tf_t = gl_LocalInvocationID.x;
  if (IDX(tf_t) >= tf_block || tf_o * tf_block >= IDX(p.numel)) return IDX(p.numel);
  tf_set_base(nops);
  return tf_o * tf_block + IDX(tf_t);
}
IDX tf_next(IDX i, uint nops) {
  if (tf_kin == 0u) return i + IDX(gl_NumWorkGroups.x) * IDX(gl_WorkGroupSize.x);
  tf_t += gl_WorkGroupSize.x;
  if (IDX(tf_t) >= tf_block) {
    tf_t = gl_LocalInvocationID.x;
    tf_o += IDX(gl_NumWorkGroups.x);
    if (tf_o * tf_block >= IDX(p.numel)) return IDX(p.numel);
    tf_set_base(nops);
  }
  return tf_o * tf_block + IDX(tf_t);
}

// offs[j] = offset_j + sum_k coord_k(i) * strides_j[k] for j < nops (i as tf_first/tf_next
// produced it).
void operand_offsets(IDX i, uint nops, out IDX offs[TF_INDEX_OPERANDS]) {
  uint r = tf_rank();
  if (tf_kin != 0u) {
    for (uint j = 0u; j < nops; ++j) offs[j] = tf_base[j] + tf_tab[j * TF_TAB_N + tf_t];
    return;
  }
  if (r <= 2u) {
    const IDX c1 = r == 2u ? i / tf_ext0 : IDX(0);
    const IDX c0 = i - c1 * tf_ext0;
    for (uint j = 0u; j < nops; ++j) offs[j] = tf_off[j] + c0 * tf_stride[j] + c1 * tf_stride1[j];
    return;
  }
  for (uint j = 0u; j < nops; ++j) offs[j] = tf_off[j];
  LayoutRef L = LayoutRef(p.layout_addr);
  for (uint k = 0u; k < r; ++k) {
    IDX e = IDX(L.v[k]);
    IDX c = i % e;
    i /= e;
    for (uint j = 0u; j < nops; ++j) offs[j] += c * IDX(L.v[r + j * (r + 1u) + 1u + k]);
  }
}

// Loop over [0, numel) for `nops` operands: grid-stride (the grid is capped at
// maxComputeWorkGroupCount, so one invocation may handle several elements), or block by block
// with the inner table (above).
#define TF_FOR_EACH_ELEMENT(i, nops)                                                      \
  tf_prepare(nops);                                                                       \
  for (IDX i = tf_first(nops); i < IDX(p.numel); i = tf_next(i, nops))

#endif  // !TF_CONTIG

#ifdef TF_CONTIG
// Contiguous fast path (variants *_contig, 32-bit indexing, numel < 2^31 - 2^26). The host
// folds each operand's offset into p.addr[j] and, instead of a rank, sets p.rank to flags:
// bit j (TF_CONTIG_BCAST << j): operand j has stride 0 (a broadcast scalar), else stride 1;
// TF_CONTIG_VEC: every stride-1 operand address is aligned for load4_*/store4_* (access.glsl).
// Mirrored in src/vulkan/kernels/dispatch.cpp.
#define TF_CONTIG_BCAST 1u
#define TF_CONTIG_VEC 16u

// Element index of operand j for output element i.
uint tf_ci(uint j, uint i) { return (p.rank & (TF_CONTIG_BCAST << j)) != 0u ? 0u : i; }
bool tf_bcast(uint j) { return (p.rank & (TF_CONTIG_BCAST << j)) != 0u; }

// Each invocation handles 4 consecutive elements per grid-stride step: VEC(i) with wide
// accesses when aligned and all 4 are in range, else ELEM(i + k) for each k in range.
#define TF_CONTIG_MAIN(ELEM, VEC)                                                         \
  void main() {                                                                           \
    const uint n = uint(p.numel);                                                         \
    const uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x * 4u;                       \
    const bool vec = (p.rank & TF_CONTIG_VEC) != 0u;                                      \
    for (uint i = gl_GlobalInvocationID.x * 4u; i < n; i += step) {                       \
      if (vec && i + 4u <= n) {                                                           \
        VEC(i);                                                                           \
      } else {                                                                            \
        ELEM(i);                                                                          \
        if (i + 1u < n) ELEM(i + 1u);                                                     \
        if (i + 2u < n) ELEM(i + 2u);                                                     \
        if (i + 3u < n) ELEM(i + 3u);                                                     \
      }                                                                                   \
    }                                                                                     \
  }
#endif  // TF_CONTIG

#ifdef TF_CONTIG
// 4 elements of input operand j at element i (vector path): a broadcast scalar is splat.
void tf_in4_T(uint j, uint i, out T x[4]) {
  if (tf_bcast(j)) {
    T s = load_T(p.addr[j], 0);
    x[0] = s; x[1] = s; x[2] = s; x[3] = s;
  } else {
    load4_T(p.addr[j], i, x);
  }
}
void tf_in4_Bool(uint j, uint i, out uint8_t x[4]) {
  if (tf_bcast(j)) {
    uint8_t s = load_Bool(p.addr[j], 0);
    x[0] = s; x[1] = s; x[2] = s; x[3] = s;
  } else {
    load4_Bool(p.addr[j], i, x);
  }
}
#endif  // TF_CONTIG
