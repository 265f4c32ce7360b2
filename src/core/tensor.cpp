// TensorView / Tensor construction, metadata-only views and host mappings.
#include "tenferro/tensor.hpp"

#include <algorithm>

namespace tenferro {

namespace {
void check_reach(const Storage* s, DType dtype, const Layout& l, const char* op) {
  TENFERRO_CHECK(l.strides.size() == l.shape.size(), rank_mismatch, op, "strides", "strides have ",
                 l.strides.size(), " entries, shape has ", l.shape.size());
  shape_numel(l.shape, op);
  if (l.numel() == 0) return;
  // Checked: strides near 2^62 would wrap the offsets into range.
  std::int64_t lo = 0, hi = 0;
  TENFERRO_CHECK(l.offset_range(lo, hi), invalid_argument, op, "layout", "view reaches elements beyond the int64 range (offset ",
                 l.offset, ", strides too large for the shape)");
  const auto cap = static_cast<std::int64_t>(s->nbytes() / dtype_size(dtype));
  TENFERRO_CHECK(lo >= 0 && hi < cap, invalid_argument, op, "layout", "view reaches elements [", lo,
                 ", ", hi, "] outside storage of ", cap, " elements");
}

void check_axis(std::int64_t axis, std::int64_t rank, const char* op, const char* arg) {
  TENFERRO_CHECK(axis >= 0 && axis < rank, axis_out_of_bounds, op, arg, "axis ", axis,
                 " out of range for rank ", rank);
}
}  // namespace

TensorView::TensorView(std::shared_ptr<Storage> storage, DType dtype, Layout layout)
    : storage_(std::move(storage)), dtype_(dtype), layout_(std::move(layout)) {
  TENFERRO_CHECK(storage_ != nullptr, invalid_argument, "view", "storage", "null storage");
  check_reach(storage_.get(), dtype_, layout_, "view");
}

const Placement& TensorView::placement() const {
  TENFERRO_CHECK(storage_ != nullptr, invalid_argument, "placement", "tensor", "tensor is undefined");
  return storage_->placement();
}

DomainId TensorView::domain() const {
  TENFERRO_CHECK(storage_ != nullptr, invalid_argument, "domain", "tensor", "tensor is undefined");
  return storage_->domain();
}

Device TensorView::device() const {
  TENFERRO_CHECK(storage_ != nullptr, invalid_argument, "device", "tensor", "tensor is undefined");
  const Placement& p = storage_->placement();
  return Device(p.device, p.ordinal);
}

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, const Shape& shape)
    : TensorView(std::move(storage), dtype, Layout::compact(shape)) {}

TensorView TensorView::transpose(const Axes& perm) const {
  const std::int64_t r = rank();
  TENFERRO_CHECK(static_cast<std::int64_t>(perm.size()) == r, rank_mismatch, "transpose", "permutation",
                 "permutation has ", perm.size(), " entries, expected ", r, " (operand rank)");
  std::vector<bool> seen(static_cast<std::size_t>(r), false);
  Layout l{Shape(perm.size()), Strides(perm.size()), layout_.offset};
  for (std::size_t i = 0; i < perm.size(); ++i) {
    check_axis(perm[i], r, "transpose", "permutation");
    auto p = static_cast<std::size_t>(perm[i]);
    TENFERRO_CHECK(!seen[p], invalid_argument, "transpose", "permutation", "axis ", perm[i],
                   " repeated in permutation");
    seen[p] = true;
    l.shape[i] = layout_.shape[p];
    l.strides[i] = layout_.strides[p];
  }
  return TensorView(storage_, dtype_, std::move(l));
}

