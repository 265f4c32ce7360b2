// The cost of a path (path_cost): flops in both conventions, largest intermediate, peak of
// live intermediates.
#include <algorithm>
#include <cmath>

#include "core/einsum/plan/net.hpp"

namespace tenferro {

using namespace einsum_detail;

PathCost path_cost(const EinsumSpec& spec, const Path& path) {
  const Net net = make_net(spec);
  const Ssa ssa = linear_to_ssa(path, net.n);
  return path_cost_of(spec, net, ssa, simulate(net, ssa));
}

PathCost einsum_detail::path_cost_of(const EinsumSpec& spec, const Net& net, const Ssa& ssa, const Sim& sim) {
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

}  // namespace tenferro
