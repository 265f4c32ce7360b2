// Gather/scatter geometry: element i of "big" -> (operand offset, big offset) through the
// parameter block of indexing/indexing_params.h. Requires `p` (KernelParams) and IDX.
// Index values are read and clamped in 64 bits, so any I64 index value is safe.
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer IxBlockRef {
  int64_t v[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer IxI32Ref {
  int v;
};
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer IxI64Ref {
  int64_t v;
};

int64_t ix_index(uint64_t base, IDX off, bool wide) {
  if (wide) return IxI64Ref(base + uint64_t(off) * 8ul).v;
  return int64_t(IxI32Ref(base + uint64_t(off) * 4ul).v);
}

// Offsets of big element i in the operand (window start clamped into [0, room]) and in big.
// With TF_IX_SKIP the start is taken as given and false is returned when the element's operand
// index lies outside the operand (StableHLO: per element, the rest of its window applies).
bool ix_locate(IDX i, uint64_t idx_base, out IDX op_off, out IDX big_off) {
  IxBlockRef B = IxBlockRef(p.layout_addr);
  const uint nb = uint(B.v[TF_IX_N_BATCH]), nw = uint(B.v[TF_IX_N_WIN]), nv = uint(B.v[TF_IX_IVEC_LEN]);
  const int64_t flags = B.v[TF_IX_FLAGS];
  const bool wide = (flags & TF_IX_INDEX_I64) != 0;
  const bool skip = (flags & TF_IX_SKIP) != 0;
  const IDX ivs = IDX(B.v[TF_IX_IVEC_STRIDE]);
  const IDX win_numel = IDX(B.v[TF_IX_WIN_NUMEL]);
  IDX w = i / win_numel, r = i - w * win_numel;
  IDX oo = IDX(B.v[TF_IX_OP_OFFSET]), bo = IDX(B.v[TF_IX_BIG_OFFSET]), io = IDX(B.v[TF_IX_IDX_OFFSET]);
  uint at = TF_IX_HEADER;
  for (uint k = 0u; k < nb; ++k, at += TF_IX_BATCH_WORDS) {
    const IDX e = IDX(B.v[at]);
    const IDX c = w % e;
    w /= e;
    bo += c * IDX(B.v[at + 1u]);
    io += c * IDX(B.v[at + 2u]);
    oo += c * IDX(B.v[at + 3u]);
  }
  for (uint a = 0u; a < nw; ++a, at += TF_IX_WIN_WORDS) {
    const IDX e = IDX(B.v[at]);
    const IDX c = r % e;
    r /= e;
    oo += c * IDX(B.v[at + 1u]);
    bo += c * IDX(B.v[at + 2u]);
    if (skip && B.v[at + 3u] >= 0l) {  // the dim's start + c must lie inside the operand
      const int64_t s = ix_index(idx_base, io + IDX(B.v[at + 3u]) * ivs, wide) + int64_t(c);
      if (s < 0l || s >= B.v[at + 4u]) return false;
    }
  }
  for (uint j = 0u; j < nv; ++j, at += TF_IX_IVEC_WORDS) {
    int64_t s = ix_index(idx_base, io + IDX(j) * ivs, wide);
    const int64_t room = B.v[at + 1u];
    if (s < 0l || s > room) {
      if (skip) {
        if (B.v[at + 2u] == 0l) return false;  // no window axis: the start itself is outside
      } else {
        s = s < 0l ? 0l : room;
      }
    }
    oo += IDX(s) * IDX(B.v[at]);
  }
  op_off = oo;
  big_off = bo;
  return true;
}
