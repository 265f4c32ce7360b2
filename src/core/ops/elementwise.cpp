// Elementwise, analytic and fused ops: validation, output dtype/shape inference and lowering to
// Backend::elementwise / Backend::fused (SEMANTICS.md "Elementwise", "Analytic", "Fusion").
//
// Every op validates once, before any allocation: residency, dtypes (dtype_mismatch), shapes
// (shape_mismatch), then contract/backend support (unsupported). The dtype rules live in
// infer_dtype() and check_op_supported(), shared by the unfused ops and by each step of a fusion
// plan, so a fused chain accepts exactly what the unfused chain accepts.
#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {

using detail::broadcast_scalar;
using detail::check_resident;
using detail::check_supported;

// op_name() views a string literal generated from ops.def, so it is NUL-terminated.
const char* cname(OpId op) { return op_name(op).data(); }

bool is_arith4(OpId op) {
  return op == OpId::add || op == OpId::sub || op == OpId::mul || op == OpId::div;
}

/// Number of operands of an elementwise op (0 for ops that are not elementwise).
std::size_t arity(OpId op) {
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic: return 1;
    case OpFamily::binary:
    case OpFamily::compare: return 2;
    case OpFamily::select:
    case OpFamily::clamp: return 3;
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE: return 0;
  }
  return 0;
}

/// Which operand of a binary op is a rank-0 real scalar meeting a complex tensor of the same
/// precision (the one dtype exception of SEMANTICS.md); 0 none, 1 lhs, 2 rhs.
int promoted_scalar(OpId op, DType l, bool l0, DType r, bool r0) {
  if (!is_arith4(op) || l == r) return 0;
  if (l0 && is_real_float(l) && complex_dtype(l) == r) return 1;
  if (r0 && is_real_float(r) && complex_dtype(r) == l) return 2;
  return 0;
}

/// The dtype rules of one elementwise op: operand dtypes `d` (rank-0 flags `r0`), in the order
/// of the public function's arguments. Returns the output dtype; throws dtype_mismatch naming
/// the op and the argument. Support is checked separately (check_op_supported), after shapes.
DType infer_dtype(OpId op, std::span<const DType> d, std::span<const bool> r0) {
  const char* name = cname(op);
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic: return op == OpId::abs ? real_dtype(d[0]) : d[0];
    case OpFamily::binary:
    case OpFamily::compare: {
      const int p = promoted_scalar(op, d[0], r0[0], d[1], r0[1]);
      if (p == 0)
        TENFERRO_CHECK(d[0] == d[1], dtype_mismatch, name, "rhs", "rhs dtype differs from lhs: got ",
                       dtype_name(d[1]), ", expected ", dtype_name(d[0]),
                       is_arith4(op) ? " (only a rank-0 real scalar may meet a complex tensor of the same "
                                       "precision)"
                                     : "");
      const DType common = p == 1 ? d[1] : d[0];
      return op == OpId::compare ? DType::Bool : common;
    }
    case OpFamily::select:
      TENFERRO_CHECK(d[0] == DType::Bool, dtype_mismatch, name, "pred", "pred dtype is ", dtype_name(d[0]),
                     ", expected bool");
      TENFERRO_CHECK(d[1] == d[2], dtype_mismatch, name, "on_false", "on_false dtype differs from on_true: got ",
                     dtype_name(d[2]), ", expected ", dtype_name(d[1]));
      return d[1];
    case OpFamily::clamp:
      TENFERRO_CHECK(d[1] == d[0], dtype_mismatch, name, "lower", "lower dtype differs from x: got ",
                     dtype_name(d[1]), ", expected ", dtype_name(d[0]));
      TENFERRO_CHECK(d[2] == d[0], dtype_mismatch, name, "upper", "upper dtype differs from x: got ",
                     dtype_name(d[2]), ", expected ", dtype_name(d[0]));
      return d[0];
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE: break;
  }
  TENFERRO_FAIL(invalid_argument, name, "op", name, " is not an elementwise op");
}

