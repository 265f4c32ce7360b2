// einsum execution in two phases. Planning works on layouts only (shapes, strides, offsets)
// and emits a short program: views (dropped broadcast axes, diagonals), sums of private
// labels, pairwise dot_general steps, one final transpose, and the last use of every value.
// Running the program only calls ops. explain() plans and reports, using dot_general's own
// lowering decision (core/ops/dot_general_lowering.hpp) for every step.
#include <algorithm>

#include "core/check.hpp"
#include "core/einsum/internal.hpp"
#include "core/ops/dot_general_lowering.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {
namespace {

constexpr const char* kOp = "einsum";

bool has(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// ---- the program ---------------------------------------------------------------------------

struct Instr {
  enum class Kind : std::uint8_t { view, reduce_sum, dot, transpose };
  Kind kind = Kind::view;
  int a = -1, b = -1, dst = -1;  // value slots
  // view: the new view's layout (absolute). dot: the out view handed to dot_general_into, a
  // permuted view of the compact stored tensor (unused when out_compact).
  Layout layout;
  Shape shape;  // dot: the stored tensor's shape (compact)
  bool out_compact = true;
  Axes axes;  // reduce_sum: summed axes; transpose: the permutation
  DotGeneralConfig cfg;
  std::vector<int> release;  // slots whose last use is this instruction
};

struct Program {
  int num_slots = 0;
  std::vector<Instr> instrs;
  int result = -1;
  EinsumStats stats;
};

// A value while planning: its layout and the label of each axis.
struct Val {
  Layout layout;
  std::vector<int> labels;
  int operand = -1;  // input index while unprepared (labels are then the planner's view), else -1
  int path_id = -1;  // for the report
};

class Planner {
 public:
  Planner(const EinsumSpec& spec, DType dtype) : spec_(spec), dtype_(dtype), es_(static_cast<std::int64_t>(dtype_size(dtype))) {}

  Program run(const Path& path, std::span<const Layout> layouts);

 private:
  int add(Val v) {
    vals_.push_back(std::move(v));
    return static_cast<int>(vals_.size()) - 1;
  }
  void prepare(int& slot, std::int64_t& reduce_bytes, int& launches);
  void sum_unneeded(int& slot, const std::vector<char>& needed, const std::vector<int>& other,
                    std::int64_t& reduce_bytes, int& launches);
  int contract(int sa, int sb, const std::vector<char>& needed, const std::vector<int>& order, EinsumStepStats& st);
  int emit_reduce(int src, const Axes& axes, std::vector<int> kept, std::int64_t& reduce_bytes, int& launches);

  const EinsumSpec& spec_;
  DType dtype_;
  std::int64_t es_;
  std::vector<Val> vals_;
  std::vector<Instr> instrs_;
};

int Planner::emit_reduce(int src, const Axes& axes, std::vector<int> kept, std::int64_t& reduce_bytes, int& launches) {
  const Layout& l = vals_[static_cast<std::size_t>(src)].layout;
  Shape shape;
  for (std::int64_t ax = 0; ax < l.rank(); ++ax)
    if (std::find(axes.begin(), axes.end(), ax) == axes.end()) shape.push_back(l.shape[static_cast<std::size_t>(ax)]);
  reduce_bytes += l.numel() * es_;
  ++launches;
  Instr in;
  in.kind = Instr::Kind::reduce_sum;
  in.a = src;
  in.axes = axes;
  Val v;
  v.layout = Layout::compact(shape);
  v.labels = std::move(kept);
  v.path_id = vals_[static_cast<std::size_t>(src)].path_id;
  const int dst = in.dst = add(std::move(v));
  instrs_.push_back(std::move(in));
  return dst;
}

// Drops broadcast axes, takes diagonals (views) and sums labels private to the operand.
void Planner::prepare(int& slot, std::int64_t& reduce_bytes, int& launches) {
  const Val& v0 = vals_[static_cast<std::size_t>(slot)];
  if (v0.operand < 0) return;
  const auto i = static_cast<std::size_t>(v0.operand);
  Layout l;
  l.offset = v0.layout.offset;
  std::vector<int> labels;
  for (std::size_t ax = 0; ax < spec_.inputs[i].size(); ++ax) {
    if (spec_.inputs[i][ax] < 0) continue;  // extent-1 broadcast axis
    l.shape.push_back(v0.layout.shape[ax]);
    l.strides.push_back(v0.layout.strides[ax]);
    labels.push_back(spec_.inputs[i][ax]);
  }
  // Repeated labels: diagonal views (keep the first axis, drop the later one).
  for (std::size_t a = 0; a < labels.size(); ++a) {
    for (std::size_t b = a + 1; b < labels.size();) {
      if (labels[b] == labels[a]) {
        l.strides[a] += l.strides[b];
        l.shape.erase(l.shape.begin() + static_cast<std::ptrdiff_t>(b));
        l.strides.erase(l.strides.begin() + static_cast<std::ptrdiff_t>(b));
        labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(b));
      } else {
        ++b;
      }
    }
  }
  const int path_id = v0.path_id;
  if (l != v0.layout) {
    Instr in;
    in.kind = Instr::Kind::view;
    in.a = slot;
    in.layout = l;
    in.dst = add(Val{l, labels, -1, path_id});
    slot = in.dst;
    instrs_.push_back(std::move(in));
  } else {
    vals_[static_cast<std::size_t>(slot)].labels = labels;
    vals_[static_cast<std::size_t>(slot)].operand = -1;
  }
  // Labels private to this operand and absent from the output: summed here.
  const auto& keep = spec_.reduced[i];
  Axes sum_axes;
  std::vector<int> kept;
  for (std::size_t ax = 0; ax < labels.size(); ++ax) {
    if (!has(keep, labels[ax])) {
      sum_axes.push_back(static_cast<std::int64_t>(ax));
    } else {
      kept.push_back(labels[ax]);
    }
  }
  if (!sum_axes.empty()) slot = emit_reduce(slot, sum_axes, std::move(kept), reduce_bytes, launches);
}

// Sums the axes of a value whose labels are not needed and not in `other` (cannot happen for
// planner states, kept for robustness).
void Planner::sum_unneeded(int& slot, const std::vector<char>& needed, const std::vector<int>& other,
                           std::int64_t& reduce_bytes, int& launches) {
  const Val& v = vals_[static_cast<std::size_t>(slot)];
  Axes axes;
  std::vector<int> kept;
  for (std::size_t ax = 0; ax < v.labels.size(); ++ax) {
    const int l = v.labels[ax];
    if (!needed[static_cast<std::size_t>(l)] && !has(other, l)) {
      axes.push_back(static_cast<std::int64_t>(ax));
    } else {
      kept.push_back(l);
    }
  }
  if (!axes.empty()) slot = emit_reduce(slot, axes, std::move(kept), reduce_bytes, launches);
}

// The labels a result of (a, b) would carry, in dot_general order (for choosing the operand
// order of the last step).
std::vector<int> result_labels(const std::vector<int>& a, const std::vector<int>& b, const std::vector<int>& order) {
  std::vector<int> fa, fb, batch;
  for (int l : a) (has(b, l) ? batch : fa).push_back(l);
  for (int l : b)
    if (!has(a, l)) fb.push_back(l);
  std::vector<int> kept_batch;
  for (int l : order)
    if (has(batch, l)) kept_batch.push_back(l);
  fa.insert(fa.end(), fb.begin(), fb.end());
  fa.insert(fa.end(), kept_batch.begin(), kept_batch.end());
  return fa;
}

const char* step_kind(std::int64_t M, std::int64_t N, std::int64_t K) {
  if (M == 1 && N == 1) return K == 1 ? "elementwise" : "dot";
  if (K == 1) return "outer";
  if (M == 1 || N == 1) return "gemv";
  return "gemm";
}

// One pairwise step: shared labels needed later are batch axes, other shared labels are
// contracted, the rest are free. Batch axes follow `order` (the output order) when given.
int Planner::contract(int sa, int sb, const std::vector<char>& needed, const std::vector<int>& order,
                      EinsumStepStats& st) {
  const Val& a = vals_[static_cast<std::size_t>(sa)];
  const Val& b = vals_[static_cast<std::size_t>(sb)];
  Instr in;
  in.kind = Instr::Kind::dot;
  in.a = sa;
  in.b = sb;
  DotGeneralConfig& cfg = in.cfg;
  std::vector<int> free_a, free_b, batch;
  for (std::size_t ax = 0; ax < a.labels.size(); ++ax) {
    const int l = a.labels[ax];
    const auto it = std::find(b.labels.begin(), b.labels.end(), l);
    if (it == b.labels.end()) {
      free_a.push_back(l);
    } else if (needed[static_cast<std::size_t>(l)]) {
      batch.push_back(l);
    } else {
      cfg.lhs_contracting_dims.push_back(static_cast<std::int64_t>(ax));
      cfg.rhs_contracting_dims.push_back(it - b.labels.begin());
    }
  }
  for (int l : b.labels)
    if (!has(a.labels, l)) free_b.push_back(l);
  if (!order.empty()) {
    std::stable_sort(batch.begin(), batch.end(), [&](int x, int y) {
      return std::find(order.begin(), order.end(), x) < std::find(order.begin(), order.end(), y);
    });
  }
  for (int l : batch) {
    cfg.lhs_batching_dims.push_back(std::find(a.labels.begin(), a.labels.end(), l) - a.labels.begin());
    cfg.rhs_batching_dims.push_back(std::find(b.labels.begin(), b.labels.end(), l) - b.labels.begin());
  }
  std::vector<int> out = free_a;
  out.insert(out.end(), free_b.begin(), free_b.end());
  out.insert(out.end(), batch.begin(), batch.end());
  for (int l : out) in.shape.push_back(spec_.extents[static_cast<std::size_t>(l)]);
  in.out_compact = true;
  in.layout = Layout::compact(in.shape);

  // The report: dot_general's own lowering decision.
  const detail::DotLowering lw = detail::lower_dot_general(a.layout, b.layout, cfg);
  st.lhs = a.path_id;
  st.rhs = b.path_id;
  st.lhs_labels = einsum_detail::labels_text(spec_, a.labels);
  st.rhs_labels = einsum_detail::labels_text(spec_, b.labels);
  st.out_labels = einsum_detail::labels_text(spec_, out);
  st.M = lw.M;
  st.N = lw.N;
  st.K = lw.K;
  st.B = lw.B;
  st.kind = step_kind(lw.M, lw.N, lw.K);
  if (lw.B > 1) st.kind = "batched " + st.kind;
  const std::int64_t out_n = lw.M * lw.N * lw.B;
  st.out_bytes = out_n * es_;
  if (out_n > 0) {
    st.flops = (is_complex(dtype_) ? 8.0 : 2.0) * static_cast<double>(lw.M) * static_cast<double>(lw.N) *
               static_cast<double>(lw.K) * static_cast<double>(lw.B);
    if (!lw.lhs_in_place && a.layout.numel() > 0) {
      st.lhs_packed_bytes = a.layout.numel() * es_;
      ++st.launches;
    }
    if (!lw.rhs_in_place && b.layout.numel() > 0) {
      st.rhs_packed_bytes = b.layout.numel() * es_;
      ++st.launches;
    }
    if (!in.out_compact && !detail::dot_out_in_place(in.layout, free_a.size(), free_b.size())) {
      st.out_copy_bytes = st.out_bytes;
      ++st.launches;
    }
    ++st.launches;  // the gemm
  }
  Val r;
  r.layout = Layout::compact(in.shape);
  r.labels = std::move(out);
  in.dst = add(std::move(r));
  instrs_.push_back(std::move(in));
  return instrs_.back().dst;
}

Program Planner::run(const Path& path, std::span<const Layout> layouts) {
  const std::size_t n = spec_.num_inputs();
  const std::size_t L = spec_.labels.size();
  Program prog;
  std::vector<int> uses(L, 0);
  std::vector<char> in_output(L, 0);
  for (int id : spec_.output) in_output[static_cast<std::size_t>(id)] = 1;
  std::vector<int> live;
  for (std::size_t i = 0; i < n; ++i) {
    Val v;
    v.layout = layouts[i];
    v.labels = spec_.reduced[i];  // planner view until prepared
    v.operand = static_cast<int>(i);
    v.path_id = static_cast<int>(i);
    for (int id : v.labels) ++uses[static_cast<std::size_t>(id)];
    live.push_back(add(std::move(v)));
  }
  std::vector<char> needed(L, 0);
  for (std::size_t k = 0; k < path.size(); ++k) {
    const auto ia = static_cast<std::size_t>(path[k].first);
    const auto ib = static_cast<std::size_t>(path[k].second);
    int sa = live[ia], sb = live[ib];
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::max(ia, ib)));
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::min(ia, ib)));
    for (int id : vals_[static_cast<std::size_t>(sa)].labels) --uses[static_cast<std::size_t>(id)];
    for (int id : vals_[static_cast<std::size_t>(sb)].labels) --uses[static_cast<std::size_t>(id)];
    EinsumStepStats st;
    prepare(sa, st.reduce_bytes, st.launches);
    prepare(sb, st.reduce_bytes, st.launches);
    for (std::size_t l = 0; l < L; ++l) needed[l] = in_output[l] || uses[l] > 0;
    const std::vector<int> la = vals_[static_cast<std::size_t>(sa)].labels;
    const std::vector<int> lb = vals_[static_cast<std::size_t>(sb)].labels;
    sum_unneeded(sa, needed, lb, st.reduce_bytes, st.launches);
    sum_unneeded(sb, needed, la, st.reduce_bytes, st.launches);
    // Last step: pick the operand order whose result needs no final transpose if any.
    bool swap = false;
    if (k + 1 == path.size()) {
      const auto& a = vals_[static_cast<std::size_t>(sa)].labels;
      const auto& b = vals_[static_cast<std::size_t>(sb)].labels;
      const auto fwd = result_labels(a, b, spec_.output);
      const auto bwd = result_labels(b, a, spec_.output);
      swap = fwd != spec_.output && bwd == spec_.output;
    }
    if (swap) std::swap(sa, sb);
    const int r = contract(sa, sb, needed, spec_.output, st);
    vals_[static_cast<std::size_t>(r)].path_id = static_cast<int>(n + k);
    for (int id : vals_[static_cast<std::size_t>(r)].labels) ++uses[static_cast<std::size_t>(id)];
    live.push_back(r);
    prog.stats.steps.push_back(std::move(st));
  }
  TENFERRO_ASSERT(live.size() == 1);
  int s = live.front();
  std::int64_t& fr = prog.stats.final_reduce_bytes;
  prepare(s, fr, prog.stats.final_launches);
  {
    // Labels not in the output can only remain for a single operand (already summed).
    std::vector<char> out_only(in_output.begin(), in_output.end());
    sum_unneeded(s, out_only, {}, fr, prog.stats.final_launches);
  }
  const Val& e = vals_[static_cast<std::size_t>(s)];
  TENFERRO_ASSERT(e.labels.size() == spec_.output.size());
  // The result must be a tensor einsum created (not an operand's storage), in output order.
  const bool created = !instrs_.empty() && instrs_.back().dst == s && instrs_.back().kind != Instr::Kind::view;
  if (e.labels == spec_.output && created) {
    prog.result = s;
  } else {
    Instr in;
    in.kind = Instr::Kind::transpose;
    in.a = s;
    for (int id : spec_.output) {
      const auto it = std::find(e.labels.begin(), e.labels.end(), id);
      TENFERRO_ASSERT(it != e.labels.end());
      in.axes.push_back(it - e.labels.begin());
    }
    Shape shape;
    for (std::int64_t ax : in.axes) shape.push_back(e.layout.shape[static_cast<std::size_t>(ax)]);
    prog.stats.final_transpose_bytes = e.layout.numel() * es_;
    ++prog.stats.final_launches;
    in.dst = add(Val{Layout::compact(shape), spec_.output, -1, -1});
    prog.result = in.dst;
    instrs_.push_back(std::move(in));
  }
  // Last uses.
  std::vector<int> last(vals_.size(), -1);
  for (std::size_t k = 0; k < instrs_.size(); ++k) {
    const Instr& in = instrs_[k];
    if (in.a >= 0) last[static_cast<std::size_t>(in.a)] = static_cast<int>(k);
    if (in.b >= 0) last[static_cast<std::size_t>(in.b)] = static_cast<int>(k);
  }
  for (std::size_t v = 0; v < vals_.size(); ++v)
    if (last[v] >= 0 && static_cast<int>(v) != prog.result) instrs_[static_cast<std::size_t>(last[v])].release.push_back(static_cast<int>(v));
  prog.num_slots = static_cast<int>(vals_.size());
  prog.instrs = std::move(instrs_);
  // Totals.
  EinsumStats& t = prog.stats;
  t.launches = t.final_launches;
  t.copied_bytes = t.final_transpose_bytes;
  for (const auto& st : t.steps) {
    t.gemm_flops += st.flops;
    t.packed_bytes += st.lhs_packed_bytes + st.rhs_packed_bytes;
    t.copied_bytes += st.lhs_packed_bytes + st.rhs_packed_bytes + st.out_copy_bytes;
    t.launches += st.launches;
  }
  return prog;
}

