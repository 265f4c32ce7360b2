// `tenferro eval` and `tenferro devices`: running op-case files (EVAL_FORMAT.md).
#pragma once
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tenferro/backend/backend.hpp"

namespace tenferro::cli {

struct EvalOptions {
  std::vector<std::string> files;
  std::string backend = "cpu";  // cpu | vulkan | all
  int device = -1;              // Vulkan ordinal; -1: the default Vulkan device
};

/// Runs every case of every file on the selected backends and prints one line per case and
/// backend (PASS / FAIL / ERROR), then "N passed, M failed". Malformed files and cases are
/// ERROR lines, never crashes.
/// @returns 0 when everything passed, 1 when anything failed, 2 when the requested backend is
/// unavailable (message on stderr, no case runs).
int run_eval(const EvalOptions& opts);

/// Prints list_devices(): one header line per device, then indented type/driver/details.
/// @returns 0.
int run_devices();

/// True when `op` names an op of the case-file vocabulary (eval_ops.cpp).
bool is_known_op(const std::string& op);

/// Runs `op` on `be` with `inputs` (tensors of `be`) and the case's `attrs` object.
/// @pre is_known_op(op). A wrong input count, or a missing or ill-typed attr, raises
/// Error{invalid_argument} naming the op; an unknown compare direction, combiner,
/// out_of_bounds mode or dtype name too. Library errors propagate unchanged.
Tensor run_op(Backend& be, const std::string& op, std::span<const TensorView> inputs,
              const nlohmann::json& attrs);

}  // namespace tenferro::cli
