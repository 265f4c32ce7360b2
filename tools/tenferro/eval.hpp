// `tenferro eval` and `tenferro devices`: running op-case files (EVAL_FORMAT.md).
#pragma once
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "progress.hpp"
#include "tenferro/backend/backend.hpp"

namespace tenferro::cli {

struct EvalOptions {
  std::vector<std::string> files;
  std::string backend;  // cpu | vulkan | all; "": cpu, or vulkan with --device
  int device = -1;      // Vulkan ordinal; -1: the default Vulkan device
  bool json = false;
  ProgressMode progress = ProgressMode::automatic;
};

/// Runs every case of every file on the selected backends and prints one line per case and
/// backend (PASS / FAIL / ERROR), then "N passed, M failed"; with `json`, one JSON object
/// instead (docs/cli.md). Malformed files and cases are ERROR lines, never crashes.
/// @returns 0 when everything passed, 1 when anything failed, 2 when the requested backend is
/// unavailable or --device is given with --backend cpu (message on stderr, no case runs).
int run_eval(const EvalOptions& opts);

/// Prints list_devices(): one header line per device, the default device marked "(default)",
/// then indented type/driver/details; with `json`, one JSON object (docs/cli.md).
/// @returns 0; 2 when there is no default device (an invalid TENFERRO_DEVICE; on stderr).
int run_devices(bool as_json);

/// True when `op` names an op of the case-file vocabulary (eval_ops.cpp).
bool is_known_op(const std::string& op);

/// Runs `op` on `be` with `inputs` (tensors of `be`) and the case's `attrs` object.
/// @pre is_known_op(op). A wrong input count, or a missing or ill-typed attr, raises
/// Error{invalid_argument} naming the op; an unknown compare direction, combiner,
/// out_of_bounds mode or dtype name too. Library errors propagate unchanged.
Tensor run_op(Backend& be, const std::string& op, std::span<const TensorView> inputs,
              const nlohmann::json& attrs);

}  // namespace tenferro::cli
