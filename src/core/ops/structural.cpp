// Structural ops (SEMANTICS.md "Structural" and the slice/pad/concatenate/reverse part of
// "Indexing"). Each op validates everything first (errors name the op and the argument; the
// TensorView view methods would name ops of their own, so they are only called on checked
// arguments), then lowers to backend primitives (STYLE.md B0.3):
//   transpose/reverse/broadcast_in_dim/extract_diagonal/slice/reshape/to_contiguous:
//       a metadata-only view of x + be.copy into a fresh compact tensor;
//   embed_diagonal: fill zero + copy into the diagonal view of the output;
//   pad: fill (or copy of a stride-0 pad value) + copy into a strided view of the output;
//   concatenate: one copy per input into a slice view of the output;
//   tril/triu: be.triangular; dynamic_slice: be.gather; dynamic_update_slice: copy + be.scatter.
// Zero-extent results are returned as correctly shaped empty tensors without calling kernels.
//
// Definitions that the header leaves open:
// - embed_diagonal(x, a, b): a indexes x's axes (0 <= a < rank), b is the position of the new
//   axis in the output (0 <= b <= rank). out.shape = x.shape with x.shape[a] inserted at b.
//   x's axis a sits in the output at a' = (a < b ? a : a + 1), and
//   out[.., i at a', .., j at b, ..] = (i == j) ? x[.., i at a, ..] : 0. a == b is allowed.
//   Hence extract_diagonal(embed_diagonal(x, a, b), a', b) == x (a' == a when a < b).
//   This is tenferro-rs's EmbedDiag convention.
// - copy_into: src and dst overlap when they share at least one storage element (exact test:
//   disjoint ranges, then a gcd test, then enumeration); interleaved views of one buffer that
//   share no element are accepted. A dst that reaches one element twice (broadcast) is
//   invalid_argument.
#include <algorithm>
#include <numeric>
#include <string>

#include "core/check.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

