// When a program's instructions run and what each product may hold: the instruction order, the
// last use of every value, and each dot's scratch limit (program.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/einsum/program.hpp"

namespace tenferro::einsum_detail {

/// A program's device-memory bound: the inputs' bytes (always held) and the bound, 1.5x the
/// largest sum of simultaneously live tensors the path implies (PathCost: inputs and
/// intermediates), in bytes. A sliced contraction's bound is the inputs plus its limit, and
/// reserves room for copies of each product's operands (reserve_operands) instead of the 1.5x.
struct MemoryBound {
  double input_bytes = 0, bytes = 0;
  bool reserve_operands = false;
};
MemoryBound memory_bound(const PathCost& cost, DType dtype);

/// Completes a lowered program whose instructions are in the planned order (views, sums and
/// steps as the path makes them) and whose result slot is set. slot_elements: the elements of
/// the tensor each non-view slot holds.
/// - Orders the instructions so that independent steps run back to back, keeping the live
///   intermediates within their peak in the planned order; records the order's dispatch levels
///   and peak in prog.stats (EinsumStats::levels, order_peak_elements).
/// - Marks the last use of every value but the result (Instr::release).
/// - Gives each dot its scratch limit: the bound less the bytes held when it runs (the inputs,
///   the tensors made and not yet released, and its result, twice when copied after; with
///   reserve_operands also its operands' bytes, for packing copies).
void schedule(Program& prog, std::span<const std::int64_t> slot_elements, std::size_t num_inputs,
              std::int64_t elem_bytes, const MemoryBound& bound);

}  // namespace tenferro::einsum_detail
