// gather / scatter (StableHLO vocabulary, SEMANTICS.md "Indexing"): validation, output shapes
// and lowering onto Backend::gather / Backend::copy + Backend::scatter.
//
// Every rule is checked before any allocation or work. Error kinds (SEMANTICS.md "Which kind
// for which rule"):
//   a dim outside its range (operand rank, indices rank, output/updates rank)   axis_out_of_bounds
//   slice_sizes length != rank(operand); |offset_dims| != rank(operand) - |collapsed| -
//   |operand_batching| (scatter: |update_window_dims| + |inserted| + |input_batching| !=
//   rank(operand)); rank(updates) != batch rank + |update_window_dims|           rank_mismatch
//   repeated dims, unsorted offset/collapsed/batching/window/inserted dims, collapsed or
//   start_index_map overlapping the batching dims, indices batching dim == index_vector_dim,
//   index vector length != |start_index_map|, paired batching lists of different lengths,
//   slice size < 0 or > extent (scatter: an update window extent > the operand's
//   extent, the same rule: "slice larger than the extent"), slice size != 1 on a
//   collapsed/batching dim, index tensor not integer (or float not
//   integer-valued)                                                            invalid_argument
//   operand batching extent != indices batching extent; updates' scatter dims
//   against the indices' batch shape                                           shape_mismatch
//   updates dtype != operand dtype                                               dtype_mismatch
//   Bool with add/mul/max/min, complex with max/min                              unsupported
// The non-integral float index check needs the data: it runs in the exact cast after all the
// metadata checks, before the output is allocated.
#include <algorithm>
#include <string>

#include "core/check.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {

constexpr const char* kGather = "gather";
constexpr const char* kScatter = "scatter";

/// detail::index_tensor, with a failed exact cast (an index not integer-valued) reported
/// against the index argument rather than the cast kernel's generic one.
TensorView checked_index_tensor(Backend& be, const TensorView& t, const char* op, const char* arg) {
  try {
    return detail::index_tensor(be, t, op, arg);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::invalid_argument || e.arg() == arg) throw;
    TENFERRO_FAIL(invalid_argument, op, arg, "index tensor must hold exact integers: ", e.detail());
  }
}

std::int64_t size_of(const Axes& a) { return static_cast<std::int64_t>(a.size()); }

bool contains(const Axes& axes, std::int64_t a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); }

void check_sorted(const Axes& axes, const char* op, const char* arg) {
  TENFERRO_CHECK(std::is_sorted(axes.begin(), axes.end()), invalid_argument, op, arg, "dims ", axes,
                 " are not sorted, expected increasing order");
}

/// check_axes (range, no repeats) plus increasing order.
void check_sorted_axes(const Axes& axes, std::int64_t rank, const char* op, const char* arg) {
  detail::check_axes(axes, rank, op, arg);
  check_sorted(axes, op, arg);
}

void check_disjoint(const Axes& a, const Axes& b, const char* op, const char* arg, const char* other) {
  for (std::int64_t x : a)
    TENFERRO_CHECK(!contains(b, x), invalid_argument, op, arg, "dim ", x, " also appears in ", other,
                   ", expected disjoint lists");
}

void check_index_dtype(const TensorView& t, const char* op, const char* arg) {
  const DType d = t.dtype();
  TENFERRO_CHECK(is_integer(d) || is_real_float(d), invalid_argument, op, arg, "index tensor has dtype ",
                 dtype_name(d), ", expected i32 or i64 (or f32/f64 holding exact integers)");
}

/// The index-vector length: indices.shape[ivd], or 1 for the implicit trailing vector.
std::int64_t index_vector_length(const TensorView& indices, std::int64_t ivd) {
  return ivd == indices.rank() ? 1 : indices.dim(ivd);
}

/// Indices shape without the index-vector dim (the batch / scatter dims, in order).
Shape batch_shape_of(const TensorView& indices, std::int64_t ivd) {
  Shape s;
  for (std::int64_t a = 0; a < indices.rank(); ++a)
    if (a != ivd) s.push_back(indices.dim(a));
  return s;
}

/// Rules shared by gather and scatter on the index side: ivd range, the start map
/// (start_index_map / scatter_dims_to_operand_dims) and the batching pairs.
struct IndexSide {
  const char* op;
  const char* indices_arg;   // "start_indices" / "scatter_indices"
  const char* map_arg;       // "start_index_map" / "scatter_dims_to_operand_dims"
  const char* op_batch_arg;  // "operand_batching_dims" / "input_batching_dims"
  const char* idx_batch_arg; // "start_indices_batching_dims" / "scatter_indices_batching_dims"
};

void check_index_vector_dim(const TensorView& indices, std::int64_t ivd, const char* op) {
  TENFERRO_CHECK(ivd >= 0 && ivd <= indices.rank(), axis_out_of_bounds, op, "index_vector_dim",
                 "index_vector_dim ", ivd, " out of range: expected 0..", indices.rank(),
                 " (rank of the index tensor; equal to it means an implicit trailing index vector)");
}

