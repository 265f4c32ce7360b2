// einsum execution: per-operand preparation (drop broadcast axes, diagonal views, sums of
// private labels), pairwise dot_general steps on strided views, one final transpose.
#include <algorithm>

#include "core/check.hpp"
#include "core/einsum/internal.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {
namespace {

constexpr const char* kOp = "einsum";

// A live operand of the contraction: its view, the labels of its axes, and whether it has
// been prepared (broadcast axes dropped, diagonals taken, private labels summed).
struct Entry {
  TensorView view;
  Tensor owned;  // set when view is a tensor einsum created (freed when the entry goes)
  std::vector<int> labels;
  int operand = -1;  // input index while unprepared, else -1
};

// Drops the extent-1 broadcast axes (label -1) of an operand view: metadata only.
TensorView drop_broadcast_axes(const TensorView& v, const std::vector<int>& labels) {
  if (std::find(labels.begin(), labels.end(), -1) == labels.end()) return v;
  Layout l;
  l.offset = v.offset();
  for (std::size_t ax = 0; ax < labels.size(); ++ax) {
    if (labels[ax] < 0) continue;
    l.shape.push_back(v.shape()[ax]);
    l.strides.push_back(v.strides()[ax]);
  }
  return TensorView(v.storage(), v.dtype(), l);
}

void prepare(Backend& be, const EinsumSpec& spec, Entry& e) {
  if (e.operand < 0) return;
  const auto i = static_cast<std::size_t>(e.operand);
  TensorView v = drop_broadcast_axes(e.view, spec.inputs[i]);
  std::vector<int> labels;
  for (int id : spec.inputs[i])
    if (id >= 0) labels.push_back(id);
  // Repeated labels: diagonal views (keep the first axis, drop the later one).
  for (std::size_t a = 0; a < labels.size(); ++a) {
    for (std::size_t b = a + 1; b < labels.size();) {
      if (labels[b] == labels[a]) {
        v = v.diagonal(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b));
        labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(b));
      } else {
        ++b;
      }
    }
  }
  // Labels private to this operand and absent from the output: summed here.
  const auto& keep = spec.reduced[i];
  Axes sum_axes;
  std::vector<int> kept;
  for (std::size_t ax = 0; ax < labels.size(); ++ax) {
    if (std::find(keep.begin(), keep.end(), labels[ax]) == keep.end()) {
      sum_axes.push_back(static_cast<std::int64_t>(ax));
    } else {
      kept.push_back(labels[ax]);
    }
  }
  if (!sum_axes.empty()) {
    e.owned = reduce_sum(be, v, sum_axes);
    e.view = e.owned;
    e.labels = std::move(kept);
  } else {
    e.view = v;
    e.labels = std::move(labels);
  }
  e.operand = -1;
}

