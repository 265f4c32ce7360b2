// VulkanBackend: the Backend interface (include/tenferro/backend/backend.hpp) over one Vulkan device.
// Ownership tree (STYLE.md B6.1): VulkanBackend -> Device -> {Allocator, Pipelines, Recorder}.
// Kernels (kernels/*.cpp) record through the internal API below while holding lock().
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/options.hpp"
#include "vulkan/runtime/allocator.hpp"
#include "vulkan/runtime/device.hpp"
#include "vulkan/runtime/pipelines.hpp"
#include "vulkan/runtime/recorder.hpp"

namespace tenferro::vk {

class VulkanBackend;

/// Device memory of one tensor. host_data() is the mapped pointer when the memory is
/// host-visible (Managed placement); it first waits for GPU work that used this storage.
/// Destruction returns the memory once the GPU work that used it has completed.
class VkStorage final : public Storage {
 public:
  VkStorage(VulkanBackend& owner, const Allocation& a, std::size_t nbytes, Placement placement);
  ~VkStorage() override;
  std::byte* host_data() override;
  const Allocation& allocation() const { return alloc_; }
  /// Timeline value of the last batch that read or wrote this storage (0: never used).
  std::uint64_t last_use = 0;

 private:
  VulkanBackend& owner_;
  Allocation alloc_;
};

class VulkanBackend final : public Backend {
 public:
  explicit VulkanBackend(int ordinal);
  ~VulkanBackend() override;

  std::string name() const override { return "vulkan"; }
  std::string device_name() const override;
  DomainId domain() const override { return domain_; }
  Placement placement() const override { return placement_; }
  bool supports(OpId op, DType d) const override;
  /// Error{device_lost} naming `op` once the device is lost (provider.hpp, "Device loss").
  void check_usable(std::string_view op) const override;

  Tensor allocate(DType dtype, const Shape& shape) override;
  /// allocate() in memory of `intent` (internal: e.g. readback, a small host-visible word the
  /// GPU writes and the host reads once the GPU is past it, without a download).
  Tensor allocate(DType dtype, const Shape& shape, MemoryIntent intent);
  Tensor upload(const TensorView& host) override;
  Tensor download(const TensorView& t) override;
  TransferStats transfer_stats() const override;
  MemoryUsage memory_usage() const override;
  void reset_memory_peak() override;
  void synchronize() override;

  void fill(const TensorView& out, const Scalar& value) override;
  void copy(const TensorView& src, const TensorView& dst) override;
  void cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) override;
  void elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out, CompareDir dir) override;
  /// One generated kernel where the plan allows it (kernels/fused.cpp), else step by step.
  void fused(const FusionPlan& plan, std::span<const TensorView> inputs, const TensorView& out) override;
  void reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) override;
  void gemm(const GemmCall& call) override;
  GemmCaps gemm_caps() const override;
  void triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) override;
  void gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
              const TensorView& out) override;
  void scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
               const ScatterConfig& cfg) override;
  std::unique_ptr<RecordedWork> capture(std::span<const Tensor> inputs,
                                        const std::function<std::vector<Tensor>()>& body) override;
  void begin_session() override;
  void end_session() override;
  void profile_begin() override;
  ProfileReport profile_end() override;

  // ---- internal API (kernels, provider, tests). Callers hold lock() unless stated. --------
  std::unique_lock<std::recursive_mutex> lock() const { return std::unique_lock(mutex_); }
  const Device& device() const { return *device_; }
  Pipelines& pipelines() { return *pipelines_; }
  Recorder& recorder() { return *recorder_; }
  Allocator& allocator() { return *allocator_; }
  /// Memory for `bytes` of `intent`; on out_of_memory, waits for in-flight work, reclaims
  /// deferred frees and retries once.
  Allocation allocate_memory(std::uint64_t bytes, MemoryIntent intent);
  /// Frees `a` once the timeline reaches `value` (0 or already reached: now). During a
  /// capture, memory allocated in it goes back to the capture instead, for its later
  /// allocations (capture.cpp).
  void release_after(const Allocation& a, std::uint64_t value);
  /// Frees a captured command buffer once the timeline reaches `value`.
  void release_captured_after(VkCommandBuffer cmd, std::uint64_t value);
  /// Copies a small parameter block into host-visible memory valid until the open batch
  /// completes; returns its device address.
  std::uint64_t upload_params(std::span<const std::int64_t> words);
  std::uint64_t error_address() const { return errors_.address; }
  /// After recording an op: submits outside sessions or when the recorder says so (limits, or
  /// an idle GPU), then reclaims deferred frees.
  void after_op();
  /// Waits (without holding the lock) until `s`'s GPU work is done. Lock-free entry.
  void wait_for(const VkStorage& s);
  static VkStorage& storage_of(const TensorView& t) { return static_cast<VkStorage&>(*t.storage()); }

  /// Runs `f`, the work of entry point `op`. A device_lost raised inside (a Vulkan call that
  /// returned VK_ERROR_DEVICE_LOST) marks the backend lost, so that check_usable() refuses every
  /// later call, and is raised again naming `op` (the outermost entry point's name wins).
  template <class F> decltype(auto) guarded(std::string_view op, F&& f) {
    try {
      return std::forward<F>(f)();
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::device_lost) throw;
      mark_lost(e.detail());
      throw_lost(op);
    }
  }
  bool lost() const { return lost_.load(std::memory_order_acquire); }
  /// The accuracy choices (tenferro/options.hpp) for work recorded from now; default_accuracy()
  /// at creation. Lock-free entries; set_accuracy validates (Error{invalid_argument}).
  AccuracyOptions accuracy() const;
  void set_accuracy(const AccuracyOptions& a);

 private:
  void reclaim();
  void check_kernel_errors();
  /// Parameter blocks live in arenas of kArenaBytes; a block takes params_bytes(words).
  static constexpr std::uint64_t kArenaBytes = 64 * 1024;
  static std::uint64_t params_bytes(std::span<const std::int64_t> words) {
    const std::uint64_t bytes = (words.size_bytes() + 15) / 16 * 16;
    TENFERRO_ASSERT(bytes <= kArenaBytes);
    return bytes;
  }
  /// allocate_memory during a capture: device_local memory the capture freed, else new memory
  /// it owns; parameter blocks; no staging.
  Allocation capture_allocate(std::uint64_t bytes, MemoryIntent intent);
  std::uint64_t capture_params(std::span<const std::int64_t> words);
  /// Records the loss; the first cause is kept. Never throws: tensor destructors call it.
  void mark_lost(const std::string& cause) noexcept;
  [[noreturn]] void throw_lost(std::string_view op) const;

  int ordinal_;
  DomainId domain_;
  Placement placement_;
  mutable std::recursive_mutex mutex_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<Pipelines> pipelines_;
  std::unique_ptr<Recorder> recorder_;
  Allocation errors_;  // uint[2] in host-visible memory: error bits, op tag
  Allocation arena_;   // parameter blocks of the batch `arena_value_`
  std::uint64_t arena_value_ = 0, arena_used_ = 0;
  std::vector<std::pair<std::uint64_t, Allocation>> deferred_;
  std::vector<std::pair<std::uint64_t, VkCommandBuffer>> deferred_cmds_;  // captured buffers
  // The capture being recorded (capture.cpp), else null.
  struct Capture {
    std::vector<std::uint64_t> made;  // addresses of its device_local allocations
    std::vector<Allocation> freed;    // those of them freed inside it (reusable by it)
    std::vector<Allocation> arenas;   // its parameter blocks
    std::uint64_t arena_used = 0;     // bytes used of arenas.back()
  };
  std::unique_ptr<Capture> capture_;
  std::uint64_t busy_until_ = 0;  // largest busy_until handed to Allocator::free, 0 when idle
  std::atomic<int> sessions_{0};
  std::atomic<bool> lost_{false};
  std::atomic<std::uint32_t> accuracy_{0};  // AccuracyOptions packed (backend.cpp)
  mutable std::mutex lost_mutex_;  // guards lost_cause_
  std::string lost_cause_;         // the failed call of the loss (check_result's text)
  std::atomic<std::uint64_t> up_bytes_{0}, down_bytes_{0}, ups_{0}, downs_{0};
};

