// The op vocabulary of SEMANTICS.md on an explicit backend (providers and advanced use; the
// same ops without a backend, run where their operands live, are in tenferro/api.hpp). Every op validates its arguments before any work or
// allocation (errors name the op and argument), checks that every input lives in `be`'s
// domain (host tensor on a device backend: runtime_state, "upload first"; another runtime's
// tensor: host_access, foreign domain), and returns a new compact tensor placed on `be`.
#pragma once
#include <span>
#include <vector>

#include "tenferro/config.hpp"
#include "tenferro/fusion.hpp"
#include "tenferro/op_info.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro {

class Backend;  // tenferro/backend/backend.hpp

// ---- elementwise (equal shapes, or a rank-0 operand of a binary op or compare, which
// broadcasts against the other's shape; rank-0 real with complex of the same precision in
// add/sub/mul/div; rank-0 lower/upper in clamp; rank-0 pred in select) --------------------
// One function per row of ops.def in the unary, analytic and binary families (analytic:
// F32 F64 C32 C64, erf F32 F64), e.g. Tensor exp(Backend& be, const TensorView& x) and
// Tensor add(Backend& be, const TensorView& lhs, const TensorView& rhs). ops.def's row comments
// give what a function adds to SEMANTICS.md.
#define TENFERRO_DECLARE_U(name) Tensor name(Backend& be, const TensorView& x);
#define TENFERRO_DECLARE_B(name) Tensor name(Backend& be, const TensorView& lhs, const TensorView& rhs);
#define TENFERRO_DECLARE_R(name)
#define TENFERRO_DECLARE_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_DECLARE_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_DECLARE_U
#undef TENFERRO_DECLARE_B
#undef TENFERRO_DECLARE_R
#undef TENFERRO_DECLARE_X
/// Bool result; complex allows EQ and NE only.
Tensor compare(Backend& be, const TensorView& lhs, const TensorView& rhs, CompareDir dir);
Tensor select(Backend& be, const TensorView& pred, const TensorView& on_true, const TensorView& on_false);
/// min(max(x, lower), upper).
Tensor clamp(Backend& be, const TensorView& x, const TensorView& lower, const TensorView& upper);
/// Any unary/analytic/binary op by id (what the eval CLI and tests enumerate).
Tensor elementwise(Backend& be, OpId op, std::span<const TensorView> inputs,
                   CompareDir dir = CompareDir::EQ);

// ---- fusion --------------------------------------------------------------------------------
/// Runs an elementwise chain (inputs of equal shapes, may be broadcast views; rank-0 inputs
/// broadcast against the others); equals the unfused chain. Validated step by step like the
/// unfused ops; a step where a real rank-0 operand meets a complex one (which the unfused op
/// promotes) is unsupported: cast the scalar first.
Tensor fused(Backend& be, const FusionPlan& plan, std::span<const TensorView> inputs);

// ---- casts ---------------------------------------------------------------------------------
/// Checked conversion along the promotion lattice, else unsupported.
Tensor convert(Backend& be, const TensorView& x, DType to);
/// Explicit cast between any pair (SEMANTICS.md). Float to integer: NaN/inf/out of range is
/// invalid_argument.
Tensor cast(Backend& be, const TensorView& x, DType to);

// ---- structural ----------------------------------------------------------------------------
Tensor transpose_copy(Backend& be, const TensorView& x, const Axes& perm);
Tensor reshape_copy(Backend& be, const TensorView& x, const Shape& shape);
Tensor broadcast_in_dim_copy(Backend& be, const TensorView& x, const Shape& shape, const Axes& dims);
/// Keeps axis a (the diagonal), drops axis b. a == b is invalid_argument.
Tensor extract_diagonal(Backend& be, const TensorView& x, std::int64_t a, std::int64_t b);
/// Inverse of extract_diagonal: inserts a new axis at position b of extent shape[a].
Tensor embed_diagonal(Backend& be, const TensorView& x, std::int64_t a, std::int64_t b);
Tensor tril(Backend& be, const TensorView& x, std::int64_t k);
Tensor triu(Backend& be, const TensorView& x, std::int64_t k);
/// dst fully overwritten with src; same dtype and shape; overlapping views invalid_argument.
void copy_into(Backend& be, const TensorView& src, const TensorView& dst);
Tensor to_contiguous(Backend& be, const TensorView& x);
Tensor slice_copy(Backend& be, const TensorView& x, const SliceConfig& cfg);
/// starts: rank-1 integer tensor with one start per axis, clamped into range.
Tensor dynamic_slice(Backend& be, const TensorView& x, const TensorView& starts, const Shape& slice_sizes);
Tensor dynamic_update_slice(Backend& be, const TensorView& operand, const TensorView& update,
                            const TensorView& starts);
/// pad_value: optional rank-0 tensor of x's dtype (undefined view means zero).
Tensor pad(Backend& be, const TensorView& x, const PadConfig& cfg, const TensorView& pad_value = {});
Tensor concatenate(Backend& be, std::span<const TensorView> inputs, std::int64_t axis);
Tensor reverse_copy(Backend& be, const TensorView& x, const Axes& axes);

// ---- reductions ----------------------------------------------------------------------------
Tensor reduce_sum(Backend& be, const TensorView& x, const Axes& axes);
Tensor reduce_prod(Backend& be, const TensorView& x, const Axes& axes);
Tensor reduce_max(Backend& be, const TensorView& x, const Axes& axes);
Tensor reduce_min(Backend& be, const TensorView& x, const Axes& axes);
Tensor reduce(Backend& be, OpId op, const TensorView& x, const Axes& axes);

// ---- contraction ---------------------------------------------------------------------------
/// Output axes: lhs free, rhs free, batch. F32 F64 C32 C64.
Tensor dot_general(Backend& be, const TensorView& lhs, const TensorView& rhs,
                   const DotGeneralConfig& cfg, bool lhs_conj = false, bool rhs_conj = false);
/// out = alpha * dot + beta * out (beta == 0 never reads out). out: a view of the result shape.
/// An out view whose lhs-free, rhs-free and batch axes each form one stride chain is written in
/// place; any other goes through a compact temp (in pieces of at most a quarter of out when the
/// temp would reach 64 MiB), so it costs one more copy of out.
void dot_general_into(Backend& be, const TensorView& lhs, const TensorView& rhs,
                      const DotGeneralConfig& cfg, bool lhs_conj, bool rhs_conj,
                      const Scalar& alpha, const Scalar& beta, const TensorView& out);

// ---- indexing ------------------------------------------------------------------------------
Tensor gather(Backend& be, const TensorView& operand, const TensorView& start_indices,
              const GatherConfig& cfg);
Tensor scatter(Backend& be, const TensorView& operand, const TensorView& scatter_indices,
               const TensorView& updates, const ScatterConfig& cfg);

// ---- transfers -----------------------------------------------------------------------------
/// Host tensor (CPU backend) -> be. Device tensor of be -> host.
Tensor upload(Backend& be, const TensorView& host);
Tensor download(Backend& be, const TensorView& t);

}  // namespace tenferro
