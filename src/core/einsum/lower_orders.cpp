// The orders the lowering chooses between: an operand's stride order, what a consumer step
// reads in place (target_of, order_score), and the stored orders taken from the consumer
// (consumer_order) or from the result's unit stride (unit_stride_first).
#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/einsum/lowering.hpp"
#include "core/ops/dot_general_lowering.hpp"

namespace tenferro::einsum_detail {

Labels Lowering::stride_order(const Val& v, const Labels& group) const {
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

bool Lowering::chain(const Val& v, const Labels& order) const {
  Axes axes;
  for (int l : order) axes.push_back(std::find(v.labels.begin(), v.labels.end(), l) - v.labels.begin());
  return detail::is_stride_chain(v.layout, axes);
}

const Val* Lowering::known(int id) const {
  const int c = consumer_[static_cast<std::size_t>(id)];
  if (c < 0) return nullptr;
  const StepInfo& si = steps_[static_cast<std::size_t>(c)];
  const int p = si.a == id ? si.b : si.a;
  if (p < static_cast<int>(n_)) return &inputs_[static_cast<std::size_t>(p)];
  const int slot = slot_of_[static_cast<std::size_t>(p)];
  return slot < 0 ? nullptr : &val(slot);
}

Lowering::Target Lowering::target_of(int id) const {
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

int Lowering::order_score(const Target& t, const Labels& order) const {
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

// The stored order of intermediate `id` when no arrangement of its blocks lets its consumer
// read it in place (`order`, the best arrangement, is kept otherwise): the order the consumer
// reads in place, [free][contracted][batch] with the contracted and batch orders of the
// consumer's partner (group_order), so that the consumer packs nothing,
// - when it is at least detail::pack_chunk_bytes() (64 MiB): dot_general_into writes this order
//   through a temp made in pieces where the GEMM cannot write it (the same bytes copied once,
//   but the consumer's product runs whole instead of in the pieces a large packed copy is made
//   in; str_nw_mera_closed_120's 399 x 270 x 4320 x 27 product f64 on the H200: 2.74 ms whole,
//   1.71 + 1.6 ms in two batch pieces);
// - on a backend whose GEMM writes stride chains, from kConsumerOrderBytes, where the GEMM
//   writes this order in place (its groups at most a few stride chains each): no copy at all
//   instead of the consumer's packing copy (lm_batch_likelihood_sentence_3_12d: 33 MiB of
//   packing copies to none).
// `fa`, `fb`, `bt`: the step's free and batch labels (the GEMM's groups in `order`).
Labels Lowering::consumer_order(int id, const Labels& want, const Labels& order, const Labels& fa, const Labels& fb,
                                const Labels& bt) const {
  const int ci = consumer_[static_cast<std::size_t>(id)];
  const StepInfo& cs = steps_[static_cast<std::size_t>(ci)];
  if (cs.c.empty()) return order;  // K = 1 there: a mul of broadcast views, any order
  const std::int64_t bytes = mul_sat(count(order), es_);
  const bool large = static_cast<std::uint64_t>(bytes) >= detail::pack_chunk_bytes();
  if (!large && !(chains_ && bytes >= kConsumerOrderBytes)) return order;
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
// no two lanes of a warp in one memory sector (str_nw_mera_closed_120's 540 x 270 x 136 x 216
// product "LKJIfzM,JIqFefzM->KqFefLzM" f64 on the H200, M = (L, K) with K at unit stride in
// out: 1.03 ms against 0.67 into a compact C). That group then takes the stored order, which
// puts the unit-stride label first: its operand is packed in that order when it was read in
// place, if its elements are at most the result's (one copy of the operand against a scattered
// write of the result), and for results of at least kUnitStrideMinBytes.
void Lowering::unit_stride_first(const Val& L, const Val& R, const Labels& store, Labels& fl, Labels& fr,
                                 const Labels& c, const Labels& bt) const {
  if (!chains_) return;
  const std::int64_t out = count(store);
  if (mul_sat(out, es_) < kUnitStrideMinBytes) return;
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

}  // namespace tenferro::einsum_detail
