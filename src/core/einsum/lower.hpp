// Lowering: a contraction path and the operands' layouts to a program (program.hpp), on layouts
// only. Every layout choice is made here (lowering.hpp): how each operand is prepared, the axis
// orders each product reads, where each result is stored and how, whether a step is a GEMM or a
// mul; then the schedule (schedule.hpp). The same code lowers for execute and for explain.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/einsum/program.hpp"

namespace tenferro::einsum_detail {

/// Operand layouts against the spec (count, ranks, extents): rank_mismatch, shape_mismatch,
/// invalid_argument.
void check_layouts(const EinsumSpec& spec, std::span<const Layout> layouts);
/// A linear path for n operands: invalid_argument.
void check_path(std::size_t n, const Path& path);
/// Every tensor of the contraction (the operands, each step's result, the output) holds at most
/// 2^63 - 1 elements (else invalid_argument) of `element_size` bytes, at most 2^63 - 1 bytes
/// in all (else out_of_memory); both name einsum and the operands. @pre check_path passed.
void check_sizes(const EinsumSpec& spec, const Path& path, std::size_t element_size);

/// Thresholds of the layout choices (lowering.hpp), where the backend's GEMM writes chained
/// outputs: an intermediate from kConsumerOrderBytes is stored in the order its consumer reads
/// in place when the GEMM writes that order (Lowering::consumer_order); a result from
/// kUnitStrideMinBytes written in stride chains puts its unit-stride label first in its free
/// group (Lowering::unit_stride_first).
inline constexpr std::int64_t kConsumerOrderBytes = std::int64_t{1} << 20;
inline constexpr std::int64_t kUnitStrideMinBytes = std::int64_t{8} << 20;

/// What lowering knows of the backend and the caller.
struct LowerOptions {
  bool use_mul = true;  // steps that sum nothing run as one mul (the backend has mul for dtype)
  bool chains = false;  // the backend's GEMM writes chained outputs (GemmCaps::chained_output)
  bool report = false;  // fill the whole step report (label strings, dot_general's lowering)
  /// Bytes the program may hold beside its inputs (intermediates, packing copies, product
  /// scratch); 0: the default bound, memory_bound (schedule.hpp). A slice of a sliced
  /// contraction runs with its plan's slice_bytes (tenferro/slicing.hpp).
  std::uint64_t memory_limit = 0;
};

/// The program for a checked spec, path and layouts.
Program lower(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts, DType dtype,
              const LowerOptions& opts);

/// lower without the report, cached by everything lowering reads (label ids, extents, output,
/// path, the operands' strides, dtype, options, detail::pack_chunk_bytes()). Operand offsets
/// are not read: views are relative to their source (program.hpp), so one program serves
/// operands at any offset (the slices of a sliced contraction among them).
std::shared_ptr<const Program> program_for(const EinsumSpec& spec, const Path& path, std::span<const Layout> layouts,
                                           DType dtype, const LowerOptions& opts);

}  // namespace tenferro::einsum_detail
