// CPU gather / scatter kernels (StableHLO semantics, validated by core/ops/indexing.cpp).
//
// Both ops share one geometry. The "big" tensor (gather's output, scatter's updates) splits
// into batch axes (one window per batch index) and window axes (offsets inside a window).
// A window starts at the operand position given by the index vector (start_index_map /
// scatter_dims_to_operand_dims), plus the batch coordinate on batching dims; it is clamped
// into the operand (gather always; scatter with OutOfBounds::clamp), or with scatter's
// OutOfBounds::skip its elements outside the operand are dropped (StableHLO), element by
// element for windows partly outside. Every view may be strided (negative, zero strides).
//
// Threading: gather is parallel over (window, row) tasks. Scatter first computes every
// window's base offsets (in parallel), then applies updates so that each output element is
// touched by exactly one thread, in increasing window order: the result equals the serial
// one bit for bit, whatever the combiner, and duplicates combine deterministically.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <type_traits>

#include "backend_common/window_layout.hpp"
#include "cpu_backend.hpp"
#include "minmax.hpp"
#include "strided.hpp"

namespace tenferro::cpu {

namespace {

using I64 = std::int64_t;

using detail::contains_axis;

/// Geometry of one gather/scatter call (see the file comment).
struct Plan {
  // Batch axes of big, in order, with their strides in big and in the index tensor.
  Shape batch_shape;
  Strides batch_big_strides, batch_idx_strides;
  I64 n_windows = 1;
  // Index vector: length, stride in the index tensor, operand dim of each component.
  I64 ivec_len = 0, ivec_stride = 0;
  Axes ivec_dims;
  // Batching pairs: (batch axis position, operand dim).
  std::vector<std::pair<std::size_t, I64>> batching;
  // Operand: strides, and per-dim the room a window start may take: [0, room[d]].
  Strides op_strides;
  Shape room;
  I64 op_offset = 0, big_offset = 0, idx_offset = 0;
  // Window axes, jointly coalesced: shape, operand strides, big strides.
  Shape win_shape;
  Strides win_op_strides, win_big_strides;
  I64 win_numel = 1, win_rows = 1, win_inner = 1;
  // Range of operand offsets a window reaches, relative to its base.
  I64 win_rel_min = 0, win_rel_max = 0;
  // Window dims uncoalesced (scatter's skip mode, windows partly outside the operand): operand
  // dim, extent, operand stride, big stride; and the operand's shape.
  struct WinDim {
    I64 dim, extent, op_stride, big_stride;
  };
  std::vector<WinDim> win_dims;
  Shape op_shape;
};

/// Builds the plan. `window_axes`: axes of big holding window offsets (offset_dims /
/// update_window_dims); `dropped`: operand dims without a window axis (collapsed or inserted,
/// plus batching dims); `extent[d]`: the window extent along operand dim d.
Plan make_plan(const TensorView& operand, const TensorView& indices, const TensorView& big,
               const Axes& window_axes, const Axes& dropped, const Shape& extent, const Axes& start_map,
               I64 ivd, const Axes& op_batching, const Axes& idx_batching) {
  Plan p;
  const Layout& ol = operand.layout();
  const Layout& il = indices.layout();
  const Layout& bl = big.layout();
  p.op_strides = ol.strides;
  p.op_offset = ol.offset;
  p.big_offset = bl.offset;
  p.idx_offset = il.offset;
  for (std::size_t d = 0; d < ol.shape.size(); ++d) p.room.push_back(ol.shape[d] - extent[d]);

  I64 k = 0;  // running batch axis number, matching indices axes other than ivd
  for (I64 a = 0; a < big.rank(); ++a) {
    if (contains_axis(window_axes, a)) continue;
    const I64 ia = k < ivd ? k : k + 1;
    p.batch_shape.push_back(bl.shape[static_cast<std::size_t>(a)]);
    p.batch_big_strides.push_back(bl.strides[static_cast<std::size_t>(a)]);
    p.batch_idx_strides.push_back(il.strides[static_cast<std::size_t>(ia)]);
    p.n_windows *= bl.shape[static_cast<std::size_t>(a)];
    ++k;
  }
  p.ivec_dims = start_map;
  p.ivec_len = static_cast<I64>(start_map.size());
  p.ivec_stride = ivd < indices.rank() ? il.strides[static_cast<std::size_t>(ivd)] : 0;
  for (std::size_t i = 0; i < op_batching.size(); ++i) {
    const I64 ia = idx_batching[i];
    p.batching.emplace_back(static_cast<std::size_t>(ia < ivd ? ia : ia - 1), op_batching[i]);
  }

  p.op_shape = ol.shape;
  for (const detail::WindowDim& w : detail::window_dims(operand.rank(), window_axes, dropped)) {
    const auto a = static_cast<std::size_t>(w.big_axis);
    p.win_dims.push_back({w.dim, bl.shape[a], ol.strides[static_cast<std::size_t>(w.dim)], bl.strides[a]});
  }
  const std::vector<Layout> co = detail::window_layouts(ol, bl, window_axes, dropped);
  p.win_shape = co[0].shape;
  p.win_op_strides = co[0].strides;
  p.win_big_strides = co[1].strides;
  for (std::size_t a = 0; a < p.win_shape.size(); ++a) {
    p.win_numel *= p.win_shape[a];
    const I64 span = (p.win_shape[a] - 1) * p.win_op_strides[a];
    (span < 0 ? p.win_rel_min : p.win_rel_max) += span;
  }
  p.win_inner = p.win_shape.empty() ? 1 : p.win_shape[0];
  p.win_rows = p.win_inner > 0 ? p.win_numel / p.win_inner : 0;
  return p;
}

/// Base offsets (operand, big) of window w. Returns false when `skip` and the window leaves
/// the operand (window_box then finds its elements inside); otherwise starts are clamped into
/// [0, room]. With `raw` (an array of ivec_len): the starts as given, stored there, never
/// clamped; false when a start puts the whole window outside the operand (its offset, which
/// may pass int64 for a start near INT64_MIN, is then not computed).
template <class Idx>
bool window_bases(const Plan& p, const Idx* idx, I64 w, bool skip, I64& op_base, I64& big_base,
                  I64* raw = nullptr) {
  I64 io = p.idx_offset, bo = p.big_offset, oo = p.op_offset;
  I64 rest = w;
  // Batch coordinates are needed again for batching dims: decompose once into a small buffer.
  constexpr std::size_t kInline = 16;
  I64 inline_coords[kInline];
  std::vector<I64> heap_coords;
  I64* coords = inline_coords;
  if (p.batch_shape.size() > kInline) {
    heap_coords.resize(p.batch_shape.size());
    coords = heap_coords.data();
  }
  for (std::size_t k = 0; k < p.batch_shape.size(); ++k) {
    const I64 c = rest % p.batch_shape[k];
    rest /= p.batch_shape[k];
    coords[k] = c;
    io += c * p.batch_idx_strides[k];
    bo += c * p.batch_big_strides[k];
  }
  for (I64 j = 0; j < p.ivec_len; ++j) {
    const I64 d = p.ivec_dims[static_cast<std::size_t>(j)];
    const I64 room = p.room[static_cast<std::size_t>(d)];
    I64 s = static_cast<I64>(idx[io + j * p.ivec_stride]);
    if (raw) {
      raw[j] = s;
      // Window extent n - room along d: disjoint from [0, n) when s >= n or s + extent <= 0.
      const I64 n = p.op_shape[static_cast<std::size_t>(d)];
      if (s >= n || s <= -(n - room)) return false;
    } else if (s < 0 || s > room) {
      if (skip) return false;
      s = s < 0 ? 0 : room;
    }
    oo += s * p.op_strides[static_cast<std::size_t>(d)];
  }
  for (const auto& [k, d] : p.batching) oo += coords[k] * p.op_strides[static_cast<std::size_t>(d)];
  op_base = oo;
  big_base = bo;
  return true;
}

/// Scatter's skip mode (StableHLO: each update element whose operand index lies outside is
/// dropped, not the whole window): calls f(op_offset, big_offset) for the elements of window w
/// inside the operand, in the window's index order.
template <class Idx, class F> void window_box(const Plan& p, const Idx* idx, I64 w, F&& f) {
  std::vector<I64> starts(static_cast<std::size_t>(p.ivec_len));
  I64 ob = 0, bb = 0;
  if (!window_bases(p, idx, w, /*skip=*/false, ob, bb, starts.data())) return;
  // Per uncoalesced window dim the coordinates [lo, hi) inside the operand; index dims without
  // a window axis (extent 1) must hold their start inside.
  const std::size_t nd = p.win_dims.size();
  std::vector<I64> lo(nd, 0), hi(nd), c(nd);
  for (std::size_t k = 0; k < nd; ++k) hi[k] = p.win_dims[k].extent;
  for (I64 j = 0; j < p.ivec_len; ++j) {
    const I64 d = p.ivec_dims[static_cast<std::size_t>(j)], s = starts[static_cast<std::size_t>(j)];
    const I64 n = p.op_shape[static_cast<std::size_t>(d)];
    bool windowed = false;
    for (std::size_t k = 0; k < nd; ++k)
      if (p.win_dims[k].dim == d) {
        windowed = true;
        lo[k] = std::max(lo[k], -s);  // s + c >= 0
        hi[k] = std::min(hi[k], n - s);  // s + c < n
      }
    if (!windowed && (s < 0 || s >= n)) return;
  }
  for (std::size_t k = 0; k < nd; ++k) {
    if (lo[k] >= hi[k]) return;
    c[k] = lo[k];
  }
  while (true) {
    I64 o = ob, b = bb;
    for (std::size_t k = 0; k < nd; ++k) {
      o += c[k] * p.win_dims[k].op_stride;
      b += c[k] * p.win_dims[k].big_stride;
    }
    f(o, b);
    std::size_t k = 0;
    for (; k < nd; ++k) {
      if (++c[k] < hi[k]) break;
      c[k] = lo[k];
    }
    if (k == nd) return;
  }
}

/// Offsets of row `row` of a window relative to its bases (outer window axes decomposed).
inline void row_offsets(const Plan& p, I64 row, I64& op_rel, I64& big_rel) {
  op_rel = 0;
  big_rel = 0;
  for (std::size_t a = 1; a < p.win_shape.size(); ++a) {
    const I64 c = row % p.win_shape[a];
    row /= p.win_shape[a];
    op_rel += c * p.win_op_strides[a];
    big_rel += c * p.win_big_strides[a];
  }
}

// ---- gather ----------------------------------------------------------------------------------

/// Element types by size: gather only moves bytes.
struct alignas(16) Bytes16 {
  unsigned char b[16];
};

template <class T, class Idx>
void gather_typed(const TensorView& operand, const TensorView& indices, const TensorView& out, const Plan& p) {
  const T* src = base_ptr<const T>(operand);
  T* dst = base_ptr<T>(out);
  const Idx* idx = p.ivec_len > 0 ? base_ptr<const Idx>(indices) : nullptr;
  const I64 so = p.win_shape.empty() ? 0 : p.win_op_strides[0];
  const I64 sb = p.win_shape.empty() ? 0 : p.win_big_strides[0];
  const I64 tasks = p.n_windows * p.win_rows;
  const bool parallel = p.n_windows * p.win_numel >= kParallelThreshold && tasks > 1;
  parallel_chunks(tasks, parallel ? max_threads() : 1, [&](I64 b, I64 e, int) {
    I64 w = b / p.win_rows, row = b % p.win_rows, ob = 0, bb = 0;
    window_bases(p, idx, w, /*skip=*/false, ob, bb);
    for (I64 task = b; task < e; ++task) {
      I64 orel = 0, brel = 0;
      if (p.win_rows > 1) row_offsets(p, row, orel, brel);
      const T* s = src + ob + orel;
      T* d = dst + bb + brel;
      for (I64 i = 0; i < p.win_inner; ++i) std::memcpy(d + i * sb, s + i * so, sizeof(T));
      if (++row == p.win_rows && task + 1 < e) {
        row = 0;
        window_bases(p, idx, ++w, /*skip=*/false, ob, bb);
      }
    }
  });
}

// ---- scatter ---------------------------------------------------------------------------------

template <class T> constexpr bool kIsComplex = !std::is_arithmetic_v<T>;

/// dst = combine(dst, src). Integers wrap; max/min propagate NaN.
template <ScatterCombiner C, class T> inline void combine(T& dst, const T& src) {
  if constexpr (C == ScatterCombiner::replace) {
    dst = src;
  } else if constexpr (C == ScatterCombiner::add) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      dst = static_cast<T>(static_cast<U>(static_cast<U>(dst) + static_cast<U>(src)));
    } else {
      dst += src;
    }
  } else if constexpr (C == ScatterCombiner::mul) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      dst = static_cast<T>(static_cast<U>(static_cast<U>(dst) * static_cast<U>(src)));
    } else {
      dst *= src;
    }
  } else {
    dst = C == ScatterCombiner::max ? ieee_max(dst, src) : ieee_min(dst, src);  // minmax.hpp
  }
}

