// The WebGPU provider (tenferro/backend/provider.hpp): wgpu-native's adapters as devices
// "webgpu:N", each opened as a WebGpuBackend on first use and kept for the process.
#pragma once
#include "tenferro/backend/provider.hpp"

namespace tenferro::webgpu {

const Provider& provider();

}  // namespace tenferro::webgpu
