// Elementwise fusion plans (ops.hpp's fused(), Backend::fused).
#pragma once
#include <vector>

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
/// A chain of elementwise/analytic ops over equal shapes; the result is the last step's.
struct FusionPlan {
  std::vector<FusionStep> steps;
};

}  // namespace tenferro