namespace {

using detail::check_resident;
using detail::check_supported;

std::size_t uz(std::int64_t v) { return static_cast<std::size_t>(v); }

/// Checks resident + supported for the single tensor input of a unary structural op.
void check_input(const Backend& be, OpId op, const TensorView& x, const char* arg = "x") {
  const std::string name(op_name(op));
  check_resident(be, x, name.c_str(), arg);
  check_supported(be, op, x.dtype(), arg);
}

/// A list that must have one entry per axis.
void check_rank_list(std::size_t size, std::int64_t rank, const char* op, const char* arg, const char* what) {
  TENFERRO_CHECK(static_cast<std::int64_t>(size) == rank, rank_mismatch, op, arg, what, " has ", size,
                 " entries, expected ", rank, " (operand rank)");
}

/// Extents must be non-negative.
void check_extents(const Shape& shape, const char* op, const char* arg) {
  for (std::size_t i = 0; i < shape.size(); ++i)
    TENFERRO_CHECK(shape[i] >= 0, invalid_argument, op, arg, "extent ", shape[i], " at axis ", i,
                   " is negative");
}
/// Extents must be non-negative and their product must fit in int64.
void check_shape(const Shape& shape, const char* op, const char* arg) {
  check_extents(shape, op, arg);
  shape_numel(shape, op);
}

/// A fresh compact output; when non-empty, filled by be.copy from `view` (same shape).
/// make_view runs only then: view methods are never called for an empty result.
template <class MakeView>
Tensor copy_out(Backend& be, const TensorView& x, const Shape& shape, MakeView&& make_view) {
  Tensor out = be.allocate(x.dtype(), shape);
  if (out.numel() > 0) be.copy(make_view(), out);
  return out;
}

/// A view over out's storage with the given layout (no checks beyond the storage bound).
TensorView view_of(const TensorView& base, Layout layout) {
  return TensorView(base.storage(), base.dtype(), std::move(layout));
}

// ---- exact overlap tests for copy_into ------------------------------------------------------

/// The layout's element set as |strides| over the min offset, extent-1 axes dropped.
Layout canonical_set(const Layout& l) {
  Layout c{{}, {}, l.min_offset()};
  for (std::size_t i = 0; i < l.shape.size(); ++i) {
    if (l.shape[i] == 1) continue;
    c.shape.push_back(l.shape[i]);
    c.strides.push_back(l.strides[i] < 0 ? -l.strides[i] : l.strides[i]);
  }
  return c;
}

/// Calls f(offset) for every element of a (non-empty) layout until f returns true.
template <class F> bool any_offset(const Layout& l, F&& f) {
  const std::size_t r = l.shape.size();
  std::vector<std::int64_t> idx(r, 0);
  std::int64_t off = l.offset;
  for (;;) {
    if (f(off)) return true;
    std::size_t a = 0;
    for (; a < r; ++a) {
      off += l.strides[a];
      if (++idx[a] < l.shape[a]) break;
      off -= l.shape[a] * l.strides[a];
      idx[a] = 0;
    }
    if (a == r) return false;
  }
}

/// True when two distinct colex indices of l reach the same element.
bool self_overlaps(const Layout& layout) {
  if (layout.numel() <= 1) return false;
  Layout l = canonical_set(layout);
  SmallVector<std::size_t, 8> order(l.shape.size());  // inline: copy_into runs this per call
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return l.strides[x] < l.strides[y]; });
  // Sufficient condition for injectivity: each stride exceeds the span of the smaller ones.
  std::int64_t span = 0;
  bool nested = true;
  for (std::size_t i : order) {
    if (l.strides[i] <= span) nested = false;
    span += (l.shape[i] - 1) * l.strides[i];
  }
  if (nested) return false;
  // Exact: mark every reached element once (the range is bounded by the storage size).
  const std::int64_t lo = l.min_offset();
  std::vector<bool> seen(uz(l.max_offset() - lo + 1), false);
  return any_offset(l, [&](std::int64_t off) {
    const std::size_t k = uz(off - lo);
    if (seen[k]) return true;
    seen[k] = true;
    return false;
  });
}

/// True when layouts a and b (of one storage) reach at least one common element.
bool overlaps(const Layout& la, const Layout& lb) {
  if (la.numel() == 0 || lb.numel() == 0) return false;
  const Layout a = canonical_set(la), b = canonical_set(lb);
  const std::int64_t lo = std::max(a.min_offset(), b.min_offset());
  const std::int64_t hi = std::min(a.max_offset(), b.max_offset());
  if (lo > hi) return false;
  // Every reached offset is offset + a multiple of g: different residues never meet.
  std::int64_t g = 0;
  for (std::int64_t s : a.strides) g = std::gcd(g, s);
  for (std::int64_t s : b.strides) g = std::gcd(g, s);
  if (g > 1 && (a.offset - b.offset) % g != 0) return false;
  if (g == 0) return a.offset == b.offset;  // both single elements
  std::vector<bool> mark(uz(hi - lo + 1), false);
  any_offset(a, [&](std::int64_t off) {
    if (off >= lo && off <= hi) mark[uz(off - lo)] = true;
    return false;
  });
  return any_offset(b, [&](std::int64_t off) { return off >= lo && off <= hi && mark[uz(off - lo)]; });
}

/// Validated starts for dynamic_slice / dynamic_update_slice: a rank-1 tensor of `rank`
/// entries of an index dtype (floats holding integers are cast by index_tensor).
void check_starts(const TensorView& starts, std::int64_t rank, const char* op) {
  TENFERRO_CHECK(starts.rank() == 1, invalid_argument, op, "starts", "starts has rank ", starts.rank(),
                 ", expected a rank-1 tensor with one start per axis");
  TENFERRO_CHECK(starts.dim(0) == rank, invalid_argument, op, "starts", "starts has ", starts.dim(0),
                 " entries, expected ", rank, " (operand rank)");
  const DType d = starts.dtype();
  TENFERRO_CHECK(is_integer(d) || is_real_float(d), invalid_argument, op, "starts", "starts has dtype ",
                 dtype_name(d), ", expected i32 or i64 (or f32/f64 holding exact integers)");
}