/// Base offsets of one window in out and in updates; op < 0 marks a skipped window (offsets
/// of a valid view are never negative).
struct Base {
  I64 op, upd;
};

/// Bases of every window, computed in parallel (first touch by the writing thread).
template <class Idx> std::unique_ptr<Base[]> window_table(const Plan& p, const Idx* idx, bool skip) {
  std::unique_ptr<Base[]> table(new Base[static_cast<std::size_t>(p.n_windows)]);
  parallel_chunks(p.n_windows, p.n_windows >= kParallelThreshold / 4 ? max_threads() : 1, [&](I64 b, I64 e, int) {
    for (I64 w = b; w < e; ++w) {
      Base& x = table[static_cast<std::size_t>(w)];
      if (!window_bases(p, idx, w, skip, x.op, x.upd)) x.op = -1;
    }
  });
  return table;
}

template <ScatterCombiner C, class T, class Idx>
void scatter_typed(const TensorView& out, const TensorView& indices, const TensorView& updates, const Plan& p,
                   bool skip) {
  T* dst = base_ptr<T>(out);
  const T* src = base_ptr<const T>(updates);
  const Idx* idx = p.ivec_len > 0 ? base_ptr<const Idx>(indices) : nullptr;
  const I64 so = p.win_shape.empty() ? 0 : p.win_op_strides[0];
  const I64 sb = p.win_shape.empty() ? 0 : p.win_big_strides[0];
  const I64 total = p.n_windows * p.win_numel;

  // Applies rows [r0, r1) of the window with bases (ob, ub); with `check`, only to output
  // offsets in [lo, hi).
  auto apply_rows = [&](I64 ob, I64 ub, I64 r0, I64 r1, I64 lo, I64 hi, bool check) {
    for (I64 row = r0; row < r1; ++row) {
      I64 orel = 0, urel = 0;
      if (p.win_rows > 1) row_offsets(p, row, orel, urel);
      T* d = dst + ob + orel;
      const T* s = src + ub + urel;
      if (!check) {
        for (I64 i = 0; i < p.win_inner; ++i) combine<C>(d[i * so], s[i * sb]);
      } else {
        const I64 o0 = ob + orel;
        for (I64 i = 0; i < p.win_inner; ++i) {
          const I64 o = o0 + i * so;
          if (o >= lo && o < hi) combine<C>(d[i * so], s[i * sb]);
        }
      }
    }
  };

  // Skip mode with a window partly outside the operand: everything serially, in window order,
  // the partial windows element by element (window_box).
  // (window_bases returns false only for such windows.)
  bool outside = false;
  if (skip)
    for (I64 w = 0; w < p.n_windows && !outside; ++w) {
      I64 ob, ub;
      outside = !window_bases(p, idx, w, skip, ob, ub);
    }
  if (total < kParallelThreshold || max_threads() == 1 || outside) {
    for (I64 w = 0; w < p.n_windows; ++w) {
      I64 ob, ub;
      if (window_bases(p, idx, w, skip, ob, ub)) apply_rows(ob, ub, 0, p.win_rows, 0, 0, false);
      else window_box(p, idx, w, [&](I64 o, I64 b) { combine<C>(dst[o], src[b]); });
    }
    return;
  }
  const std::unique_ptr<Base[]> table = window_table(p, idx, skip);
  if (p.win_numel >= kParallelThreshold / 8) {
    // Few large windows: windows in order, the rows of one window split across threads
    // (one window never touches an output element twice).
    const int nt = max_threads();
    for (I64 w = 0; w < p.n_windows; ++w) {
      const Base x = table[static_cast<std::size_t>(w)];
      if (x.op >= 0)
        parallel_chunks(p.win_rows, nt, [&](I64 b, I64 e, int) { apply_rows(x.op, x.upd, b, e, 0, 0, false); });
    }
    return;
  }
  // Many small windows: each chunk owns a slice of the output offsets and applies, in window
  // order, the updates that land there (one chunk per thread: every chunk scans all windows).
  const I64 lo_all = out.layout().min_offset(), hi_all = out.layout().max_offset() + 1;
  parallel_chunks(hi_all - lo_all, max_threads(), [&](I64 lo, I64 hi, int) {
    const I64 mine_lo = lo_all + lo, mine_hi = lo_all + hi;
    if (mine_lo >= mine_hi) return;
    for (I64 w = 0; w < p.n_windows; ++w) {
      const Base x = table[static_cast<std::size_t>(w)];
      if (x.op < 0) continue;
      const I64 wlo = x.op + p.win_rel_min, whi = x.op + p.win_rel_max + 1;
      if (whi <= mine_lo || wlo >= mine_hi) continue;
      apply_rows(x.op, x.upd, 0, p.win_rows, mine_lo, mine_hi, wlo < mine_lo || whi > mine_hi);
    }
  }, /*per_thread=*/1);
}

