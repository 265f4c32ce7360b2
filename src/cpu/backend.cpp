// CpuBackend wiring: transfers, capability table, dispatch to family kernels. Its tensors are
// host tensors (core's host memory, src/core/host.cpp).
#include <cblas.h>

#include <string>

#include "core/check.hpp"
#include "core/host_memory.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/pool.hpp"
#include "cpu/provider.hpp"

namespace tenferro::cpu {

std::string CpuBackend::device_name() const {
  return "host CPU (" + std::to_string(max_threads()) + " threads)";
}

// The CPU backend runs the whole contract.
bool CpuBackend::supports(OpId op, DType d) const { return contract_allows(op, d); }

Tensor CpuBackend::allocate(DType dtype, const Shape& shape) { return host_empty(dtype, shape); }

MemoryUsage CpuBackend::memory_usage() const { return detail::host_memory_usage(); }
void CpuBackend::reset_memory_peak() { detail::reset_host_memory_peak(); }

// The primitives are public through Backend&: each checks its tensors first (core/check.hpp).
Tensor CpuBackend::upload(const TensorView& host) {
  detail::check_upload_source(host);
  Tensor out = allocate(host.dtype(), host.shape());
  copy_kernel(host, out);
  ups_++;
  up_bytes_ += static_cast<std::uint64_t>(out.numel()) * dtype_size(out.dtype());
  return out;
}

Tensor CpuBackend::download(const TensorView& t) {
  detail::check_resident(*this, t, "download", "t");
  Tensor out = allocate(t.dtype(), t.shape());
  copy_kernel(t, out);
  downs_++;
  down_bytes_ += static_cast<std::uint64_t>(out.numel()) * dtype_size(out.dtype());
  return out;
}

TransferStats CpuBackend::transfer_stats() const { return {up_bytes_, down_bytes_, ups_, downs_}; }

void CpuBackend::fill(const TensorView& out, const Scalar& value) {
  detail::check_resident(*this, out, "fill", "out");
  fill_kernel(out, value);
}
void CpuBackend::copy(const TensorView& src, const TensorView& dst) {
  detail::check_copy_args(*this, src, dst);
  copy_kernel(src, dst);
}
void CpuBackend::cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) {
  detail::check_cast_args(*this, src, dst, op);
  cast_kernel(src, dst, op, exact);
}
void CpuBackend::elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out,
                             CompareDir dir) {
  detail::check_elementwise_args(*this, op, inputs, out);
  elementwise_kernel(op, inputs, out, dir);
}
void CpuBackend::reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) {
  detail::check_reduce_args(*this, op, x, out);
  reduce_kernel(op, x, axes, out);
}
void CpuBackend::gemm(const GemmCall& call) {
  detail::check_gemm_args(*this, call);
  gemm_kernel(call);
}
void CpuBackend::triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) {
  detail::check_triangular_args(*this, x, lower, out);
  triangular_kernel(x, k, lower, out);
}
void CpuBackend::gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
                        const TensorView& out) {
  detail::check_gather_args(*this, operand, indices, out);
  gather_kernel(operand, indices, cfg, out);
}
void CpuBackend::scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
                         const ScatterConfig& cfg) {
  detail::check_scatter_args(*this, out, indices, updates);
  scatter_kernel(out, indices, updates, cfg);
}

}  // namespace tenferro::cpu

namespace tenferro {

Backend& cpu_backend() {
  cpu::check_thread_setting();  // TENFERRO_NUM_THREADS, before any work
  static cpu::CpuBackend be;
  return be;
}

const Provider& cpu::provider() {
  static const Provider p{
      "cpu",
      [] {
        DeviceInfo d;
        d.backend = "cpu";
        d.name = cpu_backend().device_name();
        d.type = "cpu";
        d.driver = std::string("tenferro cpu (OpenBLAS, ") + openblas_get_corename() + " kernels)";
        return std::vector<DeviceInfo>{d};
      },
      [](int ordinal) -> Backend& {
        TENFERRO_CHECK(ordinal <= 0, invalid_argument, "cpu", "ordinal", "the CPU backend has one device (ordinal 0), got ",
                       ordinal);
        return cpu_backend();
      }};
  return p;
}

}  // namespace tenferro
