// Colex index -> element offsets of the operands of one dispatch (layout block in params.h).
// Requires `p` (KernelParams push constants) and IDX.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer LayoutRef {
  int64_t v[];
};

// Rank <= 1 (the common coalesced case) is read once per invocation into registers, so
// the per-element path does no memory reads for indexing and no division.
IDX tf_off[TF_MAX_OPERANDS];
IDX tf_stride[TF_MAX_OPERANDS];

void tf_prepare(uint nops) {
  LayoutRef L = LayoutRef(p.layout_addr);
  uint r = p.rank;
  for (uint j = 0u; j < nops; ++j) {
    tf_off[j] = IDX(L.v[r + j * (r + 1u)]);
    tf_stride[j] = r == 1u ? IDX(L.v[r + j * (r + 1u) + 1u]) : IDX(0);
  }
}

// offs[j] = offset_j + sum_k coord_k(i) * strides_j[k] for j < nops.
void operand_offsets(IDX i, uint nops, out IDX offs[TF_MAX_OPERANDS]) {
  uint r = p.rank;
  for (uint j = 0u; j < nops; ++j) offs[j] = tf_off[j] + i * tf_stride[j];
  if (r <= 1u) return;
  LayoutRef L = LayoutRef(p.layout_addr);
  for (uint k = 0u; k < r; ++k) {
    IDX e = IDX(L.v[k]);
    IDX c = i % e;
    i /= e;
    for (uint j = 0u; j < nops; ++j) offs[j] += c * IDX(L.v[r + j * (r + 1u) + 1u + k]);
  }
}

// Grid-stride loop over [0, numel) for `nops` operands: the grid is capped at
// maxComputeWorkGroupCount, so one invocation may handle several elements.
#define TF_FOR_EACH_ELEMENT(i, nops)                                                      \
  tf_prepare(nops);                                                                       \
  for (IDX i = IDX(gl_GlobalInvocationID.x); i < IDX(p.numel);                            \
       i += IDX(gl_NumWorkGroups.x) * IDX(gl_WorkGroupSize.x))
