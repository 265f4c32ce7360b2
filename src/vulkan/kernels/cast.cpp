// cast / convert on Vulkan: one elementwise-style dispatch of shaders/cast/cast.comp, variant
// cast_<src>_<dst>[_idx64] (every ordered pair of distinct dtypes; equal dtypes are a copy in
// core). Float-to-integer range errors (and, with `exact`, non-integral values) set
// TF_ERR_CAST_RANGE in the device error word, tagged with `op`. Callers (core's cast/convert,
// the index tensors of gather/scatter) need the error from the call itself, so a cast that can
// fail (float or complex to an integer) synchronizes after recording and the backend rethrows
// the error as invalid_argument naming `op`; every other pair stays asynchronous.
#include "shaders/common/params.h"
#include "vulkan/kernels/dispatch.hpp"

namespace tenferro::vk {

/// f64 and c64 need shaderFloat64, i64 shaderInt64; Bool needs 8-bit storage and int8.
bool supports_cast(const DeviceCaps& caps, DType d) {
  switch (d) {
    case DType::F64:
    case DType::C64: return caps.f64;
    case DType::I64: return caps.i64;
    case DType::Bool: return caps.bool_ok();
    default: return true;
  }
}

/// @pre src and dst have equal shapes and different dtypes, both supported; dst does not
/// overlap src. Float/complex -> integer: synchronizes, throws invalid_argument on a bad value.
/// `op` names the caller's op ("cast", "convert", "gather", ...).
void cast_kernel(VulkanBackend& be, const TensorView& src, const TensorView& dst, const char* op, bool exact) {
  TENFERRO_ASSERT(src.dtype() != dst.dtype());
  const std::optional<OpId> id = parse_op(op);
  Dispatch d;
  d.kernel = "cast_" + type_tag(src.dtype());
  d.type = type_tag(dst.dtype());
  d.tag = id ? static_cast<std::uint32_t>(*id) + 1 : 0;
  d.add(dst);
  d.add(src);
  d.value[0] = exact ? 1 : 0;
  record_dispatch(be, d);
  const bool can_fail = !is_integer(src.dtype()) && src.dtype() != DType::Bool && is_integer(dst.dtype());
  if (can_fail) be.synchronize();
}

}  // namespace tenferro::vk
