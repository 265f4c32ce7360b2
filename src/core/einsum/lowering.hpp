// The lowering's internals (lower.hpp), shared by lower.cpp, lower_orders.cpp, lower_steps.cpp
// and explain.cpp.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include "core/einsum/lower.hpp"

namespace tenferro::einsum_detail {

using Labels = std::vector<int>;

inline bool has(const Labels& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

/// The labels of `order` that are in `set`, in `order`'s order.
inline Labels restrict_to(const Labels& order, const Labels& set) {
  Labels r;
  for (int l : order)
    if (has(set, l)) r.push_back(l);
  return r;
}

inline Labels concat(std::initializer_list<const Labels*> parts) {
  Labels r;
  for (const Labels* p : parts) r.insert(r.end(), p->begin(), p->end());
  return r;
}

/// A value while lowering: its layout and the label of each axis.
struct Val {
  Layout layout;
  Labels labels;
  int operand = -1;  // input index while unprepared (labels are then the planner's view), else -1
  int path_id = -1;  // input i, or n + k for the result of step k
};

/// The label structure of one step (pass 1): operand path ids and the label groups. fa / fb:
/// free labels of a / b; c: contracted; bt: batch (shared and still needed).
struct StepInfo {
  int a = -1, b = -1;
  Labels fa, fb, c, bt;
};

/// The step report's kind of a product of M x K by K x N ("gemm", "gemv", "outer", ...).
const char* step_kind(std::int64_t M, std::int64_t N, std::int64_t K);
/// The report's totals over its steps and final operations.
void add_totals(EinsumStats& stats);

// The lowering of one path: pass 1 finds every step's label groups and each value's consumer,
// pass 2 a preferred storage order for every intermediate (output down to the leaves), pass 3
// emits the instructions step by step, each choosing its layouts knowing the consumer's wants
// and, where already made, the consumer's partner. Files: lower.cpp (the passes, operand
// preparation), lower_orders.cpp (orders and what a consumer reads in place), lower_steps.cpp
// (a step as one dot_general or one mul), explain.cpp (the step report).
class Lowering {
 public:
  Lowering(const EinsumSpec& spec, DType dtype, const LowerOptions& opts)
      : spec_(spec), dtype_(dtype), es_(static_cast<std::int64_t>(dtype_size(dtype))), use_mul_(opts.use_mul),
        chains_(opts.chains), report_(opts.report), memory_limit_(opts.memory_limit) {}

  Program run(const Path& path, std::span<const Layout> layouts);

 private:
  std::int64_t extent(int l) const { return spec_.extents[static_cast<std::size_t>(l)]; }
  /// Product of the labels' extents, saturated (mul_sat: only an empty tensor's can pass int64).
  std::int64_t count(const Labels& ls) const {
    std::int64_t n = 1;
    for (int l : ls) n = mul_sat(n, extent(l));
    return n;
  }
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
  /// Adds instruction `in`, whose result is the new value v; returns v's slot.
  int push(Instr in, Val v) {
    in.dst = add(std::move(v));
    instrs_.push_back(std::move(in));
    return instrs_.back().dst;
  }
  /// Adds value v as a view (no work) of slot src's storage; returns v's slot. The
  /// instruction's offset is relative to src's (program.hpp).
  int push_view(int src, Val v) {
    Instr in;
    in.kind = Instr::Kind::view;
    in.a = src;
    in.layout = v.layout;
    in.layout.offset -= val(src).layout.offset;
    return push(std::move(in), std::move(v));
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
  Instr::Store store_mode(const Instr& in, bool compact, std::size_t nl, std::size_t nr) const;
  bool split_free(const StepInfo& si, int& sa, int& sb, StepInfo& out);
  int contract_mul(int k, int sa, int sb, EinsumStepStats& st);
  void report_gemm(const Val& L, const Val& R, const Instr& in, const Labels& order, std::size_t nl, std::size_t nr,
                   EinsumStepStats& st) const;

  const EinsumSpec& spec_;
  DType dtype_;
  std::int64_t es_;
  bool use_mul_, chains_, report_;
  std::uint64_t memory_limit_;
  std::size_t n_ = 0;
  std::vector<StepInfo> steps_;
  std::vector<int> consumer_;     // path id -> step consuming it (-1: the root)
  std::vector<Labels> pref_;      // path id -> preferred order (intermediates; pass 2)
  std::vector<Val> inputs_;       // path id < n -> the prepared form (layout, labels)
  std::vector<int> slot_of_;      // path id -> slot once produced (-1 before)
  std::vector<Val> vals_;
  std::vector<Instr> instrs_;
};

}  // namespace tenferro::einsum_detail