/// detail::index_tensor, with errors of the cast primitive (which knows the op but not the
/// argument, and names it "x") attributed to `starts`.
TensorView starts_index(Backend& be, const TensorView& starts, const char* op) {
  try {
    return detail::index_tensor(be, starts, op, "starts");
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::invalid_argument || e.op() != op || e.arg() == "starts") throw;
    throw Error(e.kind(), e.op(), "starts", e.detail());
  }
}

Axes iota_axes(std::int64_t r) {
  Axes a(uz(r));
  std::iota(a.begin(), a.end(), 0);
  return a;
}

}  // namespace

// ---- views + copy ---------------------------------------------------------------------------

Tensor transpose_copy(Backend& be, const TensorView& x, const Axes& perm) {
  const char* op = "transpose";
  check_input(be, OpId::transpose, x);
  check_rank_list(perm.size(), x.rank(), op, "perm", "permutation");
  detail::check_axes(perm, x.rank(), op, "perm");
  Shape shape(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) shape[i] = x.dim(perm[i]);
  return copy_out(be, x, shape, [&] { return x.transpose(perm); });
}

Tensor reshape_copy(Backend& be, const TensorView& x, const Shape& shape) {
  const char* op = "reshape";
  check_input(be, OpId::reshape, x);
  check_extents(shape, op, "shape");
  // The element count must be x's: a count past int64 cannot be, so it is a shape_mismatch too.
  const std::optional<std::int64_t> count = numel_if_fits(shape);
  TENFERRO_CHECK(count.has_value(), shape_mismatch, op, "shape", "new shape ", shape,
                 " has more than 2^63 - 1 elements, expected ", x.numel(), " (operand shape ", x.shape(), ")");
  const std::int64_t n = *count;
  TENFERRO_CHECK(n == x.numel(), shape_mismatch, op, "shape", "new shape ", shape, " has ", n,
                 " elements, expected ", x.numel(), " (operand shape ", x.shape(), ")");
  Tensor out = be.allocate(x.dtype(), shape);
  // Column-major order: the compact output seen with x's shape is the colex image of x.
  if (n > 0) be.copy(x, out.reshape(x.shape()));
  return out;
}

Tensor broadcast_in_dim_copy(Backend& be, const TensorView& x, const Shape& shape, const Axes& dims) {
  const char* op = "broadcast_in_dim";
  check_input(be, OpId::broadcast_in_dim, x);
  check_shape(shape, op, "shape");
  check_rank_list(dims.size(), x.rank(), op, "dims", "broadcast dimensions");
  detail::check_axes(dims, static_cast<std::int64_t>(shape.size()), op, "dims");
  for (std::size_t j = 0; j < dims.size(); ++j) {
    const std::int64_t e = x.shape()[j], t = shape[uz(dims[j])];
    TENFERRO_CHECK(e == t || e == 1, shape_mismatch, op, "shape", "operand extent ", e, " at axis ", j,
                   " cannot broadcast to extent ", t, " at output axis ", dims[j]);
  }
  return copy_out(be, x, shape, [&] { return x.broadcast_in_dim(shape, dims); });
}

Tensor extract_diagonal(Backend& be, const TensorView& x, std::int64_t a, std::int64_t b) {
  const char* op = "extract_diagonal";
  check_input(be, OpId::extract_diagonal, x);
  detail::check_axis(a, x.rank(), op, "a");
  detail::check_axis(b, x.rank(), op, "b");
  TENFERRO_CHECK(a != b, invalid_argument, op, "b", "diagonal axes are equal: got a = b = ", a,
                 ", expected two different axes");
  TENFERRO_CHECK(x.dim(a) == x.dim(b), shape_mismatch, op, "x", "diagonal axes ", a, " and ", b,
                 " have extents ", x.dim(a), " and ", x.dim(b), ", expected equal extents");
  Shape shape = x.shape();
  shape.erase(shape.begin() + b);
  return copy_out(be, x, shape, [&] { return x.diagonal(a, b); });
}