TensorView TensorView::slice(const Shape& starts, const Shape& limits, const Shape& steps) const {
  const auto r = static_cast<std::size_t>(rank());
  TENFERRO_CHECK(starts.size() == r && limits.size() == r && steps.size() == r, rank_mismatch, "slice",
                 "starts", "slice vectors have ", starts.size(), "/", limits.size(), "/", steps.size(),
                 " entries, expected ", r);
  Layout l = layout_;
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t d = layout_.shape[i], s = starts[i], e = limits[i], st = steps[i];
    TENFERRO_CHECK(st != 0, invalid_argument, "slice", "strides", "step 0 at axis ", i);
    std::int64_t n;
    if (st > 0) {
      TENFERRO_CHECK(s >= 0 && s <= e && e <= d, invalid_argument, "slice", "limits", "axis ", i,
                     ": need 0 <= start <= limit <= extent, got start ", s, ", limit ", e, ", extent ", d);
      n = e == s ? 0 : (e - s - 1) / st + 1;  // no overflow for any step
    } else {
      TENFERRO_CHECK(e >= -1 && e <= s && (s < d || s == e), invalid_argument, "slice", "limits", "axis ",
                     i, ": negative step needs -1 <= limit <= start < extent, got start ", s,
                     ", limit ", e, ", extent ", d);
      // |st| in unsigned arithmetic: -st overflows for INT64_MIN.
      const std::uint64_t ust = static_cast<std::uint64_t>(-(st + 1)) + 1;
      n = s == e ? 0 : static_cast<std::int64_t>(static_cast<std::uint64_t>(s - e - 1) / ust + 1);
    }
    l.shape[i] = n;
  }
  // An empty view addresses nothing and keeps the operand's offset and strides (its extents and
  // strides may multiply past int64). Else: the first element, and the steps where an axis has
  // two elements or more (with one the step never applies, and a huge one would overflow).
  if (l.numel() == 0) return TensorView(storage_, dtype_, std::move(l));
  for (std::size_t i = 0; i < r; ++i) {
    l.offset += starts[i] * layout_.strides[i];
    if (l.shape[i] > 1) l.strides[i] *= steps[i];
  }
  return TensorView(storage_, dtype_, std::move(l));
}

TensorView TensorView::reverse(const Axes& axes) const {
  Layout l = layout_;
  // An empty view addresses nothing: its offset stays (its extents and strides may multiply
  // past int64).
  const bool empty = l.numel() == 0;
  std::vector<bool> seen(l.shape.size(), false);
  for (std::int64_t a : axes) {
    check_axis(a, rank(), "reverse", "dimensions");
    auto i = static_cast<std::size_t>(a);
    TENFERRO_CHECK(!seen[i], invalid_argument, "reverse", "dimensions", "axis ", a, " repeated");
    seen[i] = true;
    if (!empty) l.offset += (l.shape[i] - 1) * l.strides[i];
    l.strides[i] = -l.strides[i];
  }
  return TensorView(storage_, dtype_, std::move(l));
}

TensorView TensorView::broadcast_in_dim(const Shape& shape, const Axes& dims) const {
  const char* op = "broadcast_in_dim";
  TENFERRO_CHECK(static_cast<std::int64_t>(dims.size()) == rank(), rank_mismatch, op,
                 "broadcast_dimensions", "broadcast_dimensions has ", dims.size(),
                 " entries, expected ", rank(), " (operand rank)");
  shape_numel(shape, op);
  Layout l{shape, Strides(shape.size(), 0), layout_.offset};
  std::vector<bool> seen(shape.size(), false);
  for (std::size_t j = 0; j < dims.size(); ++j) {
    check_axis(dims[j], static_cast<std::int64_t>(shape.size()), op, "broadcast_dimensions");
    auto o = static_cast<std::size_t>(dims[j]);
    TENFERRO_CHECK(!seen[o], invalid_argument, op, "broadcast_dimensions", "dimension ", dims[j],
                   " repeated");
    seen[o] = true;
    TENFERRO_CHECK(layout_.shape[j] == shape[o] || layout_.shape[j] == 1, shape_mismatch, op, "shape",
                   "operand extent ", layout_.shape[j], " at axis ", j, " cannot broadcast to ", shape[o]);
    l.strides[o] = layout_.shape[j] == shape[o] ? layout_.strides[j] : 0;
  }
  if (l.numel() == 0) l.offset = 0, l.strides = compact_strides(shape);
  if (numel() == 0 && l.numel() != 0)
    TENFERRO_FAIL(shape_mismatch, op, "shape", "cannot broadcast an empty operand to ", shape);
  return TensorView(storage_, dtype_, std::move(l));
}

