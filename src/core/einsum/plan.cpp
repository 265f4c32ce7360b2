// einsum contraction paths: cost model, dynamic programming (optimal), greedy and randomized
// greedy with subtree re-optimisation, and the plan cache.
//
// Internally a path is in SSA form: ids < n are the operands, id n + k is the result of
// step k. Label sets are bitsets of W 64-bit words over the spec's label ids.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <mutex>
#include <queue>
#include <random>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "core/einsum/internal.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/error.hpp"

namespace tenferro {
namespace {

constexpr const char* kOp = "einsum";
constexpr double kInf = std::numeric_limits<double>::infinity();
using Clock = std::chrono::steady_clock;
using Bits = std::vector<std::uint64_t>;
using Ssa = std::vector<std::pair<int, int>>;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The planner's view of a spec: operand label sets (after in-operand sums), output set.
struct Net {
  int n = 0, labels = 0, words = 0;
  std::vector<double> ext;  // per label
  std::vector<Bits> in;     // per operand
  Bits out;
};

Net make_net(const EinsumSpec& spec) {
  Net net;
  net.n = static_cast<int>(spec.reduced.size());
  net.labels = static_cast<int>(spec.labels.size());
  net.words = std::max(1, (net.labels + 63) / 64);
  for (auto e : spec.extents) net.ext.push_back(static_cast<double>(e));
  const auto W = static_cast<std::size_t>(net.words);
  net.out.assign(W, 0);
  for (int id : spec.output) net.out[static_cast<std::size_t>(id) / 64] |= 1ULL << (id % 64);
  for (const auto& r : spec.reduced) {
    Bits b(W, 0);
    for (int id : r) b[static_cast<std::size_t>(id) / 64] |= 1ULL << (id % 64);
    net.in.push_back(std::move(b));
  }
  return net;
}

// holders[l]: the operands whose label set holds label l, in operand order.
std::vector<std::vector<int>> label_holders(const Net& net) {
  std::vector<std::vector<int>> holders(static_cast<std::size_t>(net.labels));
  for (int i = 0; i < net.n; ++i)
    for (std::size_t w = 0; w < static_cast<std::size_t>(net.words); ++w)
      for (std::uint64_t x = net.in[static_cast<std::size_t>(i)][w]; x; x &= x - 1)
        holders[w * 64 + static_cast<std::size_t>(std::countr_zero(x))].push_back(i);
  return holders;
}

// Product of the extents of the labels in s.
double prod_bits(const std::uint64_t* s, int words, const double* ext) {
  double p = 1;
  for (int w = 0; w < words; ++w) {
    for (std::uint64_t x = s[w]; x; x &= x - 1) p *= ext[w * 64 + std::countr_zero(x)];
  }
  return p;
}

// Simulates an SSA path: flops, largest intermediate, per-step result sets.
struct Sim {
  double flops = 0, largest = 0;
  std::vector<double> step_flops, step_size;
  std::vector<char> step_inner;  // the step sums at least one label
};

Sim simulate(const Net& net, const Ssa& ssa) {
  const auto W = static_cast<std::size_t>(net.words);
  std::vector<int> count(static_cast<std::size_t>(net.labels), 0);
  std::vector<Bits> sets = net.in;
  for (const auto& s : sets)
    for (std::size_t w = 0; w < W; ++w)
      for (std::uint64_t x = s[w]; x; x &= x - 1) ++count[w * 64 + static_cast<std::size_t>(std::countr_zero(x))];
  Sim sim;
  for (const auto& [a, b] : ssa) {
    Bits u(W), keep(W, 0);
    const auto& sa = sets[static_cast<std::size_t>(a)];
    const auto& sb = sets[static_cast<std::size_t>(b)];
    for (std::size_t w = 0; w < W; ++w) {
      u[w] = sa[w] | sb[w];
      for (std::uint64_t x = u[w]; x; x &= x - 1) {
        const int bit = std::countr_zero(x);
        const std::size_t l = w * 64 + static_cast<std::size_t>(bit);
        count[l] -= static_cast<int>((sa[w] >> bit) & 1) + static_cast<int>((sb[w] >> bit) & 1);
        if (count[l] > 0 || ((net.out[w] >> bit) & 1)) {
          keep[w] |= 1ULL << bit;
          ++count[l];
        }
      }
    }
    const double f = prod_bits(u.data(), net.words, net.ext.data());
    const double sz = prod_bits(keep.data(), net.words, net.ext.data());
    sim.flops += f;
    sim.largest = std::max(sim.largest, sz);
    sim.step_flops.push_back(f);
    sim.step_size.push_back(sz);
    sim.step_inner.push_back(u != keep);
    sets.push_back(std::move(keep));
  }
  return sim;
}

// ---- dynamic programming over subsets ---------------------------------------------------
// Operands `sets` (global label bitsets), `out` the labels needed beyond them. Returns an
// SSA path over local ids (< m operands) with minimal flops, intermediates (not the final
// result) within cap when cap > 0. Empty ssa with flops = inf when the cap is infeasible.
struct DpResult {
  Ssa ssa;
  double flops = kInf;
};

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

// ---- greedy --------------------------------------------------------------------------------
struct GreedyParams {
  double costmod = 1.0;      // score = size(result) - costmod * (size(a) + size(b))
  double temperature = 0.0;  // 0: deterministic; else Boltzmann over the nbranch best
  int nbranch = 8;
  double cap = 0;
  int mode = 0;  // 0: the score above; 1: score = flops of the step
};

struct GreedyResult {
  Ssa ssa;
  double flops = 0, largest = 0;
};

GreedyResult greedy(const Net& net, const GreedyParams& p, std::mt19937_64* rng) {
  const int n = net.n;
  const auto W = static_cast<std::size_t>(net.words);
  const int total = 2 * n - 1;
  std::vector<Bits> sets(static_cast<std::size_t>(total));
  std::vector<double> size(static_cast<std::size_t>(total), 1.0);
  std::vector<char> alive(static_cast<std::size_t>(total), 0);
  std::vector<std::vector<int>> holders = label_holders(net);
  std::vector<int> count(static_cast<std::size_t>(net.labels), 0);
  for (std::size_t l = 0; l < holders.size(); ++l) count[l] = static_cast<int>(holders[l].size());
  for (int i = 0; i < n; ++i) {
    sets[static_cast<std::size_t>(i)] = net.in[static_cast<std::size_t>(i)];
    size[static_cast<std::size_t>(i)] = prod_bits(sets[static_cast<std::size_t>(i)].data(), net.words, net.ext.data());
    alive[static_cast<std::size_t>(i)] = 1;
  }
  struct Cand {
    bool over;
    double score, flops;
    int a, b;
    bool operator>(const Cand& o) const {
      if (over != o.over) return over;
      if (score != o.score) return score > o.score;
      if (flops != o.flops) return flops > o.flops;
      if (a != o.a) return a > o.a;
      return b > o.b;
    }
  };
  Bits keep(W);
  const auto evaluate = [&](int a, int b, Bits* keep_out) {
    const auto& sa = sets[static_cast<std::size_t>(a)];
    const auto& sb = sets[static_cast<std::size_t>(b)];
    double f = 1, s = 1;
    for (std::size_t w = 0; w < W; ++w) {
      std::uint64_t k = 0;
      for (std::uint64_t x = sa[w] | sb[w]; x; x &= x - 1) {
        const int bit = std::countr_zero(x);
        const std::size_t l = w * 64 + static_cast<std::size_t>(bit);
        const double e = net.ext[l];
        f *= e;
        const int others = count[l] - static_cast<int>((sa[w] >> bit) & 1) - static_cast<int>((sb[w] >> bit) & 1);
        if (others > 0 || ((net.out[w] >> bit) & 1)) {
          s *= e;
          k |= 1ULL << bit;
        }
      }
      if (keep_out) (*keep_out)[w] = k;
    }
    Cand c{p.cap > 0 && s > p.cap,
           p.mode == 1 ? f : s - p.costmod * (size[static_cast<std::size_t>(a)] + size[static_cast<std::size_t>(b)]), f,
           std::min(a, b), std::max(a, b)};
    return c;
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<Cand>> heap;
  std::vector<int> stamp(static_cast<std::size_t>(total), -1);
  const auto push_neighbours = [&](int a, bool only_greater) {
    const auto& sa = sets[static_cast<std::size_t>(a)];
    for (std::size_t w = 0; w < W; ++w)
      for (std::uint64_t x = sa[w]; x; x &= x - 1) {
        auto& hs = holders[w * 64 + static_cast<std::size_t>(std::countr_zero(x))];
        std::size_t keep_n = 0;
        for (int b : hs) {
          if (!alive[static_cast<std::size_t>(b)]) continue;
          hs[keep_n++] = b;
          if (b == a || stamp[static_cast<std::size_t>(b)] == a || (only_greater && b < a)) continue;
          stamp[static_cast<std::size_t>(b)] = a;
          heap.push(evaluate(a, b, nullptr));
        }
        hs.resize(keep_n);
      }
  };
  for (int i = 0; i < n; ++i) push_neighbours(i, true);

  GreedyResult res;
  int next = n, remaining = n;
  const auto contract = [&](int a, int b) {
    const auto c = static_cast<std::size_t>(next);
    sets[c].assign(W, 0);
    const Cand cd = evaluate(a, b, &sets[c]);
    const auto& sa = sets[static_cast<std::size_t>(a)];
    const auto& sb = sets[static_cast<std::size_t>(b)];
    for (std::size_t w = 0; w < W; ++w) {
      for (std::uint64_t x = sa[w] | sb[w]; x; x &= x - 1) {
        const int bit = std::countr_zero(x);
        count[w * 64 + static_cast<std::size_t>(bit)] -=
            static_cast<int>((sa[w] >> bit) & 1) + static_cast<int>((sb[w] >> bit) & 1);
      }
      for (std::uint64_t x = sets[c][w]; x; x &= x - 1) {
        const std::size_t l = w * 64 + static_cast<std::size_t>(std::countr_zero(x));
        ++count[l];
        holders[l].push_back(next);
      }
    }
    size[c] = prod_bits(sets[c].data(), net.words, net.ext.data());
    alive[static_cast<std::size_t>(a)] = alive[static_cast<std::size_t>(b)] = 0;
    alive[c] = 1;
    res.ssa.emplace_back(a, b);
    res.flops += cd.flops;
    res.largest = std::max(res.largest, size[c]);
    ++next;
    --remaining;
    push_neighbours(next - 1, false);
  };

  std::vector<Cand> branch;
  while (remaining > 1 && !heap.empty()) {
    // Pop fresh candidates (costs go stale as label counts drop; re-evaluate lazily).
    branch.clear();
    const int want = p.temperature > 0 && rng ? p.nbranch : 1;
    while (!heap.empty() && static_cast<int>(branch.size()) < want) {
      const Cand c = heap.top();
      heap.pop();
      if (!alive[static_cast<std::size_t>(c.a)] || !alive[static_cast<std::size_t>(c.b)]) continue;
      const Cand fresh = evaluate(c.a, c.b, nullptr);
      if (fresh.score != c.score || fresh.over != c.over) {
        heap.push(fresh);
        continue;
      }
      branch.push_back(c);
    }
    if (branch.empty()) break;
    std::size_t pick = 0;
    if (branch.size() > 1) {
      const double c0 = branch[0].score;
      const double t = p.temperature * std::max(1.0, std::abs(c0));
      std::vector<double> wts;
      for (const Cand& c : branch) wts.push_back(c.over != branch[0].over ? 0.0 : std::exp(-(c.score - c0) / t));
      std::discrete_distribution<std::size_t> dist(wts.begin(), wts.end());
      pick = dist(*rng);
      for (std::size_t k = 0; k < branch.size(); ++k)
        if (k != pick) heap.push(branch[k]);
    }
    contract(branch[pick].a, branch[pick].b);
  }
  // Disconnected parts (and scalars): outer products, smallest first.
  while (remaining > 1) {
    int a = -1, b = -1;
    for (int i = 0; i < next; ++i) {
      if (!alive[static_cast<std::size_t>(i)]) continue;
      if (a < 0 || size[static_cast<std::size_t>(i)] < size[static_cast<std::size_t>(a)]) {
        b = a;
        a = i;
      } else if (b < 0 || size[static_cast<std::size_t>(i)] < size[static_cast<std::size_t>(b)]) {
        b = i;
      }
    }
    contract(std::min(a, b), std::max(a, b));
  }
  return res;
}

// ---- subtree re-optimisation ---------------------------------------------------------------
struct Tree {
  struct Node {
    int l = -1, r = -1;
    Bits set;
    double flops = 0, size = 1;
    bool dead = false;
  };
  std::vector<Node> nodes;
  int root = -1;
};

Tree make_tree(const Net& net, const Ssa& ssa) {
  Tree t;
  const Sim sim = simulate(net, ssa);
  for (int i = 0; i < net.n; ++i) {
    Tree::Node nd;
    nd.set = net.in[static_cast<std::size_t>(i)];
    nd.size = prod_bits(nd.set.data(), net.words, net.ext.data());
    t.nodes.push_back(std::move(nd));
  }
  // Recompute result sets with the same keep rule as simulate.
  std::vector<int> count(static_cast<std::size_t>(net.labels), 0);
  for (const auto& s : net.in)
    for (int w = 0; w < net.words; ++w)
      for (std::uint64_t x = s[static_cast<std::size_t>(w)]; x; x &= x - 1) ++count[static_cast<std::size_t>(w * 64 + std::countr_zero(x))];
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    const auto [a, b] = ssa[k];
    Tree::Node nd;
    nd.l = a;
    nd.r = b;
    nd.set.assign(static_cast<std::size_t>(net.words), 0);
    const Bits& sa = t.nodes[static_cast<std::size_t>(a)].set;
    const Bits& sb = t.nodes[static_cast<std::size_t>(b)].set;
    for (int w = 0; w < net.words; ++w) {
      const auto wz = static_cast<std::size_t>(w);
      for (std::uint64_t x = sa[wz] | sb[wz]; x; x &= x - 1) {
        const int bit = std::countr_zero(x);
        const auto l = static_cast<std::size_t>(w * 64 + bit);
        count[l] -= static_cast<int>((sa[wz] >> bit) & 1) + static_cast<int>((sb[wz] >> bit) & 1);
        if (count[l] > 0 || ((net.out[wz] >> bit) & 1)) {
          nd.set[wz] |= 1ULL << bit;
          ++count[l];
        }
      }
    }
    nd.flops = sim.step_flops[k];
    nd.size = sim.step_size[k];
    t.nodes.push_back(std::move(nd));
  }
  t.root = static_cast<int>(t.nodes.size()) - 1;
  return t;
}

Ssa tree_to_ssa(const Tree& t, int n) {
  Ssa ssa;
  if (t.root < n) return ssa;
  std::vector<int> id(t.nodes.size(), -1);
  for (int i = 0; i < n; ++i) id[static_cast<std::size_t>(i)] = i;
  // Iterative post-order.
  std::vector<std::pair<int, bool>> stack{{t.root, false}};
  while (!stack.empty()) {
    auto [v, expanded] = stack.back();
    stack.pop_back();
    if (v < n) continue;
    const auto& nd = t.nodes[static_cast<std::size_t>(v)];
    if (expanded) {
      ssa.emplace_back(id[static_cast<std::size_t>(nd.l)], id[static_cast<std::size_t>(nd.r)]);
      id[static_cast<std::size_t>(v)] = n + static_cast<int>(ssa.size()) - 1;
    } else {
      stack.emplace_back(v, true);
      stack.emplace_back(nd.r, false);
      stack.emplace_back(nd.l, false);
    }
  }
  return ssa;
}

// Deterministic work budget: DP split evaluations plus greedy pair evaluations. A wall-clock
// deadline (PlanOptions::time_budget_s) remains only as a safety net.
struct Work {
  double used = 0, limit = 0;
  Clock::time_point deadline = Clock::time_point::max();
  bool over() const { return used >= limit || Clock::now() > deadline; }
};

double tree_flops(const Tree& t, int n) {
  double f = 0;
  for (std::size_t v = static_cast<std::size_t>(n); v < t.nodes.size(); ++v) f += t.nodes[v].flops;
  return f;
}

double tree_largest(const Tree& t, int n) {
  double s = 0;
  for (std::size_t v = static_cast<std::size_t>(n); v < t.nodes.size(); ++v) s = std::max(s, t.nodes[v].size);
  return s;
}

// A window under internal node r: `frontier` are its leaves (subtrees kept as they are),
// `internal` its internal nodes (internal[0] == r), `current` their flops.
struct Window {
  std::vector<int> frontier, internal;
  double current = 0;
};

// Grows a window of up to k frontier nodes under r by expanding internal frontier nodes:
// the costliest one, or (with rng) a uniformly random one half of the time.
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

// Re-solves a window exactly with the DP and splices the result in when it is cheaper. The
// window's m - 1 internal nodes are reused for the DP's m - 1 steps (the last one stays r).
bool reopt_window(const Net& net, Tree& t, const Window& win, double cap, Work& work, bool plateau = false) {
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

// One deterministic pass: a window (costliest-first growth) under every internal node,
// heaviest node first. Returns true if anything improved.
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

// ---- linear <-> SSA -------------------------------------------------------------------------
Path ssa_to_linear(const Ssa& ssa, int n) {
  std::vector<int> pos;
  for (int i = 0; i < n; ++i) pos.push_back(i);
  Path path;
  int next = n;
  for (const auto& [a, b] : ssa) {
    const auto ia = static_cast<int>(std::find(pos.begin(), pos.end(), a) - pos.begin());
    const auto ib = static_cast<int>(std::find(pos.begin(), pos.end(), b) - pos.begin());
    path.emplace_back(std::min(ia, ib), std::max(ia, ib));
    pos.erase(pos.begin() + std::max(ia, ib));
    pos.erase(pos.begin() + std::min(ia, ib));
    pos.push_back(next++);
  }
  return path;
}

Ssa linear_to_ssa(const Path& path, int n) {
  TENFERRO_CHECK(path.size() == static_cast<std::size_t>(std::max(n - 1, 0)), invalid_argument, kOp, "path",
                 "a path for ", n, " operand(s) needs ", std::max(n - 1, 0), " steps, got ", path.size());
  std::vector<int> pos;
  for (int i = 0; i < n; ++i) pos.push_back(i);
  Ssa ssa;
  int next = n;
  for (std::size_t k = 0; k < path.size(); ++k) {
    const auto [i, j] = path[k];
    const auto cur = static_cast<int>(pos.size());
    TENFERRO_CHECK(i >= 0 && j >= 0 && i < cur && j < cur && i != j, invalid_argument, kOp, "path", "step ", k,
                   " is [", i, ", ", j, "] but ", cur, " operands are left (positions must differ and be < ", cur, ")");
    ssa.emplace_back(pos[static_cast<std::size_t>(i)], pos[static_cast<std::size_t>(j)]);
    pos.erase(pos.begin() + std::max(i, j));
    pos.erase(pos.begin() + std::min(i, j));
    pos.push_back(next++);
  }
  return ssa;
}

#include "core/einsum/plan_dp_connected.hpp"  // dp_connected (uses the definitions above)
#include "core/einsum/plan_rotate.hpp"        // rotate_pass
#include "core/einsum/plan_sweep.hpp"         // sweep

// Better = within cap first, then fewer flops, then smaller largest intermediate.
bool within(double largest, double cap) { return cap <= 0 || largest <= cap; }

bool better(double f1, double l1, double f2, double l2, double cap) {
  const bool w1 = within(l1, cap), w2 = within(l2, cap);
  if (w1 != w2) return w1;
  if (!w1 && l1 != l2) return l1 < l2;
  if (f1 != f2) return f1 < f2;
  return l1 < l2;
}

struct Scored {
  Tree t;
  double flops = 0, largest = 0;
};

// Work units per planning call: about 0.1 s of DP on one core (see docs/einsum.md).
constexpr double kWorkLimit = 2.5e7;
constexpr double kDpPairLimit = 1.5e8;
constexpr double kPolishLimit = 1e7;

// Search (deterministic for given options unless the time_budget_s safety net cuts):
// 1. deterministic greedy variants (memory-removed with costmod 1, 0.5, 2; result size; flops),
//    each refined by subtree passes; 2. Boltzmann-sampled greedy restarts, refined likewise;
// 3. randomized window re-optimisation of the best few trees; 4. rotations + windows to a
// fixed point. (1b: connected-subset DP; 1c: linear sweeps.)
Ssa search(const Net& net, const PlanOptions& opts) {
  const int n = net.n;
  const auto t0 = Clock::now();
  Work work;
  work.limit = kWorkLimit;
  work.deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opts.time_budget_s));
  std::mt19937_64 rng(opts.seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const double cap = opts.max_intermediate;
  const int k = opts.subtree_size;
  constexpr std::size_t kKeep = 3;
  std::vector<Scored> pool;  // best kKeep, best first
  const auto consider = [&](Tree&& t) {
    Scored s;
    s.t = std::move(t);
    s.flops = tree_flops(s.t, n);
    s.largest = tree_largest(s.t, n);
    for (const auto& p : pool)
      if (p.flops == s.flops && p.largest == s.largest) return;  // likely the same tree
    auto it = pool.begin();
    while (it != pool.end() && !better(s.flops, s.largest, it->flops, it->largest, cap)) ++it;
    pool.insert(it, std::move(s));
    if (pool.size() > kKeep) pool.pop_back();
  };
  const int kpass = std::min(k, 8);
  const auto refine = [&](Tree& t) {
    if (kpass < 3) return;
    for (int pass = 0; pass < 4 && !work.over(); ++pass)
      if (!subtree_pass(net, t, kpass, cap, work)) break;
  };
  const auto run_greedy = [&](const GreedyParams& p, std::mt19937_64* g) {
    GreedyResult gr = greedy(net, p, g);
    work.used += 50.0 * n;
    if (!pool.empty() && gr.flops > pool.front().flops * 1e4) return;  // hopeless start
    Tree t = make_tree(net, gr.ssa);
    refine(t);
    consider(std::move(t));
  };
  // 1. Deterministic variants (always run).
  for (const GreedyParams& p : {GreedyParams{1.0, 0.0, 8, cap, 0}, GreedyParams{0.5, 0.0, 8, cap, 0},
                                GreedyParams{2.0, 0.0, 8, cap, 0}, GreedyParams{0.0, 0.0, 8, cap, 0},
                                GreedyParams{0.0, 0.0, 8, cap, 1}})
    run_greedy(p, nullptr);
  // 1b. Exact DP over connected subsets, bounded by the best cost so far (the bound prunes
  // exactly: no cheaper path is lost). Its own deterministic work limit (pair checks).
  if (cap <= 0) {
    Work dpw;
    dpw.deadline = work.deadline;  // safety net only: the work limit is what bounds the DP
    dpw.limit = kDpPairLimit;
    Ssa s;
    const bool ok = dp_connected(net, pool.front().flops * (1 + 1e-9), dpw, kDpPairLimit, s);
    if (ok) {
      Tree t = make_tree(net, s);
      consider(std::move(t));
    }
  }
  // 1c. Linear sweeps from the cheapest adjacent pairs (by step flops), refined likewise.
  if (n > 3) {
    std::vector<std::tuple<double, int, int>> starts;
    const auto W = static_cast<std::size_t>(net.words);
    const std::vector<std::vector<int>> holders = label_holders(net);
    Bits u(W);
    for (const auto& hs : holders) {
      if (hs.size() > 32) continue;
      for (std::size_t p = 0; p < hs.size(); ++p)
        for (std::size_t q = p + 1; q < hs.size(); ++q) {
          const Bits& sa = net.in[static_cast<std::size_t>(hs[p])];
          const Bits& sb = net.in[static_cast<std::size_t>(hs[q])];
          for (std::size_t w = 0; w < W; ++w) u[w] = sa[w] | sb[w];
          starts.emplace_back(prod_bits(u.data(), net.words, net.ext.data()), hs[p], hs[q]);
        }
    }
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    work.used += static_cast<double>(starts.size());
    for (std::size_t i = 0; i < starts.size() && i < 4; ++i) {
      const Ssa sw = sweep(net, std::get<1>(starts[i]), std::get<2>(starts[i]), work);
      Tree t = make_tree(net, sw);
      if (!pool.empty() && tree_flops(t, n) > pool.front().flops * 1e4) continue;  // hopeless start
      refine(t);
      consider(std::move(t));
    }
  }
  // 2. Random restarts within half the budget.
  for (int r = 1; r < opts.restarts && work.used < work.limit / 2 && !work.over(); ++r) {
    GreedyParams p;
    p.cap = cap;
    p.costmod = 2.0 * u01(rng);
    p.temperature = std::pow(10.0, -3.0 + 2.5 * u01(rng));
    run_greedy(p, &rng);
  }
  // 3. Randomized windows on the best trees, round robin, until the budget is spent or a
  // tree has seen no improvement in a while.
  if (k >= 3 && n > 3) {
    const int kmax = std::min(k + 2, 12);
    std::vector<int> stale(pool.size(), 0);
    const int patience = 4 * n;
    Window win;
    for (bool any = true; any && !work.over();) {
      any = false;
      for (std::size_t i = 0; i < pool.size() && !work.over(); ++i) {
        if (stale[i] >= patience) continue;
        any = true;
        Tree& t = pool[i].t;
        // Root: the costlier of two random internal nodes.
        int r = n + static_cast<int>(rng() % static_cast<std::uint64_t>(n - 1));
        const int r2 = n + static_cast<int>(rng() % static_cast<std::uint64_t>(n - 1));
        if (t.nodes[static_cast<std::size_t>(r2)].flops > t.nodes[static_cast<std::size_t>(r)].flops) r = r2;
        const int kw = 4 + static_cast<int>(rng() % static_cast<std::uint64_t>(kmax - 3));
        grow_window(t, n, r, kw, &rng, win);
        if (reopt_window(net, t, win, cap, work, true)) {
          stale[i] = 0;
          pool[i].flops = tree_flops(t, n);
          pool[i].largest = tree_largest(t, n);
        } else {
          ++stale[i];
        }
      }
    }
  }
  // 4. Final local search on every kept tree: rotations to a fixed point, then the DP
  // windows once more, repeated while either improves (own deterministic work limit).
  {
    Work pw;
    pw.limit = kPolishLimit;
    pw.deadline = work.deadline;
    for (auto& sc : pool) {
      for (int round = 0; round < 8 && !pw.over(); ++round) {
        const bool rot = rotate_pass(net, sc.t, cap, pw);
        const bool win = kpass >= 3 && subtree_pass(net, sc.t, kpass, cap, pw);
        if (!rot && !win) break;
      }
      sc.flops = tree_flops(sc.t, n);
      sc.largest = tree_largest(sc.t, n);
    }
  }
  std::size_t bi = 0;
  for (std::size_t i = 1; i < pool.size(); ++i)
    if (better(pool[i].flops, pool[i].largest, pool[bi].flops, pool[bi].largest, cap)) bi = i;
  return tree_to_ssa(pool[bi].t, n);
}

}  // namespace

const char* path_method_name(PathMethod m) {
  switch (m) {
    case PathMethod::automatic: return "auto";
    case PathMethod::optimal: return "optimal";
    case PathMethod::greedy: return "greedy";
    case PathMethod::random_greedy: return "random_greedy";
  }
  return "?";
}

PathCost path_cost(const EinsumSpec& spec, const Path& path) {
  const Net net = make_net(spec);
  const Ssa ssa = linear_to_ssa(path, net.n);
  const Sim sim = simulate(net, ssa);
  PathCost pc;
  // Operands summed or diagonalised before pairing: numel of the distinct-label view.
  std::vector<double> prep(static_cast<std::size_t>(net.n), 0.0);
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    std::vector<int> distinct;
    double numel = 1;
    for (int id : spec.inputs[i]) {
      if (id >= 0 && std::find(distinct.begin(), distinct.end(), id) == distinct.end()) {
        distinct.push_back(id);
        numel *= static_cast<double>(spec.extents[static_cast<std::size_t>(id)]);
      }
    }
    double full = 1;
    for (std::size_t ax = 0; ax < spec.inputs[i].size(); ++ax) {
      const int id = spec.inputs[i][ax];
      if (id >= 0) full *= static_cast<double>(spec.extents[static_cast<std::size_t>(id)]);
    }
    pc.input_elements += full;
    if (distinct.size() != spec.reduced[i].size()) prep[i] = numel;
    pc.flops += prep[i];
    pc.opt_einsum_flops += prep[i];
  }
  // Peak of live intermediates: operands stay live during their step.
  std::vector<double> live_size(static_cast<std::size_t>(net.n) + ssa.size(), 0.0);
  for (int i = 0; i < net.n; ++i) live_size[static_cast<std::size_t>(i)] = prep[static_cast<std::size_t>(i)] > 0 ? prep[static_cast<std::size_t>(i)] : 0;
  double live = 0;
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    const auto [a, b] = ssa[k];
    const double r = sim.step_size[k];
    // Preprocessed operands materialise at their step.
    double pre = 0;
    if (a < net.n) pre += live_size[static_cast<std::size_t>(a)];
    if (b < net.n) pre += live_size[static_cast<std::size_t>(b)];
    pc.peak_live_intermediates = std::max(pc.peak_live_intermediates, live + pre + r);
    if (a >= net.n) live -= live_size[static_cast<std::size_t>(a)];
    if (b >= net.n) live -= live_size[static_cast<std::size_t>(b)];
    live_size[static_cast<std::size_t>(net.n) + k] = r;
    live += r;
  }
  if (ssa.empty() && net.n == 1) {
    double outn = 1;
    for (int id : spec.output) outn *= static_cast<double>(spec.extents[static_cast<std::size_t>(id)]);
    pc.peak_live_intermediates = prep[0] + outn;
    pc.largest_intermediate = outn;
  }
  pc.flops += sim.flops;
  pc.step_flops = sim.step_flops;
  // opt_einsum doubles the steps that sum a label (inner products).
  for (std::size_t k = 0; k < ssa.size(); ++k) pc.opt_einsum_flops += sim.step_flops[k] * (sim.step_inner[k] ? 2 : 1);
  pc.largest_intermediate = std::max(pc.largest_intermediate, sim.largest);
  pc.log10_flops = std::log10(std::max(pc.flops, 1.0));
  return pc;
}

