// Lowering: the passes over a path (Lowering::run), operand preparation (broadcast axes dropped,
// diagonals as views, private labels summed, when a step first uses an operand), validation and
// the program cache.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/check.hpp"
#include "core/einsum/internal.hpp"
#include "core/einsum/lowering.hpp"
#include "core/einsum/plan/net.hpp"
#include "core/einsum/schedule.hpp"
#include "core/ops/dot_general_lowering.hpp"

namespace tenferro::einsum_detail {

// Operand i after dropping broadcast axes, taking diagonals and summing private labels.
// sum_axes (when given) receives the summed axes of the view.
Val Lowering::prepared_form(std::size_t i, const Layout& l0, Axes* sum_axes) const {
  Val v;
  v.layout.offset = l0.offset;
  // Extent-1 broadcast axes dropped; a repeated label is a diagonal view: its first axis stays,
  // the later ones add their strides to it. One pass (at[label]: its axis in the view), linear
  // in the rank: a term of 256k repeated labels is lowered in milliseconds.
  std::vector<int> at(spec_.labels.size(), -1);
  for (std::size_t ax = 0; ax < spec_.inputs[i].size(); ++ax) {
    const int id = spec_.inputs[i][ax];
    if (id < 0) continue;  // extent-1 broadcast axis
    int& pos = at[static_cast<std::size_t>(id)];
    if (pos >= 0) {
      v.layout.strides[static_cast<std::size_t>(pos)] += l0.strides[ax];
      continue;
    }
    pos = static_cast<int>(v.labels.size());
    v.layout.shape.push_back(l0.shape[ax]);
    v.layout.strides.push_back(l0.strides[ax]);
    v.labels.push_back(id);
  }
  // Labels private to this operand and absent from the output are summed.
  std::vector<char> reduced(spec_.labels.size(), 0);
  for (int id : spec_.reduced[i]) reduced[static_cast<std::size_t>(id)] = 1;
  Axes axes;
  Labels kept;
  Shape kept_shape;
  for (std::size_t ax = 0; ax < v.labels.size(); ++ax) {
    if (!reduced[static_cast<std::size_t>(v.labels[ax])]) {
      axes.push_back(static_cast<std::int64_t>(ax));
    } else {
      kept.push_back(v.labels[ax]);
      kept_shape.push_back(v.layout.shape[ax]);
    }
  }
  if (sum_axes) *sum_axes = axes;
  if (!axes.empty() && !sum_axes) {
    v.layout = Layout::compact(kept_shape);
    v.labels = std::move(kept);
  }
  v.path_id = static_cast<int>(i);
  return v;
}

int Lowering::emit_reduce(int src, const Axes& axes, Labels kept, std::int64_t& reduce_bytes, int& launches) {
  const Layout& l = val(src).layout;
  Shape shape;
  for (std::int64_t ax = 0; ax < l.rank(); ++ax)
    if (std::find(axes.begin(), axes.end(), ax) == axes.end()) shape.push_back(l.shape[static_cast<std::size_t>(ax)]);
  reduce_bytes += l.numel() * es_;
  ++launches;
  Instr in;
  in.kind = Instr::Kind::reduce_sum;
  in.a = src;
  in.axes = axes;
  Val v{Layout::compact(shape), std::move(kept), -1, val(src).path_id};
  return push(std::move(in), std::move(v));
}

void Lowering::prepare(int& slot, std::int64_t& reduce_bytes, int& launches) {
  const Val& v0 = val(slot);
  if (v0.operand < 0) return;
  Axes sum_axes;
  Val v = prepared_form(static_cast<std::size_t>(v0.operand), v0.layout, &sum_axes);
  if (v.layout != v0.layout) {
    slot = push_view(slot, std::move(v));
  } else {
    vals_[static_cast<std::size_t>(slot)].labels = v.labels;
    vals_[static_cast<std::size_t>(slot)].operand = -1;
  }
  if (!sum_axes.empty()) {
    Labels kept;
    for (int l : val(slot).labels)
      if (has(spec_.reduced[static_cast<std::size_t>(val(slot).path_id)], l)) kept.push_back(l);
    slot = emit_reduce(slot, sum_axes, std::move(kept), reduce_bytes, launches);
  }
}

// Sums the axes whose labels are not in `keep` (cannot happen for planner states: kept for
// robustness).
void Lowering::sum_unneeded(int& slot, const Labels& keep, std::int64_t& reduce_bytes, int& launches) {
  const Val& v = val(slot);
  Axes axes;
  Labels kept;
  for (std::size_t ax = 0; ax < v.labels.size(); ++ax) {
    if (!has(keep, v.labels[ax])) {
      axes.push_back(static_cast<std::int64_t>(ax));
    } else {
      kept.push_back(v.labels[ax]);
    }
  }
  if (!axes.empty()) slot = emit_reduce(slot, axes, std::move(kept), reduce_bytes, launches);
}

// A view of slot src with its axes in `order` (a permutation of its labels); src itself when
// already so.
int Lowering::emit_view(int src, const Labels& order) {
  const Val& v = val(src);
  if (v.labels == order) return src;
  Val r;
  r.layout.offset = v.layout.offset;
  for (int l : order) {
    const auto ax = static_cast<std::size_t>(std::find(v.labels.begin(), v.labels.end(), l) - v.labels.begin());
    r.layout.shape.push_back(v.layout.shape[ax]);
    r.layout.strides.push_back(v.layout.strides[ax]);
  }
  r.labels = order;
  r.path_id = v.path_id;
  return push_view(src, std::move(r));
}

Program Lowering::run(const Path& path, std::span<const Layout> layouts) {
  n_ = spec_.num_inputs();
  const std::size_t n = n_;
  const std::size_t L = spec_.labels.size();
  const std::size_t ids = n + path.size();
  Program prog;
  std::vector<char> in_output(L, 0);
  for (int id : spec_.output) in_output[static_cast<std::size_t>(id)] = 1;
  for (std::size_t i = 0; i < n; ++i) inputs_.push_back(prepared_form(i, layouts[i], nullptr));

  // Pass 1: the label groups of every step, and who consumes each value.
  {
    std::vector<int> uses(L, 0);
    std::vector<Labels> labels(ids);
    std::vector<int> live;
    for (std::size_t i = 0; i < n; ++i) {
      labels[i] = spec_.reduced[i];
      for (int l : labels[i]) ++uses[static_cast<std::size_t>(l)];
      live.push_back(static_cast<int>(i));
    }
    consumer_.assign(ids, -1);
    for (std::size_t k = 0; k < path.size(); ++k) {
      const auto ia = static_cast<std::size_t>(path[k].first), ib = static_cast<std::size_t>(path[k].second);
      StepInfo si;
      si.a = live[ia];
      si.b = live[ib];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::max(ia, ib)));
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(std::min(ia, ib)));
      const Labels& la = labels[static_cast<std::size_t>(si.a)];
      const Labels& lb = labels[static_cast<std::size_t>(si.b)];
      for (int l : la) --uses[static_cast<std::size_t>(l)];
      for (int l : lb) --uses[static_cast<std::size_t>(l)];
      auto needed = [&](int l) { return in_output[static_cast<std::size_t>(l)] || uses[static_cast<std::size_t>(l)] > 0; };
      for (int l : la) {
        if (!has(lb, l)) {
          if (needed(l)) si.fa.push_back(l);
        } else {
          (needed(l) ? si.bt : si.c).push_back(l);
        }
      }
      for (int l : lb)
        if (!has(la, l) && needed(l)) si.fb.push_back(l);
      const int id = static_cast<int>(n + k);
      labels[static_cast<std::size_t>(id)] = concat({&si.fa, &si.fb, &si.bt});
      for (int l : labels[static_cast<std::size_t>(id)]) ++uses[static_cast<std::size_t>(l)];
      consumer_[static_cast<std::size_t>(si.a)] = static_cast<int>(k);
      consumer_[static_cast<std::size_t>(si.b)] = static_cast<int>(k);
      live.push_back(id);
      steps_.push_back(std::move(si));
    }
  }
  // Pass 2 (last step first): the order each intermediate would best be stored in, from its
  // result's preferred order: [free, contracted, batch] for a, [contracted, free, batch] for b
  // (column-major GEMM operands), contracted and batch orders taken from an input operand.
  pref_.assign(ids, Labels{});
  for (std::size_t k = path.size(); k-- > 0;) {
    const StepInfo& si = steps_[k];
    const int id = static_cast<int>(n + k);
    const Labels& want = consumer_[static_cast<std::size_t>(id)] < 0 ? spec_.output : pref_[static_cast<std::size_t>(id)];
    const bool fixed_a = si.a < static_cast<int>(n), fixed_b = si.b < static_cast<int>(n);
    const Val* fixed = fixed_a ? &inputs_[static_cast<std::size_t>(si.a)]
                               : fixed_b ? &inputs_[static_cast<std::size_t>(si.b)] : nullptr;
    const Labels c = fixed ? stride_order(*fixed, si.c) : si.c;
    const Labels bt = fixed ? stride_order(*fixed, si.bt) : restrict_to(want, si.bt);
    const Labels fa = restrict_to(want, si.fa), fb = restrict_to(want, si.fb);
    if (!fixed_a) pref_[static_cast<std::size_t>(si.a)] = concat({&fa, &c, &bt});
    if (!fixed_b) pref_[static_cast<std::size_t>(si.b)] = concat({&c, &fb, &bt});
  }
  // Pass 3: the program.
  slot_of_.assign(ids, -1);
  for (std::size_t i = 0; i < n; ++i) {
    Val v;
    v.layout = layouts[i];
    v.labels = spec_.reduced[i];
    v.operand = static_cast<int>(i);
    v.path_id = static_cast<int>(i);
    slot_of_[i] = add(std::move(v));
  }
  for (std::size_t k = 0; k < path.size(); ++k) {
    const StepInfo& si = steps_[k];
    int sa = slot_of_[static_cast<std::size_t>(si.a)], sb = slot_of_[static_cast<std::size_t>(si.b)];
    EinsumStepStats st;
    prepare(sa, st.reduce_bytes, st.launches);
    prepare(sb, st.reduce_bytes, st.launches);
    sum_unneeded(sa, concat({&si.fa, &si.c, &si.bt}), st.reduce_bytes, st.launches);
    sum_unneeded(sb, concat({&si.fb, &si.c, &si.bt}), st.reduce_bytes, st.launches);
    const std::int64_t K = count(si.c);
    int r = -1;
    if (use_mul_ && K == 1) {
      r = contract_mul(static_cast<int>(k), sa, sb, st);
    } else {
      StepInfo split;
      const bool did = split_free(si, sa, sb, split);
      r = contract_gemm(static_cast<int>(k), did ? split : si, sa, sb, st);
    }
    slot_of_[n + k] = r;
    prog.stats.steps.push_back(std::move(st));
  }
  int s = slot_of_[ids - 1];
  std::int64_t& fr = prog.stats.final_reduce_bytes;
  prepare(s, fr, prog.stats.final_launches);
  sum_unneeded(s, spec_.output, fr, prog.stats.final_launches);  // a single operand's sums
  const Val& e = val(s);
  TENFERRO_ASSERT(e.labels.size() == spec_.output.size());
  Axes perm;
  for (int id : spec_.output) perm.push_back(std::find(e.labels.begin(), e.labels.end(), id) - e.labels.begin());
  Layout out;
  out.offset = e.layout.offset;
  for (std::int64_t ax : perm) {
    out.shape.push_back(e.layout.shape[static_cast<std::size_t>(ax)]);
    out.strides.push_back(e.layout.strides[static_cast<std::size_t>(ax)]);
  }
  // The result must be a tensor einsum created (not an operand's storage), compact in output
  // order; then it is returned as is.
  const bool created = !instrs_.empty() && instrs_.back().dst == s && instrs_.back().kind != Instr::Kind::view;
  if (created && out.offset == 0 && out.is_compact()) {
    prog.result = s;
    prog.result_is_view = true;
    prog.result_shape = out.shape;
  } else {
    Instr in;
    in.kind = Instr::Kind::transpose;
    in.a = s;
    in.axes = perm;
    prog.stats.final_transpose_bytes = e.layout.numel() * es_;
    ++prog.stats.final_launches;
    prog.result = push(std::move(in), Val{Layout::compact(out.shape), spec_.output, -1, -1});
  }
  prog.num_slots = static_cast<int>(vals_.size());
  prog.instrs = std::move(instrs_);
  std::vector<std::int64_t> elements;
  elements.reserve(vals_.size());
  for (const Val& v : vals_) elements.push_back(v.layout.numel());
  MemoryBound bound = memory_bound(path_cost(spec_, path), dtype_);
  if (memory_limit_ > 0) bound = {bound.input_bytes, bound.input_bytes + static_cast<double>(memory_limit_), true};
  schedule(prog, elements, n_, es_, bound);
  add_totals(prog.stats);
  return prog;
}

