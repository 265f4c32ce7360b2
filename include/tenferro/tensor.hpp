// Tensors: shared storage + layout + dtype. `TensorView` is any strided view (signed strides,
// offset, broadcast); `Tensor` is an owned compact tensor (offset 0, column-major strides).
// View operations are metadata-only and bounds-checked against the storage.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "tenferro/device.hpp"
#include "tenferro/dtype.hpp"
#include "tenferro/error.hpp"
#include "tenferro/layout.hpp"

namespace tenferro {

/// Bytes owned by one backend allocation. Subclassed by each backend.
class Storage {
 public:
  Storage(std::size_t nbytes, DomainId domain, Placement placement)
      : nbytes_(nbytes), domain_(domain), id_(new_allocation_id()), placement_(placement) {}
  virtual ~Storage() = default;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  std::size_t nbytes() const { return nbytes_; }
  DomainId domain() const { return domain_; }
  AllocationId allocation_id() const { return id_; }
  const Placement& placement() const { return placement_; }
  /// Host address of byte 0 when the host can access the bytes directly, else nullptr.
  virtual std::byte* host_data() { return nullptr; }

 private:
  std::size_t nbytes_;
  DomainId domain_;
  AllocationId id_;
  Placement placement_;
};

class TensorView {
 public:
  TensorView() = default;
  /// @pre layout reaches only elements inside storage (checked: Error{invalid_argument}).
  TensorView(std::shared_ptr<Storage> storage, DType dtype, Layout layout);

  DType dtype() const { return dtype_; }
  const Layout& layout() const { return layout_; }
  const Shape& shape() const { return layout_.shape; }
  const Strides& strides() const { return layout_.strides; }
  std::int64_t offset() const { return layout_.offset; }
  std::int64_t rank() const { return layout_.rank(); }
  std::int64_t numel() const { return layout_.numel(); }
  std::int64_t dim(std::int64_t axis) const { return layout_.shape.at(static_cast<std::size_t>(axis)); }
  bool is_compact() const { return layout_.is_compact(); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  /// Where the storage lives, and its allocation domain. Error{invalid_argument} for an
  /// undefined view.
  const Placement& placement() const;
  DomainId domain() const;
  bool defined() const { return storage_ != nullptr; }
  /// The device the elements live on (from the storage's placement). Error{invalid_argument}
  /// for an undefined view.
  Device device() const;

  // Metadata-only views: a member function never copies elements, it returns a view of the same
  // storage (writes through one are seen through the other). The free functions of the same
  // names (transpose_copy, ...: tenferro/api.hpp, tenferro/ops.hpp) return new compact tensors.
  // Each throws the SEMANTICS.md error kinds for bad arguments.
  /// out.shape[i] = shape[perm[i]].
  TensorView transpose(const Axes& perm) const;
  /// Per axis: elements start, start+step, ... strictly before limit (step > 0) or strictly
  /// after limit (step < 0, start > limit, limit may be -1). step == 0 is invalid_argument.
  TensorView slice(const Shape& starts, const Shape& limits, const Shape& steps) const;
  /// Reverses the listed axes (negative strides).
  TensorView reverse(const Axes& axes) const;
  /// StableHLO broadcast_in_dim as a view: stride 0 on new and extent-1 axes.
  TensorView broadcast_in_dim(const Shape& shape, const Axes& dims) const;
  /// Column-major reshape; only for views whose layout allows it without a copy
  /// (compact data always does), else Error{invalid_argument}.
  TensorView reshape(const Shape& shape) const;
  /// Diagonal of axes a and b: keeps axis a (extent min), drops b. @pre shape[a] == shape[b].
  TensorView diagonal(std::int64_t a, std::int64_t b) const;

 protected:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::F32;
  Layout layout_;
};

/// An owned, compact tensor (offset 0, compact column-major strides).
class Tensor : public TensorView {
 public:
  Tensor() = default;
  /// @pre storage holds at least numel(shape) elements of dtype.
  Tensor(std::shared_ptr<Storage> storage, DType dtype, const Shape& shape);
};

/// A bounds-checked span: every access and subspan is checked; failures raise
/// Error{host_access}.
template <class T> class CheckedSpan {
 public:
  CheckedSpan(T* data, std::size_t size) : data_(data), size_(size) {}
  std::size_t size() const { return size_; }
  T* data() const { return data_; }
  T& operator[](std::size_t i) const {
    TENFERRO_CHECK(i < size_, host_access, "map", "index", "element ", i, " out of range: span has ",
                   size_, " elements");
    return data_[i];
  }
  CheckedSpan subspan(std::size_t offset, std::size_t count) const {
    TENFERRO_CHECK(offset <= size_ && count <= size_ - offset, host_access, "map", "range",
                   "subspan [", offset, ", +", count, ") exceeds span of ", size_, " elements");
    return CheckedSpan(data_ + offset, count);
  }
  std::span<T> unchecked() const { return std::span<T>(data_, size_); }
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }

