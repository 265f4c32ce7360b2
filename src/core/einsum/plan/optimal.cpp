// Exact dynamic programming: over all subsets (dp_optimal, small networks and windows) and over
// connected subsets within a cost bound (dp_connected, opt_einsum's 'dp').
#include <algorithm>
#include <bit>
#include <unordered_map>

#include "core/einsum/plan/planners.hpp"

namespace tenferro::einsum_detail {

DpResult dp_optimal(const Net& net, const std::vector<const Bits*>& sets, const Bits& out, double cap) {
  const int m = static_cast<int>(sets.size());
  DpResult res;
  if (m == 1) {
    res.flops = 0;
    return res;
  }
  // Local label ids.
  std::vector<int> local;
  {
    Bits all(static_cast<std::size_t>(net.words), 0);
    for (const Bits* s : sets)
      for (int w = 0; w < net.words; ++w) all[static_cast<std::size_t>(w)] |= (*s)[static_cast<std::size_t>(w)];
    for (int w = 0; w < net.words; ++w)
      for (std::uint64_t x = all[static_cast<std::size_t>(w)]; x; x &= x - 1) local.push_back(w * 64 + std::countr_zero(x));
  }
  const int L = static_cast<int>(local.size());
  const int W = std::max(1, (L + 63) / 64);
  const auto Wz = static_cast<std::size_t>(W);
  std::vector<double> ext(static_cast<std::size_t>(W) * 64, 1.0);
  const auto to_local = [&](const Bits& g) {
    Bits b(Wz, 0);
    for (int k = 0; k < L; ++k) {
      const int l = local[static_cast<std::size_t>(k)];
      if ((g[static_cast<std::size_t>(l / 64)] >> (l % 64)) & 1) b[static_cast<std::size_t>(k / 64)] |= 1ULL << (k % 64);
    }
    return b;
  };
  for (int k = 0; k < L; ++k) ext[static_cast<std::size_t>(k)] = net.ext[static_cast<std::size_t>(local[static_cast<std::size_t>(k)])];
  const Bits lout = to_local(out);
  std::vector<Bits> lin;
  for (const Bits* s : sets) lin.push_back(to_local(*s));

  const std::size_t N = std::size_t{1} << m;
  const std::size_t full = N - 1;
  std::vector<std::uint64_t> U(N * Wz, 0), K(N * Wz, 0);
  std::vector<double> sz(N, 1.0), best(N, kInf);
  std::vector<std::uint32_t> split(N, 0);
  for (std::size_t S = 1; S < N; ++S) {
    const std::size_t low = S & (~S + 1);
    const auto i = static_cast<std::size_t>(std::countr_zero(S));
    for (std::size_t w = 0; w < Wz; ++w) U[S * Wz + w] = U[(S ^ low) * Wz + w] | lin[i][w];
  }
  for (std::size_t S = 1; S < N; ++S) {
    for (std::size_t w = 0; w < Wz; ++w) K[S * Wz + w] = U[S * Wz + w] & (lout[w] | U[(full ^ S) * Wz + w]);
    sz[S] = prod_bits(&K[S * Wz], W, ext.data());
    if ((S & (S - 1)) == 0) best[S] = 0;
  }
  std::vector<std::uint64_t> tmp(Wz);
  for (std::size_t S = 3; S < N; ++S) {
    if ((S & (S - 1)) == 0) continue;
    if (cap > 0 && S != full && sz[S] > cap) continue;
    const std::size_t low = S & (~S + 1);
    const std::size_t rest = S ^ low;
    double b = kInf;
    std::size_t bs = 0;
    const std::uint64_t* ks = &K[S * Wz];
    for (std::size_t sub = (rest - 1) & rest;; sub = (sub - 1) & rest) {
      const std::size_t A = low | sub, B = S ^ A;
      const double base = best[A] + best[B];
      if (base < b) {
        double f = sz[S];
        const std::uint64_t* ka = &K[A * Wz];
        const std::uint64_t* kb = &K[B * Wz];
        for (std::size_t w = 0; w < Wz; ++w) {
          for (std::uint64_t x = ka[w] & kb[w] & ~ks[w]; x; x &= x - 1) f *= ext[w * 64 + static_cast<std::size_t>(std::countr_zero(x))];
        }
        if (base + f < b) {
          b = base + f;
          bs = A;
        }
      }
      if (sub == 0) break;
    }
    best[S] = b;
    split[S] = static_cast<std::uint32_t>(bs);
  }
  if (!(best[full] < kInf)) return res;
  res.flops = best[full];
  // Rebuild the tree as SSA.
  const auto build = [&](auto&& self, std::size_t S) -> int {
    if ((S & (S - 1)) == 0) return std::countr_zero(S);
    const int a = self(self, split[S]);
    const int b = self(self, S ^ split[S]);
    res.ssa.emplace_back(a, b);
    return m + static_cast<int>(res.ssa.size()) - 1;
  };
  build(build, full);
  return res;
}

bool dp_connected(const Net& net, double bound, Work& work, double work_limit, Ssa& out) {
  const int n = net.n;
  const auto W = static_cast<std::size_t>(net.words);
  const std::vector<std::vector<int>> holders = label_holders(net);
  const auto in_out = [&](std::size_t l) { return (net.out[l / 64] >> (l % 64)) & 1; };
  // Components (global ids).
  std::vector<int> comp(static_cast<std::size_t>(n), -1);
  std::vector<std::vector<int>> comps;
  for (int s = 0; s < n; ++s) {
    if (comp[static_cast<std::size_t>(s)] >= 0) continue;
    comps.emplace_back();
    std::vector<int> stack{s};
    comp[static_cast<std::size_t>(s)] = static_cast<int>(comps.size()) - 1;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      comps.back().push_back(v);
      for (std::size_t w = 0; w < W; ++w)
        for (std::uint64_t x = net.in[static_cast<std::size_t>(v)][w]; x; x &= x - 1) {
          const std::size_t l = w * 64 + static_cast<std::size_t>(std::countr_zero(x));
          if (in_out(l)) continue;
          for (int u : holders[l])
            if (comp[static_cast<std::size_t>(u)] < 0) {
              comp[static_cast<std::size_t>(u)] = comp[static_cast<std::size_t>(s)];
              stack.push_back(u);
            }
        }
    }
    if (comps.back().size() > 64) return false;
  }
  struct State {
    std::uint64_t mask, nb, a, b;  // a, b: the split (0 for single operands)
    double cost, size;  // size: product of the result's label extents
  };
  Ssa ssa;
  std::vector<int> root_of_comp;  // SSA id of each component's result
  std::vector<Bits> keep_of_comp;
  for (const auto& members : comps) {
    const int k = static_cast<int>(members.size());
    std::vector<int> local(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < k; ++i) local[static_cast<std::size_t>(members[static_cast<std::size_t>(i)])] = i;
    // Local holder masks of labels outside the output, adjacency.
    std::vector<std::uint64_t> hmask(static_cast<std::size_t>(net.labels), 0), adj(static_cast<std::size_t>(k), 0);
    for (std::size_t l = 0; l < holders.size(); ++l) {
      if (in_out(l) || holders[l].empty() || local[static_cast<std::size_t>(holders[l][0])] < 0) continue;
      for (int u : holders[l]) hmask[l] |= 1ULL << local[static_cast<std::size_t>(u)];
      for (int u : holders[l]) adj[static_cast<std::size_t>(local[static_cast<std::size_t>(u)])] |= hmask[l];
    }
    // Rounds with a growing cap (opt_einsum's cost_cap), up to `bound`.
    const std::uint64_t full = k == 64 ? ~0ULL : (1ULL << k) - 1;
    std::vector<std::vector<State>> level;
    std::vector<std::unordered_map<std::uint64_t, std::size_t>> index;
    std::vector<std::vector<Bits>> keeps;
    bool solved = false;
    double round_start = work.used;
    std::size_t prev_states = 0;
    for (double cc = bound / 1024; !solved; cc = std::min(cc * 2, bound)) {
      level.assign(static_cast<std::size_t>(k) + 1, {});
      index.assign(static_cast<std::size_t>(k) + 1, {});
      keeps.assign(static_cast<std::size_t>(k) + 1, {});
      for (int i = 0; i < k; ++i) {
        level[1].push_back({1ULL << i, adj[static_cast<std::size_t>(i)] & ~(1ULL << i), 0, 0, 0.0,
                            prod_bits(net.in[static_cast<std::size_t>(members[static_cast<std::size_t>(i)])].data(),
                                      net.words, net.ext.data())});
        keeps[1].push_back(net.in[static_cast<std::size_t>(members[static_cast<std::size_t>(i)])]);
        index[1].emplace(1ULL << i, static_cast<std::size_t>(i));
      }
      Bits u(W), kp(W);
      // Offers the pair (s1, s2) (disjoint, adjacent, both final) for S = s1 | s2.
      const auto offer = [&](int m1, std::size_t i1, int m2, std::size_t i2) {
        const State& s1 = level[static_cast<std::size_t>(m1)][i1];
        const State& s2 = level[static_cast<std::size_t>(m2)][i2];
        const double base = s1.cost + s2.cost;
        // The step's flops are at least the larger operand: a cheap reject before the labels.
        if (base + std::max(s1.size, s2.size) > cc) return;
        const Bits& k1 = keeps[static_cast<std::size_t>(m1)][i1];
        const Bits& k2 = keeps[static_cast<std::size_t>(m2)][i2];
        for (std::size_t w = 0; w < W; ++w) u[w] = k1[w] | k2[w];
        const double c = base + prod_bits(u.data(), net.words, net.ext.data());
        if (c > cc) return;
        const std::uint64_t S = s1.mask | s2.mask;
        const auto sz = static_cast<std::size_t>(m1 + m2);
        auto [it, fresh] = index[sz].try_emplace(S, level[sz].size());
        if (!fresh && level[sz][it->second].cost <= c) return;
        if (fresh) {
          // Result labels: drop shared labels outside the output whose holders all lie in S.
          kp = u;
          for (std::size_t w = 0; w < W; ++w)
            for (std::uint64_t x = k1[w] & k2[w]; x; x &= x - 1) {
              const std::size_t l = w * 64 + static_cast<std::size_t>(std::countr_zero(x));
              if (!in_out(l) && (hmask[l] & ~S) == 0) kp[w] &= ~(1ULL << (l % 64));
            }
          const std::uint64_t nb = (s1.nb | s2.nb) & ~S, am = s1.mask, bm = s2.mask;
          level[sz].push_back({S, nb, am, bm, c, prod_bits(kp.data(), net.words, net.ext.data())});
          keeps[sz].push_back(kp);
          work.used += 4;
        } else {
          auto& st = level[sz][it->second];
          st.a = s1.mask;
          st.b = s2.mask;
          st.cost = c;
        }
      };
      // Level sizes ascending; a level is final once every smaller pair is done. Each final
      // level is kept as cost-sorted (cost, mask, nb) arrays so the pair scan stops at the
      // first partner too costly for the cap (most candidate pairs fail the cap).
      struct Sorted {
        std::vector<double> cost;
        std::vector<std::uint64_t> mask;
        std::vector<std::uint32_t> id;
      };
      std::vector<Sorted> sorted(static_cast<std::size_t>(k) + 1);
      const auto finalize = [&](std::size_t j) {
        Sorted& so = sorted[j];
        const auto& L = level[j];
        so.id.resize(L.size());
        for (std::size_t i = 0; i < L.size(); ++i) so.id[i] = static_cast<std::uint32_t>(i);
        std::sort(so.id.begin(), so.id.end(), [&](std::uint32_t x, std::uint32_t y) {
          return L[x].cost < L[y].cost || (L[x].cost == L[y].cost && L[x].mask < L[y].mask);
        });
        so.cost.clear();
        so.mask.clear();
        for (std::uint32_t i : so.id) {
          so.cost.push_back(L[i].cost);
          so.mask.push_back(L[i].mask);
        }
        work.used += static_cast<double>(L.size()) * 8;
      };
      finalize(1);
      for (int sz = 2; sz <= k; ++sz) {
        for (int m = 1; m <= sz / 2; ++m) {
          const Sorted& A = sorted[static_cast<std::size_t>(m)];
          const Sorted& B = sorted[static_cast<std::size_t>(sz - m)];
          const auto& L1 = level[static_cast<std::size_t>(m)];
          for (std::size_t p1 = 0; p1 < A.cost.size(); ++p1) {
            const double room = cc - A.cost[p1];
            // Both lists are cost-sorted: pairs with p1 past the cheapest B fail the cap.
            if (B.cost.empty() || B.cost[0] > room) break;
            const std::size_t i1 = A.id[p1];
            const std::uint64_t mk = L1[i1].mask, nbk = L1[i1].nb;
            std::size_t p2 = 0;
            const std::size_t e2 = B.cost.size();
            for (; p2 < e2 && B.cost[p2] <= room; ++p2) {
              const std::uint64_t m2 = B.mask[p2];
              if (!(nbk & m2) || (mk & m2) || (m == sz - m && mk > m2)) continue;
              offer(m, i1, sz - m, B.id[p2]);
            }
            work.used += static_cast<double>(p2) + 1;
          }
          if (work.used > work_limit || work.over()) return false;
        }
        finalize(static_cast<std::size_t>(sz));
      }
      solved = index[static_cast<std::size_t>(k)].count(full) > 0;
      // Bail out early (deterministically) when the next round, predicted from the growth of
      // the stored subsets (pair work ~ states squared), would exceed the work limit anyway.
      std::size_t states = 0;
      for (const auto& lv : level) states += lv.size();
      const double round_work = work.used - round_start;
      round_start = work.used;
      if (!solved && prev_states > 0) {
        const double g = static_cast<double>(states) / static_cast<double>(prev_states);
        if (work.used + round_work * g * g > work_limit) return false;
      }
      prev_states = states;
      if (!solved && cc >= bound) return false;
    }
    const auto build = [&](auto&& self, std::uint64_t S) -> int {
      const int c = std::popcount(S);
      if (c == 1) return members[static_cast<std::size_t>(std::countr_zero(S))];
      const State& st = level[static_cast<std::size_t>(c)][index[static_cast<std::size_t>(c)].at(S)];
      const int a = self(self, st.a), b = self(self, st.b);
      ssa.emplace_back(a, b);
      return n + static_cast<int>(ssa.size()) - 1;
    };
    root_of_comp.push_back(build(build, full));
    keep_of_comp.push_back(keeps[static_cast<std::size_t>(k)][index[static_cast<std::size_t>(k)].at(full)]);
  }
  // Join components, smallest result first (their shared labels are output labels).
  std::vector<std::pair<double, int>> live;
  for (std::size_t c = 0; c < root_of_comp.size(); ++c)
    live.emplace_back(prod_bits(keep_of_comp[c].data(), net.words, net.ext.data()), root_of_comp[c]);
  while (live.size() > 1) {
    std::sort(live.begin(), live.end());
    const int a = live[0].second, b = live[1].second;
    ssa.emplace_back(std::min(a, b), std::max(a, b));
    live.erase(live.begin(), live.begin() + 2);
    // Sizes only order the joins; recompute from the simulated path at the end.
    live.emplace_back(0.0, n + static_cast<int>(ssa.size()) - 1);
  }
  out = std::move(ssa);
  return true;
}

}  // namespace tenferro::einsum_detail
