// WebGpuBackend: the Backend interface (tenferro/backend/backend.hpp) over one WebGPU adapter of
// wgpu-native (runtime.hpp). Its tensors are storage buffers holding tenferro's bytes (Bool one
// byte per element), so transfers move bytes as they are. What runs: transfers, fill, copy,
// tril / triu, select and gather of every dtype (bits moved as they are; so every structural
// op core lowers onto them, the dynamic slices included), scatter on F32, I32, C32 and Bool
// (replace on every dtype), casts between F32, I32, C32 and Bool (and F32 or F64 to I64, for
// core's float index tensors), compare on F32, I32, C32 and Bool, and on F32, I32 and C32 the
// kernels of kernels.hpp: unary, analytic and binary arithmetic (rem on F32 and I32), abs,
// sign, clamp, the four reductions (max / min on reals) and dot_general (F32, C32; so einsum
// runs). Every other (op, dtype) is unsupported (supports() says which: casts from or to
// 64-bit dtypes, scatter on them) until its WGSL kernel exists. F64, I64 and C64
// have no arithmetic: WebGPU has no 64-bit shader types. Work is submitted as it is recorded,
// one dispatch per op (a reduction over more than 2048 elements, a product with K > 16384 or a
// serial scatter: one per pass); a float to integer cast and integer div, rem and pow read
// their error word back before they return (invalid_argument naming the op for a NaN, infinite,
// out-of-range or, when exact, non-integral value cast; numerical_failure naming the op and
// "rhs" for a zero divisor or a negative exponent). The device's calls are serialized.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "tenferro/backend/backend.hpp"
#include "webgpu/runtime.hpp"

namespace tenferro::webgpu {

class WgpuStorage final : public Storage {
 public:
  WgpuStorage(Buffer b, std::size_t nbytes, DomainId domain, Placement placement)
      : Storage(nbytes, domain, placement), buffer_(std::move(b)) {}
  const Buffer& buffer() const { return buffer_; }

 private:
  Buffer buffer_;
};

class WebGpuBackend final : public Backend {
 public:
  explicit WebGpuBackend(int ordinal);
  ~WebGpuBackend() override;

  std::string name() const override { return "webgpu"; }
  std::string device_name() const override;
  DomainId domain() const override { return domain_; }
  Placement placement() const override { return placement_; }
  bool supports(OpId op, DType d) const override;

  /// Error{out_of_memory} beyond the adapter's maxStorageBufferBindingSize (a tensor is one
  /// binding) or 2^31 - 1 elements (32-bit indices).
  Tensor allocate(DType dtype, const Shape& shape) override;
  Tensor upload(const TensorView& host) override;
  Tensor download(const TensorView& t) override;
  TransferStats transfer_stats() const override;
  void synchronize() override;

  void fill(const TensorView& out, const Scalar& value) override;
  void copy(const TensorView& src, const TensorView& dst) override;
  void cast(const TensorView& src, const TensorView& dst, const char* op, bool exact) override;
  void elementwise(OpId op, std::span<const TensorView> inputs, const TensorView& out, CompareDir dir) override;
  void reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) override;
  void gemm(const GemmCall& call) override;
  /// Sessions (of any thread) batch the dispatches into shared submissions until the last
  /// one open ends (Device::begin_batch).
  void begin_session() override;
  void end_session() override;
  void triangular(const TensorView& x, std::int64_t k, bool lower, const TensorView& out) override;
  void gather(const TensorView& operand, const TensorView& indices, const GatherConfig& cfg,
              const TensorView& out) override;
  void scatter(const TensorView& out, const TensorView& indices, const TensorView& updates,
               const ScatterConfig& cfg) override;

 private:
  /// The compiled kernel of `key`, compiled from make() on first use.
  template <class Make> const Kernel& kernel(const std::string& key, Make&& make);
  /// One dispatch over `n` elements: params at binding 0, then `data`.
  void run(const Kernel& k, const std::vector<std::int32_t>& params, std::span<const Buffer* const> data,
           std::uint64_t n);
  /// run with an error word (zero) bound after `data`, read back once the dispatch has run:
  /// returns the bits the kernel ORed into it.
  std::uint32_t run_checked(const Kernel& k, const std::vector<std::int32_t>& params,
                            std::span<const Buffer* const> data, std::uint64_t n);
  /// t itself, or a compact copy when it shares `other`'s storage (WebGPU binds a buffer that
  /// is written only once per dispatch).
  TensorView apart_from(const TensorView& t, const TensorView& other);

  Device dev_;
  DomainId domain_;
  Placement placement_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Kernel>> kernels_;
  std::uint64_t ups_ = 0, downs_ = 0, up_bytes_ = 0, down_bytes_ = 0;
  int sessions_ = 0;  // sessions open, over all threads
};

}  // namespace tenferro::webgpu