Tensor embed_diagonal(Backend& be, const TensorView& x, std::int64_t a, std::int64_t b) {
  const char* op = "embed_diagonal";
  check_input(be, OpId::embed_diagonal, x);
  detail::check_axis(a, x.rank(), op, "a");
  TENFERRO_CHECK(b >= 0 && b <= x.rank(), axis_out_of_bounds, op, "b", "new axis position ", b,
                 " out of range: expected 0 <= b <= ", x.rank(), " (operand rank)");
  Shape shape = x.shape();
  shape.insert(shape.begin() + b, x.dim(a));
  Tensor out = be.allocate(x.dtype(), shape);
  if (out.numel() == 0) return out;
  be.fill(out, detail::zero_of(x.dtype()));
  const std::int64_t a_out = a < b ? a : a + 1;
  // The diagonal view of (a_out, b) drops b and has exactly x's shape and axis order.
  be.copy(x, out.diagonal(a_out, b));
  return out;
}

namespace {
Tensor triangular(Backend& be, const TensorView& x, std::int64_t k, bool lower) {
  const char* op = lower ? "tril" : "triu";
  check_input(be, lower ? OpId::tril : OpId::triu, x);
  TENFERRO_CHECK(x.rank() >= 2, rank_mismatch, op, "x", "operand has rank ", x.rank(),
                 ", expected rank >= 2 (axes 0 rows, 1 cols, later batch)");
  Tensor out = be.allocate(x.dtype(), x.shape());
  if (out.numel() == 0) return out;
  // Canonical k: beyond [-rows, cols] the mask is all-keep or all-zero.
  const std::int64_t kc = std::clamp<std::int64_t>(k, -x.dim(0), x.dim(1));
  be.triangular(x, kc, lower, out);
  return out;
}
}  // namespace

Tensor tril(Backend& be, const TensorView& x, std::int64_t k) { return triangular(be, x, k, true); }
Tensor triu(Backend& be, const TensorView& x, std::int64_t k) { return triangular(be, x, k, false); }

void copy_into(Backend& be, const TensorView& src, const TensorView& dst) {
  const char* op = "copy_into";
  check_resident(be, src, op, "src");
  check_resident(be, dst, op, "dst");
  check_supported(be, OpId::copy_into, src.dtype(), "src");
  detail::check_same_dtype(src, dst, op, "dst");
  detail::check_same_shape(src, dst, op, "dst");
  TENFERRO_CHECK(!self_overlaps(dst.layout()), invalid_argument, op, "dst",
                 "dst reaches some storage elements more than once (a broadcast or overlapping view): "
                 "got strides ", dst.strides(), " for shape ", dst.shape(),
                 ", expected a view whose elements are distinct");
  TENFERRO_CHECK(src.storage() != dst.storage() || !overlaps(src.layout(), dst.layout()), invalid_argument,
                 op, "dst", "dst overlaps src in their shared storage: got dst offset ", dst.offset(),
                 " strides ", dst.strides(), ", src offset ", src.offset(), " strides ", src.strides(),
                 ", expected views with no common element");
  if (dst.numel() > 0) be.copy(src, dst);
}

Tensor to_contiguous(Backend& be, const TensorView& x) {
  check_input(be, OpId::to_contiguous, x);
  return copy_out(be, x, x.shape(), [&] { return x; });
}

