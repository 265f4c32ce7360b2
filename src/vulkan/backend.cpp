// VulkanBackend wiring: device objects, tensor storage, deferred frees, parameter arena,
// synchronization and kernel-error reporting, the capability table.
#include "vulkan/backend.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/check.hpp"
#include "core/options.hpp"
#include "vulkan/options.hpp"
#include "tenferro/op_info.hpp"

namespace tenferro::vk {

// ---- storage ---------------------------------------------------------------------------------
VkStorage::VkStorage(VulkanBackend& owner, const Allocation& a, std::size_t nbytes, Placement placement)
    : Storage(nbytes, owner.domain(), placement), owner_(owner), alloc_(a) {
  last_use = a.reuse_after;  // host access waits for the bytes' previous users too
}

VkStorage::~VkStorage() {
  if (!alloc_) return;
  auto guard = owner_.lock();
  owner_.release_after(alloc_, last_use);
}

std::byte* VkStorage::host_data() {
  if (!alloc_.mapped) return nullptr;
  owner_.wait_for(*this);
  return alloc_.mapped;
}

// ---- backend ---------------------------------------------------------------------------------
namespace {

/// Reads every setting of the environment before the device is created, so that an invalid
/// value (Error{invalid_argument} naming it) fails the creation before any device work.
int checked_settings(int ordinal) {
  (void)options();
  (void)default_accuracy();
  return ordinal;
}

std::uint32_t pack(const AccuracyOptions& a) {
  return static_cast<std::uint32_t>(a.ozaki) | static_cast<std::uint32_t>(a.ozaki_moduli) << 2 |
         static_cast<std::uint32_t>(a.gemm_3m) << 7 | static_cast<std::uint32_t>(a.f32_via_f64) << 9;
}

AccuracyOptions unpack(std::uint32_t w) {
  AccuracyOptions a;
  a.ozaki = static_cast<OzakiMode>(w & 3);
  a.ozaki_moduli = static_cast<int>(w >> 2 & 31);
  a.gemm_3m = static_cast<Gemm3M>(w >> 7 & 3);
  a.f32_via_f64 = static_cast<F32ViaF64>(w >> 9 & 3);
  return a;
}

}  // namespace

AccuracyOptions VulkanBackend::accuracy() const { return unpack(accuracy_.load(std::memory_order_acquire)); }

void VulkanBackend::set_accuracy(const AccuracyOptions& a) {
  check_accuracy(a);
  AccuracyOptions kept = a;
  if (kept.ozaki != OzakiMode::uncertified) kept.ozaki_moduli = 0;
  accuracy_.store(pack(kept), std::memory_order_release);
}

VulkanBackend::VulkanBackend(int ordinal)
    : ordinal_(checked_settings(ordinal)), domain_(new_domain_id()), device_(std::make_unique<Device>(ordinal, options().validation, options().pipeline_stats)) {
  allocator_ = std::make_unique<Allocator>(*device_, options().memory_cap, options().cache_bytes);
  pipelines_ = std::make_unique<Pipelines>(*device_);
  recorder_ = std::make_unique<Recorder>(*device_);
  placement_ = {allocator_->host_visible(MemoryIntent::device_local) ? MemoryKind::Managed : MemoryKind::Device,
                DeviceKind::Vulkan, ordinal};
  set_accuracy(default_accuracy());
  errors_ = allocator_->allocate(Allocator::kAlignment, MemoryIntent::readback);
  std::memset(errors_.mapped, 0, 8);
  if (options().profile) {
    profile_begin();
    // Backends live for the process: report what no profile_end() collected at exit.
    static std::vector<VulkanBackend*> profiled;
    if (profiled.empty())
      std::atexit([] {
        for (VulkanBackend* be : profiled) try {
            if (!be->recorder_->profiling()) continue;
            const ProfileReport r = be->profile_end();
            std::fprintf(stderr, "[tenferro] GPU profile of %s:\n%s", be->device_name().c_str(),
                         format_profile(r).c_str());
          } catch (...) {
          }
      });
    profiled.push_back(this);
  }
  register_backend(domain_, *this);  // last: a constructor that throws leaves no entry behind
}

VulkanBackend::~VulkanBackend() {
  unregister_backend(domain_);
  // Backends live for the process (provider.cpp never deletes them); this path is for
  // completeness: drain the GPU, then return every block.
  try {
    recorder_->submit();
    recorder_->wait(recorder_->submitted_value());
  } catch (...) {
  }
  recorder_.reset();
}

// ---- device loss -------------------------------------------------------------------------------
void VulkanBackend::mark_lost(const std::string& cause) noexcept {
  try {
    std::lock_guard guard(lost_mutex_);
    if (lost_cause_.empty()) lost_cause_ = cause;
  } catch (...) {  // the loss is recorded below even without its cause
  }
  lost_.store(true, std::memory_order_release);
}

void VulkanBackend::throw_lost(std::string_view op) const {
  std::string cause;
  {
    std::lock_guard guard(lost_mutex_);
    cause = lost_cause_;
  }
  TENFERRO_FAIL(device_lost, op, "", "the Vulkan device ", device_name(), " is lost (", cause,
                "): this backend runs no more work and its tensors' contents are gone; host tensors and "
                "other backends are unaffected");
}

void VulkanBackend::check_usable(std::string_view op) const {
  if (lost()) throw_lost(op);
}

std::string VulkanBackend::device_name() const {
  return device_->caps().name + " (" + device_->caps().type + ", " + device_->caps().driver + ")";
}

bool VulkanBackend::supports(OpId op, DType d) const {
  if (!contract_allows(op, d)) return false;
  const DeviceCaps& c = device_->caps();
  const bool fp64_ok = c.f64 || (d != DType::F64 && d != DType::C64);
  const bool bool_ok = c.bool_ok() || d != DType::Bool;
  switch (op_info(op).family) {
    case OpFamily::unary:
    case OpFamily::binary:
    case OpFamily::clamp:
      return fp64_ok;
    case OpFamily::compare: return fp64_ok && c.bool_ok();   // result is Bool
    case OpFamily::select: return c.bool_ok();               // raw-bit kernel, Bool predicate
    case OpFamily::structural:  // lowered to fill + copy by core, except these three
      if (op == OpId::tril || op == OpId::triu) return supports_triangular(c, d);
      if (op == OpId::dynamic_slice) return supports_gather(c, d);
      if (op == OpId::dynamic_update_slice) return supports_scatter(c, d);
      return bool_ok;
    case OpFamily::analytic: return supports_analytic(c, op, d);
    case OpFamily::cast: return supports_cast(c, d);
    case OpFamily::reduce: return supports_reduce(c, op, d);
    case OpFamily::dot: return supports_gemm(c, d);
    case OpFamily::gather: return supports_gather(c, d);
    case OpFamily::scatter: return supports_scatter(c, d);
  }
  return false;
}

Tensor VulkanBackend::allocate(DType dtype, const Shape& shape) {
  return allocate(dtype, shape, MemoryIntent::device_local);
}

Tensor VulkanBackend::allocate(DType dtype, const Shape& shape, MemoryIntent intent) {
  check_usable("allocate");
  const std::int64_t n = shape_numel(shape, "allocate");
  std::size_t bytes = 0;
  TENFERRO_CHECK(!__builtin_mul_overflow(static_cast<std::size_t>(n), dtype_size(dtype), &bytes), out_of_memory,
                 "allocate", "shape", "size of ", shape, " overflows");
  Allocation a;
  if (bytes > 0) {
    auto guard = lock();
    a = guarded("allocate", [&] { return allocate_memory(bytes, intent); });
  }
  Placement placement = placement_;
  if (test_hooks().unmapped_tensors && intent == MemoryIntent::device_local) {
    a.mapped = nullptr;  // the discrete-GPU path: staging for transfers, no host access
    placement.memory = MemoryKind::Device;
  }
  return Tensor(std::make_shared<VkStorage>(*this, a, bytes, placement), dtype, shape);
}

Allocation VulkanBackend::allocate_memory(std::uint64_t bytes, MemoryIntent intent) {
  if (capture_) return capture_allocate(bytes, intent);
  try {
    return allocator_->allocate(bytes, intent);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::out_of_memory) throw;
  }
  // Memory of dropped tensors may wait for in-flight work: drain, reclaim, retry once.
  recorder_->submit();
  recorder_->wait(recorder_->submitted_value());
  reclaim();
  return allocator_->allocate(bytes, intent);
}