void check_layouts(const EinsumSpec& spec, std::span<const Layout> layouts) {
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

namespace {
// Exact element count of a tensor over these labels (-1: a broadcast axis of extent 1), checked
// against int64 in elements and in bytes.
void check_count(const EinsumSpec& spec, const std::vector<int>& ids, std::size_t element_size,
                 const std::string& what) {
  std::int64_t n = 1;
  bool overflow = false;
  for (int id : ids) {
    const std::int64_t e = id < 0 ? 1 : spec.extents[static_cast<std::size_t>(id)];
    if (e == 0) return;
    overflow = overflow || __builtin_mul_overflow(n, e, &n);
  }
  TENFERRO_CHECK(!overflow, invalid_argument, kOp, "operands", what, " (labels \"", labels_text(spec, ids),
                 "\") would hold more than 2^63 - 1 elements");
  std::int64_t bytes = 0;
  TENFERRO_CHECK(!__builtin_mul_overflow(n, static_cast<std::int64_t>(element_size), &bytes), out_of_memory, kOp,
                 "operands", what, " (labels \"", labels_text(spec, ids), "\") holds ", n,
                 " elements, more than 2^63 - 1 bytes");
}
}  // namespace

void check_sizes(const EinsumSpec& spec, const Path& path, std::size_t element_size) {
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    check_count(spec, spec.inputs[i], element_size, "operand " + std::to_string(i));
    // Summing an empty axis away leaves a tensor of zeros over the other labels, made before
    // any contraction.
    check_count(spec, spec.reduced[i], element_size, "operand " + std::to_string(i) + " summed over its own labels");
  }
  check_count(spec, spec.output, element_size, "the output");
  // Each step keeps the labels of its operands that a later operand or the output holds.
  const Net net = make_net(spec);
  const Ssa ssa = linear_to_ssa(path, net.n);
  std::vector<int> count = label_counts(net);
  std::vector<Bits> sets = net.in;
  std::vector<int> ids;
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    Bits u(static_cast<std::size_t>(net.words)), keep(static_cast<std::size_t>(net.words));
    step_labels(net, sets[static_cast<std::size_t>(ssa[k].first)], sets[static_cast<std::size_t>(ssa[k].second)],
                count, u, keep);
    ids.clear();
    for (std::size_t w = 0; w < keep.size(); ++w)
      for (std::uint64_t x = keep[w]; x; x &= x - 1) ids.push_back(static_cast<int>(w * 64) + std::countr_zero(x));
    check_count(spec, ids, element_size, "the result of path step " + std::to_string(k));
    sets.push_back(std::move(keep));
  }
}

