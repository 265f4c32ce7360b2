// The network, simulation of a path, trees, and the linear <-> SSA conversions (net.hpp).
#include "core/einsum/plan/net.hpp"

#include <algorithm>

#include "core/einsum/internal.hpp"
#include "tenferro/error.hpp"

namespace tenferro::einsum_detail {

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

std::vector<std::vector<int>> label_holders(const Net& net) {
  std::vector<std::vector<int>> holders(static_cast<std::size_t>(net.labels));
  for (int i = 0; i < net.n; ++i)
    for (std::size_t w = 0; w < static_cast<std::size_t>(net.words); ++w)
      for (std::uint64_t x = net.in[static_cast<std::size_t>(i)][w]; x; x &= x - 1)
        holders[w * 64 + static_cast<std::size_t>(std::countr_zero(x))].push_back(i);
  return holders;
}

std::vector<int> label_counts(const Net& net) {
  std::vector<int> count(static_cast<std::size_t>(net.labels), 0);
  for (const auto& s : net.in)
    for (std::size_t w = 0; w < static_cast<std::size_t>(net.words); ++w)
      for (std::uint64_t x = s[w]; x; x &= x - 1) ++count[w * 64 + static_cast<std::size_t>(std::countr_zero(x))];
  return count;
}

void step_labels(const Net& net, const Bits& sa, const Bits& sb, std::vector<int>& count, Bits& u, Bits& keep) {
  for (std::size_t w = 0; w < static_cast<std::size_t>(net.words); ++w) {
    u[w] = sa[w] | sb[w];
    keep[w] = 0;
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
}

Sim simulate(const Net& net, const Ssa& ssa) {
  const auto W = static_cast<std::size_t>(net.words);
  std::vector<int> count = label_counts(net);
  Sim sim;
  sim.sets = net.in;
  for (const auto& [a, b] : ssa) {
    Bits u(W), keep(W);
    step_labels(net, sim.sets[static_cast<std::size_t>(a)], sim.sets[static_cast<std::size_t>(b)], count, u, keep);
    const double f = prod_bits(u.data(), net.words, net.ext.data());
    const double sz = prod_bits(keep.data(), net.words, net.ext.data());
    sim.flops += f;
    sim.largest = std::max(sim.largest, sz);
    sim.step_flops.push_back(f);
    sim.step_size.push_back(sz);
    sim.step_inner.push_back(u != keep);
    sim.sets.push_back(std::move(keep));
  }
  return sim;
}

Tree make_tree(const Net& net, const Ssa& ssa) {
  Tree t;
  Sim sim = simulate(net, ssa);
  for (int i = 0; i < net.n; ++i) {
    Tree::Node nd;
    nd.set = net.in[static_cast<std::size_t>(i)];
    nd.size = prod_bits(nd.set.data(), net.words, net.ext.data());
    t.nodes.push_back(std::move(nd));
  }
  for (std::size_t k = 0; k < ssa.size(); ++k) {
    Tree::Node nd;
    nd.l = ssa[k].first;
    nd.r = ssa[k].second;
    nd.set = std::move(sim.sets[static_cast<std::size_t>(net.n) + k]);
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

}  // namespace tenferro::einsum_detail