template <class T, class Idx>
void scatter_dispatch(ScatterCombiner c, const TensorView& out, const TensorView& indices, const TensorView& updates,
                      const Plan& p, bool skip) {
  if constexpr (std::is_same_v<T, bool>) {
    TENFERRO_ASSERT(c == ScatterCombiner::replace);
    scatter_typed<ScatterCombiner::replace, T, Idx>(out, indices, updates, p, skip);
  } else {
    switch (c) {
      case ScatterCombiner::replace: return scatter_typed<ScatterCombiner::replace, T, Idx>(out, indices, updates, p, skip);
      case ScatterCombiner::add: return scatter_typed<ScatterCombiner::add, T, Idx>(out, indices, updates, p, skip);
      case ScatterCombiner::mul: return scatter_typed<ScatterCombiner::mul, T, Idx>(out, indices, updates, p, skip);
      case ScatterCombiner::max:
      case ScatterCombiner::min:
        if constexpr (kIsComplex<T>) {
          TENFERRO_ASSERT(!"complex max/min reach the kernel");
        } else if (c == ScatterCombiner::max) {
          scatter_typed<ScatterCombiner::max, T, Idx>(out, indices, updates, p, skip);
        } else {
          scatter_typed<ScatterCombiner::min, T, Idx>(out, indices, updates, p, skip);
        }
        return;
    }
  }
}

}  // namespace

