// The WebGPU API of wgpu-native, loaded at run time (dlopen): the build needs only its headers
// (tools/fetch-wgpu.sh), and a process without the library runs without the provider. Only the
// functions listed here are ever called: wgpu-native exports about 40 functions that abort the
// process (wgpuInstanceWaitAny, wgpuBufferReadMappedRange, the *SetLabel family, ...), so the
// provider waits with wgpuDevicePoll and wgpuInstanceProcessEvents; tests/webgpu checks that this
// list names none of them, and between them its tests call every function listed. The instance
// and the adapters live for the process: they are never released.
#pragma once
#include <string>

#include <webgpu.h>
#include <wgpu.h>

namespace tenferro::webgpu {

#define TENFERRO_WGPU_FUNCTIONS(X)                                                                          \
  X(wgpuCreateInstance) X(wgpuInstanceEnumerateAdapters) X(wgpuInstanceProcessEvents)                     \
  X(wgpuAdapterGetInfo) X(wgpuAdapterInfoFreeMembers) X(wgpuAdapterGetLimits) X(wgpuAdapterHasFeature)       \
  X(wgpuAdapterRequestDevice) X(wgpuDeviceGetQueue) X(wgpuDeviceRelease)                                   \
  X(wgpuDevicePoll) X(wgpuDevicePushErrorScope) X(wgpuDevicePopErrorScope) X(wgpuDeviceCreateBuffer)         \
  X(wgpuBufferRelease) X(wgpuBufferMapAsync) X(wgpuBufferGetConstMappedRange)           \
  X(wgpuBufferUnmap) X(wgpuQueueWriteBuffer) X(wgpuQueueSubmitForIndex) X(wgpuQueueRelease)                   \
  X(wgpuDeviceCreateCommandEncoder) X(wgpuCommandEncoderCopyBufferToBuffer) X(wgpuCommandEncoderFinish)     \
  X(wgpuCommandEncoderRelease) X(wgpuCommandBufferRelease) X(wgpuCommandEncoderBeginComputePass)            \
  X(wgpuComputePassEncoderSetPipeline) X(wgpuComputePassEncoderSetBindGroup)                                 \
  X(wgpuComputePassEncoderDispatchWorkgroups) X(wgpuComputePassEncoderEnd) X(wgpuComputePassEncoderRelease)  \
  X(wgpuDeviceCreateShaderModule) X(wgpuShaderModuleRelease) X(wgpuDeviceCreateComputePipeline)              \
  X(wgpuComputePipelineGetBindGroupLayout) X(wgpuComputePipelineRelease) X(wgpuBindGroupLayoutRelease)       \
  X(wgpuDeviceCreateBindGroup) X(wgpuBindGroupRelease)

/// The loaded functions, one pointer each, named as in webgpu.h / wgpu.h.
struct Api {
#define TENFERRO_WGPU_MEMBER(name) decltype(&::name) name = nullptr;
  TENFERRO_WGPU_FUNCTIONS(TENFERRO_WGPU_MEMBER)
#undef TENFERRO_WGPU_MEMBER
};

/// The library's functions, loaded on first use from TENFERRO_WGPU_LIB, else
/// libwgpu_native.so beside the module this code is in (where the install rules put it), else
/// the copy tools/fetch-wgpu.sh put in the build (TENFERRO_WGPU_DEFAULT_LIB), else
/// libwgpu_native.so on the loader's path. nullptr when none loads or a function is missing;
/// unavailable_reason() then says why. Never throws.
const Api* api() noexcept;
std::string unavailable_reason();

/// The names of the functions api() loads (for the stub check of tests/webgpu).
const char* const* function_names(std::size_t* count) noexcept;

}  // namespace tenferro::webgpu
