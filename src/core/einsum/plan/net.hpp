// The path planners' shared representation. A network (Net) is the planner's view of a spec:
// per operand the set of its labels after in-operand sums, and the output set. Label sets are
// bitsets of `words` 64-bit words over the spec's label ids. A path is in SSA form (Ssa): ids
// < n are the operands, id n + k is the result of step k; a step keeps the labels that a later
// operand or the output still holds. A Tree is the same path as a binary tree, for local search.
#pragma once
#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::einsum_detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
using Clock = std::chrono::steady_clock;
using Bits = std::vector<std::uint64_t>;
using Ssa = std::vector<std::pair<int, int>>;

// The planner's view of a spec: operand label sets (after in-operand sums), output set.
struct Net {
  int n = 0, labels = 0, words = 0;
  std::vector<double> ext;  // per label
  std::vector<Bits> in;     // per operand
  Bits out;
};

Net make_net(const EinsumSpec& spec);

// holders[l]: the operands whose label set holds label l, in operand order.
std::vector<std::vector<int>> label_holders(const Net& net);

// Product of the extents of the labels in s.
inline double prod_bits(const std::uint64_t* s, int words, const double* ext) {
  double p = 1;
  for (int w = 0; w < words; ++w) {
    for (std::uint64_t x = s[w]; x; x &= x - 1) p *= ext[w * 64 + std::countr_zero(x)];
  }
  return p;
}

// Per label, the number of operands that hold it.
std::vector<int> label_counts(const Net& net);

// One step on label sets: u = sa | sb, and keep, the labels of u that another operand still
// holds or the output does. count (per label, the holders) is updated: the step's operands
// leave it, its result joins.
void step_labels(const Net& net, const Bits& sa, const Bits& sb, std::vector<int>& count, Bits& u, Bits& keep);

// Simulates an SSA path: flops, largest intermediate, per-step result sets.
struct Sim {
  double flops = 0, largest = 0;
  std::vector<double> step_flops, step_size;
  std::vector<char> step_inner;  // the step sums at least one label
  std::vector<Bits> sets;        // per SSA id: the operands' label sets, then each step's result
};

Sim simulate(const Net& net, const Ssa& ssa);

/// path_cost (tenferro/einsum.hpp) of a path already simulated: net = make_net(spec), ssa the
/// path, sim = simulate(net, ssa). For callers that read the simulation too (the slicing plan).
PathCost path_cost_of(const EinsumSpec& spec, const Net& net, const Ssa& ssa, const Sim& sim);

/// Linear (opt_einsum) paths to SSA and back. linear_to_ssa validates (invalid_argument, arg
/// "path": the step count, positions out of range or equal).
Path ssa_to_linear(const Ssa& ssa, int n);
Ssa linear_to_ssa(const Path& path, int n);

// A path as a tree: nodes 0..n-1 are the operands, then one node per step (root last).
struct Tree {
  struct Node {
    int l = -1, r = -1;
    Bits set;
    double flops = 0, size = 1;
  };
  std::vector<Node> nodes;
  int root = -1;
};

Tree make_tree(const Net& net, const Ssa& ssa);
Ssa tree_to_ssa(const Tree& t, int n);
double tree_flops(const Tree& t, int n);
double tree_largest(const Tree& t, int n);

// Deterministic work budget: DP split evaluations plus greedy pair evaluations. A wall-clock
// deadline (PlanOptions::time_budget_s) remains only as a safety net.
struct Work {
  double used = 0, limit = 0;
  Clock::time_point deadline = Clock::time_point::max();
  bool over() const { return used >= limit || Clock::now() > deadline; }
};

}  // namespace tenferro::einsum_detail