// ---- validation and running ----------------------------------------------------------------

void check_shapes(const EinsumSpec& spec, std::span<const Layout> layouts) {
  const std::size_t n = spec.num_inputs();
  TENFERRO_CHECK(layouts.size() == n, invalid_argument, kOp, "operands", "the spec has ", n, " operand(s), got ",
                 layouts.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Layout& t = layouts[i];
    TENFERRO_CHECK(t.rank() == static_cast<std::int64_t>(spec.inputs[i].size()), rank_mismatch, kOp, "operands",
                   "operand ", i, " has rank ", t.rank(), ", expected ", spec.inputs[i].size());
    for (std::size_t ax = 0; ax < spec.inputs[i].size(); ++ax) {
      const int id = spec.inputs[i][ax];
      const std::int64_t want = id < 0 ? 1 : spec.extents[static_cast<std::size_t>(id)];
      TENFERRO_CHECK(t.shape[ax] == want, shape_mismatch, kOp, "operands", "operand ", i, " axis ", ax,
                     " has extent ", t.shape[ax], ", expected ", want);
    }
  }
  TENFERRO_CHECK(n > 0, invalid_argument, kOp, "operands", "einsum needs at least one operand");
}

void check_path(std::size_t n, const Path& path) {
  std::size_t cur = n;
  TENFERRO_CHECK(path.size() == n - 1, invalid_argument, kOp, "path", "a path for ", n, " operand(s) needs ", n - 1,
                 " steps, got ", path.size());
  for (std::size_t k = 0; k < path.size(); ++k, --cur) {
    const auto [i, j] = path[k];
    TENFERRO_CHECK(i >= 0 && j >= 0 && static_cast<std::size_t>(i) < cur && static_cast<std::size_t>(j) < cur && i != j,
                   invalid_argument, kOp, "path", "step ", k, " is [", i, ", ", j, "] but ", cur, " operands are left");
  }
}

}  // namespace

