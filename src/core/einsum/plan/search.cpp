// The random greedy search (search) and plan_path: which planner runs for a network.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>

#include "core/einsum/plan/planners.hpp"

namespace tenferro {
namespace einsum_detail {
namespace {

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

PathMethod resolved_method(int n, const PlanOptions& opts) {
  PathMethod m = opts.method;
  if (m == PathMethod::automatic) m = n <= opts.optimal_max_inputs ? PathMethod::optimal : PathMethod::random_greedy;
  if (m == PathMethod::optimal && n > 16) m = PathMethod::random_greedy;
  return m;
}

}  // namespace einsum_detail

using namespace einsum_detail;

const char* path_method_name(PathMethod m) {
  switch (m) {
    case PathMethod::automatic: return "auto";
    case PathMethod::optimal: return "optimal";
    case PathMethod::greedy: return "greedy";
    case PathMethod::random_greedy: return "random_greedy";
  }
  return "?";
}

Path plan_path(const EinsumSpec& spec, const PlanOptions& opts) {
  const Net net = make_net(spec);
  const int n = net.n;
  if (n <= 1) return {};
  if (n == 2) return {{0, 1}};
  Ssa ssa;
  switch (resolved_method(n, opts)) {
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

}  // namespace tenferro
