// How dot_general lowers onto one Backend::gemm call (see the comment at the top of
// dot_general.cpp): the decision, on layouts only, so that callers (einsum's step report and
// its layout choices) can see what a call would do without running it. dot_general itself
// runs exactly this decision.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tenferro/backend/backend.hpp"
#include "tenferro/layout.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::detail {

struct DotLowering {
  std::int64_t M = 1, N = 1, K = 1, B = 1;
  /// Axis groups in the order they are read: lhs [free, contracting, batch], rhs
  /// [contracting, free, batch]. Contracting pairs are ordered identically on both sides.
  Axes lhs_groups[3], rhs_groups[3];
  /// False: the operand is packed once (be.copy into a compact tensor of its numel).
  bool lhs_in_place = true, rhs_in_place = true;
};

/// The lowering of dot_general(lhs, rhs, cfg). @pre cfg is valid for the layouts (dot_general
/// validates before calling it; callers building their own configs must get them right).
DotLowering lower_dot_general(const Layout& lhs, const Layout& rhs, const DotGeneralConfig& cfg);

/// True when dot_general_into writes `out` in place: its first n_lhs_free axes, the next
/// n_rhs_free axes and the rest each form one stride chain (else it goes through a temp and
/// one extra copy, two when beta != 0).
bool dot_out_in_place(const Layout& out, std::size_t n_lhs_free, std::size_t n_rhs_free);

/// True when `out`'s first n_lhs_free axes and its next n_rhs_free axes each form at most
/// kGemmFreeChains stride chains and the rest at most kGemmBatchChains (dot_general_into writes
/// such an out in place on a backend whose gemm_caps().chained_output is true, else through a
/// temp).
bool dot_out_in_chains(const Layout& out, std::size_t n_lhs_free, std::size_t n_rhs_free);

/// dot_general(lhs, rhs, cfg) without conjugation that takes its own references to the
/// operands and drops each as soon as it has been packed, so that an operand at its last use
/// (the caller passes its only reference) is freed before the other one is packed and the
/// product runs (einsum steps: a packed operand no longer costs its bytes twice). Its products
/// hold at most `scratch_limit` bytes of optional scratch (GemmCall::scratch_limit).
Tensor dot_general_consuming(Backend& be, TensorView lhs, TensorView rhs, const DotGeneralConfig& cfg,
                             std::uint64_t scratch_limit = kNoScratchLimit);

/// dot_general_into whose products hold at most `scratch_limit` bytes of optional scratch.
void dot_general_into(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                      bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta, const TensorView& out,
                      std::uint64_t scratch_limit);

/// Packed operand copies of at least this many bytes (default 64 MiB) are made in pieces:
/// dot_general runs once per index of one axis (the last batch axis of extent > 1, else the
/// last free axis of the larger packed operand), so that the copy of a large operand never
/// exists whole next to it (einsum's device-memory bound). Sets it; returns the previous value
/// (tests lower it to exercise the pieces on small tensors).
std::uint64_t set_pack_chunk_bytes(std::uint64_t bytes);
/// The current value. dot_general_into also makes a temp (its out view's groups not stride
/// chains) of at least this many bytes in pieces, a quarter of out each at most.
std::uint64_t pack_chunk_bytes();

/// One stride chain of `axes` of l in the given order (extent-1 axes skipped): consecutive
/// non-trivial axes satisfy stride[i+1] == stride[i] * extent[i].
bool is_stride_chain(const Layout& l, const Axes& axes);

}  // namespace tenferro::detail