bool has(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Sums the axes of e whose labels are not in `needed` (cannot happen for planner states,
// kept for robustness).
void sum_unneeded(Backend& be, Entry& e, const std::vector<char>& needed, const std::vector<int>& other) {
  Axes axes;
  std::vector<int> kept;
  for (std::size_t ax = 0; ax < e.labels.size(); ++ax) {
    const int l = e.labels[ax];
    if (!needed[static_cast<std::size_t>(l)] && !has(other, l)) {
      axes.push_back(static_cast<std::int64_t>(ax));
    } else {
      kept.push_back(l);
    }
  }
  if (axes.empty()) return;
  e.owned = reduce_sum(be, e.view, axes);
  e.view = e.owned;
  e.labels = std::move(kept);
}

// One pairwise step: shared labels needed later are batch axes, other shared labels are
// contracted, the rest are free. Batch axes follow `order` (the output order) when given.
Entry contract_pair(Backend& be, Entry& a, Entry& b, const std::vector<char>& needed, const std::vector<int>& order) {
  sum_unneeded(be, a, needed, b.labels);
  sum_unneeded(be, b, needed, a.labels);
  DotGeneralConfig cfg;
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
  Entry r;
  r.owned = dot_general(be, a.view, b.view, cfg);
  r.view = r.owned;
  r.labels = free_a;
  r.labels.insert(r.labels.end(), free_b.begin(), free_b.end());
  r.labels.insert(r.labels.end(), batch.begin(), batch.end());
  return r;
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

}  // namespace

Tensor execute(Backend& be, const EinsumSpec& spec, const Path& path, std::span<const TensorView> operands) {
  const std::size_t n = spec.num_inputs();
  TENFERRO_CHECK(operands.size() == n, invalid_argument, kOp, "operands", "the spec has ", n, " operand(s), got ",
                 operands.size());
  for (std::size_t i = 0; i < n; ++i) {
    const TensorView& t = operands[i];
    detail::check_resident(be, t, kOp, "operands");
    TENFERRO_CHECK(t.rank() == static_cast<std::int64_t>(spec.inputs[i].size()), rank_mismatch, kOp, "operands",
                   "operand ", i, " has rank ", t.rank(), ", expected ", spec.inputs[i].size());
    for (std::size_t ax = 0; ax < spec.inputs[i].size(); ++ax) {
      const int id = spec.inputs[i][ax];
      const std::int64_t want = id < 0 ? 1 : spec.extents[static_cast<std::size_t>(id)];
      TENFERRO_CHECK(t.shape()[ax] == want, shape_mismatch, kOp, "operands", "operand ", i, " axis ", ax,
                     " has extent ", t.shape()[ax], ", expected ", want);
    }
    TENFERRO_CHECK(t.dtype() == operands[0].dtype(), dtype_mismatch, kOp, "operands", "operand ", i, " has dtype ",
                   dtype_name(t.dtype()), " but operand 0 has ", dtype_name(operands[0].dtype()));
  }
  TENFERRO_CHECK(n > 0, invalid_argument, kOp, "operands", "einsum needs at least one operand");
  if (n >= 2) {
    const DType d = operands[0].dtype();
    TENFERRO_CHECK(is_inexact(d), unsupported, kOp, "operands", "contracting two or more operands needs f32, f64, c32 or c64, got ",
                   dtype_name(d));
    TENFERRO_CHECK(be.supports(OpId::dot_general, d), unsupported, kOp, "operands", "[", be.name(),
                   "] einsum: dot_general on ", dtype_name(d), " not supported by this backend");
  }
  // Validate the path before any work.
  {
    std::size_t cur = n;
    TENFERRO_CHECK(path.size() == n - 1, invalid_argument, kOp, "path", "a path for ", n, " operand(s) needs ",
                   n - 1, " steps, got ", path.size());
    for (std::size_t k = 0; k < path.size(); ++k, --cur) {
      const auto [i, j] = path[k];
      TENFERRO_CHECK(i >= 0 && j >= 0 && static_cast<std::size_t>(i) < cur && static_cast<std::size_t>(j) < cur && i != j,
                     invalid_argument, kOp, "path", "step ", k, " is [", i, ", ", j, "] but ", cur,
                     " operands are left");
    }
  }

  // needed[l]: occurrences of label l in live entries (planner view) + output.
  const std::size_t L = spec.labels.size();
  std::vector<int> uses(L, 0);
  std::vector<char> in_output(L, 0);
  for (int id : spec.output) in_output[static_cast<std::size_t>(id)] = 1;
  std::vector<Entry> live;
  for (std::size_t i = 0; i < n; ++i) {
    Entry e;
    e.view = operands[i];
    e.labels = spec.reduced[i];  // planner view until prepared
    e.operand = static_cast<int>(i);
    for (int id : e.labels) ++uses[static_cast<std::size_t>(id)];
    live.push_back(std::move(e));
  }
  for (std::size_t k = 0; k < path.size(); ++k) {
    const auto ia = static_cast<std::size_t>(path[k].first);
    const auto ib = static_cast<std::size_t>(path[k].second);
    Entry a = std::move(live[ia]);
    Entry b = std::move(live[ib]);
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::max(ia, ib)));
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::min(ia, ib)));
    for (int id : a.labels) --uses[static_cast<std::size_t>(id)];
    for (int id : b.labels) --uses[static_cast<std::size_t>(id)];
    prepare(be, spec, a);
    prepare(be, spec, b);
    std::vector<char> needed(L, 0);
    for (std::size_t l = 0; l < L; ++l) needed[l] = in_output[l] || uses[l] > 0;
    const bool last = k + 1 == path.size();
    // Last step: pick the operand order whose result needs no final transpose if any.
    bool swap = false;
    if (last) {
      const auto fwd = result_labels(a.labels, b.labels, spec.output);
      const auto bwd = result_labels(b.labels, a.labels, spec.output);
      swap = fwd != spec.output && bwd == spec.output;
    }
    Entry r = swap ? contract_pair(be, b, a, needed, spec.output) : contract_pair(be, a, b, needed, spec.output);
    for (int id : r.labels) ++uses[static_cast<std::size_t>(id)];
    live.push_back(std::move(r));
    // a and b (and their storage, when einsum owned it) are released here.
  }
  TENFERRO_ASSERT(live.size() == 1);
  Entry& e = live.front();
  prepare(be, spec, e);
  {
    // Labels not in the output can only remain for a single operand (already summed).
    std::vector<char> needed(L, 0);
    for (std::size_t l = 0; l < L; ++l) needed[l] = in_output[l];
    sum_unneeded(be, e, needed, {});
  }
  TENFERRO_ASSERT(e.labels.size() == spec.output.size());
  if (e.labels == spec.output && e.owned.defined() && e.owned.storage() == e.view.storage()) return e.owned;
  Axes perm;
  for (int id : spec.output) {
    const auto it = std::find(e.labels.begin(), e.labels.end(), id);
    TENFERRO_ASSERT(it != e.labels.end());
    perm.push_back(it - e.labels.begin());
  }
  return transpose(be, e.view, perm);
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
