// The path planners' pieces (net.hpp for the representation): exact dynamic programming
// (optimal.cpp), greedy and linear sweeps (greedy.cpp), local search on trees (refine.cpp), and
// the search that combines them (search.cpp).
#pragma once
#include <random>
#include <vector>

#include "core/einsum/plan/net.hpp"

namespace tenferro::einsum_detail {

// ---- optimal.cpp
// Operands `sets` (global label bitsets), `out` the labels needed beyond them. Returns an
// SSA path over local ids (< m operands) with minimal flops, intermediates (not the final
// result) within cap when cap > 0. Empty ssa with flops = inf when the cap is infeasible.
struct DpResult {
  Ssa ssa;
  double flops = kInf;
};
DpResult dp_optimal(const Net& net, const std::vector<const Bits*>& sets, const Bits& out, double cap);

// Per connected component of the graph whose edges are the labels outside the output
// (components of at most 64 operands), every connected subset whose cumulative flops stay
// within `bound` gets its cheapest split into two connected, adjacent subsets. Components are
// then joined smallest result first. Returns false when a component is too large, the bound
// admits no path, or the work limit is hit.
bool dp_connected(const Net& net, double bound, Work& work, double work_limit, Ssa& out);

// ---- greedy.cpp
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

// One greedy pass: repeatedly the best-scoring pair of operands that share a label (with
// temperature > 0 and rng, Boltzmann-sampled among the nbranch best); disconnected parts are
// joined by outer products, smallest first.
GreedyResult greedy(const Net& net, const GreedyParams& p, std::mt19937_64* rng);

// A linear path: starting with the pair (a, b), the running intermediate is contracted with
// the neighbour (operand sharing a label) whose step costs the fewest flops (ties: lowest
// id); with no neighbour left, with the smallest remaining operand. Sweeps reach paths
// that merge two half-sweeps elsewhere than where the greedy does (e.g. chains and ladders
// contracted end to end), which window re-optimisation cannot reach by local moves.
Ssa sweep(const Net& net, int a, int b, Work& work);

// ---- refine.cpp
// A window under internal node r: `frontier` are its leaves (subtrees kept as they are),
// `internal` its internal nodes (internal[0] == r), `current` their flops.
struct Window {
  std::vector<int> frontier, internal;
  double current = 0;
};

// Grows a window of up to k frontier nodes under r by expanding internal frontier nodes:
// the costliest one, or (with rng) a uniformly random one half of the time.
void grow_window(const Tree& t, int n, int r, int k, std::mt19937_64* rng, Window& win);

// Re-solves a window exactly with the DP and splices the result in when it is cheaper (with
// plateau, also when it is as cheap; returns true only when cheaper).
bool reopt_window(const Net& net, Tree& t, const Window& win, double cap, Work& work, bool plateau = false);

// One deterministic pass: a window (costliest-first growth) under every internal node,
// heaviest node first. Returns true if anything improved.
bool subtree_pass(const Net& net, Tree& t, int k, double cap, Work& work);

// For an internal node v = (c, x) with internal child c = (a, b), the rotations
// (a (b x)) and (b (a x)) keep v's result set (so nothing above v changes). A rotation is
// applied when it lowers c's + v's flops; sweeps repeat until no rotation helps (each
// applied rotation strictly lowers the total, so this terminates). Returns true if any
// rotation was applied.
bool rotate_pass(const Net& net, Tree& t, double cap, Work& work);

// ---- search.cpp
// The method plan_path runs for n operands (automatic and optimal resolved).
PathMethod resolved_method(int n, const PlanOptions& opts);

}  // namespace tenferro::einsum_detail
