// einsum execution in two phases. Planning works on layouts only (shapes, strides, offsets)
// and emits a short program: views (dropped broadcast axes, diagonals), sums of private
// labels, pairwise dot_general steps, one final transpose, and the last use of every value.
// Running the program only calls ops. explain() plans and reports, using dot_general's own
// lowering decision (core/ops/dot_general_lowering.hpp) for every step.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <list>
#include <memory>
#include <mutex>

#include "core/check.hpp"
#include "core/options.hpp"
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
  enum class Kind : std::uint8_t { view, reduce_sum, dot, mul, transpose };
  Kind kind = Kind::view;
  int a = -1, b = -1, dst = -1;  // value slots
  // view: the new view's layout (absolute). dot: the out view handed to dot_general_into, a
  // permuted view of the compact stored tensor (unused when out_compact). mul: a's view.
  Layout layout;
  Layout layout_b;  // mul: b's view (stride 0 along a's labels)
  Shape shape;      // dot, mul: the stored tensor's shape (compact)
  bool out_compact = true;
  // dot: the out view's groups are stride chains (dot_general_into writes it directly); false
  // for a value stored in an order no GEMM writes: the result in output order, or a large
  // intermediate in the order its consumer reads in place (contract_gemm, consumer_order).
  bool out_direct = true;
  Axes axes;  // reduce_sum: summed axes; transpose: the permutation
  DotGeneralConfig cfg;
  std::vector<int> release;  // slots whose last use is this instruction
};

struct Program {
  int num_slots = 0;
  std::vector<Instr> instrs;
  int result = -1;
  bool result_is_view = false;  // the result slot holds compact data in output order: rewrap it
  Shape result_shape;
  EinsumStats stats;
  // The device-memory bound (bytes): 1.5x the largest sum of simultaneously live tensors the
  // plan implies (PathCost: inputs and intermediates), and the inputs' bytes (always held).
  // execute() gives each product the rest as optional scratch (GemmCall::scratch_limit).
  double memory_bound = 0, input_bytes = 0;
};

// A value while planning: its layout and the label of each axis.
struct Val {
  Layout layout;
  std::vector<int> labels;
  int operand = -1;  // input index while unprepared (labels are then the planner's view), else -1
  int path_id = -1;  // input i, or n + k for the result of step k
};

// The label structure of one step (pass 1): operand path ids and the label groups. fa / fb:
// free labels of a / b; c: contracted; bt: batch (shared and still needed).
struct StepInfo {
  int a = -1, b = -1;
  std::vector<int> fa, fb, c, bt;
};

using Labels = std::vector<int>;

Labels restrict_to(const Labels& order, const Labels& set) {
  Labels r;
  for (int l : order)
    if (has(set, l)) r.push_back(l);
  return r;
}

Labels concat(std::initializer_list<const Labels*> parts) {
  Labels r;
  for (const Labels* p : parts) r.insert(r.end(), p->begin(), p->end());
  return r;
}

const char* step_kind(std::int64_t M, std::int64_t N, std::int64_t K) {
  if (M == 1 && N == 1) return K == 1 ? "elementwise" : "dot";
  if (K == 1) return "outer";
  if (M == 1 || N == 1) return "gemv";
  return "gemm";
}

// ---- scheduling ----------------------------------------------------------------------------

