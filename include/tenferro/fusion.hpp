// Elementwise fusion plans (ops.hpp's fused(), Backend::fused).
#pragma once
#include <optional>
#include <vector>

#include "tenferro/layout.hpp"

#include "tenferro/config.hpp"
#include "tenferro/op_info.hpp"

namespace tenferro {

/// One step of an elementwise fusion plan. args[j] >= 0 names an earlier step's result;
/// args[j] < 0 names plan input (-args[j] - 1).
struct FusionStep {
  OpId op;
  std::vector<int> args;
  CompareDir dir = CompareDir::EQ;  // compare steps only
};
/// A chain of elementwise/analytic ops over equal shapes; the result is the last step's value,
/// or, with `reduce` set, that value reduced over `reduce_axes` (any order, as reduce() takes
/// them; empty: no reduction) by `reduce` (OpId::reduce_sum, reduce_prod, reduce_max or
/// reduce_min), as reduce() of the unfused chain's result gives it.
struct FusionPlan {
  std::vector<FusionStep> steps;
  std::optional<OpId> reduce = std::nullopt;
  Axes reduce_axes = {};
};

}  // namespace tenferro