Path plan_path(const EinsumSpec& spec, const PlanOptions& opts) {
  const Net net = make_net(spec);
  const int n = net.n;
  if (n <= 1) return {};
  if (n == 2) return {{0, 1}};
  PathMethod m = opts.method;
  if (m == PathMethod::automatic)
    m = n <= opts.optimal_max_inputs ? PathMethod::optimal : PathMethod::random_greedy;
  if (m == PathMethod::optimal && n > 16) m = PathMethod::random_greedy;
  Ssa ssa;
  switch (m) {
    case PathMethod::optimal: {
      std::vector<const Bits*> sets;
      for (const auto& s : net.in) sets.push_back(&s);
      DpResult dp = dp_optimal(net, sets, net.out, opts.max_intermediate);
      if (dp.ssa.empty()) dp = dp_optimal(net, sets, net.out, 0);  // cap infeasible
      ssa = std::move(dp.ssa);
      break;
    }
    case PathMethod::greedy:
      ssa = greedy(net, GreedyParams{1.0, 0.0, 8, opts.max_intermediate, 0}, nullptr).ssa;
      break;
    case PathMethod::random_greedy:
    case PathMethod::automatic:
      ssa = search(net, opts);
      break;
  }
  return ssa_to_linear(ssa, n);
}

// ---- plan cache ---------------------------------------------------------------------------
namespace {
std::mutex g_cache_mutex;
std::unordered_map<std::string, std::shared_ptr<const EinsumPlan>> g_cache;
constexpr std::size_t kCacheLimit = 512;

std::string cache_key(std::string_view subscripts, std::span<const Shape> shapes, const EinsumOptions& o) {
  std::ostringstream k;
  k << subscripts << '|';
  for (const auto& s : shapes) {
    for (auto e : s) k << e << ',';
    k << ';';
  }
  const auto& p = o.plan;
  k << '|' << static_cast<int>(p.method) << ',' << p.max_intermediate << ',' << p.optimal_max_inputs << ','
    << p.restarts << ',' << p.time_budget_s << ',' << p.subtree_size << ',' << p.seed;
  if (o.use_path) {
    k << "|path";
    for (const auto& [i, j] : o.path) k << i << '-' << j << ',';
  }
  return k.str();
}
}  // namespace