/// Contract, then backend support (unsupported) for operands that passed infer_dtype; compare
/// on complex operands allows only EQ and NE.
void check_op_supported(const Backend& be, OpId op, std::span<const DType> d, std::span<const bool> r0,
                        CompareDir dir) {
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic:
    case OpFamily::clamp: check_supported(be, op, d[0], "x"); return;
    case OpFamily::select: check_supported(be, op, d[1], "on_true"); return;
    case OpFamily::binary:
    case OpFamily::compare:
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE: break;
  }
  const int p = promoted_scalar(op, d[0], r0[0], d[1], r0[1]);
  const DType common = p == 1 ? d[1] : d[0];
  check_supported(be, op, common, p == 1 ? "rhs" : "lhs");
  if (op == OpId::compare && is_complex(common))
    TENFERRO_CHECK(dir == CompareDir::EQ || dir == CompareDir::NE, unsupported, cname(op), "dir",
                   "complex operands have no order: got direction ", compare_dir_name(dir),
                   ", expected EQ or NE");
}

// Operand dtypes and rank-0 flags in fixed arrays (no allocation on the per-op path).
template <std::size_t N> std::array<DType, N> dtypes_of(const std::array<const TensorView*, N>& ts) {
  std::array<DType, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = ts[i]->dtype();
  return out;
}
template <std::size_t N> std::array<bool, N> rank0_of(const std::array<const TensorView*, N>& ts) {
  std::array<bool, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = ts[i]->rank() == 0;
  return out;
}

/// Allocates the output and runs the primitive; zero extents launch nothing.
Tensor launch(Backend& be, OpId op, std::span<const TensorView> ins, DType out_dtype, const Shape& shape,
              CompareDir dir) {
  Tensor out = be.allocate(out_dtype, shape);
  if (out.numel() == 0) return out;
  be.elementwise(op, ins, out, dir);
  return out;
}

/// The rank-0 real scalar `s` as a complex tensor of dtype `to`, broadcast to `shape`.
TensorView promote_scalar(Backend& be, const TensorView& s, DType to, const Shape& shape, const char* op) {
  Tensor c = be.allocate(to, {});
  if (be.supports(OpId::cast, s.dtype()) && be.supports(OpId::cast, to)) {
    be.cast(s, c, op, /*exact=*/false);
  } else {
    // A backend without cast kernels: the real part of a complex element is a real element at
    // the same address (re, im interleaved), so zero-fill and copy the scalar into it.
    be.fill(c, detail::zero_of(to));
    be.copy(s, TensorView(c.storage(), s.dtype(), Layout{{}, {}, 0}));
  }
  return broadcast_scalar(c, shape);
}

Tensor unary_op(Backend& be, OpId op, const TensorView& x) {
  check_resident(be, x, cname(op), "x");
  const DType d[1] = {x.dtype()};
  const bool r0[1] = {x.rank() == 0};
  const DType out = infer_dtype(op, d, r0);
  check_op_supported(be, op, d, r0, CompareDir::EQ);
  return launch(be, op, {&x, 1}, out, x.shape(), CompareDir::EQ);
}

