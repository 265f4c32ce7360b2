// The greedy planner and linear sweeps.
#include <algorithm>
#include <bit>
#include <cmath>
#include <queue>

#include "core/einsum/plan/planners.hpp"

namespace tenferro::einsum_detail {

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

Ssa sweep(const Net& net, int a, int b, Work& work) {
  const int n = net.n;
  const auto W = static_cast<std::size_t>(net.words);
  std::vector<int> count = label_counts(net);
  const std::vector<std::vector<int>> holders = label_holders(net);
  std::vector<char> alive(static_cast<std::size_t>(n), 1);
  Bits cur = net.in[static_cast<std::size_t>(a)], u(W), keep(W);
  int cur_id = a;
  Ssa ssa;
  const auto absorb = [&](int j) {
    step_labels(net, cur, net.in[static_cast<std::size_t>(j)], count, u, keep);
    cur = keep;
    alive[static_cast<std::size_t>(j)] = 0;
    ssa.emplace_back(std::min(cur_id, j), std::max(cur_id, j));
    cur_id = n + static_cast<int>(ssa.size()) - 1;
  };
  alive[static_cast<std::size_t>(a)] = 0;
  absorb(b);
  while (static_cast<int>(ssa.size()) < n - 1) {
    int best = -1;
    double bf = kInf;
    for (std::size_t w = 0; w < W; ++w)
      for (std::uint64_t x = cur[w]; x; x &= x - 1)
        for (int j : holders[w * 64 + static_cast<std::size_t>(std::countr_zero(x))]) {
          if (!alive[static_cast<std::size_t>(j)]) continue;
          const Bits& sj = net.in[static_cast<std::size_t>(j)];
          for (std::size_t q = 0; q < W; ++q) u[q] = cur[q] | sj[q];
          const double f = prod_bits(u.data(), net.words, net.ext.data());
          work.used += 1;
          if (f < bf || (f == bf && j < best)) {
            bf = f;
            best = j;
          }
        }
    if (best < 0) {
      for (int j = 0; j < n; ++j) {
        if (!alive[static_cast<std::size_t>(j)]) continue;
        const double f = prod_bits(net.in[static_cast<std::size_t>(j)].data(), net.words, net.ext.data());
        if (f < bf) {
          bf = f;
          best = j;
        }
      }
    }
    absorb(best);
  }
  return ssa;
}

}  // namespace tenferro::einsum_detail
