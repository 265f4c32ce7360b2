// The run order (interleave), last uses and scratch limits of a lowered program.
#include "core/einsum/schedule.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/check.hpp"

namespace tenferro::einsum_detail {
namespace {

// Reorders a program's instructions (a topological order of its data flow) so that consecutive
// dispatches are independent where the flow allows: the Vulkan recorder puts a barrier only
// between conflicting dispatches (runtime/hazards.hpp), so two independent small steps run at
// once instead of one after the other (e.g. the two halves of lm_batch_likelihood_sentence_*).
// Greedy: the earliest ready instruction (planned order) that reads nothing written since the
// last barrier; when every ready instruction does, the earliest one (a barrier). Memory: an
// instruction out of the planned order is taken only if the rest, run in the planned order
// after it, keeps the live intermediates within their peak in the planned order (checked by
// simulation, at most kMaxChecks candidates per position), so the order's peak never exceeds
// the planned one. Views are free and taken as soon as ready. Records in `stats` the order's
// dispatch levels (runs of dispatches that read nothing written within the run: barriers + 1
// on Vulkan) and its peak of live intermediate elements.
void interleave(std::vector<Instr>& instrs, std::span<const std::int64_t> slot_elements, std::size_t num_inputs,
                int result, EinsumStats& stats) {
  const std::size_t n = instrs.size(), ns = slot_elements.size();
  auto u = [](int i) { return static_cast<std::size_t>(i); };
  // Storage: a view's slot shares the storage (root) of its source; bytes per root.
  std::vector<int> root(ns);
  std::vector<double> bytes(ns, 0.0);
  for (std::size_t s = 0; s < ns; ++s) root[s] = static_cast<int>(s);
  for (const Instr& in : instrs) {
    if (in.kind == Instr::Kind::view) root[u(in.dst)] = root[u(in.a)];
    else bytes[u(in.dst)] = static_cast<double>(slot_elements[u(in.dst)]);
  }
  struct Reads {
    int r[2];  // the roots an instruction reads (r[1] = -1: one)
  };
  auto reads = [&](const Instr& in) {
    const int a = root[u(in.a)], b = in.b >= 0 ? root[u(in.b)] : -1;
    return Reads{{a, b != a ? b : -1}};
  };
  std::vector<int> uses0(ns, 0);
  for (const Instr& in : instrs)
    for (int x : reads(in).r)
      if (x >= 0) ++uses0[u(x)];
  ++uses0[u(root[u(result)])];  // never freed
  // Live intermediate bytes along an order (inputs are not counted): a root is freed when its
  // last reader has run.
  struct Sim {
    std::vector<int> uses;
    const std::vector<double>& bytes;
    std::size_t num_inputs;
    double live = 0, peak = 0;
    void step(const Instr& in, const Reads& rd) {
      if (in.kind != Instr::Kind::view) {
        live += bytes[static_cast<std::size_t>(in.dst)];
        peak = std::max(peak, live);
      }
      for (int x : rd.r) {
        const auto k = static_cast<std::size_t>(x);
        if (x >= 0 && --uses[k] == 0 && k >= num_inputs) live -= bytes[k];
      }
    }
  };
  Sim planned{uses0, bytes, num_inputs};
  for (const Instr& in : instrs) planned.step(in, reads(in));
  // Dispatch levels of the final order: a dispatch reading a root written since the last
  // barrier starts a new level.
  auto record = [&](double peak) {
    std::vector<char> written(ns, 0);
    std::vector<int> list;
    stats.levels = 0;
    for (const Instr& in : instrs) {
      if (in.kind == Instr::Kind::view) continue;
      const Reads rd = reads(in);
      if (stats.levels == 0 || written[u(rd.r[0])] || (rd.r[1] >= 0 && written[u(rd.r[1])])) {
        ++stats.levels;
        for (int x : list) written[u(x)] = 0;
        list.clear();
      }
      written[u(root[u(in.dst)])] = 1;
      list.push_back(root[u(in.dst)]);
    }
    stats.order_peak_elements = peak;
  };
  if (n < 3) return record(planned.peak);
  Sim sim{uses0, bytes, num_inputs};
  std::vector<char> done(n, 0), ready(ns, 0), pending(ns, 0);
  for (std::size_t s = 0; s < std::min(num_inputs, ns); ++s) ready[s] = 1;
  std::vector<int> pend_list, order;
  order.reserve(n);
  constexpr int kMaxChecks = 8;  // full checks per emitted instruction (O(n) each)
  for (std::size_t emitted = 0; emitted < n; ++emitted) {
    int pick = -1, first = -1, checks = 0;
    for (std::size_t k = 0; k < n && pick < 0; ++k) {
      const Instr& in = instrs[k];
      if (done[k] || !ready[u(in.a)] || (in.b >= 0 && !ready[u(in.b)])) continue;
      const int kk = static_cast<int>(k);
      if (first < 0) first = kk;
      if (in.kind == Instr::Kind::view) {
        pick = kk;
        break;
      }
      const Reads rd = reads(in);
      const bool conflict = pending[u(rd.r[0])] || (rd.r[1] >= 0 && pending[u(rd.r[1])]);
      if (conflict) continue;
      if (kk == first) {
        pick = kk;
        break;
      }
      // Out of the planned order only with room for the planned instruction after it (a quick
      // test), and only if the rest, run in the planned order after it, stays within the peak.
      const double room = bytes[u(instrs[u(first)].dst)];
      if (sim.live + bytes[u(in.dst)] + room > planned.peak || checks == kMaxChecks) continue;
      ++checks;
      Sim rest = sim;
      rest.step(in, rd);
      for (std::size_t j = 0; j < n && rest.peak <= planned.peak; ++j)
        if (!done[j] && j != k) rest.step(instrs[j], reads(instrs[j]));
      if (rest.peak <= planned.peak) pick = kk;
    }
    TENFERRO_ASSERT(first >= 0);
    if (pick < 0) {  // every ready instruction conflicts: a barrier, then the planned one
      pick = first;
      for (int x : pend_list) pending[u(x)] = 0;
      pend_list.clear();
    }
    const Instr& in = instrs[u(pick)];
    sim.step(in, reads(in));
    done[u(pick)] = 1;
    ready[u(in.dst)] = 1;
    if (in.kind != Instr::Kind::view) {
      pending[u(root[u(in.dst)])] = 1;
      pend_list.push_back(root[u(in.dst)]);
    }
    order.push_back(pick);
  }
  if (sim.peak > planned.peak) return record(planned.peak);  // not expected (checked above)
  std::vector<Instr> out;
  out.reserve(n);
  for (int k : order) out.push_back(std::move(instrs[u(k)]));
  instrs = std::move(out);
  record(sim.peak);
}

// Each value's last reader releases it; the result is never released.
void mark_last_uses(Program& prog) {
  std::vector<int> last(static_cast<std::size_t>(prog.num_slots), -1);
  for (std::size_t k = 0; k < prog.instrs.size(); ++k) {
    const Instr& in = prog.instrs[k];
    if (in.a >= 0) last[static_cast<std::size_t>(in.a)] = static_cast<int>(k);
    if (in.b >= 0) last[static_cast<std::size_t>(in.b)] = static_cast<int>(k);
  }
  for (std::size_t v = 0; v < last.size(); ++v)
    if (last[v] >= 0 && static_cast<int>(v) != prog.result)
      prog.instrs[static_cast<std::size_t>(last[v])].release.push_back(static_cast<int>(v));
}

// Optional scratch (the Vulkan backend's Ozaki-II planes, split K's partial tiles, the 3M
// planes): what the bound leaves beside the held tensors and the product's result. Held: the
// inputs and every tensor an instruction made, from that instruction to its slot's release.
void limit_scratch(Program& prog, std::span<const std::int64_t> slot_elements, std::int64_t elem_bytes,
                   const MemoryBound& bound) {
  const double es = static_cast<double>(elem_bytes);
  double held = bound.input_bytes;
  std::vector<double> held_by(slot_elements.size(), 0.0);
  for (Instr& in : prog.instrs) {
    const auto dst = static_cast<std::size_t>(in.dst);
    if (in.kind == Instr::Kind::dot) {
      const std::uint64_t out_bytes =
          static_cast<std::uint64_t>(slot_elements[dst]) * static_cast<std::uint64_t>(elem_bytes);
      double step_bytes = static_cast<double>(out_bytes) * (in.store == Instr::Store::copy_after ? 2.0 : 1.0);
      if (bound.reserve_operands)
        step_bytes += static_cast<double>(slot_elements[static_cast<std::size_t>(in.a)] +
                                          slot_elements[static_cast<std::size_t>(in.b)]) * es;
      const double room = std::max(0.0, bound.bytes - held - step_bytes);
      in.scratch_limit = static_cast<std::uint64_t>(std::min(room, 0x1p63));
    }
    if (in.kind != Instr::Kind::view) {
      held_by[dst] = static_cast<double>(slot_elements[dst]) * es;
      held += held_by[dst];
    }
    for (int s : in.release) {
      held -= held_by[static_cast<std::size_t>(s)];
      held_by[static_cast<std::size_t>(s)] = 0;
    }
  }
}

}  // namespace

MemoryBound memory_bound(const PathCost& cost, DType dtype) {
  const double es = static_cast<double>(dtype_size(dtype));
  return {cost.input_elements * es, 1.5 * (cost.peak_live_intermediates + cost.input_elements) * es};
}

void schedule(Program& prog, std::span<const std::int64_t> slot_elements, std::size_t num_inputs,
              std::int64_t elem_bytes, const MemoryBound& bound) {
  interleave(prog.instrs, slot_elements, num_inputs, prog.result, prog.stats);
  mark_last_uses(prog);
  limit_scratch(prog, slot_elements, elem_bytes, bound);
}

}  // namespace tenferro::einsum_detail
