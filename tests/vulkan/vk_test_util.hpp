// Shared helpers of the Vulkan runtime tests: the device under test (skip only when no Vulkan
// device exists), host tensors of any dtype from double/complex values, and a fixture that
// fails a test on any validation-layer message.
#pragma once
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/runtime.hpp"
#include "vulkan/provider.hpp"

namespace tenferro::vktest {

/// The default Vulkan backend, or nullptr when the machine has no usable Vulkan device.
inline Backend* device_or_null() {
  static Backend* be = [] () -> Backend* {
    if (vk::list_vulkan_devices().empty()) return nullptr;
    return &vk::vulkan_backend(vk::default_vulkan_ordinal());
  }();
  return be;
}

/// Base fixture: skips without a device; fails on validation messages emitted by the test.
class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    be_ = device_or_null();
    if (!be_) GTEST_SKIP() << "no Vulkan device present (lavapipe or a GPU is needed)";
    messages_ = vk::validation_message_count();
  }
  void TearDown() override {
    if (be_) {
      be_->synchronize();
      EXPECT_EQ(vk::validation_message_count(), messages_) << "validation layer reported messages";
    }
  }
  Backend& be() { return *be_; }
  Backend* be_ = nullptr;
  std::uint64_t messages_ = 0;
};

/// x as dtype d holds it: rounded to float precision (re and im) for F32 / C32, imaginary part
/// dropped for real dtypes. Out of line, branch inside: GCC 12.2 at -O3 miscompiles a loop over
/// `if (d == F32 || d == C32) v = complex<double>(float(re), float(im))` (the rounding is skipped;
/// seen in gemm_gpu_test's operand fill, and in a 10-line reproduction that rounds at -O2).
[[gnu::noinline]] inline std::complex<double> as_stored(DType d, std::complex<double> x) {
  if (d == DType::F32 || d == DType::C32)
    x = {static_cast<double>(static_cast<float>(x.real())), static_cast<double>(static_cast<float>(x.imag()))};
  if (!is_complex(d)) x = {x.real(), 0.0};
  return x;
}

/// Element value in a dtype-independent form: integers exact in `i`, others in `c`.
struct Val {
  std::int64_t i = 0;
  std::complex<double> c{};
};

inline Val read_elem(const std::byte* p, DType d) {
  Val v;
  switch (d) {
    case DType::F32: { float x; std::memcpy(&x, p, 4); v.c = x; break; }
    case DType::F64: { double x; std::memcpy(&x, p, 8); v.c = x; break; }
    case DType::I32: { std::int32_t x; std::memcpy(&x, p, 4); v.i = x; v.c = double(x); break; }
    case DType::I64: { std::int64_t x; std::memcpy(&x, p, 8); v.i = x; v.c = double(x); break; }
    case DType::Bool: { v.i = std::to_integer<int>(p[0]); v.c = double(v.i); break; }
    case DType::C32: { float x[2]; std::memcpy(x, p, 8); v.c = {x[0], x[1]}; break; }
    case DType::C64: { double x[2]; std::memcpy(x, p, 16); v.c = {x[0], x[1]}; break; }
  }
  return v;
}

inline void write_elem(std::byte* p, DType d, const Val& v) {
  switch (d) {
    case DType::F32: { float x = float(v.c.real()); std::memcpy(p, &x, 4); break; }
    case DType::F64: { double x = v.c.real(); std::memcpy(p, &x, 8); break; }
    case DType::I32: { std::int32_t x = std::int32_t(v.i); std::memcpy(p, &x, 4); break; }
    case DType::I64: { std::memcpy(p, &v.i, 8); break; }
    case DType::Bool: { p[0] = std::byte(v.i != 0 ? 1 : 0); break; }
    case DType::C32: { float x[2] = {float(v.c.real()), float(v.c.imag())}; std::memcpy(p, x, 8); break; }
    case DType::C64: { double x[2] = {v.c.real(), v.c.imag()}; std::memcpy(p, x, 16); break; }
  }
}

/// Element `i` (colex) of a host view.
inline Val host_at(const TensorView& t, std::int64_t i) {
  return read_elem(t.storage()->host_data() + t.layout().offset_of(i) * std::int64_t(dtype_size(t.dtype())), t.dtype());
}

/// A compact host tensor with values vals[i] (colex order).
inline Tensor host_of(DType d, const Shape& shape, const std::vector<Val>& vals) {
  Tensor t = cpu_backend().allocate(d, shape);
  for (std::size_t i = 0; i < vals.size(); ++i) write_elem(t.storage()->host_data() + i * dtype_size(d), d, vals[i]);
  return t;
}

}  // namespace tenferro::vktest