Tensor slice_copy(Backend& be, const TensorView& x, const SliceConfig& cfg) {
  const char* op = "slice";
  check_input(be, OpId::slice, x);
  const std::int64_t r = x.rank();
  check_rank_list(cfg.start_indices.size(), r, op, "start_indices", "start_indices");
  check_rank_list(cfg.limit_indices.size(), r, op, "limit_indices", "limit_indices");
  check_rank_list(cfg.strides.size(), r, op, "strides", "strides");
  Shape shape(uz(r));
  for (std::size_t i = 0; i < uz(r); ++i) {
    const std::int64_t s = cfg.start_indices[i], e = cfg.limit_indices[i], st = cfg.strides[i], d = x.shape()[i];
    TENFERRO_CHECK(st > 0, invalid_argument, op, "strides", "stride ", st, " at axis ", i, ", expected > 0");
    TENFERRO_CHECK(s >= 0, invalid_argument, op, "start_indices", "start ", s, " at axis ", i,
                   ", expected >= 0");
    TENFERRO_CHECK(s <= e, invalid_argument, op, "limit_indices", "limit ", e, " at axis ", i,
                   " is below start ", s, ", expected start <= limit");
    TENFERRO_CHECK(e <= d, invalid_argument, op, "limit_indices", "limit ", e, " at axis ", i,
                   " exceeds extent ", d, ", expected limit <= extent");
    shape[i] = e == s ? 0 : (e - s - 1) / st + 1;  // no overflow for any stride
  }
  return copy_out(be, x, shape, [&] { return x.slice(cfg.start_indices, cfg.limit_indices, cfg.strides); });
}

Tensor dynamic_slice(Backend& be, const TensorView& x, const TensorView& starts, const Shape& slice_sizes) {
  const char* op = "dynamic_slice";
  check_input(be, OpId::dynamic_slice, x);
  check_resident(be, starts, op, "starts");
  const std::int64_t r = x.rank();
  check_rank_list(slice_sizes.size(), r, op, "slice_sizes", "slice_sizes");
  for (std::size_t i = 0; i < uz(r); ++i)
    TENFERRO_CHECK(slice_sizes[i] >= 0 && slice_sizes[i] <= x.shape()[i], invalid_argument, op,
                   "slice_sizes", "slice size ", slice_sizes[i], " at axis ", i, " out of range: expected 0 <= size <= extent ",
                   x.shape()[i]);
  check_starts(starts, r, op);
  // May cast float starts (raising invalid_argument for non-integers): after every other check.
  const TensorView idx = starts_index(be, starts, op);
  Tensor out = be.allocate(x.dtype(), slice_sizes);
  if (out.numel() == 0) return out;
  if (r == 0) {  // a scalar is its own only slice; no index vector to gather with
    be.copy(x, out);
    return out;
  }
  // One window, offset dims = all axes; the gather clamps starts into [0, extent - size].
  GatherConfig cfg;
  cfg.offset_dims = iota_axes(r);
  cfg.start_index_map = iota_axes(r);
  cfg.index_vector_dim = 0;
  cfg.slice_sizes = slice_sizes;
  be.gather(x, idx, cfg, out);
  return out;
}

Tensor dynamic_update_slice(Backend& be, const TensorView& operand, const TensorView& update,
                            const TensorView& starts) {
  const char* op = "dynamic_update_slice";
  check_input(be, OpId::dynamic_update_slice, operand, "operand");
  check_resident(be, update, op, "update");
  check_resident(be, starts, op, "starts");
  detail::check_same_dtype(operand, update, op, "update");
  const std::int64_t r = operand.rank();
  TENFERRO_CHECK(update.rank() == r, rank_mismatch, op, "update", "update has rank ", update.rank(),
                 ", expected ", r, " (operand rank)");
  for (std::size_t i = 0; i < uz(r); ++i)
    TENFERRO_CHECK(update.shape()[i] <= operand.shape()[i], invalid_argument, op, "update", "update extent ",
                   update.shape()[i], " at axis ", i, " exceeds operand extent ", operand.shape()[i]);
  check_starts(starts, r, op);
  const TensorView idx = starts_index(be, starts, op);
  Tensor out = be.allocate(operand.dtype(), operand.shape());
  if (out.numel() == 0) return out;
  if (r == 0) {  // the update replaces the whole scalar
    be.copy(update, out);
    return out;
  }
  be.copy(operand, out);
  if (update.numel() == 0) return out;
  // One window covering every axis, clamped into the operand; replace = plain overwrite.
  ScatterConfig cfg;
  cfg.update_window_dims = iota_axes(r);
  cfg.scatter_dims_to_operand_dims = iota_axes(r);
  cfg.index_vector_dim = 0;
  cfg.combiner = ScatterCombiner::replace;
  cfg.out_of_bounds = OutOfBounds::clamp;
  be.scatter(out, idx, update, cfg);
  return out;
}