Tensor binary_op(Backend& be, OpId op, const TensorView& lhs, const TensorView& rhs, CompareDir dir) {
  const char* name = cname(op);
  check_resident(be, lhs, name, "lhs");
  check_resident(be, rhs, name, "rhs");
  const auto d = dtypes_of<2>({&lhs, &rhs});
  const auto r0 = rank0_of<2>({&lhs, &rhs});
  const DType out = infer_dtype(op, d, r0);
  const int p = promoted_scalar(op, d[0], r0[0], d[1], r0[1]);
  // A rank-0 operand broadcasts against the other's shape (SEMANTICS.md); otherwise equal shapes.
  const bool lhs_scalar = r0[0] && !r0[1];
  if (p == 0 && !r0[0] && !r0[1])
    TENFERRO_CHECK(lhs.shape() == rhs.shape(), shape_mismatch, name, "rhs", "rhs shape differs from lhs: got ",
                   rhs.shape(), ", expected ", lhs.shape(), " or rank 0");
  check_op_supported(be, op, d, r0, dir);
  const Shape& shape = lhs_scalar ? rhs.shape() : lhs.shape();
  if (shape_numel(shape, name) == 0) return be.allocate(out, shape);
  if (p == 1) return launch(be, op, std::array{promote_scalar(be, lhs, rhs.dtype(), shape, name), rhs}, out, shape, dir);
  if (p == 2) return launch(be, op, std::array{lhs, promote_scalar(be, rhs, lhs.dtype(), shape, name)}, out, shape, dir);
  if (lhs_scalar) return launch(be, op, std::array{broadcast_scalar(lhs, shape), rhs}, out, shape, dir);
  if (r0[1] && !r0[0]) return launch(be, op, std::array{lhs, broadcast_scalar(rhs, shape)}, out, shape, dir);
  return launch(be, op, std::array{lhs, rhs}, out, shape, dir);
}

/// `t` must have `shape`, or be rank 0 when `rank0_ok` (then it is broadcast as a stride-0 view).
TensorView conform(const TensorView& t, const Shape& shape, bool rank0_ok, const char* op, const char* arg,
                   const char* other) {
  if (rank0_ok && t.rank() == 0) return broadcast_scalar(t, shape);
  TENFERRO_CHECK(t.shape() == shape, shape_mismatch, op, arg, arg, " shape differs from ", other, ": got ",
                 t.shape(), ", expected ", shape, rank0_ok ? " or rank 0" : "");
  return t;
}

Tensor select_op(Backend& be, const TensorView& pred, const TensorView& on_true, const TensorView& on_false) {
  const char* name = "select";
  check_resident(be, pred, name, "pred");
  check_resident(be, on_true, name, "on_true");
  check_resident(be, on_false, name, "on_false");
  const auto d = dtypes_of<3>({&pred, &on_true, &on_false});
  const auto r0 = rank0_of<3>({&pred, &on_true, &on_false});
  const DType out = infer_dtype(OpId::select, d, r0);
  const Shape& shape = on_true.shape();
  const TensorView f = conform(on_false, shape, false, name, "on_false", "on_true");
  const TensorView p = conform(pred, shape, true, name, "pred", "on_true");
  check_op_supported(be, OpId::select, d, r0, CompareDir::EQ);
  return launch(be, OpId::select, std::array{p, on_true, f}, out, shape, CompareDir::EQ);
}

Tensor clamp_op(Backend& be, const TensorView& x, const TensorView& lower, const TensorView& upper) {
  const char* name = "clamp";
  check_resident(be, x, name, "x");
  check_resident(be, lower, name, "lower");
  check_resident(be, upper, name, "upper");
  const auto d = dtypes_of<3>({&x, &lower, &upper});
  const auto r0 = rank0_of<3>({&x, &lower, &upper});
  const DType out = infer_dtype(OpId::clamp, d, r0);
  const TensorView lo = conform(lower, x.shape(), true, name, "lower", "x");
  const TensorView hi = conform(upper, x.shape(), true, name, "upper", "x");
  check_op_supported(be, OpId::clamp, d, r0, CompareDir::EQ);
  return launch(be, OpId::clamp, std::array{x, lo, hi}, out, x.shape(), CompareDir::EQ);
}

}  // namespace

// ---- elementwise -------------------------------------------------------------------------------
// The functions of the unary, analytic and binary rows of ops.def.
#define TENFERRO_DEFINE_U(name) \
  Tensor name(Backend& be, const TensorView& x) { return unary_op(be, OpId::name, x); }
#define TENFERRO_DEFINE_B(name) \
  Tensor name(Backend& be, const TensorView& l, const TensorView& r) { return binary_op(be, OpId::name, l, r, {}); }