namespace {

// Programs are cached by everything lowering reads, so repeated calls skip it: a few hundred
// steps cost milliseconds of host time to lower, a key lookup costs microseconds.
struct ProgramCache {
  std::mutex mu;
  std::list<std::pair<std::vector<std::int64_t>, std::shared_ptr<const Program>>> entries;  // most recent first
  static constexpr std::size_t kCapacity = 32;
};

std::vector<std::int64_t> program_key(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts,
                                      DType d, const LowerOptions& o) {
  std::vector<std::int64_t> k;
  k.reserve(64 + 4 * spec.labels.size() + 8 * layouts.size() + 2 * path.size());
  k.push_back(static_cast<std::int64_t>(d));
  k.push_back((o.use_mul ? 1 : 0) | (o.chains ? 2 : 0));
  k.push_back(static_cast<std::int64_t>(o.memory_limit));
  k.push_back(static_cast<std::int64_t>(spec.extents.size()));
  k.insert(k.end(), spec.extents.begin(), spec.extents.end());
  k.push_back(static_cast<std::int64_t>(spec.output.size()));
  k.insert(k.end(), spec.output.begin(), spec.output.end());
  k.push_back(static_cast<std::int64_t>(spec.inputs.size()));
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    k.push_back(static_cast<std::int64_t>(spec.inputs[i].size()));
    k.insert(k.end(), spec.inputs[i].begin(), spec.inputs[i].end());
    k.push_back(static_cast<std::int64_t>(spec.reduced[i].size()));
    k.insert(k.end(), spec.reduced[i].begin(), spec.reduced[i].end());
    k.insert(k.end(), layouts[i].strides.begin(), layouts[i].strides.end());
  }
  for (const auto& [i, j] : path) {
    k.push_back(i);
    k.push_back(j);
  }
  // Storage orders and store modes of large results depend on it (consumer_order, store_mode).
  k.push_back(static_cast<std::int64_t>(detail::pack_chunk_bytes()));
  return k;
}

}  // namespace

