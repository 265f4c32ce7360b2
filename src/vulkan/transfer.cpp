// upload / download: host views <-> compact device tensors. Zero-copy memcpy when device memory
// is host-visible (Managed placement), else staging buffers and vkCmdCopyBuffer. Both count
// bytes in transfer_stats(); map_read/map_write (host_data) never do.
#include <cstring>

#include "backend_common/host_pack.hpp"
#include "core/check.hpp"
#include "vulkan/backend.hpp"

namespace tenferro::vk {

using detail::pack;

namespace {
ByteRange range_of(const Allocation& a, std::uint64_t byte_offset, std::uint64_t bytes) {
  return {a.address + byte_offset, a.address + byte_offset + bytes};
}

void copy_buffer(VulkanBackend& be, const Allocation& src, std::uint64_t src_off, const Allocation& dst,
                 std::uint64_t dst_off, std::uint64_t bytes) {
  const ByteRange r[1] = {range_of(src, src_off, bytes)}, w[1] = {range_of(dst, dst_off, bytes)};
  FamilyScope family(KernelFamily::transfer);
  VkCommandBuffer cmd = be.recorder().record(r, w, bytes, /*transfer=*/true);
  const VkBufferCopy region{src.offset + src_off, dst.offset + dst_off, bytes};
  vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &region);
}
}  // namespace

Tensor VulkanBackend::upload(const TensorView& host) {
  detail::check_upload_source(host);
  check_usable("upload");
  return guarded("upload", [&] {
    Tensor out = allocate(host.dtype(), host.shape());
    const std::uint64_t bytes = static_cast<std::uint64_t>(out.numel()) * dtype_size(out.dtype());
    ups_++;
    up_bytes_ += bytes;
    if (bytes == 0) return out;
    VkStorage& s = storage_of(out);
    if (s.allocation().mapped) {  // zero-copy (host_data waits for earlier users of the bytes)
      pack(host, s.host_data());
      return out;
    }
    auto guard = lock();
    const Allocation staging = allocate_memory(bytes, MemoryIntent::upload);
    pack(host, staging.mapped);
    copy_buffer(*this, staging, 0, s.allocation(), 0, bytes);
    s.last_use = recorder_->open_value();
    release_after(staging, recorder_->open_value());
    after_op();
    return out;
  });
}

Tensor VulkanBackend::download(const TensorView& t) {
  detail::check_resident(*this, t, "download", "t");
  return guarded("download", [&] {
    Tensor host = host_empty(t.dtype(), t.shape());
    const std::size_t es = dtype_size(t.dtype());
    const std::uint64_t bytes = static_cast<std::uint64_t>(t.numel()) * es;
    if (bytes > 0) {
      TensorView src = t;
      Tensor compact;
      if (!t.is_compact()) {  // gather the view on the GPU first, then move contiguous bytes
        compact = allocate(t.dtype(), t.shape());
        copy_kernel(*this, t, compact);
        src = compact;
      }
      const VkStorage& s = storage_of(src);
      const std::uint64_t first = static_cast<std::uint64_t>(src.offset()) * es;
      std::byte* dst = host.storage()->host_data();
      if (s.allocation().mapped) {
        synchronize();  // waits for the producers and rethrows kernel errors
        std::memcpy(dst, s.allocation().mapped + first, bytes);
      } else {
        Allocation staging;
        {
          auto guard = lock();
          staging = allocate_memory(bytes, MemoryIntent::readback);
          copy_buffer(*this, s.allocation(), first, staging, 0, bytes);
        }
        // The staging memory goes back even when synchronize() throws (unless the device is
        // lost: release_after keeps a lost device's memory).
        struct Release {
          VulkanBackend& be;
          Allocation a;
          ~Release() {
            auto guard = be.lock();
            be.release_after(a, 0);
          }
        } release{*this, staging};
        synchronize();
        std::memcpy(dst, staging.mapped, bytes);
      }
    } else {
      synchronize();
    }
    downs_++;
    down_bytes_ += bytes;
    return host;
  });
}

}  // namespace tenferro::vk
