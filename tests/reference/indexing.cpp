// Reference gather / scatter: one loop over the result (gather) or the updates (scatter),
// following the index arithmetic of the StableHLO spec step by step.
#include "indexing.hpp"
#include "structural.hpp"  // unravel

#include <algorithm>
#include <cmath>

namespace tenferro::test {

namespace {

using structural_ref::unravel;

bool has(const Axes& axes, std::int64_t a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); }

std::int64_t index_value(const RefTensor& t, std::int64_t i) {
  const auto k = static_cast<std::size_t>(i);
  return t.exact() ? t.iv[k] : static_cast<std::int64_t>(t.v[k].real());
}

/// start_indices[bi0, ..., :, ..., biN] (':' at index_vector_dim), or the scalar
/// start_indices[batch_index] when index_vector_dim == rank(indices).
std::vector<std::int64_t> start_index(const RefTensor& indices, const Shape& batch_index, std::int64_t ivd) {
  const auto rank = static_cast<std::int64_t>(indices.shape.size());
  if (ivd == rank) return {index_value(indices, indices.index(batch_index))};
  std::vector<std::int64_t> out;
  for (std::int64_t k = 0; k < indices.shape[static_cast<std::size_t>(ivd)]; ++k) {
    Shape idx = batch_index;
    idx.insert(idx.begin() + ivd, k);
    out.push_back(index_value(indices, indices.index(idx)));
  }
  return out;
}

/// Operand index of batching dims: batch_index[d_start - (d_start < ivd ? 0 : 1)].
void add_batching(Shape& operand_index, const Shape& batch_index, const Axes& op_dims, const Axes& idx_dims,
                  std::int64_t ivd) {
  for (std::size_t i = 0; i < op_dims.size(); ++i) {
    const std::int64_t d_start = idx_dims[i];
    operand_index[static_cast<std::size_t>(op_dims[i])] +=
        batch_index[static_cast<std::size_t>(d_start < ivd ? d_start : d_start - 1)];
  }
}

/// Window index in operand dims: 0 on dropped dims, the window coordinates in order elsewhere.
void add_window(Shape& operand_index, const Shape& window_index, const Axes& dropped1, const Axes& dropped2) {
  std::size_t next = 0;
  for (std::size_t d = 0; d < operand_index.size(); ++d) {
    if (has(dropped1, static_cast<std::int64_t>(d)) || has(dropped2, static_cast<std::int64_t>(d))) continue;
    operand_index[d] += window_index[next++];
  }
}

void copy_elem(RefTensor& dst, std::int64_t i, const RefTensor& src, std::int64_t j) {
  dst.v[static_cast<std::size_t>(i)] = src.v[static_cast<std::size_t>(j)];
  dst.iv[static_cast<std::size_t>(i)] = src.iv[static_cast<std::size_t>(j)];
}

std::int64_t wrap_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t wrap_mul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

double nan_max(double a, double b, bool is_max) {
  if (std::isnan(a) || std::isnan(b)) return std::nan("");
  return is_max ? std::max(a, b) : std::min(a, b);
}

void combine(RefTensor& r, std::int64_t i, const RefTensor& u, std::int64_t j, ScatterCombiner c) {
  const auto k = static_cast<std::size_t>(i), l = static_cast<std::size_t>(j);
  if (c == ScatterCombiner::replace) {
    copy_elem(r, i, u, j);
    return;
  }
  if (r.exact()) {
    const std::int64_t a = r.iv[k], b = u.iv[l];
    switch (c) {
      case ScatterCombiner::add: r.set_int(i, wrap_add(a, b)); break;
      case ScatterCombiner::mul: r.set_int(i, wrap_mul(a, b)); break;
      case ScatterCombiner::max: r.set_int(i, std::max(a, b)); break;
      case ScatterCombiner::min: r.set_int(i, std::min(a, b)); break;
      case ScatterCombiner::replace: break;
    }
    return;
  }
  const c64 a = r.v[k], b = u.v[l];
  switch (c) {
    case ScatterCombiner::add: r.set(i, a + b); break;
    case ScatterCombiner::mul: r.set(i, a * b); break;
    case ScatterCombiner::max: r.set(i, c64(nan_max(a.real(), b.real(), true), 0)); break;
    case ScatterCombiner::min: r.set(i, c64(nan_max(a.real(), b.real(), false), 0)); break;
    case ScatterCombiner::replace: break;
  }
}

}  // namespace