Program lower(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts, DType dtype,
              const LowerOptions& opts) {
  check_sizes(spec, path, dtype_size(dtype));  // (cached programs passed it when lowered)
  return Lowering(spec, dtype, opts).run(path, layouts);
}

std::shared_ptr<const Program> program_for(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts,
                                           DType dtype, const LowerOptions& opts) {
  static ProgramCache cache;
  LowerOptions o = opts;
  o.report = false;
  std::vector<std::int64_t> key = program_key(spec, path, layouts, dtype, o);
  // The entry of `key`, moved to the front, or nullptr; called with mu held.
  auto find = [&]() -> std::shared_ptr<const Program> {
    for (auto it = cache.entries.begin(); it != cache.entries.end(); ++it) {
      if (it->first == key) {
        cache.entries.splice(cache.entries.begin(), cache.entries, it);
        return cache.entries.front().second;
      }
    }
    return nullptr;
  };
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (auto hit = find()) return hit;
  }
  // Lowered outside the lock; threads that missed together lowered alike, and the first
  // program stored is everyone's (the cache keeps one entry per key).
  auto prog = std::make_shared<const Program>(lower(spec, path, layouts, dtype, o));
  std::lock_guard<std::mutex> lock(cache.mu);
  if (auto hit = find()) return hit;
  cache.entries.emplace_front(std::move(key), prog);
  if (cache.entries.size() > ProgramCache::kCapacity) cache.entries.pop_back();
  return prog;
}

}  // namespace tenferro::einsum_detail