#define TENFERRO_DEFINE_R(name)
#define TENFERRO_DEFINE_X(name)
#define TENFERRO_OP(name, family, dtypes) TENFERRO_OP_BY_SIGNATURE(TENFERRO_DEFINE_, family, name)
#include "tenferro/ops.def"
#undef TENFERRO_OP
#undef TENFERRO_DEFINE_U
#undef TENFERRO_DEFINE_B
#undef TENFERRO_DEFINE_R
#undef TENFERRO_DEFINE_X

Tensor compare(Backend& be, const TensorView& l, const TensorView& r, CompareDir dir) {
  return binary_op(be, OpId::compare, l, r, dir);
}
Tensor select(Backend& be, const TensorView& pred, const TensorView& on_true, const TensorView& on_false) {
  return select_op(be, pred, on_true, on_false);
}
Tensor clamp(Backend& be, const TensorView& x, const TensorView& lower, const TensorView& upper) {
  return clamp_op(be, x, lower, upper);
}

Tensor elementwise(Backend& be, OpId op, std::span<const TensorView> inputs, CompareDir dir) {
  const char* name = cname(op);
  const std::size_t n = arity(op);
  TENFERRO_CHECK(n > 0, invalid_argument, name, "op", name, " is not an elementwise op");
  TENFERRO_CHECK(inputs.size() == n, invalid_argument, name, "inputs", "wrong number of inputs: got ",
                 inputs.size(), ", expected ", n);
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::analytic: return unary_op(be, op, inputs[0]);
    case OpFamily::binary:
    case OpFamily::compare: return binary_op(be, op, inputs[0], inputs[1], dir);
    case OpFamily::select: return select_op(be, inputs[0], inputs[1], inputs[2]);
    case OpFamily::clamp: return clamp_op(be, inputs[0], inputs[1], inputs[2]);
    TENFERRO_OP_FAMILIES_NOT_ELEMENTWISE: break;
  }
  TENFERRO_FAIL(internal, name, "op", "unreachable elementwise family");
}

