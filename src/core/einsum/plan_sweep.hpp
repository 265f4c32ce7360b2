// Part of plan.cpp (included there, inside its anonymous namespace, after Net, Ssa, Work and
// prod_bits): linear sweeps. Not a standalone header.
#pragma once

// A linear path: starting with the pair (a, b), the running intermediate is contracted with
// the neighbour (operand sharing a label) whose step costs the fewest flops (ties: lowest
// id); with no neighbour left, with the smallest remaining operand. Sweeps reach paths
// that merge two half-sweeps elsewhere than where the greedy does (e.g. chains and ladders
// contracted end to end), which window re-optimisation cannot reach by local moves.
Ssa sweep(const Net& net, int a, int b, Work& work) {
  const int n = net.n;
  const auto W = static_cast<std::size_t>(net.words);
  std::vector<int> count(static_cast<std::size_t>(net.labels), 0);
  std::vector<std::vector<int>> holders(static_cast<std::size_t>(net.labels));
  for (int i = 0; i < n; ++i)
    for (std::size_t w = 0; w < W; ++w)
      for (std::uint64_t x = net.in[static_cast<std::size_t>(i)][w]; x; x &= x - 1) {
        const std::size_t l = w * 64 + static_cast<std::size_t>(std::countr_zero(x));
        ++count[l];
        holders[l].push_back(i);
      }
  std::vector<char> alive(static_cast<std::size_t>(n), 1);
  Bits cur = net.in[static_cast<std::size_t>(a)], u(W), keep(W);
  int cur_id = a;
  Ssa ssa;
  const auto absorb = [&](int j) {
    const Bits& sj = net.in[static_cast<std::size_t>(j)];
    for (std::size_t w = 0; w < W; ++w) {
      u[w] = cur[w] | sj[w];
      keep[w] = 0;
      for (std::uint64_t x = u[w]; x; x &= x - 1) {
        const int bit = std::countr_zero(x);
        const std::size_t l = w * 64 + static_cast<std::size_t>(bit);
        count[l] -= static_cast<int>((cur[w] >> bit) & 1) + static_cast<int>((sj[w] >> bit) & 1);
        if (count[l] > 0 || ((net.out[w] >> bit) & 1)) {
          keep[w] |= 1ULL << bit;
          ++count[l];
        }
      }
    }
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