void VulkanBackend::release_after(const Allocation& a, std::uint64_t value) {
  if (!a) return;
  if (capture_ && a.intent == MemoryIntent::device_local &&
      std::find(capture_->made.begin(), capture_->made.end(), a.address) != capture_->made.end()) {
    capture_->freed.push_back(a);  // the capture's own: reused by it, kept by its work
    return;
  }
  // A lost device keeps its memory: work submitted before the loss may still be running on it
  // (a loss reported at a wait), and nothing is allocated on it again.
  if (lost()) return;
  bool done = value == 0;
  if (!done && value <= recorder_->submitted_value()) {
    try {
      done = value <= recorder_->completed();
    } catch (const Error& e) {  // tensor destructors call this: the loss is recorded, not raised
      if (e.kind() != ErrorKind::device_lost) throw;
      mark_lost(e.detail());
      return;
    }
  }
  if (done)
    allocator_->free(a);
  else if (!a.mapped || a.intent == MemoryIntent::device_local) {
    // Stream-ordered reuse (see Allocator::free): GPU work is ordered after the pending work;
    // host access to a mapped tensor reusing the bytes waits for Allocation::reuse_after.
    allocator_->free(a, value);
    busy_until_ = std::max(busy_until_, value);
  } else {  // staging and parameter blocks: the host writes them at once, so wait for the GPU
    deferred_.emplace_back(value, a);
  }
}