// Reorders a program's instructions (a topological order of its data flow) so that consecutive
// dispatches are independent where the flow allows: the Vulkan recorder puts a barrier only
// between conflicting dispatches (runtime/hazards.hpp), so two independent small steps run at
// once instead of one after the other (e.g. the two halves of lm_batch_likelihood_sentence_*).
// Greedy: the earliest ready instruction (planned order) that reads nothing written since the
// last barrier; when every ready instruction does, the earliest one (a barrier). Memory: an
// instruction out of the planned order is taken only if the rest, run in the planned order
// after it, keeps the live intermediates within their peak in the planned order (checked by
// simulation, at most kMaxChecks candidates per position), so the order's peak never exceeds
// the planned one. Views are free and taken as soon as ready. Records in `stats` the order's
// dispatch levels (runs of dispatches that read nothing written within the run: barriers + 1
// on Vulkan) and its peak of live intermediate elements.
void interleave(std::vector<Instr>& instrs, const std::vector<Val>& vals, std::size_t num_inputs, int result,
                EinsumStats& stats) {
  const std::size_t n = instrs.size(), ns = vals.size();
  auto u = [](int i) { return static_cast<std::size_t>(i); };
  // Storage: a view's slot shares the storage (root) of its source; bytes per root.
  std::vector<int> root(ns);
  std::vector<double> bytes(ns, 0.0);
  for (std::size_t s = 0; s < ns; ++s) root[s] = static_cast<int>(s);
  for (const Instr& in : instrs) {
    if (in.kind == Instr::Kind::view) root[u(in.dst)] = root[u(in.a)];
    else bytes[u(in.dst)] = static_cast<double>(vals[u(in.dst)].layout.numel());
  }
  struct Reads {
    int r[2];  // the roots an instruction reads (r[1] = -1: one)
  };
  auto reads = [&](const Instr& in) {
    const int a = root[u(in.a)], b = in.b >= 0 ? root[u(in.b)] : -1;
    return Reads{{a, b != a ? b : -1}};
  };
  std::vector<int> uses0(ns, 0);
  for (const Instr& in : instrs)
    for (int x : reads(in).r)
      if (x >= 0) ++uses0[u(x)];
  ++uses0[u(root[u(result)])];  // never freed
  // Live intermediate bytes along an order (inputs are not counted): a root is freed when its
  // last reader has run.
  struct Sim {
    std::vector<int> uses;
    const std::vector<double>& bytes;
    std::size_t num_inputs;
    double live = 0, peak = 0;
    void step(const Instr& in, const Reads& rd) {
      if (in.kind != Instr::Kind::view) {
        live += bytes[static_cast<std::size_t>(in.dst)];
        peak = std::max(peak, live);
      }
      for (int x : rd.r) {
        const auto k = static_cast<std::size_t>(x);
        if (x >= 0 && --uses[k] == 0 && k >= num_inputs) live -= bytes[k];
      }
    }
  };
  Sim planned{uses0, bytes, num_inputs};
  for (const Instr& in : instrs) planned.step(in, reads(in));
  // Dispatch levels of the final order: a dispatch reading a root written since the last
  // barrier starts a new level.
  auto record = [&](double peak) {
    std::vector<char> written(ns, 0);
    std::vector<int> list;
    stats.levels = 0;
    for (const Instr& in : instrs) {
      if (in.kind == Instr::Kind::view) continue;
      const Reads rd = reads(in);
      if (stats.levels == 0 || written[u(rd.r[0])] || (rd.r[1] >= 0 && written[u(rd.r[1])])) {
        ++stats.levels;
        for (int x : list) written[u(x)] = 0;
        list.clear();
      }
      written[u(root[u(in.dst)])] = 1;
      list.push_back(root[u(in.dst)]);
    }
    stats.order_peak_elements = peak;
  };
  if (n < 3 || !options().einsum_interleave) return record(planned.peak);
  Sim sim{uses0, bytes, num_inputs};
  std::vector<char> done(n, 0), ready(ns, 0), pending(ns, 0);
  for (std::size_t s = 0; s < std::min(num_inputs, ns); ++s) ready[s] = 1;
  std::vector<int> pend_list, order;
  order.reserve(n);
  constexpr int kMaxChecks = 8;  // full checks per emitted instruction (O(n) each)
  for (std::size_t emitted = 0; emitted < n; ++emitted) {
    int pick = -1, first = -1, checks = 0;
    for (std::size_t k = 0; k < n && pick < 0; ++k) {
      const Instr& in = instrs[k];
      if (done[k] || !ready[u(in.a)] || (in.b >= 0 && !ready[u(in.b)])) continue;
      const int kk = static_cast<int>(k);
      if (first < 0) first = kk;
      if (in.kind == Instr::Kind::view) {
        pick = kk;
        break;
      }
      const Reads rd = reads(in);
      const bool conflict = pending[u(rd.r[0])] || (rd.r[1] >= 0 && pending[u(rd.r[1])]);
      if (conflict) continue;
      if (kk == first) {
        pick = kk;
        break;
      }
      // Out of the planned order only with room for the planned instruction after it (a quick
      // test), and only if the rest, run in the planned order after it, stays within the peak.
      const double room = bytes[u(instrs[u(first)].dst)];
      if (sim.live + bytes[u(in.dst)] + room > planned.peak || checks == kMaxChecks) continue;
      ++checks;
      Sim rest = sim;
      rest.step(in, rd);
      for (std::size_t j = 0; j < n && rest.peak <= planned.peak; ++j)
        if (!done[j] && j != k) rest.step(instrs[j], reads(instrs[j]));
      if (rest.peak <= planned.peak) pick = kk;
    }
    TENFERRO_ASSERT(first >= 0);
    if (pick < 0) {  // every ready instruction conflicts: a barrier, then the planned one
      pick = first;
      for (int x : pend_list) pending[u(x)] = 0;
      pend_list.clear();
    }
    const Instr& in = instrs[u(pick)];
    sim.step(in, reads(in));
    done[u(pick)] = 1;
    ready[u(in.dst)] = 1;
    if (in.kind != Instr::Kind::view) {
      pending[u(root[u(in.dst)])] = 1;
      pend_list.push_back(root[u(in.dst)]);
    }
    order.push_back(pick);
  }
  if (sim.peak > planned.peak) return record(planned.peak);  // not expected (checked above)
  std::vector<Instr> out;
  out.reserve(n);
  for (int k : order) out.push_back(std::move(instrs[u(k)]));
  instrs = std::move(out);
  record(sim.peak);
}

class Planner {
 public:
  /// report: fill the step report (label strings, dot_general's lowering) too.
  /// chains: the backend's gemm writes chained outputs (GemmCaps::chained_output).
  Planner(const EinsumSpec& spec, DType dtype, bool use_mul, bool chains, bool report)
      : spec_(spec), dtype_(dtype), es_(static_cast<std::int64_t>(dtype_size(dtype))), use_mul_(use_mul),
        chains_(chains), report_(report) {}

  Program run(const Path& path, std::span<const Layout> layouts);

 private:
  std::int64_t extent(int l) const { return spec_.extents[static_cast<std::size_t>(l)]; }
  int add(Val v) {
    vals_.push_back(std::move(v));
    return static_cast<int>(vals_.size()) - 1;
  }
  const Val& val(int slot) const { return vals_[static_cast<std::size_t>(slot)]; }
  Val prepared_form(std::size_t i, const Layout& l, Axes* sum_axes) const;
  void prepare(int& slot, std::int64_t& reduce_bytes, int& launches);
  void sum_unneeded(int& slot, const Labels& keep, std::int64_t& reduce_bytes, int& launches);
  int emit_reduce(int src, const Axes& axes, Labels kept, std::int64_t& reduce_bytes, int& launches);
  int emit_view(int src, const Labels& order);
  /// Adds value v as a view (no work) of slot src's storage; returns v's slot.
  int push_view(int src, Val v) {
    Instr in;
    in.kind = Instr::Kind::view;
    in.a = src;
    in.layout = v.layout;
    in.dst = add(std::move(v));
    instrs_.push_back(std::move(in));
    return instrs_.back().dst;
  }

