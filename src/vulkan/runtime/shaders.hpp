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

/// An include file of the shader tree as text (cmake/TenferroShaders.cmake,
/// tenferro_embed_shader_sources), for the kernels compiled at run time (runtime/compiler.hpp).
struct EmbeddedSource {
  std::string_view path;  // as a shader includes it, e.g. "common/types.glsl", "tf_op_codes.h"
  std::string_view text;
};

std::span<const EmbeddedSource> embedded_shader_sources();

}  // namespace tenferro::vk