 private:
  T* data_;
  std::size_t size_;
};

/// Direct host access to a tensor's whole storage (zero copies; not counted as a transfer).
/// Keeps the storage alive. Created by map_read / map_write. Spans and pointers are only taken
/// from a mapping that is not a temporary (`map_read(t).read<float>()` does not compile): they
/// are valid while the mapping lives.
class HostMapping {
 public:
  /// Throws Error{invalid_argument} for a null storage (an undefined view), Error{host_access}
  /// when the storage is not host-visible; both name map_read or map_write.
  HostMapping(std::shared_ptr<Storage> storage, DType dtype, bool writable);
  std::size_t nbytes() const { return nbytes_; }
  DType dtype() const { return dtype_; }
  /// Raw bytes [offset, offset+count): checked for overflow and range.
  CheckedSpan<const std::byte> bytes(std::size_t offset, std::size_t count) const&;
  CheckedSpan<const std::byte> bytes(std::size_t offset, std::size_t count) const&& = delete;
  /// Typed element span over the storage. @pre sizeof(T) == dtype_size(dtype) and the base
  /// address is aligned for T, else Error{host_access}.
  template <class T> CheckedSpan<const T> read() const& {
    check_type(sizeof(T), alignof(T));
    return CheckedSpan<const T>(reinterpret_cast<const T*>(base_), nbytes_ / sizeof(T));
  }
  template <class T> CheckedSpan<const T> read() const&& = delete;
  template <class T> CheckedSpan<T> write() const& {
    TENFERRO_CHECK(writable_, host_access, "map_write", "mapping", "mapping is read-only");
    check_type(sizeof(T), alignof(T));
    return CheckedSpan<T>(reinterpret_cast<T*>(base_), nbytes_ / sizeof(T));
  }
  template <class T> CheckedSpan<T> write() const&& = delete;
  std::byte* raw() const& { return base_; }
  std::byte* raw() const&& = delete;

 private:
  void check_type(std::size_t size, std::size_t align) const;
  std::shared_ptr<Storage> storage_;
  std::byte* base_;
  std::size_t nbytes_;
  DType dtype_;
  bool writable_;
};

/// An uninitialized compact host tensor (kHostDomain: the CPU backend's tensors, the source of
/// uploads and the result of downloads). Throws Error{out_of_memory}.
Tensor host_empty(DType dtype, const Shape& shape);
/// Host tensors built from / read back to std::vector in colex order.
template <class T> Tensor host_tensor(const Shape& shape, const std::vector<T>& values);
Tensor host_tensor_zeros(DType dtype, const Shape& shape);
/// The elements of any tensor in colex order, wherever it lives: a host tensor is read, a
/// device tensor downloaded by the backend that owns it (registered_backend; the same path
/// whether or not the device memory is host-visible). Error{invalid_argument} for an undefined
/// view, dtype_mismatch when T is not the dtype's element type, host_access when no backend
/// owns the tensor's domain.
template <class T> std::vector<T> to_vector(const TensorView& t);
template <> Tensor host_tensor<bool>(const Shape& shape, const std::vector<bool>& values);
template <> std::vector<bool> to_vector<bool>(const TensorView& t);

/// Maps a tensor's storage for reading; Error{host_access} when its memory is not host-visible,
/// Error{invalid_argument} for an undefined view.
HostMapping map_read(const TensorView& t);
/// Maps for writing; same rule.
HostMapping map_write(const TensorView& t);

}  // namespace tenferro