  // Orders and chains. Extent-1 labels never break a chain and are ignored when comparing.
  Labels stride_order(const Val& v, const Labels& group) const;
  bool chain(const Val& v, const Labels& order) const;
  // The layout of the partner of value `id` at its consumer step, when already known.
  const Val* known(int id) const;
  // The order of the labels `g` (one group of a consumer step): the partner p's own stride
  // order when those axes form one chain in p, else their order in `want`.
  Labels group_order(const Val* p, const Labels& want, const Labels& g) const {
    if (p) {
      Labels theirs = stride_order(*p, g);
      if (chain(*p, theirs)) return theirs;
    }
    return restrict_to(want, g);
  }
  // What the consumer step of value `id` wants of its storage order (per label: its group
  // there, the rank the partner's order requires, the rank in the preferred order).
  struct Target {
    bool root = false;  // the result: only the output order counts
    std::vector<signed char> gid;
    std::vector<int> need_rank, pref_rank;
  };
  Target target_of(int id) const;
  // How well storing a value in `order` suits its consumer: 8 when read in place, + 1 per
  // group in its preferred order (root: 3 when in output order).
  int order_score(const Target& t, const Labels& order) const;

  int contract_gemm(int k, const StepInfo& si, int sa, int sb, EinsumStepStats& st);
  Labels consumer_order(int id, const Labels& want, const Labels& order, const Labels& fa, const Labels& fb,
                        const Labels& bt) const;
  // True when b's free block leads `order` (its first label of extent > 1 from a or b is b's):
  // the operand whose free block comes first in a stored order is the GEMM's lhs (C's stores
  // run along M).
  bool second_leads(const Labels& order, const Labels& a, const Labels& b) const {
    for (int l : order) {
      if (extent(l) == 1) continue;
      if (has(a, l)) return false;
      if (has(b, l)) return true;
    }
    return false;
  }
  void unit_stride_first(const Val& L, const Val& R, const Labels& store, Labels& fl, Labels& fr, const Labels& c,
                         const Labels& bt) const;
  // The out view dot_general_into writes: a value stored compact in `store` order, its axes in
  // `dot_order` (the product's lhs free, rhs free, batch labels).
  Layout out_view(const Labels& store, const Labels& dot_order) const {
    Shape shape;
    for (int l : store) shape.push_back(extent(l));
    const Layout stored = Layout::compact(shape);
    Layout view;
    for (int l : dot_order) {
      const auto ax = static_cast<std::size_t>(std::find(store.begin(), store.end(), l) - store.begin());
      view.shape.push_back(stored.shape[ax]);
      view.strides.push_back(stored.strides[ax]);
    }
    return view;
  }
  bool split_free(const StepInfo& si, int& sa, int& sb, StepInfo& out);
  int contract_mul(int k, int sa, int sb, EinsumStepStats& st);
  void report_gemm(const Val& L, const Val& R, const Instr& in, const Labels& order, std::size_t nl, std::size_t nr,
                   EinsumStepStats& st) const;

  const EinsumSpec& spec_;
  DType dtype_;
  std::int64_t es_;
  bool use_mul_, chains_, report_;
  std::size_t n_ = 0;
  std::vector<StepInfo> steps_;
  std::vector<int> consumer_;     // path id -> step consuming it (-1: the root)
  std::vector<Labels> pref_;      // path id -> preferred order (intermediates; pass 2)
  std::vector<Val> inputs_;       // path id < n -> the prepared form (layout, labels)
  std::vector<int> slot_of_;      // path id -> slot once produced (-1 before)
  std::vector<Val> vals_;
  std::vector<Instr> instrs_;
};

// ---- preparation ----