std::shared_ptr<const EinsumPlan> make_plan(std::string_view subscripts, std::span<const Shape> shapes,
                                            const EinsumOptions& opts) {
  std::string key;
  if (opts.cache) {
    key = cache_key(subscripts, shapes, opts);
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    auto it = g_cache.find(key);
    if (it != g_cache.end()) return it->second;
  }
  const auto t0 = Clock::now();
  auto plan = std::make_shared<EinsumPlan>();
  plan->spec = make_spec(subscripts, shapes);
  const int n = static_cast<int>(plan->spec.num_inputs());
  if (opts.use_path) {
    plan->path = opts.path;
    plan->method = "given";
  } else {
    plan->path = plan_path(plan->spec, opts.plan);
    PathMethod m = opts.plan.method;
    if (m == PathMethod::automatic) m = n <= opts.plan.optimal_max_inputs ? PathMethod::optimal : PathMethod::random_greedy;
    if (m == PathMethod::optimal && n > 16) m = PathMethod::random_greedy;
    plan->method = n <= 2 ? "trivial" : path_method_name(m);
  }
  plan->cost = path_cost(plan->spec, plan->path);  // validates a given path
  plan->plan_seconds = seconds_since(t0);
  if (opts.cache) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    if (g_cache.size() >= kCacheLimit) g_cache.clear();
    g_cache.emplace(key, plan);
  }
  return plan;
}

std::size_t plan_cache_size() {
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  return g_cache.size();
}

void clear_plan_cache() {
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  g_cache.clear();
}

}  // namespace tenferro