void VulkanBackend::reclaim() {
  if (deferred_.empty() && busy_until_ == 0 && deferred_cmds_.empty()) return;  // the common case
  const std::uint64_t done = recorder_->completed();
  std::erase_if(deferred_cmds_, [&](const auto& d) {
    if (d.first > done) return false;
    recorder_->free_captured(d.second);
    return true;
  });
  if (busy_until_ != 0 && busy_until_ <= done) {
    allocator_->set_completed(done);  // blocks freed while busy may go back to the driver now
    busy_until_ = 0;
  }
  if (deferred_.empty()) return;
  std::erase_if(deferred_, [&](const auto& d) {
    if (d.first > done) return false;
    allocator_->free(d.second);
    return true;
  });
}

std::uint64_t VulkanBackend::upload_params(std::span<const std::int64_t> words) {
  if (capture_) return capture_params(words);
  const std::uint64_t bytes = params_bytes(words);
  const std::uint64_t value = recorder_->open_value();
  if (!arena_ || arena_value_ != value || arena_used_ + bytes > kArenaBytes) {
    if (arena_) release_after(arena_, arena_value_);
    arena_ = Allocation{};
    arena_ = allocate_memory(kArenaBytes, MemoryIntent::params);
    arena_value_ = value;
    arena_used_ = 0;
  }
  std::memcpy(arena_.mapped + arena_used_, words.data(), words.size_bytes());
  const std::uint64_t addr = arena_.address + arena_used_;
  arena_used_ += bytes;
  return addr;
}

void VulkanBackend::after_op() {
  // A loss found while freeing (release_after) fails the op that recorded this work.
  if (lost()) throw_lost("vulkan");
  if (capture_) return;  // recorded, not submitted
  // Deferred frees can only become reclaimable through GPU progress, checked at submissions
  // (and at synchronize): not per op, which would query the timeline semaphore every time.
  if (sessions_.load() == 0 || recorder_->should_flush()) {
    recorder_->submit();
    reclaim();
  }
}

void VulkanBackend::wait_for(const VkStorage& s) {
  check_usable("map");  // host access (map_read / map_write, zero-copy transfers)
  guarded("map", [&] {
    std::uint64_t v = 0;
    {
      auto guard = lock();
      TENFERRO_CHECK(!capture_, runtime_state, "record", "",
                     "host access to a tensor cannot be recorded into reusable work");
      v = s.last_use;
      if (v == 0) return;
      if (v > recorder_->submitted_value()) recorder_->submit();
    }
    recorder_->wait(v);
  });
}

void VulkanBackend::synchronize() {
  check_usable("synchronize");
  guarded("synchronize", [&] {
    std::uint64_t v = 0;
    {
      auto guard = lock();
      recorder_->submit();
      v = recorder_->submitted_value();
    }
    recorder_->wait(v);
    auto guard = lock();
    recorder_->reset_batching();
    if (arena_ && arena_value_ <= recorder_->completed()) {  // idle now: do not pin a block
      allocator_->free(arena_);
      arena_ = Allocation{};
    }
    reclaim();
  });
  check_kernel_errors();
}

void VulkanBackend::check_kernel_errors() {
  auto* words = reinterpret_cast<std::uint32_t*>(errors_.mapped);
  const std::uint32_t bits = words[0], tag = words[1];
  if (bits == 0) return;
  words[0] = 0;
  words[1] = 0;
  const std::string op = tag > 0 ? std::string(op_name(static_cast<OpId>(tag - 1))) : std::string("vulkan");
  // The argument at fault is the divisor / exponent (rhs) or the cast operand (x), as on the CPU.
  if (bits & 1u) TENFERRO_FAIL(numerical_failure, op, "rhs", "integer division by zero (detected on the GPU)");
  if (bits & 2u) TENFERRO_FAIL(numerical_failure, op, "rhs", "negative integer exponent (detected on the GPU)");
  TENFERRO_FAIL(invalid_argument, op, "x", "NaN, infinite or out-of-range float cast to an integer (detected on the GPU)");
}

