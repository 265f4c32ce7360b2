// The provider interface (what a backend implements; users need none of it: tenferro/tenferro.hpp).
// Core (src/core/ops) validates every call once and lowers ops to these
// primitives; a backend receives checked, canonical calls: dtypes allowed by the contract and
// by supports(), equal shapes for elementwise inputs (rank-0 operands already broadcast as
// stride-0 views), outputs freshly allocated compact tensors of this backend unless stated.
// The methods are public, so each also checks before any work that its tensors are defined
// and resident (Error{invalid_argument}, runtime_state or host_access, as the ops raise) and
// the equal shapes (and copy's equal dtypes) of copy, cast and elementwise that keep a kernel
// inside its tensors; the op configurations and dtypes beyond that are core's to validate.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/backend/gemm_call.hpp"
#include "tenferro/config.hpp"
#include "tenferro/fusion.hpp"
#include "tenferro/op_info.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro {

/// Bytes moved between host and device through upload/download (mappings do not count).
struct TransferStats {
  std::uint64_t uploaded_bytes = 0;
  std::uint64_t downloaded_bytes = 0;
  std::uint64_t uploads = 0;
  std::uint64_t downloads = 0;
};

/// Device memory held by a backend's tensors: the allocated bytes (after alignment) of tensors
/// and kernel scratch, without staging buffers and kernel parameter blocks. The CPU backend
/// counts every host tensor of the process (requested bytes), not the buffers its kernels and
/// OpenBLAS hold privately.
struct MemoryUsage {
  bool tracked = false;     // false: the backend does not track it
  std::uint64_t in_use = 0;  // now
  std::uint64_t peak = 0;    // the most in use at once since reset_memory_peak()
  /// The most the backend's tensors may hold: the Vulkan memory cap (TENFERRO_VK_MEMORY_CAP,
  /// else the largest device-local heap); the host's available memory for the CPU backend.
  std::uint64_t capacity = 0;
};

/// GPU time of one kernel family over a profiling window (Backend::profile_end).
struct ProfileFamily {
  std::string name;              // see ProfileReport
  std::uint64_t dispatches = 0;  // recorded commands of this family (one timestamp pair each)
  double gpu_us = 0;             // sum of their (end - begin) GPU timestamps
};

/// Per-kernel-family GPU time between Backend::profile_begin() and profile_end().
/// Families: "gemm", "copy" (contiguous copies), "permute" (strided copies/permutations),
/// "elementwise", "reduce", "cast", "indexing" (gather/scatter), "triangular", "fill",
/// "transfer" (upload/download buffer copies), "other". Every recorded command gets a timestamp
/// before and after it (both written once all earlier work completed), so profiling serializes
/// the GPU work it measures: busy times are accurate, totals run slightly slower than unprofiled.
struct ProfileReport {
  bool supported = false;               // false: no GPU timestamps (CPU backend, or the device lacks them)
  std::vector<ProfileFamily> families;  // families with dispatches > 0, in the order above
  std::uint64_t dispatches = 0;         // sum over families
  std::uint64_t batches = 0;            // command buffers submitted in the window
  double busy_us = 0;                   // sum of gpu_us over families
  double span_us = 0;                   // first begin to last end timestamp; span - busy = GPU idle
                                        // (waiting for the host: recording, submission, sync)
  /// Every dispatch in GPU order (by begin timestamp): family name and GPU time. At most
  /// kMaxTrace entries (the first ones); totals above count all.
  struct Dispatch {
    const char* family;
    double gpu_us;
  };
  static constexpr std::size_t kMaxTrace = 1 << 16;
  std::vector<Dispatch> trace;
};
/// A small table of a report ("family dispatches gpu_us %busy" rows, then busy/span/idle).
std::string format_profile(const ProfileReport& r);

/// GPU work recorded once and queued again without recording (Backend::capture).
class RecordedWork {
 public:
  virtual ~RecordedWork() = default;
  /// Queues the recorded work again, ordered after all work queued before it and before all
  /// work queued after it, like an op (asynchronous on a GPU). Kernel errors are raised at the
  /// next synchronization, as for ops.
  virtual void replay() = 0;
  /// The tensors the recorded body returned; every replay rewrites them.
  virtual std::span<const Tensor> outputs() const = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;

  /// "cpu" or "vulkan".
  virtual std::string name() const = 0;
  /// Human-readable device description.
  virtual std::string device_name() const = 0;
  /// The allocation domain of this runtime: tensors of other domains are rejected.
  virtual DomainId domain() const = 0;
  /// Placement of outputs.
  virtual Placement placement() const = 0;
  /// Capability table: true when this backend runs `op` for operands of dtype `d`.
  /// Core only asks for pairs the contract allows.
  virtual bool supports(OpId op, DType d) const = 0;
  /// True for the CPU backend: its tensors are host tensors.
  virtual bool is_host() const { return false; }
  /// What gemm accepts beyond rank-3 views (GemmCaps).
  virtual GemmCaps gemm_caps() const { return {}; }
  /// Throws when the backend can run no more work: Error{device_lost} naming `op` once its
  /// device is lost (the Vulkan backend; src/vulkan/provider.hpp). Every op calls it, through
  /// the residency check of its tensors, before any work; the default never throws.
  virtual void check_usable(std::string_view op) const { (void)op; }

