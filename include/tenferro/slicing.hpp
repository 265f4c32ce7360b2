// Sliced einsum: a contraction whose intermediates do not fit a memory limit runs as independent
// slices (docs/einsum.md, "Slicing"). Slicing a label fixes its value: one slice contracts the
// operands' views at one value of every sliced label, with the same path and one program for
// all slices (programs do not depend on operand offsets). The slices of a summed label are
// added; those of an output label write disjoint parts of the result. Slices are independent,
// so they spread over devices (execute_sliced) and processes (SliceRun's share; MPI:
// tenferro/mpi.hpp).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro {

/// The labels to slice for a spec, a path and a memory limit, and what it costs. A sliced label
/// is cut into chunks: slices take `chunk` values of it at a time (the last chunk may be
/// smaller), so a label of extent 1024 cut in 4 gives 4 slices of 256, not 1024 of 1.
struct SlicePlan {
  EinsumSpec spec;                // the unsliced contraction
  Path path;                      // its path (every slice runs it)
  DType dtype = DType::F64;
  std::vector<int> labels;        // sliced label ids of spec, in id order
  std::vector<std::int64_t> chunks;  // per sliced label: the extent of a slice along it
  std::int64_t slices = 1;        // the product over sliced labels of ceil(extent / chunk)
  EinsumSpec slice_spec;          // spec with every sliced label at its chunk: a full slice
  PathCost cost, slice_cost;      // of the whole contraction and of a full slice
  /// slices * slice_cost.flops / cost.flops: at most the flops slicing adds (1: none; last
  /// chunks that are smaller cost less than a full slice).
  double overhead = 1;
  /// Bytes a slice may hold beside the operands and the result: its working set (at each step
  /// the live intermediates, the step's result and a copy of each of the step's operands; the
  /// result and its final transpose) and product scratch within the rest; at most memory_limit.
  std::uint64_t slice_bytes = 0;
  /// The whole contraction's working set by the same measure.
  std::uint64_t unsliced_bytes = 0;
  std::uint64_t memory_limit = 0;
};

/// Chooses labels and chunks so that slice_bytes <= memory_limit, greedily: each round halves
/// the chunk of the label that adds the least work (flops plus a fixed cost per step of each
/// slice) per byte saved, both on a log scale; then chunks grow back while a slice still fits.
/// Nothing is sliced when the whole contraction fits. Any label may be sliced, output labels
/// included. Throws Error (op
/// "einsum", arg "memory_limit"): invalid_argument for 0; out_of_memory when slicing every
/// label does not fit (the message gives the smallest slice's bytes). Also throws like
/// path_cost for a bad path. Deterministic.
SlicePlan plan_slices(const EinsumSpec& spec, const Path& path, DType dtype, std::uint64_t memory_limit);

/// Which slices a call of execute_sliced takes, and how it reports.
struct SliceRun {
  /// The slices k (0 <= k < slices) with k % stride == first: one process's share when
  /// `stride` processes split the work (an MPI rank: first = rank, stride = size). Default:
  /// all. invalid_argument unless 0 <= first < stride.
  std::int64_t first = 0, stride = 1;
  /// Called after each slice (from the thread that ran it; calls are serialized) with the
  /// slices done and the slices this call takes.
  EinsumProgress progress;
};

/// Runs the slices of `run` over `devices`, a thread per device, each taking the next slice
/// not yet taken (dynamic balance); each device adds its slices' results into an accumulator of
/// its own (zeros first: a call taking no slice returns zeros), and the accumulators are
/// summed on devices[0] in device order: the result, a tensor of devices[0]. The operands
/// (plan.spec's shapes, plan.dtype) may live on any device: each device gets its own copy,
/// made once. Results agree with execute within rounding; which device sums which slices
/// varies between runs when there are several. Errors (op "einsum"): invalid_argument for no
/// device, a null or repeated one, or a bad `run`; the operand errors of execute; unsupported
/// when a device has no dot_general (two operands or more) or add for the dtype. A device's
/// error stops the other devices after their current slice and is rethrown; every device
/// stays usable.
Tensor execute_sliced(std::span<Backend* const> devices, const SlicePlan& plan, std::span<const TensorView> operands,
                      const SliceRun& run = {});

}  // namespace tenferro