void VulkanBackend::begin_session() {
  check_usable("with_session");
  sessions_.fetch_add(1);
  auto guard = lock();
  recorder_->reset_batching();
}

void VulkanBackend::end_session() {
  sessions_.fetch_sub(1);
  check_usable("with_session");
  guarded("with_session", [&] {
    auto guard = lock();
    recorder_->submit();
    recorder_->reset_batching();
    reclaim();
  });
}

void VulkanBackend::profile_begin() {
  check_usable("profile_begin");
  auto guard = lock();
  guarded("profile_begin", [&] { recorder_->profile_start(); });
}

ProfileReport VulkanBackend::profile_end() {
  check_usable("profile_end");
  return guarded("profile_end", [&] {
    synchronize();
    auto guard = lock();
    recorder_->submit();  // nothing recorded since synchronize() unless another thread did
    recorder_->wait(recorder_->submitted_value());
    return recorder_->profile_stop();
  });
}

TransferStats VulkanBackend::transfer_stats() const { return {up_bytes_, down_bytes_, ups_, downs_}; }

MemoryUsage VulkanBackend::memory_usage() const {
  auto guard = lock();
  const MemoryStats s = allocator_->stats();
  return {true, s.tensor_bytes_in_use, s.tensor_bytes_peak, allocator_->cap()};
}

void VulkanBackend::reset_memory_peak() {
  auto guard = lock();
  allocator_->reset_peak();
}

// Entry points tag what they record for the profiler (record_dispatch refines copy/permute).
// The entry points are public through Backend&: each checks its tensors first (core/check.hpp),
// then runs its work through guarded(), so that a device lost meanwhile is raised naming it.
void VulkanBackend::fill(const TensorView& out, const Scalar& value) {
  detail::check_resident(*this, out, "fill", "out");
  FamilyScope f(KernelFamily::fill);
  guarded("fill", [&] { fill_kernel(*this, out, value); });
}
void VulkanBackend::copy(const TensorView& src, const TensorView& dst) {
  detail::check_copy_args(*this, src, dst);
  FamilyScope f(KernelFamily::copy);
  guarded("copy", [&] { copy_kernel(*this, src, dst); });
}
void VulkanBackend::elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out, CompareDir dir) {
  detail::check_elementwise_args(*this, op, inputs, out);
  FamilyScope f(KernelFamily::elementwise);
  guarded(op_name(op), [&] { elementwise_kernel(*this, op, inputs, out, dir); });
}
void VulkanBackend::fused(const FusionPlan& plan, std::span<const TensorView> inputs, const TensorView& out) {
  detail::check_resident(*this, out, "fused", "out");
  for (const TensorView& in : inputs) detail::check_resident(*this, in, "fused", "inputs");
  FamilyScope f(KernelFamily::elementwise);
  if (!guarded("fused", [&] { return fused_kernel(*this, plan, inputs, out); })) Backend::fused(plan, inputs, out);
}
void VulkanBackend::cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) {
  detail::check_cast_args(*this, src, dst, op);
  FamilyScope f(KernelFamily::cast);
  guarded(op, [&] { cast_kernel(*this, src, dst, op, exact); });
}
void VulkanBackend::reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) {
  detail::check_reduce_args(*this, op, x, out);
  FamilyScope f(KernelFamily::reduce);
  guarded(op_name(op), [&] { reduce_kernel(*this, op, x, axes, out); });
}
GemmCaps VulkanBackend::gemm_caps() const { return {.chained_output = true}; }
void VulkanBackend::gemm(const GemmCall& call) {
  detail::check_gemm_args(*this, call);
  FamilyScope f(KernelFamily::gemm);
  guarded("dot_general", [&] { gemm_kernel(*this, call); });
}
void VulkanBackend::triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) {
  detail::check_triangular_args(*this, x, lower, out);
  FamilyScope f(KernelFamily::triangular);
  guarded(lower ? "tril" : "triu", [&] { triangular_kernel(*this, x, k, lower, out); });
}
void VulkanBackend::gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                           const TensorView& out) {
  detail::check_gather_args(*this, operand, indices, out);
  FamilyScope f(KernelFamily::indexing);
  guarded("gather", [&] { gather_kernel(*this, operand, indices, cfg, out); });
}
void VulkanBackend::scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
                            const ScatterConfig& cfg) {
  detail::check_scatter_args(*this, out, indices, updates);
  FamilyScope f(KernelFamily::indexing);
  guarded("scatter", [&] { scatter_kernel(*this, out, indices, updates, cfg); });
}

}  // namespace tenferro::vk
