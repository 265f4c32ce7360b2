// The SPIR-V table embedded at build time (generated into the build directory by
// cmake/TenferroShaders.cmake from the explicit list in shaders/variants.cmake).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace tenferro::vk {

struct EmbeddedShader {
  std::string_view name;  // <kernel>_<dtype>[_<variant>], e.g. "binary_f32_idx64"
  const std::uint32_t* words;
  std::size_t word_count;
};

std::span<const EmbeddedShader> embedded_shaders();

}  // namespace tenferro::vk