// ---- fusion ------------------------------------------------------------------------------------
Tensor fused(Backend& be, const FusionPlan& plan, std::span<const TensorView> inputs) {
  const char* name = "fused";
  TENFERRO_CHECK(!plan.steps.empty(), invalid_argument, name, "plan", "plan has no steps, expected at least one");
  TENFERRO_CHECK(!inputs.empty(), invalid_argument, name, "inputs", "no inputs, expected at least one");
  for (const TensorView& t : inputs) check_resident(be, t, name, "inputs");
  // The shape of the inputs that are not rank 0; rank-0 inputs broadcast against it, as in the
  // unfused ops (SEMANTICS.md).
  Shape shape;
  for (const TensorView& t : inputs)
    if (t.rank() > 0) {
      shape = t.shape();
      break;
    }
  for (std::size_t i = 0; i < inputs.size(); ++i)
    TENFERRO_CHECK(inputs[i].rank() == 0 || inputs[i].shape() == shape, shape_mismatch, name, "inputs", "input ", i,
                   " has shape ", inputs[i].shape(), ", expected ", shape, " or rank 0 (inputs are equal or rank 0)");
  std::vector<DType> step_dtype;
  std::vector<char> step_rank0;  // a step's value is rank 0 when all its arguments are
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const FusionStep& s = plan.steps[k];
    const std::size_t n = arity(s.op);
    TENFERRO_CHECK(n > 0, invalid_argument, name, "plan", "step ", k, " is ", op_name(s.op),
                   ", expected an elementwise or analytic op");
    TENFERRO_CHECK(s.args.size() == n, invalid_argument, name, "plan", "step ", k, " (", op_name(s.op),
                   ") has ", s.args.size(), " args, expected ", n);
    std::array<DType, 3> d{};
    std::array<bool, 3> r0{};
    for (std::size_t j = 0; j < n; ++j) {
      const std::int64_t a64 = s.args[j];
      if (a64 >= 0) {
        TENFERRO_CHECK(a64 < static_cast<std::int64_t>(k), invalid_argument, name, "plan", "step ", k,
                       " refers to step ", a64, ", expected an earlier step (< ", k, ")");
        d[j] = step_dtype[static_cast<std::size_t>(a64)];
        r0[j] = step_rank0[static_cast<std::size_t>(a64)] != 0;
      } else {
        const std::int64_t in = -a64 - 1;
        TENFERRO_CHECK(in < static_cast<std::int64_t>(inputs.size()), invalid_argument, name, "plan", "step ", k,
                       " refers to input ", in, ", expected < ", inputs.size());
        d[j] = inputs[static_cast<std::size_t>(in)].dtype();
        r0[j] = inputs[static_cast<std::size_t>(in)].rank() == 0;
      }
    }
    try {
      const std::span<const DType> ds(d.data(), n);
      const std::span<const bool> rs(r0.data(), n);
      step_dtype.push_back(infer_dtype(s.op, ds, rs));
      check_op_supported(be, s.op, ds, rs, s.dir);
      // One dtype per step: the fused kernels do not promote a real scalar to complex.
      TENFERRO_CHECK(n != 2 || promoted_scalar(s.op, d[0], r0[0], d[1], r0[1]) == 0, unsupported, name, "plan",
                     "a real rank-0 operand meets a complex one, which only the unfused op promotes: got ",
                     dtype_name(d[0]), " and ", dtype_name(d[1]), ", expected equal dtypes (cast the scalar first)");
    } catch (const Error& e) {
      // Same rule and kind as the unfused op; the error names the plan and the step.
      throw Error(e.kind(), name, "plan", detail::cat("step ", k, " (", op_name(s.op), "): ", e.detail()));
    }
    step_rank0.push_back(std::all_of(r0.begin(), r0.begin() + static_cast<std::ptrdiff_t>(n), [](bool b) { return b; }));
  }
  // The reduction of the last step's value: reduce()'s rules, named as the plan's.
  FusionPlan run = plan;
  Shape out_shape = shape;
  if (plan.reduce && !plan.reduce_axes.empty()) {
    const OpId op = *plan.reduce;
    const DType d = step_dtype.back();
    TENFERRO_CHECK(op_info(op).family == OpFamily::reduce, invalid_argument, name, "plan", "the plan's reduce is ",
                   op_name(op), ", expected reduce_sum, reduce_prod, reduce_max or reduce_min");
    TENFERRO_CHECK(contract_allows(op, d), unsupported, name, "plan", op_name(op), " does not accept dtype ",
                   dtype_name(d), " (the plan's result)");
    detail::check_axes(plan.reduce_axes, static_cast<std::int64_t>(shape.size()), name, "plan");
    for (std::int64_t a : plan.reduce_axes)
      TENFERRO_CHECK(shape[static_cast<std::size_t>(a)] > 0, invalid_argument, name, "plan", "cannot reduce over axis ",
                     a, " of extent 0: got shape ", shape, ", expected every reduced extent > 0");
    TENFERRO_CHECK(be.supports(op, d), unsupported, name, "plan", "[", be.name(), "] ", op_name(op), ": dtype ",
                   dtype_name(d), " not supported by this backend");
    std::sort(run.reduce_axes.begin(), run.reduce_axes.end());
    out_shape.clear();
    for (std::size_t a = 0; a < shape.size(); ++a)
      if (!std::binary_search(run.reduce_axes.begin(), run.reduce_axes.end(), static_cast<std::int64_t>(a)))
        out_shape.push_back(shape[a]);
  } else {
    run.reduce.reset();
    run.reduce_axes.clear();
  }
  Tensor out = be.allocate(step_dtype.back(), out_shape);
  if (out.numel() == 0) return out;
  std::vector<TensorView> views(inputs.begin(), inputs.end());
  for (TensorView& v : views)
    if (v.rank() == 0 && !shape.empty()) v = broadcast_scalar(v, shape);
  be.fused(run, views, out);
  return out;
}

}  // namespace tenferro