void check_start_map_and_batching(const IndexSide& s, const TensorView& operand, const TensorView& indices,
                                  std::int64_t ivd, const Axes& start_map, const Axes& op_batching,
                                  const Axes& idx_batching) {
  const std::int64_t r = operand.rank();
  detail::check_axes(start_map, r, s.op, s.map_arg);
  check_disjoint(start_map, op_batching, s.op, s.map_arg, s.op_batch_arg);
  const std::int64_t ivlen = index_vector_length(indices, ivd);
  TENFERRO_CHECK(size_of(start_map) == ivlen, invalid_argument, s.op, s.map_arg, s.map_arg, " has ",
                 start_map.size(), " entries, expected ", ivlen, " (the index vector length along dim ", ivd,
                 " of ", s.indices_arg, " ", indices.shape(), ")");
  TENFERRO_CHECK(idx_batching.size() == op_batching.size(), invalid_argument, s.op, s.idx_batch_arg,
                 s.idx_batch_arg, " has ", idx_batching.size(), " entries, expected ", op_batching.size(),
                 " (as ", s.op_batch_arg, ")");
  detail::check_axes(idx_batching, indices.rank(), s.op, s.idx_batch_arg);
  for (std::size_t i = 0; i < idx_batching.size(); ++i) {
    TENFERRO_CHECK(idx_batching[i] != ivd, invalid_argument, s.op, s.idx_batch_arg, "batching dim ",
                   idx_batching[i], " is the index_vector_dim, expected a batch dim of ", s.indices_arg);
    const std::int64_t oe = operand.dim(op_batching[i]), ie = indices.dim(idx_batching[i]);
    TENFERRO_CHECK(oe == ie, shape_mismatch, s.op, s.indices_arg, "batching dim ", idx_batching[i], " of ",
                   s.indices_arg, " has extent ", ie, ", expected ", oe, " (extent of operand dim ",
                   op_batching[i], ")");
  }
}

}  // namespace

Tensor gather(Backend& be, const TensorView& operand, const TensorView& start_indices, const GatherConfig& cfg) {
  detail::check_resident(be, operand, kGather, "operand");
  detail::check_resident(be, start_indices, kGather, "start_indices");
  detail::check_supported(be, OpId::gather, operand.dtype(), "operand");
  check_index_dtype(start_indices, kGather, "start_indices");

  const std::int64_t r = operand.rank();
  const std::int64_t ivd = cfg.index_vector_dim;
  check_index_vector_dim(start_indices, ivd, kGather);
  TENFERRO_CHECK(size_of(cfg.slice_sizes) == r, rank_mismatch, kGather, "slice_sizes", "slice_sizes has ",
                 cfg.slice_sizes.size(), " entries, expected ", r, " (operand rank)");
  check_sorted_axes(cfg.collapsed_slice_dims, r, kGather, "collapsed_slice_dims");
  check_sorted_axes(cfg.operand_batching_dims, r, kGather, "operand_batching_dims");
  check_disjoint(cfg.collapsed_slice_dims, cfg.operand_batching_dims, kGather, "collapsed_slice_dims",
                 "operand_batching_dims");
  const std::int64_t n_offset = r - size_of(cfg.collapsed_slice_dims) - size_of(cfg.operand_batching_dims);
  TENFERRO_CHECK(size_of(cfg.offset_dims) == n_offset, rank_mismatch, kGather, "offset_dims", "offset_dims has ",
                 cfg.offset_dims.size(), " entries, expected ", n_offset,
                 " (operand rank minus collapsed and batching dims)");
  const Shape batch = batch_shape_of(start_indices, ivd);
  const std::int64_t out_rank = size_of(batch) + n_offset;
  check_sorted_axes(cfg.offset_dims, out_rank, kGather, "offset_dims");
  check_start_map_and_batching({kGather, "start_indices", "start_index_map", "operand_batching_dims",
                                "start_indices_batching_dims"},
                               operand, start_indices, ivd, cfg.start_index_map, cfg.operand_batching_dims,
                               cfg.start_indices_batching_dims);
  for (std::int64_t d = 0; d < r; ++d) {
    const std::int64_t s = cfg.slice_sizes[static_cast<std::size_t>(d)];
    TENFERRO_CHECK(s >= 0 && s <= operand.dim(d), invalid_argument, kGather, "slice_sizes", "slice size ", s,
                   " at dim ", d, " out of range: expected 0..", operand.dim(d), " (operand extent)");
    const bool dropped = contains(cfg.collapsed_slice_dims, d) || contains(cfg.operand_batching_dims, d);
    TENFERRO_CHECK(!dropped || s == 1, invalid_argument, kGather, "slice_sizes", "slice size ", s, " at dim ", d,
                   ", expected 1 (a collapsed or batching dim)");
  }

  // Output: offset dims at offset_dims positions (slice sizes of the kept operand dims, in
  // order); batch dims (indices dims without index_vector_dim) fill the other positions.
  Shape out_shape(static_cast<std::size_t>(out_rank));
  std::size_t next_batch = 0, next_offset = 0;
  for (std::int64_t d = 0; d < r && next_offset < cfg.offset_dims.size(); ++d) {
    if (contains(cfg.collapsed_slice_dims, d) || contains(cfg.operand_batching_dims, d)) continue;
    out_shape[static_cast<std::size_t>(cfg.offset_dims[next_offset++])] = cfg.slice_sizes[static_cast<std::size_t>(d)];
  }
  for (std::int64_t p = 0; p < out_rank; ++p)
    if (!contains(cfg.offset_dims, p)) out_shape[static_cast<std::size_t>(p)] = batch[next_batch++];

  const TensorView idx = checked_index_tensor(be, start_indices, kGather, "start_indices");
  Tensor out = be.allocate(operand.dtype(), out_shape);
  if (out.numel() > 0) be.gather(operand, idx, cfg, out);
  return out;
}