TensorView TensorView::reshape(const Shape& shape) const {
  const std::int64_t n = shape_numel(shape, "reshape");
  TENFERRO_CHECK(n == numel(), shape_mismatch, "reshape", "shape", "new shape ", shape, " has ", n,
                 " elements, operand ", layout_.shape, " has ", numel());
  // Without a copy: the coalesced source must be one chain (or the data compact).
  Layout c = coalesce(layout_);
  TENFERRO_CHECK(c.shape.size() <= 1, invalid_argument, "reshape", "operand",
                 "view layout cannot be reshaped without a copy");
  const std::int64_t step = c.shape.empty() ? 1 : c.strides[0];
  Layout l{shape, compact_strides(shape), c.offset};
  // Strides of extent-1 axes are never applied and could pass int64 times the step.
  for (std::size_t i = 0; i < l.strides.size(); ++i)
    if (l.shape[i] > 1) l.strides[i] *= step;
  if (n == 0) l.offset = 0;
  return TensorView(storage_, dtype_, std::move(l));
}

TensorView TensorView::diagonal(std::int64_t a, std::int64_t b) const {
  const char* op = "extract_diagonal";
  check_axis(a, rank(), op, "axes");
  check_axis(b, rank(), op, "axes");
  TENFERRO_CHECK(a != b, invalid_argument, op, "axes", "diagonal axes are equal (", a, ")");
  auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  TENFERRO_CHECK(layout_.shape[ua] == layout_.shape[ub], shape_mismatch, op, "x", "diagonal axes have extents ",
                 layout_.shape[ua], " and ", layout_.shape[ub]);
  Layout l = layout_;
  l.strides[ua] += l.strides[ub];
  l.shape.erase(l.shape.begin() + b);
  l.strides.erase(l.strides.begin() + b);
  return TensorView(storage_, dtype_, std::move(l));
}

namespace {
std::shared_ptr<Storage> checked_storage(std::shared_ptr<Storage> storage, bool writable) {
  TENFERRO_CHECK(storage != nullptr, invalid_argument, writable ? "map_write" : "map_read", "t",
                 "tensor is undefined");
  return storage;
}
}  // namespace

HostMapping::HostMapping(std::shared_ptr<Storage> storage, DType dtype, bool writable)
    : storage_(checked_storage(std::move(storage), writable)), base_(storage_->host_data()),
      nbytes_(storage_->nbytes()), dtype_(dtype), writable_(writable) {
  TENFERRO_CHECK(base_ != nullptr || nbytes_ == 0, host_access, writable ? "map_write" : "map_read",
                 "tensor", "storage in ", to_string(storage_->placement()),
                 " is not host-visible: download it first");
}

CheckedSpan<const std::byte> HostMapping::bytes(std::size_t offset, std::size_t count) const& {
  std::size_t end = 0;
  TENFERRO_CHECK(!__builtin_add_overflow(offset, count, &end) && end <= nbytes_, host_access, "map",
                 "range", "byte range [", offset, ", +", count, ") exceeds mapping of ", nbytes_, " bytes");
  return CheckedSpan<const std::byte>(base_ + offset, count);
}

void HostMapping::check_type(std::size_t size, std::size_t align) const {
  TENFERRO_CHECK(size == dtype_size(dtype_), host_access, "map", "type", "element size ", size,
                 " does not match dtype ", dtype_name(dtype_), " (", dtype_size(dtype_), " bytes)");
  TENFERRO_CHECK(reinterpret_cast<std::uintptr_t>(base_) % align == 0, host_access, "map", "type",
                 "mapping address is not aligned to ", align, " bytes");
}

HostMapping map_read(const TensorView& t) { return HostMapping(t.storage(), t.dtype(), false); }
HostMapping map_write(const TensorView& t) { return HostMapping(t.storage(), t.dtype(), true); }

}  // namespace tenferro