Tensor pad(Backend& be, const TensorView& x, const PadConfig& cfg, const TensorView& pad_value) {
  const char* op = "pad";
  check_input(be, OpId::pad, x);
  const std::int64_t r = x.rank();
  check_rank_list(cfg.edge_padding_low.size(), r, op, "edge_padding_low", "edge_padding_low");
  check_rank_list(cfg.edge_padding_high.size(), r, op, "edge_padding_high", "edge_padding_high");
  check_rank_list(cfg.interior_padding.size(), r, op, "interior_padding", "interior_padding");
  Shape shape(uz(r));
  for (std::size_t i = 0; i < uz(r); ++i) {
    const std::int64_t n = x.shape()[i], lo = cfg.edge_padding_low[i], hi = cfg.edge_padding_high[i],
                       in = cfg.interior_padding[i];
    TENFERRO_CHECK(in >= 0, invalid_argument, op, "interior_padding", "interior padding ", in, " at axis ", i,
                   ", expected >= 0");
    // extent = lo + hi + n + (n - 1) * interior, exact in 128 bits (each term is below 2^126 in
    // magnitude), so that a negative or huge sum names the padding that makes it so.
    __extension__ typedef __int128 i128;  // (GCC and Clang; -Wpedantic otherwise rejects it)
    const i128 grow = static_cast<i128>(n > 0 ? n - 1 : 0) * in;
    const i128 e = static_cast<i128>(n) + grow + lo + hi;
    const char* culprit = lo < hi ? (e < 0 ? "edge_padding_low" : "edge_padding_high")
                                  : (e < 0 ? "edge_padding_high" : "edge_padding_low");
    if (e > INT64_MAX && grow > INT64_MAX - n) culprit = "interior_padding";
    TENFERRO_CHECK(e <= INT64_MAX, invalid_argument, op, culprit, "padded extent at axis ", i, " (low ", lo,
                   ", high ", hi, ", interior ", in, ", extent ", n, ") overflows int64");
    TENFERRO_CHECK(e >= 0, invalid_argument, op, culprit, "padded extent at axis ", i, " is ",
                   static_cast<std::int64_t>(e), " (low ", lo, ", high ", hi, ", interior ", in, ", extent ", n,
                   "), expected >= 0");
    shape[i] = static_cast<std::int64_t>(e);
  }
  shape_numel(shape, op);
  if (pad_value.defined()) {
    check_resident(be, pad_value, op, "pad_value");
    detail::check_same_dtype(x, pad_value, op, "pad_value");
    TENFERRO_CHECK(pad_value.rank() == 0, invalid_argument, op, "pad_value", "pad value has rank ",
                   pad_value.rank(), ", expected a rank-0 tensor");
  }
  Tensor out = be.allocate(x.dtype(), shape);
  if (out.numel() == 0) return out;
  // Where x lands: x's element j on axis i goes to lo + j * (interior + 1); keep those in range.
  Shape xs(uz(r), 0), xl(uz(r)), xst(uz(r), 1);
  Layout dst{Shape(uz(r)), Strides(uz(r)), 0};
  bool covers = true, any = true;
  for (std::size_t i = 0; i < uz(r); ++i) {
    const std::int64_t n = x.shape()[i], lo = cfg.edge_padding_low[i], e = shape[i];
    const std::int64_t q = n > 1 ? cfg.interior_padding[i] + 1 : 1;
    covers = covers && q == 1 && lo <= 0 && cfg.edge_padding_high[i] <= 0;
    // First element of x in range: j0 = ceil(-lo / q) = (-lo - 1) / q + 1 for lo < 0, kept at
    // most n (then nothing of x lands in range); -(lo + 1) holds for lo = INT64_MIN, -lo not.
    std::int64_t j0 = 0;
    if (lo < 0) {
      const std::int64_t k = (-(lo + 1)) / q;
      j0 = k < n ? k + 1 : n;
    }
    std::int64_t span = 0, j1 = n;
    if (!__builtin_sub_overflow(e - 1, lo, &span)) j1 = span < 0 ? 0 : std::min(n, span / q + 1);
    if (j1 <= j0) {
      any = false;
      continue;
    }
    xs[i] = j0;
    xl[i] = j1;
    dst.shape[i] = j1 - j0;
    dst.strides[i] = out.strides()[i] * q;
    dst.offset += (lo + j0 * q) * out.strides()[i];
  }
  if (!covers) {
    if (pad_value.defined()) {
      be.copy(detail::broadcast_scalar(pad_value, shape), out);
    } else {
      be.fill(out, detail::zero_of(x.dtype()));
    }
  }
  if (any) be.copy(x.slice(xs, xl, xst), view_of(out, dst));
  return out;
}