void gather_kernel(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                   const TensorView& out) {
  Axes dropped = cfg.collapsed_slice_dims;
  dropped.insert(dropped.end(), cfg.operand_batching_dims.begin(), cfg.operand_batching_dims.end());
  const Plan p = make_plan(operand, indices, out, cfg.offset_dims, dropped, cfg.slice_sizes, cfg.start_index_map,
                           cfg.index_vector_dim, cfg.operand_batching_dims, cfg.start_indices_batching_dims);
  if (p.n_windows == 0 || p.win_numel == 0) return;
  auto by_index = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (indices.dtype() == DType::I32) gather_typed<T, std::int32_t>(operand, indices, out, p);
    else gather_typed<T, std::int64_t>(operand, indices, out, p);
  };
  TENFERRO_ASSERT(is_integer(indices.dtype()));
  switch (dtype_size(operand.dtype())) {
    case 1: return by_index(type_tag<std::uint8_t>{});
    case 4: return by_index(type_tag<std::uint32_t>{});
    case 8: return by_index(type_tag<std::uint64_t>{});
    case 16: return by_index(type_tag<Bytes16>{});
    default: TENFERRO_ASSERT(!"unexpected element size");
  }
}

void scatter_kernel(const TensorView& out, const TensorView& indices, const TensorView& updates,
                    const ScatterConfig& cfg) {
  TENFERRO_ASSERT(is_integer(indices.dtype()) && out.dtype() == updates.dtype());
  Axes dropped = cfg.inserted_window_dims;
  dropped.insert(dropped.end(), cfg.input_batching_dims.begin(), cfg.input_batching_dims.end());
  // Window extent per operand dim: the updates extent on window dims, 1 elsewhere.
  Shape extent(static_cast<std::size_t>(out.rank()), 1);
  std::size_t next = 0;
  for (I64 d = 0; d < out.rank(); ++d)
    if (!contains_axis(dropped, d))
      extent[static_cast<std::size_t>(d)] = updates.dim(cfg.update_window_dims[next++]);
  const Plan p = make_plan(out, indices, updates, cfg.update_window_dims, dropped, extent,
                           cfg.scatter_dims_to_operand_dims, cfg.index_vector_dim, cfg.input_batching_dims,
                           cfg.scatter_indices_batching_dims);
  if (p.n_windows == 0 || p.win_numel == 0) return;
  const bool skip = cfg.out_of_bounds == OutOfBounds::skip;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (indices.dtype() == DType::I32) scatter_dispatch<T, std::int32_t>(cfg.combiner, out, indices, updates, p, skip);
    else scatter_dispatch<T, std::int64_t>(cfg.combiner, out, indices, updates, p, skip);
  });
}

}  // namespace tenferro::cpu
