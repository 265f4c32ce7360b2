// The analytic family (exp log sin cos tanh sqrt rsqrt expm1 log1p; erf on reals) and the pows
// that need the shader math library (F64, C32, C64), on shaders/elementwise/{analytic,pow}.comp.
// F32/C32 use the pure-f32 library (shaders/common/math_f32.glsl) on every device; F64/C64 use
// math_f64.glsl and need shaderFloat64 (caps.f64). Measured accuracy: docs/accuracy.md.
//
// pow_via_math_library(be, {lhs, rhs}, out): out = pow(lhs, rhs) for F64, C32 and C64 (C pow /
// std::pow(complex) semantics, pow(0, 0) = 1); returns false (recording nothing) for any other
// dtype or when the device lacks f64 for F64/C64. Same preconditions as elementwise_kernel:
// validated by core, equal shapes, out compact.
#include <span>

#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

bool pow_via_math_library(VulkanBackend& be, std::span<const TensorView> inputs, const TensorView& out);

namespace {
bool dtype_ok(const DeviceCaps& caps, DType d) {
  switch (d) {
    case DType::F32:
    case DType::C32: return true;
    case DType::F64:
    case DType::C64: return caps.f64;
    default: return false;
  }
}
}  // namespace

bool supports_analytic(const DeviceCaps& caps, OpId op, DType d) {
  if (op_info(op).family != OpFamily::analytic || !dtype_ok(caps, d)) return false;
  return op != OpId::erf || !is_complex(d);
}

void analytic_kernel(VulkanBackend& be, OpId op, const TensorView& x, const TensorView& out) {
  TENFERRO_CHECK(supports_analytic(be.device().caps(), op, x.dtype()), unsupported, std::string(op_name(op)), "x",
                 "[vulkan] ", dtype_name(x.dtype()), " is not supported on this device");
  Dispatch d;
  d.kernel = "analytic";
  d.type = arith_tag(be, x.dtype());
  d.op = static_cast<int>(op);
  d.tag = static_cast<std::uint32_t>(op) + 1;
  d.add(out);
  d.add(x);
  record_dispatch(be, d);
}

bool pow_via_math_library(VulkanBackend& be, std::span<const TensorView> inputs, const TensorView& out) {
  // F32 computes in double (pow_f32: f32 storage, TF_F32_STORAGE), so only where the device has f64; without
  // it f32 pow stays on the driver's exp2/log2 (elementwise/ops.glsl; docs/accuracy.md).
  const DType t = out.dtype();
  const DeviceCaps& caps = be.device().caps();
  if (inputs.size() != 2 || !dtype_ok(caps, t) || (t == DType::F32 && !caps.f64)) return false;
  Dispatch d;
  d.kernel = "pow";
  d.type = t == DType::F32 ? type_tag(t) : arith_tag(be, t);
  d.tag = static_cast<std::uint32_t>(OpId::pow) + 1;
  d.add(out);
  d.add(inputs[0]);
  d.add(inputs[1]);
  record_dispatch(be, d);
  return true;
}

}  // namespace tenferro::vk
