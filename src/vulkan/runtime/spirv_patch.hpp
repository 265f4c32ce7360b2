// Small edits of a SPIR-V module's words before vkCreateShaderModule.
//
// with_denorm_preserve: the module with the DenormPreserve capability, the
// SPV_KHR_float_controls extension and `OpExecutionMode <entry> DenormPreserve <width>` for every
// entry point. Drivers may flush denormal (subnormal) floats to zero unless a shader asks them
// to preserve them; NVIDIA's does for 32-bit floats (seen on an H200: exp near -87.3 returned
// 0, sqrt and rsqrt of subnormal inputs 0 and inf), while the contract (SEMANTICS.md) is IEEE
// arithmetic as the CPU backend does it. The provider applies it when the device reports
// shaderDenormPreserveFloat32 (VkPhysicalDeviceVulkan12Properties); on other devices (lavapipe
// preserves without being asked but does not report the property) the module is used as built.
//
// @pre `words` is a valid SPIR-V module (header + instructions). A module that already has the
// capability is returned unchanged. Throws Error{internal} on a malformed instruction stream.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace tenferro::vk {

std::vector<std::uint32_t> with_denorm_preserve(std::span<const std::uint32_t> words, std::uint32_t width);

}  // namespace tenferro::vk
