// Host memory: the storage of the CPU backend's tensors and of every upload's source and
// download's result (kHostDomain), and the host-tensor helpers of tenferro/tensor.hpp.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include <unistd.h>

#include "core/host_memory.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/error.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro {

/// 64-byte aligned host allocation.
class HostStorage final : public Storage {
 public:
  explicit HostStorage(std::size_t nbytes);
  ~HostStorage() override;
  std::byte* host_data() override { return data_; }

 private:
  std::byte* data_;
};

namespace {
// Large host blocks are kept after they are freed and handed out again for the same rounded
// size: a fresh mmap'ed block costs a page fault per 4 KiB on first touch, which halves the
// bandwidth of memory-bound ops that allocate their output. At most kCacheBytes are kept.
constexpr std::size_t kCacheMin = 1 << 20;
constexpr std::size_t kCacheBytes = std::size_t{1} << 30;

std::size_t rounded_size(std::size_t nbytes) {
  const std::size_t unit = nbytes >= kCacheMin ? kCacheMin : 64;
  return (nbytes + unit - 1) / unit * unit;
}

struct BlockCache {
  std::mutex mu;
  std::multimap<std::size_t, std::byte*> blocks;
  std::size_t bytes = 0;

  std::byte* take(std::size_t size) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = blocks.find(size);
    if (it == blocks.end()) return nullptr;
    std::byte* p = it->second;
    blocks.erase(it);
    bytes -= size;
    return p;
  }
  bool give(std::size_t size, std::byte* p) {
    std::lock_guard<std::mutex> lock(mu);
    if (bytes + size > kCacheBytes) return false;
    blocks.emplace(size, p);
    bytes += size;
    return true;
  }
};

std::atomic<std::uint64_t> g_in_use{0}, g_peak{0};

void count_allocated(std::uint64_t bytes) {
  const std::uint64_t now = g_in_use.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::uint64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

// Never destroyed: tensors held in static objects may be freed after any static cache would be.
BlockCache& block_cache() {
  static BlockCache* cache = new BlockCache;
  return *cache;
}
}  // namespace

HostStorage::HostStorage(std::size_t nbytes)
    : Storage(nbytes, kHostDomain, {MemoryKind::UnpinnedHost, DeviceKind::Cpu, 0}) {
  const std::size_t size = rounded_size(nbytes);
  data_ = size >= kCacheMin ? block_cache().take(size) : nullptr;
  if (data_ == nullptr && size > 0) data_ = static_cast<std::byte*>(std::aligned_alloc(64, size));
  TENFERRO_CHECK(data_ != nullptr || nbytes == 0, out_of_memory, "allocate", "", "host allocation of ",
                 nbytes, " bytes failed");
  count_allocated(nbytes);
}

HostStorage::~HostStorage() {
  g_in_use.fetch_sub(nbytes(), std::memory_order_relaxed);
  const std::size_t size = rounded_size(nbytes());
  if (size >= kCacheMin && block_cache().give(size, data_)) return;
  std::free(data_);
}

namespace detail {

MemoryUsage host_memory_usage() {
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  const std::uint64_t in_use = g_in_use.load(std::memory_order_relaxed);
  // Available memory is what is free now: the capacity is that plus what tensors hold.
  const std::uint64_t avail = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
  return {true, in_use, g_peak.load(std::memory_order_relaxed), avail + in_use};
}

void reset_host_memory_peak() { g_peak.store(g_in_use.load(std::memory_order_relaxed), std::memory_order_relaxed); }

}  // namespace detail

Tensor host_empty(DType dtype, const Shape& shape) {
  const std::int64_t n = shape_numel(shape, "allocate");
  std::size_t bytes = 0;
  TENFERRO_CHECK(!__builtin_mul_overflow(static_cast<std::size_t>(n), dtype_size(dtype), &bytes),
                 out_of_memory, "allocate", "shape", "size of ", shape, " overflows");
  return Tensor(std::make_shared<HostStorage>(bytes), dtype, shape);
}

Tensor host_tensor_zeros(DType dtype, const Shape& shape) {
  Tensor t = host_empty(dtype, shape);
  if (t.numel() > 0) std::memset(t.storage()->host_data(), 0, t.storage()->nbytes());
  return t;
}

template <class T> Tensor host_tensor(const Shape& shape, const std::vector<T>& values) {
  Tensor t = host_empty(dtype_of<T>(), shape);
  TENFERRO_CHECK(static_cast<std::int64_t>(values.size()) == t.numel(), shape_mismatch, "host_tensor",
                 "values", "got ", values.size(), " values for shape ", shape);
  T* p = reinterpret_cast<T*>(t.storage()->host_data());
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}

namespace {
/// t itself when it is a host tensor, else its download by the backend that owns it.
TensorView readable(const TensorView& t, DType want) {
  TENFERRO_CHECK(t.defined(), invalid_argument, "to_vector", "t", "tensor is undefined");
  TENFERRO_CHECK(t.dtype() == want, dtype_mismatch, "to_vector", "t", "tensor has dtype ", dtype_name(t.dtype()),
                 ", asked for ", dtype_name(want));
  if (t.domain() == kHostDomain) return t;
  Backend* be = registered_backend(t.domain());
  TENFERRO_CHECK(be != nullptr, host_access, "to_vector", "t", "tensor of ", to_string(t.placement()),
                 " belongs to no registered backend: download it with its backend first");
  return be->download(t);
}

template <class T> std::vector<T> read_elements(const TensorView& t) {
  const TensorView h = readable(t, dtype_of<T>());
  std::vector<T> out(static_cast<std::size_t>(h.numel()));
  if (h.numel() == 0) return out;
  const T* p = reinterpret_cast<const T*>(h.storage()->host_data());
  for (std::int64_t i = 0; i < h.numel(); ++i) out[static_cast<std::size_t>(i)] = p[h.layout().offset_of(i)];
  return out;
}
}  // namespace

template <class T> std::vector<T> to_vector(const TensorView& t) { return read_elements<T>(t); }

#define TENFERRO_INST(T)                                                          \
  template Tensor host_tensor<T>(const Shape&, const std::vector<T>&);            \
  template std::vector<T> to_vector<T>(const TensorView&);
TENFERRO_INST(float)
TENFERRO_INST(double)
TENFERRO_INST(std::int32_t)
TENFERRO_INST(std::int64_t)
TENFERRO_INST(c32)
TENFERRO_INST(c64)
#undef TENFERRO_INST

// std::vector<bool> is bit-packed: Bool host tensors go through uint8 helpers.
template <> Tensor host_tensor<bool>(const Shape& shape, const std::vector<bool>& values) {
  Tensor t = host_empty(DType::Bool, shape);
  TENFERRO_CHECK(static_cast<std::int64_t>(values.size()) == t.numel(), shape_mismatch, "host_tensor",
                 "values", "got ", values.size(), " values for shape ", shape);
  bool* p = reinterpret_cast<bool*>(t.storage()->host_data());
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}
template <> std::vector<bool> to_vector<bool>(const TensorView& t) { return read_elements<bool>(t); }

}  // namespace tenferro
