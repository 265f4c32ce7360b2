// PLACEHOLDER (being written): the family is not on Vulkan yet.
#include "vulkan/backend.hpp"

namespace tenferro::vk {

bool supports_analytic(const DeviceCaps&, OpId, DType) { return false; }
void analytic_kernel(VulkanBackend&, OpId op, const TensorView&, const TensorView&) {
  TENFERRO_FAIL(unsupported, std::string(op_name(op)), "", "[vulkan] op not yet implemented");
}

}  // namespace tenferro::vk
