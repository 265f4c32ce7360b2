// Local search on a path's tree: windows re-solved exactly by the DP, and tree rotations.
#include <cmath>

#include "core/einsum/plan/planners.hpp"

namespace tenferro::einsum_detail {

void grow_window(const Tree& t, int n, int r, int k, std::mt19937_64* rng, Window& win) {
  const auto& nr = t.nodes[static_cast<std::size_t>(r)];
  win.frontier.assign({nr.l, nr.r});
  win.internal.assign({r});
  win.current = nr.flops;
  std::vector<std::size_t> cand;
  while (static_cast<int>(win.frontier.size()) < k) {
    cand.clear();
    std::size_t bi = 0;
    for (std::size_t i = 0; i < win.frontier.size(); ++i) {
      const int v = win.frontier[i];
      if (v < n) continue;
      if (cand.empty() || t.nodes[static_cast<std::size_t>(v)].flops > t.nodes[static_cast<std::size_t>(win.frontier[bi])].flops)
        bi = i;
      cand.push_back(i);
    }
    if (cand.empty()) break;
    if (rng && ((*rng)() & 1)) bi = cand[(*rng)() % cand.size()];
    const int v = win.frontier[bi];
    const auto& nv = t.nodes[static_cast<std::size_t>(v)];
    win.frontier[bi] = nv.l;
    win.frontier.push_back(nv.r);
    win.internal.push_back(v);
    win.current += nv.flops;
  }
}

bool reopt_window(const Net& net, Tree& t, const Window& win, double cap, Work& work, bool plateau) {
  const int m = static_cast<int>(win.frontier.size());
  if (m < 3) return false;
  const int r = win.internal[0];
  std::vector<const Bits*> sets;
  for (int v : win.frontier) sets.push_back(&t.nodes[static_cast<std::size_t>(v)].set);
  work.used += std::pow(3.0, m);
  const DpResult dp = dp_optimal(net, sets, t.nodes[static_cast<std::size_t>(r)].set, cap);
  const bool improves = dp.flops < win.current * (1 - 1e-12);
  if (!improves && !(plateau && dp.flops <= win.current * (1 + 1e-12))) return false;
  const auto W = static_cast<std::size_t>(net.words);
  std::vector<int> gid(win.frontier);
  std::vector<char> used(static_cast<std::size_t>(m) + dp.ssa.size(), 0);
  Bits u(W), need(W), s(W);
  for (std::size_t j = 0; j < dp.ssa.size(); ++j) {
    const auto [la, lb] = dp.ssa[j];
    used[static_cast<std::size_t>(la)] = used[static_cast<std::size_t>(lb)] = 1;
    const int a = gid[static_cast<std::size_t>(la)], b = gid[static_cast<std::size_t>(lb)];
    const bool last = j + 1 == dp.ssa.size();
    const int v = last ? r : win.internal[j + 1];
    const Bits& sa = t.nodes[static_cast<std::size_t>(a)].set;
    const Bits& sb = t.nodes[static_cast<std::size_t>(b)].set;
    for (std::size_t w = 0; w < W; ++w) u[w] = sa[w] | sb[w];
    auto& nd = t.nodes[static_cast<std::size_t>(v)];
    if (!last) {
      // Labels needed later: by window operands not consumed yet, or by r's result.
      const Bits& so = t.nodes[static_cast<std::size_t>(r)].set;
      need = so;
      for (std::size_t q = 0; q < static_cast<std::size_t>(m) + j; ++q) {
        if (used[q]) continue;
        const Bits& sq = t.nodes[static_cast<std::size_t>(gid[q])].set;
        for (std::size_t w = 0; w < W; ++w) need[w] |= sq[w];
      }
      for (std::size_t w = 0; w < W; ++w) s[w] = u[w] & need[w];
      nd.set = s;
      nd.size = prod_bits(s.data(), net.words, net.ext.data());
    }
    nd.l = a;
    nd.r = b;
    nd.flops = prod_bits(u.data(), net.words, net.ext.data());
    gid.push_back(v);
  }
  return improves;
}

bool subtree_pass(const Net& net, Tree& t, int k, double cap, Work& work) {
  const int n = net.n;
  std::vector<int> order;
  for (std::size_t v = static_cast<std::size_t>(n); v < t.nodes.size(); ++v) order.push_back(static_cast<int>(v));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return t.nodes[static_cast<std::size_t>(a)].flops > t.nodes[static_cast<std::size_t>(b)].flops;
  });
  bool improved = false;
  Window win;
  for (int r : order) {
    if (work.over()) break;
    grow_window(t, n, r, k, nullptr, win);
    improved |= reopt_window(net, t, win, cap, work);
  }
  return improved;
}

bool rotate_pass(const Net& net, Tree& t, double cap, Work& work) {
  const int n = net.n;
  const auto W = static_cast<std::size_t>(net.words);
  Bits u(W), inner(W), u2(W);
  bool any = false;
  for (bool changed = true; changed && !work.over();) {
    changed = false;
    for (std::size_t v = static_cast<std::size_t>(n); v < t.nodes.size(); ++v) {
      for (int side = 0; side < 2; ++side) {
        auto& nv = t.nodes[v];
        const int c = side == 0 ? nv.l : nv.r;
        const int x = side == 0 ? nv.r : nv.l;
        if (c < n) continue;
        auto& nc = t.nodes[static_cast<std::size_t>(c)];
        const double current = nc.flops + nv.flops;
        const Bits& sx = t.nodes[static_cast<std::size_t>(x)].set;
        work.used += 8;
        for (int pick = 0; pick < 2; ++pick) {
          // Keep `a` outside, pair `b` with x first.
          const int a = pick == 0 ? nc.l : nc.r;
          const int b = pick == 0 ? nc.r : nc.l;
          const Bits& sa = t.nodes[static_cast<std::size_t>(a)].set;
          const Bits& sb = t.nodes[static_cast<std::size_t>(b)].set;
          // (b x) keeps the labels needed by a or above v.
          for (std::size_t w = 0; w < W; ++w) {
            u[w] = sb[w] | sx[w];
            inner[w] = u[w] & (sa[w] | nv.set[w]);
            u2[w] = sa[w] | inner[w];
          }
          const double f_in = prod_bits(u.data(), net.words, net.ext.data());
          const double f_out = prod_bits(u2.data(), net.words, net.ext.data());
          const double size_in = prod_bits(inner.data(), net.words, net.ext.data());
          if (f_in + f_out < current * (1 - 1e-12) && (cap <= 0 || size_in <= cap)) {
            nc.l = b;
            nc.r = x;
            nc.set = inner;
            nc.flops = f_in;
            nc.size = size_in;
            nv.l = a;
            nv.r = c;
            nv.flops = f_out;
            changed = any = true;
            break;
          }
        }
      }
    }
  }
  return any;
}

}  // namespace tenferro::einsum_detail