Tensor concatenate(Backend& be, std::span<const TensorView> inputs, std::int64_t axis) {
  const char* op = "concatenate";
  TENFERRO_CHECK(!inputs.empty(), invalid_argument, op, "inputs", "got no inputs, expected at least one");
  for (const TensorView& t : inputs) check_resident(be, t, op, "inputs");
  const TensorView& x0 = inputs[0];
  check_supported(be, OpId::concatenate, x0.dtype(), "inputs");
  const std::int64_t r = x0.rank();
  for (std::size_t k = 1; k < inputs.size(); ++k) {
    detail::check_same_dtype(x0, inputs[k], op, "inputs");
    TENFERRO_CHECK(inputs[k].rank() == r, rank_mismatch, op, "inputs", "input ", k, " has rank ",
                   inputs[k].rank(), ", expected ", r, " (rank of input 0)");
  }
  detail::check_axis(axis, r, op, "axis");
  Shape shape = x0.shape();
  shape[uz(axis)] = 0;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    for (std::size_t i = 0; i < uz(r); ++i)
      TENFERRO_CHECK(static_cast<std::int64_t>(i) == axis || inputs[k].shape()[i] == x0.shape()[i], shape_mismatch,
                     op, "inputs", "input ", k, " has shape ", inputs[k].shape(), ", expected ", x0.shape(),
                     " on every axis but ", axis);
    TENFERRO_CHECK(!__builtin_add_overflow(shape[uz(axis)], inputs[k].shape()[uz(axis)], &shape[uz(axis)]),
                   invalid_argument, op, "inputs", "concatenated extent overflows int64");
  }
  shape_numel(shape, op);
  Tensor out = be.allocate(x0.dtype(), shape);
  if (out.numel() == 0) return out;
  std::int64_t at = 0;
  for (const TensorView& t : inputs) {
    const std::int64_t n = t.shape()[uz(axis)];
    if (t.numel() > 0) {
      Layout dst = out.layout();
      dst.shape[uz(axis)] = n;
      dst.offset += at * out.strides()[uz(axis)];
      be.copy(t, view_of(out, dst));
    }
    at += n;
  }
  return out;
}

Tensor reverse_copy(Backend& be, const TensorView& x, const Axes& axes) {
  check_input(be, OpId::reverse, x);
  detail::check_axes(axes, x.rank(), "reverse", "axes");
  return copy_out(be, x, x.shape(), [&] { return x.reverse(axes); });
}

}  // namespace tenferro
