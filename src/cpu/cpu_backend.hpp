// The CPU backend: host memory, multi-threaded kernels (one thread pool, pool.hpp), GEMM through OpenBLAS.
// Kernels live in one file per family; this class only wires them to the Backend interface.
#pragma once
#include <atomic>

#include "tenferro/backend/backend.hpp"

namespace tenferro::cpu {

class CpuBackend final : public Backend {
 public:
  CpuBackend() = default;
  std::string name() const override { return "cpu"; }
  std::string device_name() const override;
  DomainId domain() const override { return kHostDomain; }
  Placement placement() const override { return {MemoryKind::UnpinnedHost, DeviceKind::Cpu, 0}; }
  bool supports(OpId op, DType d) const override;
  bool is_host() const override { return true; }

  Tensor allocate(DType dtype, const Shape& shape) override;
  Tensor upload(const TensorView& host) override;
  Tensor download(const TensorView& t) override;
  TransferStats transfer_stats() const override;
  /// Host tensor memory of the process (core/host_memory.hpp): every host tensor counts,
  /// whichever thread or backend made it.
  MemoryUsage memory_usage() const override;
  void reset_memory_peak() override;

  void fill(const TensorView& out, const Scalar& value) override;
  void copy(const TensorView& src, const TensorView& dst) override;
  void cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) override;
  void elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out,
                   CompareDir dir) override;
  void reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) override;
  void gemm(const GemmCall& call) override;
  void triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) override;
  void gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
              const TensorView& out) override;
  void scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
               const ScatterConfig& cfg) override;

 private:
  std::atomic<std::uint64_t> up_bytes_{0}, down_bytes_{0}, ups_{0}, downs_{0};
};

// Kernel entry points, one family per file (copy.cpp: fill/copy/triangular, cast.cpp,
// elementwise.cpp, reduce.cpp, gemm.cpp, indexing.cpp). Arguments are validated by core.
void fill_kernel(const TensorView& out, const Scalar& value);
void copy_kernel(const TensorView& src, const TensorView& dst);
void cast_kernel(const TensorView& src, const TensorView& dst, const char* op, bool exact);
void elementwise_kernel(OpId op, std::span<const TensorView> inputs, const TensorView& out, CompareDir dir);
void reduce_kernel(OpId op, const TensorView& x, const Axes& axes, const TensorView& out);
void gemm_kernel(const GemmCall& call);
void triangular_kernel(const TensorView& x, std::int64_t k, bool lower, const TensorView& out);
void gather_kernel(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                   const TensorView& out);
void scatter_kernel(const TensorView& out, const TensorView& indices, const TensorView& updates,
                    const ScatterConfig& cfg);

}  // namespace tenferro::cpu