// Kernel families (kernels/*.cpp). Arguments validated by core; callers need not lock.
void fill_kernel(VulkanBackend& be, const TensorView& out, const Scalar& value);
void copy_kernel(VulkanBackend& be, const TensorView& src, const TensorView& dst);
void elementwise_kernel(VulkanBackend& be, OpId op, std::span<const TensorView> inputs, const TensorView& out,
                        CompareDir dir);
/// A fusion plan as one generated kernel (kernels/fused.cpp); false (nothing recorded) where
/// the plan, the device or the settings leave it to the step-by-step path.
bool fused_kernel(VulkanBackend& be, const FusionPlan& plan, std::span<const TensorView> inputs, const TensorView& out);
// One file per family; each publishes what it runs through a supports_* function that
// VulkanBackend::supports() consults (the capability table).
bool supports_analytic(const DeviceCaps& caps, OpId op, DType d);  // kernels/analytic.cpp
void analytic_kernel(VulkanBackend& be, OpId op, const TensorView& x, const TensorView& out);
/// pow on F32 (computed in double), F64, C32, C64 through the shader math library; false
/// (nothing recorded) for other dtypes, or without shaderFloat64 for F32, F64 and C64.
bool pow_via_math_library(VulkanBackend& be, std::span<const TensorView> inputs, const TensorView& out);
bool supports_cast(const DeviceCaps& caps, DType d);                // kernels/cast.cpp
void cast_kernel(VulkanBackend& be, const TensorView& src, const TensorView& dst, const char* op, bool exact);
bool supports_reduce(const DeviceCaps& caps, OpId op, DType d);     // kernels/reduce.cpp
void reduce_kernel(VulkanBackend& be, OpId op, const TensorView& x, const Axes& axes, const TensorView& out);
bool supports_triangular(const DeviceCaps& caps, DType d);          // kernels/triangular.cpp
void triangular_kernel(VulkanBackend& be, const TensorView& x, std::int64_t k, bool lower, const TensorView& out);
bool supports_gemm(const DeviceCaps& caps, DType d);                // kernels/gemm/gemm.cpp
void gemm_kernel(VulkanBackend& be, const GemmCall& call);
bool supports_gather(const DeviceCaps& caps, DType d);              // kernels/indexing.cpp
bool supports_scatter(const DeviceCaps& caps, DType d);
void gather_kernel(VulkanBackend& be, const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                   const TensorView& out);
void scatter_kernel(VulkanBackend& be, const TensorView& out, const TensorView& indices, const TensorView& updates,
                    const ScatterConfig& cfg);

}  // namespace tenferro::vk