// Operand i after dropping broadcast axes, taking diagonals and summing private labels.
// sum_axes (when given) receives the summed axes of the view.
Val Planner::prepared_form(std::size_t i, const Layout& l0, Axes* sum_axes) const {
  Val v;
  v.layout.offset = l0.offset;
  for (std::size_t ax = 0; ax < spec_.inputs[i].size(); ++ax) {
    if (spec_.inputs[i][ax] < 0) continue;  // extent-1 broadcast axis
    v.layout.shape.push_back(l0.shape[ax]);
    v.layout.strides.push_back(l0.strides[ax]);
    v.labels.push_back(spec_.inputs[i][ax]);
  }
  // Repeated labels: diagonal views (keep the first axis, drop the later one).
  for (std::size_t a = 0; a < v.labels.size(); ++a) {
    for (std::size_t b = a + 1; b < v.labels.size();) {
      if (v.labels[b] == v.labels[a]) {
        v.layout.strides[a] += v.layout.strides[b];
        v.layout.shape.erase(v.layout.shape.begin() + static_cast<std::ptrdiff_t>(b));
        v.layout.strides.erase(v.layout.strides.begin() + static_cast<std::ptrdiff_t>(b));
        v.labels.erase(v.labels.begin() + static_cast<std::ptrdiff_t>(b));
      } else {
        ++b;
      }
    }
  }
  // Labels private to this operand and absent from the output are summed.
  Axes axes;
  Labels kept;
  Shape kept_shape;
  for (std::size_t ax = 0; ax < v.labels.size(); ++ax) {
    if (!has(spec_.reduced[i], v.labels[ax])) {
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

int Planner::emit_reduce(int src, const Axes& axes, Labels kept, std::int64_t& reduce_bytes, int& launches) {
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
  Val v;
  v.layout = Layout::compact(shape);
  v.labels = std::move(kept);
  v.path_id = val(src).path_id;
  const int dst = in.dst = add(std::move(v));
  instrs_.push_back(std::move(in));
  return dst;
}

void Planner::prepare(int& slot, std::int64_t& reduce_bytes, int& launches) {
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
void Planner::sum_unneeded(int& slot, const Labels& keep, std::int64_t& reduce_bytes, int& launches) {
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
int Planner::emit_view(int src, const Labels& order) {
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

// ---- orders ----

Labels Planner::stride_order(const Val& v, const Labels& group) const {
  std::vector<std::pair<std::int64_t, int>> key;  // (|stride|, label); extent-1 labels last
  for (int l : group) {
    const auto ax = static_cast<std::size_t>(std::find(v.labels.begin(), v.labels.end(), l) - v.labels.begin());
    const std::int64_t s = v.layout.strides[ax];
    key.emplace_back(v.layout.shape[ax] == 1 ? INT64_MAX : (s < 0 ? -s : s), l);
  }
  std::stable_sort(key.begin(), key.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Labels r;
  for (const auto& kv : key) r.push_back(kv.second);
  return r;
}

bool Planner::chain(const Val& v, const Labels& order) const {
  Axes axes;
  for (int l : order) axes.push_back(std::find(v.labels.begin(), v.labels.end(), l) - v.labels.begin());
  return detail::is_stride_chain(v.layout, axes);
}

const Val* Planner::known(int id) const {
  const int c = consumer_[static_cast<std::size_t>(id)];
  if (c < 0) return nullptr;
  const StepInfo& si = steps_[static_cast<std::size_t>(c)];
  const int p = si.a == id ? si.b : si.a;
  if (p < static_cast<int>(n_)) return &inputs_[static_cast<std::size_t>(p)];
  const int slot = slot_of_[static_cast<std::size_t>(p)];
  return slot < 0 ? nullptr : &val(slot);
}

Planner::Target Planner::target_of(int id) const {
  Target t;
  const std::size_t L = spec_.labels.size();
  t.gid.assign(L, -1);
  t.need_rank.assign(L, -1);
  t.pref_rank.assign(L, -1);
  const int c = consumer_[static_cast<std::size_t>(id)];
  auto ranks = [&](const Labels& order, std::vector<int>& out) {
    int r = 0;
    for (int l : order)
      if (extent(l) != 1) out[static_cast<std::size_t>(l)] = r++;
  };
  if (c < 0) {
    t.root = true;
    for (int l : spec_.output) t.gid[static_cast<std::size_t>(l)] = 0;
    ranks(spec_.output, t.pref_rank);
    return t;
  }
  const StepInfo& si = steps_[static_cast<std::size_t>(c)];
  const Labels* groups[3] = {si.a == id ? &si.fa : &si.fb, &si.c, &si.bt};
  const Val* p = known(id);
  const Labels& want = pref_[static_cast<std::size_t>(id)];
  for (int g = 0; g < 3; ++g) {
    for (int l : *groups[g]) t.gid[static_cast<std::size_t>(l)] = static_cast<signed char>(g);
    ranks(restrict_to(want, *groups[g]), t.pref_rank);
    if (g > 0 && p) {
      const Labels theirs = stride_order(*p, *groups[g]);
      if (chain(*p, theirs)) ranks(theirs, t.need_rank);
    }
  }
  return t;
}

int Planner::order_score(const Target& t, const Labels& order) const {
  int seen[3] = {0, 0, 0}, cur = -1;
  bool closed[3] = {false, false, false}, pref_ok[3] = {true, true, true};
  bool in_place = true;
  for (int l : order) {
    if (extent(l) == 1) continue;
    const auto u = static_cast<std::size_t>(l);
    const int g = t.gid[u];
    if (g < 0) continue;
    if (g != cur) {
      if (cur >= 0) closed[cur] = true;
      if (closed[g]) in_place = false;  // the group is split
      cur = g;
    }
    const int r = seen[g]++;
    if (t.need_rank[u] >= 0 && t.need_rank[u] != r) in_place = false;  // partner's order differs
    if (t.pref_rank[u] != r) pref_ok[g] = false;
  }
  if (t.root) return pref_ok[0] ? 3 : 0;
  return (in_place ? 8 : 0) + int{pref_ok[0]} + int{pref_ok[1]} + int{pref_ok[2]};
}

// ---- steps ----

void Planner::report_gemm(const Val& L, const Val& R, const Instr& in, const Labels& order, std::size_t nl,
                          std::size_t nr, EinsumStepStats& st) const {
  const detail::DotLowering lw = detail::lower_dot_general(L.layout, R.layout, in.cfg);
  st.lhs = L.path_id;
  st.rhs = R.path_id;
  st.lhs_labels = einsum_detail::labels_text(spec_, L.labels);
  st.rhs_labels = einsum_detail::labels_text(spec_, R.labels);
  st.out_labels = einsum_detail::labels_text(spec_, order);
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
    if (!lw.lhs_in_place && L.layout.numel() > 0) {
      st.lhs_packed_bytes = L.layout.numel() * es_;
      ++st.launches;
    }
    if (!lw.rhs_in_place && R.layout.numel() > 0) {
      st.rhs_packed_bytes = R.layout.numel() * es_;
      ++st.launches;
    }
    if (!in.out_compact && !detail::dot_out_in_place(in.layout, nl, nr)) {
      st.out_copy_bytes = st.out_bytes;
      st.out_chained = detail::dot_out_in_chains(in.layout, nl, nr);
      ++st.launches;
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

// The stored order of intermediate `id` when no arrangement of its blocks lets its consumer
// read it in place (`order`, the best arrangement, is kept otherwise): the order the consumer
// reads in place, [free][contracted][batch] with the contracted and batch orders of the
// consumer's partner (group_order), so that the consumer packs nothing,
// - when it is at least detail::pack_chunk_bytes() (64 MiB): dot_general_into writes this order
//   through a temp made in pieces where the GEMM cannot write it (the same bytes copied once,
//   but the consumer's product runs whole instead of in the pieces a large packed copy is made
//   in; H200, str_nw_mera_closed_120's 399 x 270 x 4320 x 27 product: 2.74 ms whole, 1.71 + 1.6
//   ms in two batch pieces);
// - on a backend whose GEMM writes stride chains, from options().einsum_consumer_order_bytes
//   (1 MiB), where the GEMM writes this order in place (its groups at most a few stride chains
//   each: no copy at all instead of the consumer's packing copy; twenty-sixth session).
// `fa`, `fb`, `bt`: the step's free and batch labels (the GEMM's groups in `order`).
Labels Planner::consumer_order(int id, const Labels& want, const Labels& order, const Labels& fa, const Labels& fb,
                               const Labels& bt) const {
  const int ci = consumer_[static_cast<std::size_t>(id)];
  const StepInfo& cs = steps_[static_cast<std::size_t>(ci)];
  if (cs.c.empty()) return order;  // K = 1 there: a mul of broadcast views, any order
  std::int64_t bytes = es_;
  for (int l : order) bytes *= extent(l);
  const bool large = static_cast<std::uint64_t>(bytes) >= detail::pack_chunk_bytes();
  if (!large && !(chains_ && static_cast<std::uint64_t>(bytes) >= options().einsum_consumer_order_bytes)) return order;
  const Val* p = known(id);
  const Labels gf = restrict_to(want, cs.a == id ? cs.fa : cs.fb), gc = group_order(p, want, cs.c),
               gb = group_order(p, want, cs.bt);
  const Labels ideal = concat({&gf, &gc, &gb});
  // Labels the consumer sums within this operand first (a reduction makes a new layout anyway).
  if (ideal.size() != order.size()) return order;
  if (large) return ideal;
  // The GEMM's groups as contract_gemm orders them: the free block that comes first in `order`
  // is lhs.
  Labels fl = restrict_to(order, fa), fr = restrict_to(order, fb);
  if (second_leads(order, fl, fr)) std::swap(fl, fr);
  const Labels bo = restrict_to(order, bt), dot_order = concat({&fl, &fr, &bo});
  return detail::dot_out_in_chains(out_view(ideal, dot_order), fl.size(), fr.size()) ? ideal : order;
}

// A result written through stride chains (its groups not one chain each: dot_general_into's
// chained out) whose unit-stride label sits behind other labels of its free group stores with
// no two lanes of a warp in one memory sector (H200, str_nw_mera_closed_120's 540 x 270 x 136 x
// 216 product "LKJIfzM,JIqFefzM->KqFefLzM", M = (L, K) with K at unit stride in out: 1.03 ms
// against 0.67 into a compact C). That group then takes the stored order, which puts the unit-
// stride label first: its operand is packed in that order when it was read in place, if its
// elements are at most the result's (one copy of the operand against a scattered write of the
// result), and for results of at least kUnitStrideMinBytes.
constexpr std::int64_t kUnitStrideMinBytes = 8 << 20;
void Planner::unit_stride_first(const Val& L, const Val& R, const Labels& store, Labels& fl, Labels& fr,
                                const Labels& c, const Labels& bt) const {
  if (!chains_ || !options().einsum_unit_stride) return;
  std::int64_t out = 1;
  for (int l : store) out *= extent(l);
  if (out * es_ < kUnitStrideMinBytes) return;
  const Labels dot_order = concat({&fl, &fr, &bt});
  if (dot_order == store) return;
  const Layout view = out_view(store, dot_order);
  if (detail::dot_out_in_place(view, fl.size(), fr.size()) || !detail::dot_out_in_chains(view, fl.size(), fr.size()))
    return;
  const auto u = std::find_if(store.begin(), store.end(), [&](int l) { return extent(l) != 1; });
  if (u == store.end()) return;
  for (int side = 0; side < 2; ++side) {
    Labels& g = side == 0 ? fl : fr;
    const Val& x = side == 0 ? L : R;
    if (!has(g, *u)) continue;
    if (*std::find_if(g.begin(), g.end(), [&](int l) { return extent(l) != 1; }) == *u) return;
    const Labels g2 = restrict_to(store, g);
    const bool in_place = chain(x, g) && chain(x, c) && chain(x, bt);
    if (in_place && !(chain(x, g2) || x.layout.numel() <= out)) return;
    g = g2;
    return;
  }
}

// The contraction as one dot_general: groups read in the orders that let the most bytes be
// read in place, the result stored in the block order that suits its consumer best.
int Planner::contract_gemm(int k, const StepInfo& si, int sa, int sb, EinsumStepStats& st) {
  const int id = static_cast<int>(n_) + k;
  const Labels& want = consumer_[static_cast<std::size_t>(id)] < 0 ? spec_.output : pref_[static_cast<std::size_t>(id)];
  const Val& A = val(sa);
  const Val& B = val(sb);
  // Free groups: a chain only in stride order; when not a chain (packed), any order: the
  // preferred one.
  auto free_order = [&](const Val& x, const Labels& g) {
    const Labels o = stride_order(x, g);
    return chain(x, o) ? o : restrict_to(want, g);
  };
  const Labels fa = free_order(A, si.fa), fb = free_order(B, si.fb);
  // Contracted and batch orders: candidates from either operand and the preferred one; the
  // combination packing the fewest bytes wins (ties: the earlier candidate).
  const Labels bt_want = restrict_to(want, si.bt);
  const Labels& pa = pref_[static_cast<std::size_t>(A.path_id)];
  const std::vector<Labels> c_cands = {stride_order(A, si.c), stride_order(B, si.c),
                                       pa.empty() ? si.c : restrict_to(pa, si.c)};
  const std::vector<Labels> bt_cands = {bt_want, stride_order(A, si.bt), stride_order(B, si.bt)};
  const bool fa_chain = chain(A, fa), fb_chain = chain(B, fb);
  std::int64_t best_cost = -1;
  Labels c, bt;
  for (const Labels& bo : bt_cands) {
    for (const Labels& co : c_cands) {
      const bool ia = fa_chain && chain(A, co) && chain(A, bo);
      const bool ib = fb_chain && chain(B, co) && chain(B, bo);
      const std::int64_t cost = (ia ? 0 : A.layout.numel()) + (ib ? 0 : B.layout.numel());
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        c = co;
        bt = bo;
      }
    }
  }
  // Stored order: the arrangement of the blocks [fa], [fb], [bt] that suits the consumer best
  // (ties: a free block first, so C has a unit stride along M or N). The order inside a block
  // of an operand that is packed anyway is free: when no arrangement lets the consumer read
  // the result in place, such blocks also take their order from each arrangement of the
  // consumer's groups.
  Labels order;
  int best = -1;
  const Target target = target_of(id);
  auto try_blocks = [&](const Labels& x, const Labels& y, const Labels& z) {
    const Labels* blocks[3] = {&x, &y, &z};
    int perm[3] = {0, 1, 2};
    do {
      const Labels o = concat({blocks[perm[0]], blocks[perm[1]], blocks[perm[2]]});
      const bool free_first = perm[0] != 2 || z.empty();
      const int score = 2 * order_score(target, o) + (free_first ? 1 : 0);
      if (score > best) {
        best = score;
        order = o;
      }
    } while (std::next_permutation(perm, perm + 3));
  };
  try_blocks(fa, fb, bt);
  const bool ia = fa_chain && chain(A, c) && chain(A, bt), ib = fb_chain && chain(B, c) && chain(B, bt);
  const int ci = consumer_[static_cast<std::size_t>(id)];
  if (best < 16 && ci >= 0 && (!ia || !ib)) {
    const StepInfo& cs = steps_[static_cast<std::size_t>(ci)];
    const Labels& cf = cs.a == id ? cs.fa : cs.fb;
    const Val* p = known(id);
    const Labels gf = restrict_to(want, cf), gc = group_order(p, want, cs.c), gb = group_order(p, want, cs.bt);
    const Labels* groups[3] = {&gf, &gc, &gb};
    int perm[3] = {0, 1, 2};
    do {
      const Labels ideal = concat({groups[perm[0]], groups[perm[1]], groups[perm[2]]});
      try_blocks(ia ? fa : restrict_to(ideal, si.fa), ib ? fb : restrict_to(ideal, si.fb),
                 ia || ib ? bt : restrict_to(ideal, si.bt));
    } while (best < 16 && std::next_permutation(perm, perm + 3));
  }
  // The blocks in the chosen order (a packed operand's blocks may have been reordered).
  const Labels fa_o = restrict_to(order, si.fa), fb_o = restrict_to(order, si.fb);
  bt = restrict_to(order, si.bt);
  // The operand whose free block comes first in the stored order is lhs.
  bool swap = second_leads(order, fa_o, fb_o);
  Labels fl = swap ? fb_o : fa_o;
  Labels fr = swap ? fa_o : fb_o;
  // The result is stored in output order even when no arrangement of the blocks gives it:
  // dot_general_into then writes it through a temp, in pieces when large, instead of a final
  // transpose of the whole result (which would hold it twice). A large intermediate that its
  // consumer could not read in place is stored in an order it can (consumer_order).
  const Labels store = ci < 0 ? want : best < 16 ? consumer_order(id, want, order, si.fa, si.fb, si.bt) : order;
  // A stored order taken from the consumer and written in stride chains (Vulkan): lhs is again
  // the operand whose free block leads it (the GEMM's stores run along M).
  if (ci >= 0 && store != order && chains_ && options().einsum_consumer_swap &&
      second_leads(store, fa_o, fb_o) != swap &&
      detail::dot_out_in_chains(out_view(store, concat({&fr, &fl, &bt})), fr.size(), fl.size())) {
    swap = !swap;
    std::swap(fl, fr);
  }
  unit_stride_first(swap ? B : A, swap ? A : B, store, fl, fr, c, bt);
  const int lhs = emit_view(swap ? sb : sa, concat({&fl, &c, &bt}));
  const int rhs = emit_view(swap ? sa : sb, concat({&c, &fr, &bt}));
  const Val& L = val(lhs);
  const Val& R = val(rhs);
  Instr in;
  in.kind = Instr::Kind::dot;
  in.a = lhs;
  in.b = rhs;
  const auto nl = static_cast<std::int64_t>(fl.size()), nc = static_cast<std::int64_t>(c.size()),
             nr = static_cast<std::int64_t>(fr.size());
  for (std::int64_t i = 0; i < nc; ++i) {
    in.cfg.lhs_contracting_dims.push_back(nl + i);
    in.cfg.rhs_contracting_dims.push_back(i);
  }
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(bt.size()); ++i) {
    in.cfg.lhs_batching_dims.push_back(nl + nc + i);
    in.cfg.rhs_batching_dims.push_back(nc + nr + i);
  }
  const Labels dot_order = concat({&fl, &fr, &bt});
  for (int l : store) in.shape.push_back(extent(l));
  in.out_compact = store == dot_order;
  in.layout = out_view(store, dot_order);
  in.out_direct = in.out_compact || detail::dot_out_in_place(in.layout, fl.size(), fr.size());

  // The report: dot_general's own lowering decision.
  if (report_) report_gemm(L, R, in, store, fl.size(), fr.size(), st);
  Val r;
  r.layout = Layout::compact(in.shape);
  r.labels = store;
  r.path_id = id;
  const int dst = in.dst = add(std::move(r));
  instrs_.push_back(std::move(in));
  return dst;
}

// An operand whose free labels are not one stride chain only because its contracted labels
// sit between two runs of them ([F1][C][F2] in memory, e.g. the middle index of an MPS
// tensor) is read in place as a batched GEMM instead of being packed: F2 becomes a batch
// group, broadcast (stride 0) on the other operand. Only without batch labels, and only when
// F1 (the larger run) keeps M at 8 or more. Returns false when it does not apply.
bool Planner::split_free(const StepInfo& si, int& sa, int& sb, StepInfo& out) {
  if (!si.bt.empty() || si.c.empty()) return false;
  for (int side = 0; side < 2; ++side) {
    const Val& X = val(side == 0 ? sa : sb);
    const Labels& f = side == 0 ? si.fa : si.fb;
    if (chain(X, stride_order(X, f))) continue;
    std::vector<std::pair<bool, Labels>> runs;  // (free, labels) in memory order
    for (int l : stride_order(X, X.labels)) {
      if (extent(l) == 1) continue;
      const bool fr = has(f, l);
      if (runs.empty() || runs.back().first != fr) runs.emplace_back(fr, Labels{});
      runs.back().second.push_back(l);
    }
    if (runs.size() != 3 || !runs[0].first || runs[1].first || !runs[2].first) continue;
    if (!chain(X, runs[0].second) || !chain(X, runs[1].second) || !chain(X, runs[2].second)) continue;
    auto prod = [&](const Labels& g) {
      std::int64_t p = 1;
      for (int l : g) p *= extent(l);
      return p;
    };
    const bool first_is_m = prod(runs[0].second) >= prod(runs[2].second);
    Labels m = first_is_m ? runs[0].second : runs[2].second;
    Labels batch = first_is_m ? runs[2].second : runs[0].second;
    if (prod(m) < 8) continue;
    for (int l : f)  // extent-1 free labels stay free
      if (extent(l) == 1) m.push_back(l);
    // The other operand gets the batch labels as stride-0 axes.
    const int sy = side == 0 ? sb : sa;
    const Val& Y = val(sy);
    Val r;
    r.layout = Y.layout;
    r.labels = Y.labels;
    r.path_id = Y.path_id;
    for (int l : batch) {
      r.layout.shape.push_back(extent(l));
      r.layout.strides.push_back(0);
      r.labels.push_back(l);
    }
    (side == 0 ? sb : sa) = push_view(sy, std::move(r));
    out = si;
    (side == 0 ? out.fa : out.fb) = std::move(m);
    out.bt = std::move(batch);
    return true;
  }
  return false;
}

// A step with nothing to sum (K = 1: an outer or elementwise product, batched or not) as one
// elementwise mul of broadcast views, stored directly in the order its consumer wants.
int Planner::contract_mul(int k, int sa, int sb, EinsumStepStats& st) {
  const StepInfo& si = steps_[static_cast<std::size_t>(k)];
  const int id = static_cast<int>(n_) + k;
  const int c = consumer_[static_cast<std::size_t>(id)];
  Labels order;
  if (c < 0) {
    order = spec_.output;
  } else {
    const StepInfo& ci = steps_[static_cast<std::size_t>(c)];
    const Labels& want = pref_[static_cast<std::size_t>(id)];
    const Labels& f = ci.a == id ? ci.fa : ci.fb;
    const Val* p = known(id);
    const Labels fo = restrict_to(want, f), co = group_order(p, want, ci.c), bo = group_order(p, want, ci.bt);
    order = ci.a == id ? concat({&fo, &co, &bo}) : concat({&co, &fo, &bo});
  }
  const Val& A = val(sa);
  const Val& B = val(sb);
  auto view_of = [&](const Val& x) {
    Layout l;
    l.offset = x.layout.offset;
    for (int lab : order) {
      l.shape.push_back(extent(lab));
      const auto it = std::find(x.labels.begin(), x.labels.end(), lab);
      l.strides.push_back(it == x.labels.end() ? 0 : x.layout.strides[static_cast<std::size_t>(it - x.labels.begin())]);
    }
    return l;
  };
  Instr in;
  in.kind = Instr::Kind::mul;
  in.a = sa;
  in.b = sb;
  in.layout = view_of(A);
  in.layout_b = view_of(B);
  for (int l : order) in.shape.push_back(extent(l));
  std::int64_t M = 1, N = 1, Bn = 1;
  for (int l : si.fa) M *= extent(l);
  for (int l : si.fb) N *= extent(l);
  for (int l : si.bt) Bn *= extent(l);
  st.lhs = A.path_id;
  st.rhs = B.path_id;
  if (report_) {
    st.lhs_labels = einsum_detail::labels_text(spec_, A.labels);
    st.rhs_labels = einsum_detail::labels_text(spec_, B.labels);
    st.out_labels = einsum_detail::labels_text(spec_, order);
    st.kind = std::string(Bn > 1 ? "batched " : "") + step_kind(M, N, 1) + " (mul)";
  }
  st.M = M;
  st.N = N;
  st.K = 1;
  st.B = Bn;
  st.out_bytes = M * N * Bn * es_;
  st.launches += st.out_bytes > 0 ? 1 : 0;
  Val r;
  r.layout = Layout::compact(in.shape);
  r.labels = order;
  r.path_id = id;
  const int dst = in.dst = add(std::move(r));
  instrs_.push_back(std::move(in));
  return dst;
}

Program Planner::run(const Path& path, std::span<const Layout> layouts) {
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
  std::vector<int> live;
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
    std::int64_t K = 1;
    for (int l : si.c) K *= extent(l);
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
    in.dst = add(Val{Layout::compact(out.shape), spec_.output, -1, -1});
    prog.result = in.dst;
    instrs_.push_back(std::move(in));
  }
  interleave(instrs_, vals_, n_, prog.result, prog.stats);
  // Last uses.
  std::vector<int> last(vals_.size(), -1);
  for (std::size_t k = 0; k < instrs_.size(); ++k) {
    const Instr& in = instrs_[k];
    if (in.a >= 0) last[static_cast<std::size_t>(in.a)] = static_cast<int>(k);
    if (in.b >= 0) last[static_cast<std::size_t>(in.b)] = static_cast<int>(k);
  }
  for (std::size_t v = 0; v < vals_.size(); ++v)
    if (last[v] >= 0 && static_cast<int>(v) != prog.result)
      instrs_[static_cast<std::size_t>(last[v])].release.push_back(static_cast<int>(v));
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

// Programs are cached by everything planning reads (label ids, extents, output, path, the
// operands' layouts, dtype), so repeated calls skip planning: a few hundred steps cost
// milliseconds of host time to plan, a key lookup costs microseconds.
struct ProgramCache {
  std::mutex mu;
  std::list<std::pair<std::vector<std::int64_t>, std::shared_ptr<const Program>>> entries;  // most recent first
  static constexpr std::size_t kCapacity = 32;
};

std::vector<std::int64_t> program_key(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts,
                                      DType d, bool use_mul, bool chains) {
  std::vector<std::int64_t> k;
  k.reserve(64 + 4 * spec.labels.size() + 8 * layouts.size() + 2 * path.size());
  k.push_back(static_cast<std::int64_t>(d));
  k.push_back((use_mul ? 1 : 0) | (chains ? 2 : 0));
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
    k.push_back(layouts[i].offset);
  }
  for (const auto& [i, j] : path) {
    k.push_back(i);
    k.push_back(j);
  }
  // The storage orders of large intermediates depend on it (Planner::consumer_order).
  k.push_back(static_cast<std::int64_t>(detail::pack_chunk_bytes()));
  return k;
}

std::shared_ptr<const Program> program_for(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts,
                                           DType d, bool use_mul, bool chains) {
  static ProgramCache cache;
  std::vector<std::int64_t> key = program_key(spec, path, layouts, d, use_mul, chains);
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    for (auto it = cache.entries.begin(); it != cache.entries.end(); ++it) {
      if (it->first == key) {
        cache.entries.splice(cache.entries.begin(), cache.entries, it);
        return cache.entries.front().second;
      }
    }
  }
  Program made = Planner(spec, d, use_mul, chains, false).run(path, layouts);
  const PathCost cost = path_cost(spec, path);
  made.input_bytes = cost.input_elements * double(dtype_size(d));
  made.memory_bound = 1.5 * (cost.peak_live_intermediates + cost.input_elements) * double(dtype_size(d));
  auto prog = std::make_shared<const Program>(std::move(made));
  std::lock_guard<std::mutex> lock(cache.mu);
  cache.entries.emplace_front(std::move(key), prog);
  if (cache.entries.size() > ProgramCache::kCapacity) cache.entries.pop_back();
  return prog;
}

}  // namespace

EinsumStats explain(const EinsumSpec& spec, const Path& path, std::span<const Layout> operand_layouts, DType dtype,
                    bool writes_chains) {
  check_shapes(spec, operand_layouts);
  check_path(spec.num_inputs(), path);
  return Planner(spec, dtype, true, writes_chains, true).run(path, operand_layouts).stats;
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

  const std::shared_ptr<const Program> prog_ptr = program_for(spec, path, layouts, d, be.supports(OpId::mul, d), be.gemm_caps().chained_output);
  const Program& prog = *prog_ptr;
  std::vector<TensorView> v(static_cast<std::size_t>(prog.num_slots));
  std::vector<Tensor> own(static_cast<std::size_t>(prog.num_slots));
  for (std::size_t i = 0; i < n; ++i) v[i] = operands[i];
  const Scalar one = Scalar::of(d, 1.0), zero = detail::zero_of(d);
  // Bytes held: the inputs (as the plan counts them) and the tensors einsum made and holds.
  const double es = static_cast<double>(dtype_size(d));
  double held = prog.input_bytes;
  std::vector<double> held_by(static_cast<std::size_t>(prog.num_slots), 0.0);
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
        auto last_use = [&](int s) { return std::find(in.release.begin(), in.release.end(), s) != in.release.end(); };
        // A value in an order no GEMM writes: a small one is computed in GEMM order and copied
        // once (its operands freed as they are packed); a large one goes through
        // dot_general_into, which makes its temp in pieces (detail::pack_chunk_bytes).
        // On a backend writing outputs in a few stride chains per group (GemmCaps::chained_output),
        // such an order is written in place by dot_general_into, whatever its size.
        const std::size_t nl = static_cast<std::size_t>(a.rank()) - in.cfg.lhs_contracting_dims.size() -
                               in.cfg.lhs_batching_dims.size();
        const std::size_t nr = static_cast<std::size_t>(b.rank()) - in.cfg.rhs_contracting_dims.size() -
                               in.cfg.rhs_batching_dims.size();
        const bool chained = !in.out_direct && be.gemm_caps().chained_output && detail::dot_out_in_chains(in.layout, nl, nr);
        const std::uint64_t out_bytes = static_cast<std::uint64_t>(shape_numel(in.shape, kOp)) * dtype_size(d);
        const bool copy_after = !in.out_direct && !chained && out_bytes < detail::pack_chunk_bytes();
        // Optional scratch (Ozaki-II planes, split K, 3M planes): what the memory bound leaves
        // beside the held tensors and this step's result (twice when copied after).
        const double step_bytes = static_cast<double>(out_bytes) * (copy_after ? 2.0 : 1.0);
        const double room = std::max(0.0, prog.memory_bound - held - step_bytes);
        const auto scratch = static_cast<std::uint64_t>(std::min(room, 0x1p63));
        auto store = [&](Tensor t) {
          if (!copy_after) return t;
          Tensor r = be.allocate(d, in.shape);
          be.copy(t, TensorView(r.storage(), d, in.layout));
          return r;
        };
        if ((in.out_compact || copy_after) && in.a != in.b && (last_use(in.a) || last_use(in.b))) {
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
          own[dst] = store(detail::dot_general_consuming(be, std::move(la), std::move(lb), in.cfg, scratch));
        } else if (in.out_compact || copy_after) {
          own[dst] = store(detail::dot_general_consuming(be, a, b, in.cfg, scratch));
        } else {
          own[dst] = be.allocate(d, in.shape);
          detail::dot_general_into(be, a, b, in.cfg, false, false, one, zero,
                                   TensorView(own[dst].storage(), d, in.layout), scratch);
        }
        break;
      }
      case Instr::Kind::mul: {
        const TensorView& b = v[static_cast<std::size_t>(in.b)];
        own[dst] = mul(be, TensorView(a.storage(), d, in.layout), TensorView(b.storage(), d, in.layout_b));
        break;
      }
      case Instr::Kind::transpose:
        own[dst] = transpose(be, a, in.axes);
        break;
    }
    if (own[dst].defined()) {
      v[dst] = own[dst];
      held_by[dst] = static_cast<double>(own[dst].numel()) * es;
      held += held_by[dst];
    }
    for (int s : in.release) {
      v[static_cast<std::size_t>(s)] = TensorView();
      own[static_cast<std::size_t>(s)] = Tensor();
      held -= held_by[static_cast<std::size_t>(s)];
      held_by[static_cast<std::size_t>(s)] = 0;
    }
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

}  // namespace tenferro
