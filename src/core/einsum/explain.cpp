// The step report (EinsumStats): what each step does, from dot_general's own lowering decision
// (core/ops/dot_general_lowering.hpp), and explain(), which lowers for the report only.
#include <string>

#include "core/einsum/internal.hpp"
#include "core/einsum/lowering.hpp"
#include "core/ops/dot_general_lowering.hpp"

namespace tenferro {
namespace einsum_detail {

const char* step_kind(std::int64_t M, std::int64_t N, std::int64_t K) {
  if (M == 1 && N == 1) return K == 1 ? "elementwise" : "dot";
  if (K == 1) return "outer";
  if (M == 1 || N == 1) return "gemv";
  return "gemm";
}

void Lowering::report_gemm(const Val& L, const Val& R, const Instr& in, const Labels& order, std::size_t nl,
                           std::size_t nr, EinsumStepStats& st) const {
  const detail::DotLowering lw = detail::lower_dot_general(L.layout, R.layout, in.cfg);
  st.lhs = L.path_id;
  st.rhs = R.path_id;
  st.lhs_labels = labels_text(spec_, L.labels);
  st.rhs_labels = labels_text(spec_, R.labels);
  st.out_labels = labels_text(spec_, order);
  st.M = lw.M;
  st.N = lw.N;
  st.K = lw.K;
  st.B = lw.B;
  st.kind = step_kind(lw.M, lw.N, lw.K);
  if (lw.B > 1) st.kind = "batched " + st.kind;
  const std::int64_t out_n = mul_sat(mul_sat(lw.M, lw.N), lw.B);
  st.out_bytes = mul_sat(out_n, es_);
  if (out_n > 0) {
    st.flops = (is_complex(dtype_) ? 8.0 : 2.0) * static_cast<double>(lw.M) * static_cast<double>(lw.N) *
               static_cast<double>(lw.K) * static_cast<double>(lw.B);
    if (!lw.lhs_in_place && L.layout.numel() > 0) {
      st.lhs_packed_bytes = L.layout.numel() * es_;
      ++st.launches;
    }
    if (!lw.rhs_in_place && R.layout.numel() > 0) {
      st.rhs_packed_bytes = R.layout.numel() * es_;
      ++st.launches;
    }
    // An out view in a few stride chains is written in place where the GEMM writes chained
    // outputs (store_mode's test): no copy there, only the flag.
    if (in.store != Instr::Store::compact && !detail::dot_out_in_place(in.layout, nl, nr)) {
      st.out_chained = detail::dot_out_in_chains(in.layout, nl, nr);
      if (!(st.out_chained && chains_)) {
        st.out_copy_bytes = st.out_bytes;
        ++st.launches;
      }
    }
    ++st.launches;  // the gemm
    // In-place operands whose unit-stride axis is a batch axis: the GEMM cannot load them
    // contiguously along M/K (lhs) or K/N (rhs).
    const std::size_t nb = in.cfg.lhs_batching_dims.size();
    for (int side = 0; side < 2; ++side) {
      const Layout& x = side == 0 ? L.layout : R.layout;
      if (!(side == 0 ? lw.lhs_in_place : lw.rhs_in_place)) continue;
      std::int64_t best = -1;
      std::size_t at = 0;
      for (std::size_t ax = 0; ax < x.shape.size(); ++ax) {
        const std::int64_t s = x.strides[ax] < 0 ? -x.strides[ax] : x.strides[ax];
        if (x.shape[ax] > 1 && s > 0 && (best < 0 || s < best)) {
          best = s;
          at = ax;
        }
      }
      if (best >= 0 && at + nb >= x.shape.size()) ++st.batch_unit_stride_operands;
    }
  }
}

void add_totals(EinsumStats& t) {
  t.launches = t.final_launches;
  t.copied_bytes = t.final_transpose_bytes;
  for (const auto& st : t.steps) {
    t.gemm_flops += st.flops;
    t.packed_bytes += st.lhs_packed_bytes + st.rhs_packed_bytes;
    t.copied_bytes += st.lhs_packed_bytes + st.rhs_packed_bytes + st.out_copy_bytes;
    t.launches += st.launches;
  }
}

}  // namespace einsum_detail

EinsumStats explain(const EinsumSpec& spec, const Path& path, std::span<const Layout> operand_layouts, DType dtype,
                    bool writes_chains) {
  einsum_detail::check_layouts(spec, operand_layouts);
  einsum_detail::check_path(spec.num_inputs(), path);
  const einsum_detail::LowerOptions opts{.use_mul = true, .chains = writes_chains, .report = true};
  return einsum_detail::lower(spec, path, operand_layouts, dtype, opts).stats;
}

}  // namespace tenferro
