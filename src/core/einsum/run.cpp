// The runner: validates the operands, gets the program for their layouts and the backend's
// capabilities (lower.hpp, cached) and runs it. It decides nothing: each instruction says what
// to call, how a product stores its result and how much scratch it may hold (program.hpp).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/check.hpp"
#include "core/einsum/internal.hpp"
#include "core/einsum/lower.hpp"
#include "core/ops/dot_general_lowering.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

using einsum_detail::Instr;
using einsum_detail::kOp;

namespace {

// An instruction's view layout (relative to its source, program.hpp) on source `src`.
Layout at_offset(Layout l, const TensorView& src) {
  l.offset += src.layout().offset;
  return l;
}

}  // namespace

Tensor execute(Backend& be, const EinsumSpec& spec, const Path& path, std::span<const TensorView> operands,
               const EinsumProgress& progress) {
  return einsum_detail::execute_within(be, spec, path, operands, progress, 0);
}

Tensor einsum_detail::execute_within(Backend& be, const EinsumSpec& spec, const Path& path,
                                     std::span<const TensorView> operands, const EinsumProgress& progress,
                                     std::uint64_t memory_limit) {
  const std::size_t n = spec.num_inputs();
  TENFERRO_CHECK(operands.size() == n, invalid_argument, kOp, "operands", "the spec has ", n, " operand(s), got ",
                 operands.size());
  std::vector<Layout> layouts;
  layouts.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const TensorView& t = operands[i];
    detail::check_resident(be, t, kOp, "operands");
    layouts.push_back(t.layout());
  }
  einsum_detail::check_layouts(spec, layouts);
  for (std::size_t i = 0; i < n; ++i)
    TENFERRO_CHECK(operands[i].dtype() == operands[0].dtype(), dtype_mismatch, kOp, "operands", "operand ", i,
                   " has dtype ", dtype_name(operands[i].dtype()), " but operand 0 has ",
                   dtype_name(operands[0].dtype()));
  const DType d = operands[0].dtype();
  if (n >= 2) {
    TENFERRO_CHECK(is_inexact(d), unsupported, kOp, "operands",
                   "contracting two or more operands needs f32, f64, c32 or c64, got ", dtype_name(d));
    TENFERRO_CHECK(be.supports(OpId::dot_general, d), unsupported, kOp, "operands", "[", be.name(),
                   "] einsum: dot_general on ", dtype_name(d), " not supported by this backend");
  }
  einsum_detail::check_path(n, path);  // before any work

  const std::shared_ptr<const einsum_detail::Program> prog_ptr = einsum_detail::program_for(
      spec, path, layouts, d, {.use_mul = be.supports(OpId::mul, d),
                                         .chains = be.gemm_caps().chained_output,
                                         .report = false,
                                         .memory_limit = memory_limit});
  const einsum_detail::Program& prog = *prog_ptr;
  std::vector<TensorView> v(static_cast<std::size_t>(prog.num_slots));
  std::vector<Tensor> own(static_cast<std::size_t>(prog.num_slots));
  for (std::size_t i = 0; i < n; ++i) v[i] = operands[i];
  const Scalar one = Scalar::of(d, 1.0), zero = detail::zero_of(d);
  const auto total = !progress ? std::size_t{0}
                               : static_cast<std::size_t>(std::count_if(prog.instrs.begin(), prog.instrs.end(),
                                                                        [](const Instr& in) {
                                                                          return in.kind != Instr::Kind::view;
                                                                        }));
  std::size_t done = 0;
  for (const Instr& in : prog.instrs) {
    const auto dst = static_cast<std::size_t>(in.dst);
    const TensorView& a = v[static_cast<std::size_t>(in.a)];
    switch (in.kind) {
      case Instr::Kind::view:
        v[dst] = TensorView(a.storage(), d, at_offset(in.layout, a));
        break;
      case Instr::Kind::reduce_sum:
        if (a.numel() == 0) {
          // A sum over a label of extent 0 is zeros (reduce_sum refuses an empty reduced
          // axis, SEMANTICS.md), as is any sum of an operand with no elements.
          Shape kept;
          for (std::int64_t k = 0; k < a.rank(); ++k)
            if (std::find(in.axes.begin(), in.axes.end(), k) == in.axes.end()) kept.push_back(a.dim(k));
          own[dst] = be.allocate(d, kept);
          if (own[dst].numel() > 0) be.fill(own[dst], zero);
        } else {
          own[dst] = reduce_sum(be, a, in.axes);
        }
        break;
      case Instr::Kind::dot: {
        const TensorView& b = v[static_cast<std::size_t>(in.b)];
        if (in.store == Instr::Store::out_view) {
          own[dst] = be.allocate(d, in.shape);
          detail::dot_general_into(be, a, b, in.cfg, false, false, one, zero,
                                   TensorView(own[dst].storage(), d, in.layout), in.scratch_limit);
          break;
        }
        auto last_use = [&](int s) { return std::find(in.release.begin(), in.release.end(), s) != in.release.end(); };
        Tensor r;
        if (in.a != in.b && (last_use(in.a) || last_use(in.b))) {
          // Operands at their last use are handed over (this slot's references cleared), so
          // that dot_general frees each as soon as it is packed, before the other is packed.
          auto hand_over = [&](int s) {
            const auto k = static_cast<std::size_t>(s);
            if (!last_use(s)) return v[k];
            TensorView t = std::move(v[k]);
            v[k] = TensorView();
            own[k] = Tensor();
            return t;
          };
          TensorView la = hand_over(in.a), lb = hand_over(in.b);
          r = detail::dot_general_consuming(be, std::move(la), std::move(lb), in.cfg, in.scratch_limit);
        } else {
          r = detail::dot_general_consuming(be, a, b, in.cfg, in.scratch_limit);
        }
        if (in.store == Instr::Store::copy_after) {
          own[dst] = be.allocate(d, in.shape);
          be.copy(r, TensorView(own[dst].storage(), d, in.layout));
        } else {
          own[dst] = std::move(r);
        }
        break;
      }
      case Instr::Kind::mul: {
        const TensorView& b = v[static_cast<std::size_t>(in.b)];
        own[dst] = mul(be, TensorView(a.storage(), d, at_offset(in.layout, a)),
                       TensorView(b.storage(), d, at_offset(in.layout_b, b)));
        break;
      }
      case Instr::Kind::transpose:
        own[dst] = transpose_copy(be, a, in.axes);
        break;
    }
    if (own[dst].defined()) v[dst] = own[dst];
    for (int s : in.release) {
      v[static_cast<std::size_t>(s)] = TensorView();
      own[static_cast<std::size_t>(s)] = Tensor();
    }
    if (progress && in.kind != Instr::Kind::view) progress(++done, total);
  }
  Tensor r = std::move(own[static_cast<std::size_t>(prog.result)]);
  if (prog.result_is_view && r.shape() != prog.result_shape) return Tensor(r.storage(), d, prog.result_shape);
  return r;
}

Tensor einsum(Backend& be, std::string_view subscripts, std::span<const TensorView> operands,
              const EinsumOptions& opts) {
  std::vector<Shape> shapes;
  for (const auto& t : operands) {
    TENFERRO_CHECK(t.defined(), invalid_argument, kOp, "operands", "an operand is an undefined tensor view");
    shapes.push_back(t.shape());
  }
  const auto plan = make_plan(subscripts, shapes, opts);
  return execute(be, plan->spec, plan->path, operands);
}

Tensor einsum(Backend& be, std::string_view subscripts, std::initializer_list<TensorView> operands,
              const EinsumOptions& opts) {
  return einsum(be, subscripts, std::span<const TensorView>(operands.begin(), operands.size()), opts);
}

}  // namespace tenferro
