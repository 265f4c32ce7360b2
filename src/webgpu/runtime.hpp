// The WebGPU runtime on wgpu-native (api.hpp): the adapters, a device with its queue, storage
// buffers, transfers and compute dispatches of WGSL kernels. What the WebGPU backend builds on;
// everything here waits with wgpuDevicePoll / wgpuInstanceProcessEvents (never a stub of api.hpp)
// and turns WebGPU's errors into tenferro Errors (op "webgpu").
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tenferro/runtime.hpp"
#include "webgpu/api.hpp"

namespace tenferro::webgpu {

/// One adapter as `tenferro devices` lists it, with what the provider needs of its limits.
struct AdapterInfo {
  DeviceInfo row;                          // backend "webgpu", ordinal = enumeration index
  std::string native_api;                  // "Vulkan", "Metal", "D3D12", "OpenGL", ...
  std::uint64_t max_storage_binding = 0;   // maxStorageBufferBindingSize
  std::uint64_t max_buffer = 0;            // maxBufferSize
  std::uint32_t max_storage_buffers = 0;   // maxStorageBuffersPerShaderStage
  std::uint32_t max_workgroups = 0;        // maxComputeWorkgroupsPerDimension
  std::uint32_t max_invocations = 0;       // maxComputeInvocationsPerWorkgroup
  std::uint32_t storage_offset_align = 256;  // minStorageBufferOffsetAlignment
};

/// Every adapter of the primary native APIs wgpu-native finds (Vulkan, Metal, D3D12), in its
/// enumeration order; empty (never throws) without the library or an adapter.
const std::vector<AdapterInfo>& adapters();

/// A storage buffer of the device (usage: storage, copy source and destination).
class Buffer {
 public:
  Buffer() = default;
  Buffer(WGPUBuffer b, std::uint64_t size) : b_(b), size_(size) {}
  Buffer(Buffer&& o) noexcept : b_(o.b_), size_(o.size_) { o.b_ = nullptr; }
  Buffer& operator=(Buffer&& o) noexcept;
  ~Buffer();
  WGPUBuffer get() const { return b_; }
  std::uint64_t size() const { return size_; }

 private:
  WGPUBuffer b_ = nullptr;
  std::uint64_t size_ = 0;
};

/// A compiled WGSL compute kernel (entry point "main") and its bind group layout.
class Kernel {
 public:
  Kernel(WGPUComputePipeline p, WGPUBindGroupLayout l) : pipeline_(p), layout_(l) {}
  Kernel(const Kernel&) = delete;
  ~Kernel();
  WGPUComputePipeline pipeline() const { return pipeline_; }
  WGPUBindGroupLayout layout() const { return layout_; }

 private:
  WGPUComputePipeline pipeline_;
  WGPUBindGroupLayout layout_;
};

/// The device of one adapter and its queue. Methods are not thread-safe (the backend serializes).
class Device {
 public:
  /// Opens adapter `ordinal` of adapters(). Error{unsupported} without wgpu-native or when the
  /// device cannot be created; Error{invalid_argument} for an ordinal that does not exist.
  explicit Device(int ordinal);
  Device(const Device&) = delete;
  ~Device();
  const AdapterInfo& info() const { return *info_; }

  /// A buffer of at least `bytes` (rounded up to 4, at least 16: one element of any dtype, the
  /// least binding of a kernel whose operand is empty). Error{out_of_memory} past the
  /// adapter's maxBufferSize or, when `checked`, when the device refuses it (checking waits for
  /// the device: small internal buffers skip it).
  Buffer create_buffer(std::uint64_t bytes, bool checked = true);
  /// host -> buffer at `offset` (bytes multiple of 4 except the last write of a buffer: padded).
  /// Queue writes run before the commands of the next submission, so the batch is submitted
  /// first, unless `fresh`: no recorded command uses dst yet (a dispatch's parameter buffer).
  void write(const Buffer& dst, std::uint64_t offset, const void* data, std::size_t bytes, bool fresh = false);
  /// buffer -> host: all queued work completes first.
  void read(const Buffer& src, std::uint64_t offset, void* data, std::size_t bytes);
  /// Compiles WGSL (entry point "main"). Error{backend_failure} naming the kernel with the
  /// compiler's message when it does not compile or the pipeline is refused (checked through
  /// an error scope before the pipeline is used: a pipeline of a failed module aborts).
  std::shared_ptr<Kernel> compile(const std::string& name, const std::string& wgsl);
  /// Records one dispatch of `k` with buffers bound at 0..n-1 (group 0) and submits it, or,
  /// while batching, adds it to the batch (submitted every kBatchDispatches dispatches, at
  /// end_batch, and before anything that must follow it on the queue: a read, a write that is
  /// not fresh, synchronize).
  void dispatch(const Kernel& k, std::span<const Buffer* const> buffers, std::uint32_t x, std::uint32_t y = 1,
                std::uint32_t z = 1);
  /// dispatch with `params` (32-bit words) bound at 0 and `data` at 1..n: a buffer of its own,
  /// or, while batching, a slice of the batch's parameter block, written once when the batch
  /// is submitted.
  void dispatch(const Kernel& k, std::span<const std::int32_t> params, std::span<const Buffer* const> data,
                std::uint32_t x, std::uint32_t y, std::uint32_t z);
  /// Waits for all submitted work (the batch submitted first).
  void synchronize();
  /// Dispatches from now on go into one command encoder per batch, submitted together: a
  /// session's ops cost one submission per kBatchDispatches instead of one each.
  void begin_batch() { batching_ = true; }
  /// Submits the batch and returns to one submission per dispatch.
  void end_batch();
  static constexpr int kBatchDispatches = 64;

 private:
  struct ScopeResult {
    bool failed = false;
    std::string message;
  };
  /// Pops the innermost error scope: whether an error was captured since its push.
  ScopeResult pop_error_scope();
  /// Finishes the encoder, submits its commands and releases both.
  void submit(WGPUCommandEncoder enc);
  void wait_for(const bool& done);
  /// Submits the batch's encoder, if any (its parameter block written first).
  void flush();
  /// Records one dispatch of k with these bindings into the batch, or submits it alone.
  void encode(const Kernel& k, std::span<const WGPUBindGroupEntry> entries, std::uint32_t x, std::uint32_t y,
              std::uint32_t z);
  static constexpr std::size_t kParamBlockBytes = 64 * 1024;
  const Api& api_;
  WGPUCommandEncoder batch_ = nullptr;  // the open batch's encoder
  int batched_ = 0;                     // dispatches in it
  Buffer params_;                       // the batch's parameter block (empty: none yet)
  std::vector<std::uint8_t> params_host_;  // its contents, written at flush
  bool batching_ = false;
  const AdapterInfo* info_ = nullptr;
  WGPUInstance instance_ = nullptr;
  WGPUAdapter adapter_ = nullptr;
  WGPUDevice device_ = nullptr;
  WGPUQueue queue_ = nullptr;
};

}  // namespace tenferro::webgpu
