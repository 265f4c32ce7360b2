// One step of the lowering: a contraction as one dot_general (its operand views, stored order,
// GEMM roles and store mode), a free group split around the contracted labels, or a step that
// sums nothing as one mul of broadcast views.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/einsum/internal.hpp"
#include "core/einsum/lowering.hpp"
#include "core/ops/dot_general_lowering.hpp"

namespace tenferro::einsum_detail {

// The contraction as one dot_general: groups read in the orders that let the most bytes be
// read in place, the result stored in the block order that suits its consumer best.
int Lowering::contract_gemm(int k, const StepInfo& si, int sa, int sb, EinsumStepStats& st) {
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
  if (ci >= 0 && store != order && chains_ && second_leads(store, fa_o, fb_o) != swap &&
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
  in.layout = out_view(store, dot_order);
  in.store = store_mode(in, store == dot_order, fl.size(), fr.size());

  // The report: dot_general's own lowering decision.
  if (report_) report_gemm(L, R, in, store, fl.size(), fr.size(), st);
  Val r{Layout::compact(in.shape), store, -1, id};
  return push(std::move(in), std::move(r));
}

// How a product stores its result (Instr::Store). An order no GEMM writes on this backend (its
// groups not one stride chain each, nor a few where the GEMM writes chained outputs) is either
// computed in GEMM order and copied once (a result under detail::pack_chunk_bytes(): its
// operands at their last use are freed as they are packed) or written through
// dot_general_into's temp, which is made in pieces (a larger one: never held twice whole).
Instr::Store Lowering::store_mode(const Instr& in, bool compact, std::size_t nl, std::size_t nr) const {
  if (compact) return Instr::Store::compact;
  if (detail::dot_out_in_place(in.layout, nl, nr) || (chains_ && detail::dot_out_in_chains(in.layout, nl, nr)))
    return Instr::Store::out_view;
  const std::uint64_t bytes = static_cast<std::uint64_t>(shape_numel(in.shape, kOp)) * dtype_size(dtype_);
  return bytes < detail::pack_chunk_bytes() ? Instr::Store::copy_after : Instr::Store::out_view;
}

// An operand whose free labels are not one stride chain only because its contracted labels
// sit between two runs of them ([F1][C][F2] in memory, e.g. the middle index of an MPS
// tensor) is read in place as a batched GEMM instead of being packed: F2 becomes a batch
// group, broadcast (stride 0) on the other operand. Only without batch labels, and only when
// F1 (the larger run) keeps M at 8 or more. Returns false when it does not apply.
bool Lowering::split_free(const StepInfo& si, int& sa, int& sb, StepInfo& out) {
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
    const bool first_is_m = count(runs[0].second) >= count(runs[2].second);
    Labels m = first_is_m ? runs[0].second : runs[2].second;
    Labels batch = first_is_m ? runs[2].second : runs[0].second;
    if (count(m) < 8) continue;
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
int Lowering::contract_mul(int k, int sa, int sb, EinsumStepStats& st) {
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
  auto view_of = [&](const Val& x) {  // relative to x's offset (program.hpp)
    Layout l;
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
  const std::int64_t M = count(si.fa), N = count(si.fb), Bn = count(si.bt);
  st.lhs = A.path_id;
  st.rhs = B.path_id;
  if (report_) {
    st.lhs_labels = labels_text(spec_, A.labels);
    st.rhs_labels = labels_text(spec_, B.labels);
    st.out_labels = labels_text(spec_, order);
    st.kind = std::string(Bn > 1 ? "batched " : "") + step_kind(M, N, 1) + " (mul)";
  }
  st.M = M;
  st.N = N;
  st.K = 1;
  st.B = Bn;
  st.out_bytes = mul_sat(mul_sat(mul_sat(M, N), Bn), es_);
  st.launches += st.out_bytes > 0 ? 1 : 0;
  Val r{Layout::compact(in.shape), order, -1, id};
  return push(std::move(in), std::move(r));
}

}  // namespace tenferro::einsum_detail
