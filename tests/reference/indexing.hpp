// Reference oracle for gather / scatter: naive loops written from the StableHLO spec, with
// tenferro's clamping. Never calls tenferro ops or src/cpu code.
#pragma once
#include "ref.hpp"
#include "tenferro/config.hpp"

namespace tenferro::test {

/// StableHLO gather; window starts clamped into [0, dim - slice_size]. Index values come from
/// `iv` (I32/I64) or the real part of `v` truncated (F32/F64 holding integers).
/// @pre cfg is valid for the shapes (the reference does not validate).
RefTensor ref_gather(const RefTensor& operand, const RefTensor& indices, const GatherConfig& cfg);

/// StableHLO scatter into a copy of `operand`, visiting update elements in colex order.
/// clamp: each window start is clamped into [0, dim - window extent]; skip: each update element
/// whose operand index lies outside the operand is dropped (StableHLO). add/mul wrap for
/// integers; max/min propagate NaN.
/// @pre cfg is valid for the shapes, and the combiner is allowed for the dtype.
RefTensor ref_scatter(const RefTensor& operand, const RefTensor& indices, const RefTensor& updates,
                      const ScatterConfig& cfg);

/// For each update element (colex), the colex index of the operand element it combines into,
/// or -1 when it is dropped (skip). The index arithmetic of ref_scatter.
std::vector<std::int64_t> ref_scatter_targets(const RefTensor& operand, const RefTensor& indices,
                                              const RefTensor& updates, const ScatterConfig& cfg);

}  // namespace tenferro::test