Tensor scatter(Backend& be, const TensorView& operand, const TensorView& scatter_indices,
               const TensorView& updates, const ScatterConfig& cfg) {
  detail::check_resident(be, operand, kScatter, "operand");
  detail::check_resident(be, scatter_indices, kScatter, "scatter_indices");
  detail::check_resident(be, updates, kScatter, "updates");
  const DType dt = operand.dtype();
  detail::check_supported(be, OpId::scatter, dt, "operand");
  detail::check_same_dtype(operand, updates, kScatter, "updates");
  const ScatterCombiner c = cfg.combiner;
  TENFERRO_CHECK(dt != DType::Bool || c == ScatterCombiner::replace, unsupported, kScatter, "operand",
                 "combiner ", combiner_name(c), " does not accept dtype bool (only replace does)");
  TENFERRO_CHECK(!is_complex(dt) || (c != ScatterCombiner::max && c != ScatterCombiner::min), unsupported,
                 kScatter, "operand", "combiner ", combiner_name(c), " does not accept dtype ", dtype_name(dt),
                 " (complex numbers are not ordered)");
  check_index_dtype(scatter_indices, kScatter, "scatter_indices");

  const std::int64_t r = operand.rank();
  const std::int64_t ivd = cfg.index_vector_dim;
  check_index_vector_dim(scatter_indices, ivd, kScatter);
  check_sorted_axes(cfg.inserted_window_dims, r, kScatter, "inserted_window_dims");
  check_sorted_axes(cfg.input_batching_dims, r, kScatter, "input_batching_dims");
  check_disjoint(cfg.inserted_window_dims, cfg.input_batching_dims, kScatter, "inserted_window_dims",
                 "input_batching_dims");
  const std::int64_t n_window = r - size_of(cfg.inserted_window_dims) - size_of(cfg.input_batching_dims);
  TENFERRO_CHECK(size_of(cfg.update_window_dims) == n_window, rank_mismatch, kScatter, "update_window_dims",
                 "update_window_dims has ", cfg.update_window_dims.size(), " entries, expected ", n_window,
                 " (operand rank minus inserted and batching dims)");
  const Shape batch = batch_shape_of(scatter_indices, ivd);
  const std::int64_t upd_rank = size_of(batch) + n_window;
  TENFERRO_CHECK(updates.rank() == upd_rank, rank_mismatch, kScatter, "updates", "updates has rank ",
                 updates.rank(), ", expected ", upd_rank, " (", batch.size(), " scatter dims + ", n_window,
                 " window dims)");
  check_sorted_axes(cfg.update_window_dims, upd_rank, kScatter, "update_window_dims");
  check_start_map_and_batching({kScatter, "scatter_indices", "scatter_dims_to_operand_dims",
                                "input_batching_dims", "scatter_indices_batching_dims"},
                               operand, scatter_indices, ivd, cfg.scatter_dims_to_operand_dims,
                               cfg.input_batching_dims, cfg.scatter_indices_batching_dims);
  // Updates: scatter dims equal the indices batch shape; window dims fit in the operand.
  std::size_t next_batch = 0;
  std::int64_t next_dim = 0;
  for (std::int64_t p = 0; p < upd_rank; ++p) {
    const std::int64_t e = updates.dim(p);
    if (!contains(cfg.update_window_dims, p)) {
      const std::int64_t want = batch[next_batch++];
      TENFERRO_CHECK(e == want, shape_mismatch, kScatter, "updates", "updates ", updates.shape(),
                     " has extent ", e, " at scatter dim ", p, ", expected ", want, " (from scatter_indices ",
                     scatter_indices.shape(), ")");
      continue;
    }
    while (contains(cfg.inserted_window_dims, next_dim) || contains(cfg.input_batching_dims, next_dim)) ++next_dim;
    TENFERRO_CHECK(e <= operand.dim(next_dim), invalid_argument, kScatter, "updates", "updates ", updates.shape(),
                   " has window extent ", e, " at dim ", p, ", expected at most ", operand.dim(next_dim),
                   " (operand dim ", next_dim, ")");
    ++next_dim;
  }

  const TensorView idx = checked_index_tensor(be, scatter_indices, kScatter, "scatter_indices");
  Tensor out = be.allocate(dt, operand.shape());
  if (out.numel() == 0) return out;
  be.copy(operand, out);
  if (updates.numel() > 0) be.scatter(out, idx, updates, cfg);
  return out;
}

}  // namespace tenferro