EinsumStats explain(const EinsumSpec& spec, const Path& path, std::span<const Layout> operand_layouts, DType dtype) {
  check_shapes(spec, operand_layouts);
  check_path(spec.num_inputs(), path);
  return Planner(spec, dtype).run(path, operand_layouts).stats;
}

Tensor execute(Backend& be, const EinsumSpec& spec, const Path& path, std::span<const TensorView> operands) {
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
  check_shapes(spec, layouts);
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
  check_path(n, path);  // before any work

  const Program prog = Planner(spec, d).run(path, layouts);
  std::vector<TensorView> v(static_cast<std::size_t>(prog.num_slots));
  std::vector<Tensor> own(static_cast<std::size_t>(prog.num_slots));
  for (std::size_t i = 0; i < n; ++i) v[i] = operands[i];
  const Scalar one = Scalar::of(d, 1.0), zero = detail::zero_of(d);
  for (const Instr& in : prog.instrs) {
    const auto dst = static_cast<std::size_t>(in.dst);
    const TensorView& a = v[static_cast<std::size_t>(in.a)];
    switch (in.kind) {
      case Instr::Kind::view:
        v[dst] = TensorView(a.storage(), d, in.layout);
        break;
      case Instr::Kind::reduce_sum:
        own[dst] = reduce_sum(be, a, in.axes);
        break;
      case Instr::Kind::dot: {
        const TensorView& b = v[static_cast<std::size_t>(in.b)];
        if (in.out_compact) {
          own[dst] = dot_general(be, a, b, in.cfg);
        } else {
          own[dst] = be.allocate(d, in.shape);
          dot_general_into(be, a, b, in.cfg, false, false, one, zero,
                           TensorView(own[dst].storage(), d, in.layout));
        }
        break;
      }
      case Instr::Kind::transpose:
        own[dst] = transpose(be, a, in.axes);
        break;
    }
    if (own[dst].defined()) v[dst] = own[dst];
    for (int s : in.release) {
      v[static_cast<std::size_t>(s)] = TensorView();
      own[static_cast<std::size_t>(s)] = Tensor();
    }
  }
  return own[static_cast<std::size_t>(prog.result)];
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

}  // namespace tenferro