  // --- memory and transfers -------------------------------------------------------------
  /// Uninitialized compact tensor. Throws out_of_memory.
  virtual Tensor allocate(DType dtype, const Shape& shape) = 0;
  /// Host view (any layout) -> new compact tensor of this backend.
  virtual Tensor upload(const TensorView& host) = 0;
  /// Tensor of this backend (any layout) -> new compact host tensor.
  virtual Tensor download(const TensorView& t) = 0;
  virtual TransferStats transfer_stats() const { return {}; }
  virtual MemoryUsage memory_usage() const { return {}; }
  /// Starts a new peak window of memory_usage() (peak = in_use).
  virtual void reset_memory_peak() {}
  /// Waits for all recorded work; rethrows errors kernels detected.
  virtual void synchronize() {}

  // --- primitives (validated by core) ---------------------------------------------------
  /// out[i] = value for every element of the view. value.dtype == out.dtype.
  virtual void fill(const TensorView& out, const Scalar& value) = 0;
  /// dst[i] = src[i]; same dtype and shape; dst may be any non-self-overlapping view.
  virtual void copy(const TensorView& src, const TensorView& dst) = 0;
  /// dst[i] = cast(src[i]) (SEMANTICS.md cast rules). A NaN/inf/out-of-range float to an
  /// integer raises invalid_argument naming `op`; with `exact`, a non-integral float too.
  virtual void cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) = 0;
  /// Elementwise op of family unary/analytic/binary/compare/select/clamp. Inputs have out's
  /// shape; dtypes as the contract says (compare: out Bool; select: inputs[0] Bool; abs of
  /// complex: out real). Integer division/remainder by zero or a negative integer exponent
  /// raises numerical_failure (GPU: at the next synchronization).
  virtual void elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out,
                           CompareDir dir) = 0;
  /// Runs a fusion plan; out has the shape of the inputs and the dtype of the last step.
  /// The default runs it unfused, step by step.
  virtual void fused(const FusionPlan& plan, std::span<const TensorView> inputs,
                     const TensorView& out);
  /// out = reduction of x over `axes` (sorted, unique, non-empty, every extent > 0).
  /// out has x's shape without those axes.
  virtual void reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) = 0;
  /// The product of GemmCall; a, b, c of one dtype of the dot family the backend supports.
  virtual void gemm(const GemmCall& call) = 0;
  /// tril (lower = true) or triu on axes 0, 1; later axes are batch. out compact.
  virtual void triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) = 0;
  /// StableHLO gather with validated config; indices I32 or I64.
  virtual void gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                      const TensorView& out) = 0;
  /// Scatter into `out`, which already holds a copy of the operand.
  virtual void scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
                       const ScatterConfig& cfg) = 0;

  /// Records the device work `body` issues (ops on `inputs` and on tensors it makes) so that
  /// RecordedWork::replay() queues it again with no recording: the contents of `inputs` at
  /// replay time are read, the returned tensors rewritten. The body is recorded, not run: it
  /// may not reach host memory or wait for the device (transfers, mappings, synchronize raise
  /// runtime_state), and the tensors it makes must be dropped inside it or returned (else
  /// runtime_state). The recorded work holds `inputs`, the returned tensors and the memory of
  /// the intermediates until it is destroyed. Returns nullptr, without calling body, where the
  /// backend cannot record (the default; the Vulkan backend while profiling).
  virtual std::unique_ptr<RecordedWork> capture(std::span<const Tensor> inputs,
                                                const std::function<std::vector<Tensor>()>& body) {
    (void)inputs;
    (void)body;
    return nullptr;
  }

  // --- sessions -------------------------------------------------------------------------
  /// Called by with_session around the body (one recording scope on a GPU).
  virtual void begin_session() {}
  virtual void end_session() {}

  // --- GPU profiling (opt-in; TENFERRO_VK_PROFILE=1 starts it with the backend) ------------
  /// Starts (or restarts, clearing the totals) timestamping every recorded command.
  virtual void profile_begin() {}
  /// Synchronizes, stops profiling and returns the totals since profile_begin() (or since the
  /// backend was created under TENFERRO_VK_PROFILE=1). The default: {supported = false}.
  virtual ProfileReport profile_end() { return {}; }
};

/// The process-wide CPU backend: computes on host tensors (kHostDomain).
Backend& cpu_backend();

/// The backends that own allocation domains, by domain: how a tensor finds the backend it lives
/// on (to_vector, the device-inferring ops of tenferro/api.hpp). A backend that owns a domain
/// other than kHostDomain registers itself once constructed and unregisters before it is
/// destroyed (the Vulkan backend does); thread-safe.
void register_backend(DomainId domain, Backend& be);
void unregister_backend(DomainId domain) noexcept;
/// The backend registered for `domain`; kHostDomain: the CPU backend only once cpu_backend()
/// ran. nullptr when none.
Backend* registered_backend(DomainId domain) noexcept;

/// Runs f inside one execution session of `be`. Entering a session of the same backend
/// again on the same thread while one is open raises Error{runtime_state} and f does not
/// run. Other threads may open their own sessions on the same backend.
void with_session(Backend& be, const std::function<void()>& f);

}  // namespace tenferro