RefTensor ref_gather(const RefTensor& operand, const RefTensor& indices, const GatherConfig& cfg) {
  const std::int64_t ivd = cfg.index_vector_dim;
  Shape batch_sizes, offset_sizes;
  for (std::size_t a = 0; a < indices.shape.size(); ++a)
    if (static_cast<std::int64_t>(a) != ivd) batch_sizes.push_back(indices.shape[a]);
  for (std::size_t d = 0; d < operand.shape.size(); ++d) {
    const auto dd = static_cast<std::int64_t>(d);
    if (!has(cfg.collapsed_slice_dims, dd) && !has(cfg.operand_batching_dims, dd))
      offset_sizes.push_back(cfg.slice_sizes[d]);
  }
  const std::size_t out_rank = batch_sizes.size() + offset_sizes.size();
  Shape out_shape(out_rank);
  for (std::size_t p = 0, nb = 0, no = 0; p < out_rank; ++p)
    out_shape[p] = has(cfg.offset_dims, static_cast<std::int64_t>(p)) ? offset_sizes[no++] : batch_sizes[nb++];

  RefTensor out(operand.dtype, out_shape);
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    const Shape result_index = unravel(i, out_shape);
    Shape batch_index, offset_index;
    for (std::size_t p = 0; p < out_rank; ++p)
      (has(cfg.offset_dims, static_cast<std::int64_t>(p)) ? offset_index : batch_index).push_back(result_index[p]);
    const std::vector<std::int64_t> start = start_index(indices, batch_index, ivd);
    Shape operand_index(operand.shape.size(), 0);
    for (std::size_t k = 0; k < cfg.start_index_map.size(); ++k) {
      const auto d = static_cast<std::size_t>(cfg.start_index_map[k]);
      operand_index[d] = std::clamp<std::int64_t>(start[k], 0, operand.shape[d] - cfg.slice_sizes[d]);
    }
    add_batching(operand_index, batch_index, cfg.operand_batching_dims, cfg.start_indices_batching_dims, ivd);
    add_window(operand_index, offset_index, cfg.collapsed_slice_dims, cfg.operand_batching_dims);
    copy_elem(out, i, operand, operand.index(operand_index));
  }
  return out;
}

std::vector<std::int64_t> ref_scatter_targets(const RefTensor& operand, const RefTensor& indices,
                                              const RefTensor& updates, const ScatterConfig& cfg) {
  const std::int64_t ivd = cfg.index_vector_dim;
  std::vector<std::int64_t> targets(static_cast<std::size_t>(updates.numel()), -1);
  if (operand.numel() == 0) return targets;
  // Window extent along each operand dim: updates extent on window dims, 1 elsewhere.
  Shape extent(operand.shape.size(), 1);
  for (std::size_t d = 0, next = 0; d < operand.shape.size(); ++d) {
    const auto dd = static_cast<std::int64_t>(d);
    if (has(cfg.inserted_window_dims, dd) || has(cfg.input_batching_dims, dd)) continue;
    extent[d] = updates.shape[static_cast<std::size_t>(cfg.update_window_dims[next++])];
  }
  for (std::int64_t j = 0; j < updates.numel(); ++j) {
    const Shape update_index = unravel(j, updates.shape);
    Shape scatter_index, window_index;
    for (std::size_t p = 0; p < update_index.size(); ++p)
      (has(cfg.update_window_dims, static_cast<std::int64_t>(p)) ? window_index : scatter_index)
          .push_back(update_index[p]);
    const std::vector<std::int64_t> start = start_index(indices, scatter_index, ivd);
    // clamp: the window start clamped into [0, dim - extent]; skip: the start as given, and the
    // element dropped when its full index lies outside the operand (StableHLO's exec rule).
    const bool skip = cfg.out_of_bounds == OutOfBounds::skip;
    Shape result_index(operand.shape.size(), 0);
    for (std::size_t k = 0; k < cfg.scatter_dims_to_operand_dims.size(); ++k) {
      const auto d = static_cast<std::size_t>(cfg.scatter_dims_to_operand_dims[k]);
      const std::int64_t hi = operand.shape[d] - extent[d];
      result_index[d] = skip ? start[k] : std::clamp<std::int64_t>(start[k], 0, hi);
    }
    add_batching(result_index, scatter_index, cfg.input_batching_dims, cfg.scatter_indices_batching_dims, ivd);
    add_window(result_index, window_index, cfg.inserted_window_dims, cfg.input_batching_dims);
    bool in_bounds = true;
    for (std::size_t d = 0; d < operand.shape.size(); ++d)
      in_bounds = in_bounds && result_index[d] >= 0 && result_index[d] < operand.shape[d];
    if (!in_bounds) continue;
    targets[static_cast<std::size_t>(j)] = operand.index(result_index);
  }
  return targets;
}

RefTensor ref_scatter(const RefTensor& operand, const RefTensor& indices, const RefTensor& updates,
                      const ScatterConfig& cfg) {
  RefTensor result = operand;
  const std::vector<std::int64_t> targets = ref_scatter_targets(operand, indices, updates, cfg);
  for (std::int64_t j = 0; j < updates.numel(); ++j) {
    const std::int64_t t = targets[static_cast<std::size_t>(j)];
    if (t >= 0) combine(result, t, updates, j, cfg.combiner);
  }
  return result;
}

}  // namespace tenferro::test
