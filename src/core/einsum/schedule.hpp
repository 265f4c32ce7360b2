// When a program's instructions run: their order and the last use of every value.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/einsum/program.hpp"

namespace tenferro::einsum_detail {

/// Completes a lowered program whose instructions are in the planned order (views, sums and
/// steps as the path makes them) and whose result slot is set. slot_elements: the elements of
/// the tensor each non-view slot holds.
/// - Orders the instructions so that independent steps run back to back, keeping the live
///   intermediates within their peak in the planned order; records the order's dispatch levels
///   and peak in prog.stats (EinsumStats::levels, order_peak_elements).
/// - Marks the last use of every value but the result (Instr::release).
void schedule(Program& prog, std::span<const std::int64_t> slot_elements, std::size_t num_inputs);

}  // namespace tenferro::einsum_detail
