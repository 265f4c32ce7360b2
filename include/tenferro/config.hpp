// Configuration structs of the op vocabulary (SEMANTICS.md "Op families").
#pragma once
#include <cstdint>
#include <string_view>

#include "tenferro/layout.hpp"

namespace tenferro {

enum class CompareDir : std::uint8_t { EQ, NE, LT, LE, GT, GE };
std::string_view compare_dir_name(CompareDir d);
bool parse_compare_dir(std::string_view s, CompareDir& out);

/// dot_general: output axes are lhs free (in order), rhs free (in order), batch (config order).
struct DotGeneralConfig {
  Axes lhs_batching_dims, rhs_batching_dims;
  Axes lhs_contracting_dims, rhs_contracting_dims;
};

/// StableHLO gather. index_vector_dim == rank(indices) means an implicit trailing index
/// vector of size 1. Window starts are clamped into [0, dim - slice_size].
struct GatherConfig {
  Axes offset_dims, collapsed_slice_dims, operand_batching_dims, start_indices_batching_dims;
  Axes start_index_map;
  std::int64_t index_vector_dim = 0;
  Shape slice_sizes;
};

enum class ScatterCombiner : std::uint8_t { add, replace, mul, max, min };
/// clamp: windows are clamped into the operand (tenferro); skip: out-of-bounds windows are
/// dropped whole (StableHLO).
enum class OutOfBounds : std::uint8_t { clamp, skip };
std::string_view combiner_name(ScatterCombiner c);
bool parse_combiner(std::string_view s, ScatterCombiner& out);

struct ScatterConfig {
  Axes update_window_dims, inserted_window_dims, input_batching_dims, scatter_indices_batching_dims;
  Axes scatter_dims_to_operand_dims;
  std::int64_t index_vector_dim = 0;
  ScatterCombiner combiner = ScatterCombiner::add;
  OutOfBounds out_of_bounds = OutOfBounds::clamp;
};

/// slice: per axis start <= limit <= extent, stride > 0.
struct SliceConfig {
  Shape start_indices, limit_indices, strides;
};

/// pad: low/high may be negative (crop); interior >= 0.
struct PadConfig {
  Shape edge_padding_low, edge_padding_high, interior_padding;
};

}  // namespace tenferro
