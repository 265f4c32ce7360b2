// The WebGPU runtime (runtime.hpp).
#include "webgpu/runtime.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/check.hpp"

namespace tenferro::webgpu {

namespace {

constexpr const char* kOp = "webgpu";

std::string text_of(WGPUStringView s) {
  if (!s.data) return {};
  return s.length == WGPU_STRLEN ? std::string(s.data) : std::string(s.data, s.length);
}

WGPUStringView view_of(const std::string& s) { return {s.data(), s.size()}; }

const char* adapter_type(WGPUAdapterType t) {
  switch (t) {
    case WGPUAdapterType_DiscreteGPU: return "discrete";
    case WGPUAdapterType_IntegratedGPU: return "integrated";
    case WGPUAdapterType_CPU: return "cpu";
    default: return "other";
  }
}

const char* backend_name(WGPUBackendType b) {
  switch (b) {
    case WGPUBackendType_Vulkan: return "Vulkan";
    case WGPUBackendType_Metal: return "Metal";
    case WGPUBackendType_D3D12: return "D3D12";
    case WGPUBackendType_D3D11: return "D3D11";
    case WGPUBackendType_OpenGL: return "OpenGL";
    case WGPUBackendType_OpenGLES: return "OpenGLES";
    default: return "other";
  }
}

// The instance and its adapters, for the process (as the Vulkan provider keeps its instance:
// backends live as long).
struct Probe {
  WGPUInstance instance = nullptr;
  std::vector<WGPUAdapter> handles;
  std::vector<AdapterInfo> infos;
};

const Probe& probe() {
  static const Probe p = [] {
    Probe r;
    const Api* a = api();
    if (!a) return r;
    // The primary native APIs (Vulkan, Metal, D3D12): wgpu's OpenGL backend is a fallback whose
    // probing prints to stderr on machines without a display.
    WGPUInstanceExtras extras{};
    extras.chain.sType = static_cast<WGPUSType>(WGPUSType_InstanceExtras);
    extras.backends = WGPUInstanceBackend_Primary;
    extras.flags = WGPUInstanceFlag_Default;
    WGPUInstanceDescriptor desc = WGPU_INSTANCE_DESCRIPTOR_INIT;
    desc.nextInChain = &extras.chain;
    r.instance = a->wgpuCreateInstance(&desc);
    if (!r.instance) return r;
    const std::size_t n = a->wgpuInstanceEnumerateAdapters(r.instance, nullptr, nullptr);
    r.handles.resize(n);
    if (n) a->wgpuInstanceEnumerateAdapters(r.instance, nullptr, r.handles.data());
    for (std::size_t i = 0; i < r.handles.size(); ++i) {
      WGPUAdapterInfo ai = WGPU_ADAPTER_INFO_INIT;
      WGPULimits lim = WGPU_LIMITS_INIT;
      if (a->wgpuAdapterGetInfo(r.handles[i], &ai) != WGPUStatus_Success ||
          a->wgpuAdapterGetLimits(r.handles[i], &lim) != WGPUStatus_Success)
        continue;
      AdapterInfo info;
      DeviceInfo& d = info.row;
      d.backend = "webgpu";
      d.ordinal = static_cast<int>(i);
      d.name = text_of(ai.device);
      d.type = adapter_type(ai.adapterType);
      d.driver = text_of(ai.description);
      d.details = {
          std::string("native API: ") + backend_name(ai.backendType),
          "vendor: " + text_of(ai.vendor) + " (0x" + [&] {
            char b[16];
            std::snprintf(b, sizeof b, "%04x", ai.vendorID);
            return std::string(b);
          }() + ")",
          "maxStorageBufferBindingSize: " + std::to_string(lim.maxStorageBufferBindingSize),
          "maxBufferSize: " + std::to_string(lim.maxBufferSize),
          "maxStorageBuffersPerShaderStage: " + std::to_string(lim.maxStorageBuffersPerShaderStage),
          "maxComputeWorkgroupsPerDimension: " + std::to_string(lim.maxComputeWorkgroupsPerDimension),
          "maxComputeInvocationsPerWorkgroup: " + std::to_string(lim.maxComputeInvocationsPerWorkgroup),
          "maxComputeWorkgroupStorageSize: " + std::to_string(lim.maxComputeWorkgroupStorageSize),
          std::string("shader-f16: ") + (a->wgpuAdapterHasFeature(r.handles[i], WGPUFeatureName_ShaderF16) ? "yes" : "no"),
          std::string("timestamp-query: ") +
              (a->wgpuAdapterHasFeature(r.handles[i], WGPUFeatureName_TimestampQuery) ? "yes" : "no"),
          std::string("subgroups: ") + (a->wgpuAdapterHasFeature(r.handles[i], WGPUFeatureName_Subgroups) ? "yes" : "no"),
      };
      info.native_api = backend_name(ai.backendType);
      info.max_storage_binding = lim.maxStorageBufferBindingSize;
      info.max_buffer = lim.maxBufferSize;
      info.max_storage_buffers = lim.maxStorageBuffersPerShaderStage;
      info.max_workgroups = lim.maxComputeWorkgroupsPerDimension;
      info.max_invocations = lim.maxComputeInvocationsPerWorkgroup;
      info.storage_offset_align = std::max<std::uint32_t>(4, lim.minStorageBufferOffsetAlignment);
      a->wgpuAdapterInfoFreeMembers(ai);
      r.infos.push_back(std::move(info));
    }
    return r;
  }();
  return p;
}

const Api& checked_api() {
  const Api* a = api();
  TENFERRO_CHECK(a != nullptr, unsupported, kOp, "", unavailable_reason());
  return *a;
}

}  // namespace

const std::vector<AdapterInfo>& adapters() {
  try {
    return probe().infos;
  } catch (...) {
    static const std::vector<AdapterInfo> none;
    return none;
  }
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    this->~Buffer();
    b_ = o.b_;
    size_ = o.size_;
    o.b_ = nullptr;
  }
  return *this;
}

// Released, not destroyed: wgpu frees the memory once the work already submitted that uses the
// buffer has completed.
Buffer::~Buffer() {
  if (b_) api()->wgpuBufferRelease(b_);
}

Kernel::~Kernel() {
  api()->wgpuBindGroupLayoutRelease(layout_);
  api()->wgpuComputePipelineRelease(pipeline_);
}

Device::Device(int ordinal) : api_(checked_api()) {
  const Probe& p = probe();
  for (std::size_t i = 0; i < p.infos.size(); ++i)
    if (p.infos[i].row.ordinal == ordinal) info_ = &p.infos[i];
  TENFERRO_CHECK(info_ != nullptr, invalid_argument, kOp, "ordinal", "no adapter with ordinal ", ordinal,
                 " (", p.infos.size(), " adapters)");
  instance_ = p.instance;
  adapter_ = p.handles[static_cast<std::size_t>(ordinal)];
  // The adapter's own limits: storage buffers up to what it allows, not WebGPU's defaults.
  WGPULimits lim = WGPU_LIMITS_INIT;
  api_.wgpuAdapterGetLimits(adapter_, &lim);
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.requiredLimits = &lim;
  struct Result {
    WGPUDevice device = nullptr;
    std::string message;
    bool done = false;
  } res;
  WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowSpontaneous;
  cb.callback = [](WGPURequestDeviceStatus status, WGPUDevice d, WGPUStringView msg, void* u1, void*) {
    auto* r = static_cast<Result*>(u1);
    if (status == WGPURequestDeviceStatus_Success) r->device = d;
    else r->message = text_of(msg);
    r->done = true;
  };
  cb.userdata1 = &res;
  api_.wgpuAdapterRequestDevice(adapter_, &desc, cb);
  while (!res.done) api_.wgpuInstanceProcessEvents(instance_);
  TENFERRO_CHECK(res.device != nullptr, unsupported, kOp, "", "adapter ", ordinal, " (", info_->row.name,
                 ") gave no device: ", res.message);
  device_ = res.device;
  queue_ = api_.wgpuDeviceGetQueue(device_);
}

Device::~Device() {
  if (batch_) api_.wgpuCommandEncoderRelease(batch_);
  if (queue_) api_.wgpuQueueRelease(queue_);
  if (device_) api_.wgpuDeviceRelease(device_);
}

Device::ScopeResult Device::pop_error_scope() {
  ScopeResult r;
  bool done = false;
  struct Target {
    ScopeResult* r;
    bool* done;
  } target{&r, &done};
  WGPUPopErrorScopeCallbackInfo cb = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowSpontaneous;
  cb.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView msg, void* u1, void*) {
    auto* t = static_cast<Target*>(u1);
    t->r->failed = status != WGPUPopErrorScopeStatus_Success || type != WGPUErrorType_NoError;
    t->r->message = text_of(msg);
    *t->done = true;
  };
  cb.userdata1 = &target;
  api_.wgpuDevicePopErrorScope(device_, cb);
  wait_for(done);
  return r;
}

void Device::submit(WGPUCommandEncoder enc) {
  WGPUCommandBufferDescriptor cd = WGPU_COMMAND_BUFFER_DESCRIPTOR_INIT;
  WGPUCommandBuffer cmd = api_.wgpuCommandEncoderFinish(enc, &cd);
  api_.wgpuQueueSubmitForIndex(queue_, 1, &cmd);
  api_.wgpuCommandBufferRelease(cmd);
  api_.wgpuCommandEncoderRelease(enc);
}

void Device::wait_for(const bool& done) {
  while (!done) {
    api_.wgpuDevicePoll(device_, true, nullptr);
    api_.wgpuInstanceProcessEvents(instance_);
  }
}

Buffer Device::create_buffer(std::uint64_t bytes, bool checked) {
  const std::uint64_t size = std::max<std::uint64_t>(16, (bytes + 3) / 4 * 4);
  TENFERRO_CHECK(size <= info_->max_buffer, out_of_memory, kOp, "bytes", "a buffer of ", bytes,
                 " bytes exceeds the adapter's maxBufferSize ", info_->max_buffer);
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
  desc.size = size;
  if (!checked) return Buffer(api_.wgpuDeviceCreateBuffer(device_, &desc), size);
  api_.wgpuDevicePushErrorScope(device_, WGPUErrorFilter_OutOfMemory);
  WGPUBuffer b = api_.wgpuDeviceCreateBuffer(device_, &desc);
  const ScopeResult scope = pop_error_scope();
  if (scope.failed || !b) {
    if (b) api_.wgpuBufferRelease(b);
    TENFERRO_FAIL(out_of_memory, kOp, "bytes", "a buffer of ", bytes, " bytes was refused: ", scope.message);
  }
  return Buffer(b, size);
}

void Device::write(const Buffer& dst, std::uint64_t offset, const void* data, std::size_t bytes, bool fresh) {
  if (bytes == 0) return;
  if (!fresh) flush();
  const std::size_t whole = bytes / 4 * 4;
  if (whole) api_.wgpuQueueWriteBuffer(queue_, dst.get(), offset, data, whole);
  if (whole < bytes) {  // WebGPU writes whole 4-byte words: the tail padded with zeros
    std::uint8_t tail[4] = {0, 0, 0, 0};
    std::memcpy(tail, static_cast<const std::uint8_t*>(data) + whole, bytes - whole);
    api_.wgpuQueueWriteBuffer(queue_, dst.get(), offset + whole, tail, 4);
  }
}

void Device::read(const Buffer& src, std::uint64_t offset, void* data, std::size_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t size = (bytes + 3) / 4 * 4;
  WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  desc.size = size;
  Buffer staging(api_.wgpuDeviceCreateBuffer(device_, &desc), size);
  TENFERRO_CHECK(staging.get() != nullptr, out_of_memory, kOp, "bytes", "no staging buffer of ", size,
                 " bytes");
  flush();
  WGPUCommandEncoderDescriptor ed = WGPU_COMMAND_ENCODER_DESCRIPTOR_INIT;
  WGPUCommandEncoder enc = api_.wgpuDeviceCreateCommandEncoder(device_, &ed);
  api_.wgpuCommandEncoderCopyBufferToBuffer(enc, src.get(), offset, staging.get(), 0, size);
  submit(enc);
  struct Map {
    bool done = false, ok = false;
    std::string message;
  } map;
  WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  cb.mode = WGPUCallbackMode_AllowSpontaneous;
  cb.callback = [](WGPUMapAsyncStatus status, WGPUStringView msg, void* u1, void*) {
    auto* m = static_cast<Map*>(u1);
    m->ok = status == WGPUMapAsyncStatus_Success;
    m->message = text_of(msg);
    m->done = true;
  };
  cb.userdata1 = &map;
  api_.wgpuBufferMapAsync(staging.get(), WGPUMapMode_Read, 0, size, cb);
  wait_for(map.done);
  TENFERRO_CHECK(map.ok, backend_failure, kOp, "", "mapping a staging buffer failed: ", map.message);
  const void* p = api_.wgpuBufferGetConstMappedRange(staging.get(), 0, size);
  std::memcpy(data, p, bytes);
  api_.wgpuBufferUnmap(staging.get());
}

std::shared_ptr<Kernel> Device::compile(const std::string& name, const std::string& wgsl) {
  WGPUShaderSourceWGSL src = WGPU_SHADER_SOURCE_WGSL_INIT;
  src.code = view_of(wgsl);
  WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
  md.nextInChain = &src.chain;
  md.label = view_of(name);
  api_.wgpuDevicePushErrorScope(device_, WGPUErrorFilter_Validation);
  WGPUShaderModule module = api_.wgpuDeviceCreateShaderModule(device_, &md);
  const ScopeResult compiled = pop_error_scope();
  if (compiled.failed || !module) {
    if (module) api_.wgpuShaderModuleRelease(module);
    TENFERRO_FAIL(backend_failure, kOp, "", "kernel ", name, " does not compile: ", compiled.message);
  }
  WGPUComputePipelineDescriptor pd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
  pd.label = view_of(name);
  pd.compute.module = module;
  pd.compute.entryPoint = WGPUStringView{"main", 4};
  api_.wgpuDevicePushErrorScope(device_, WGPUErrorFilter_Validation);
  WGPUComputePipeline pipeline = api_.wgpuDeviceCreateComputePipeline(device_, &pd);
  const ScopeResult created = pop_error_scope();
  api_.wgpuShaderModuleRelease(module);
  if (created.failed || !pipeline) {
    if (pipeline) api_.wgpuComputePipelineRelease(pipeline);
    TENFERRO_FAIL(backend_failure, kOp, "", "kernel ", name, ": the pipeline was refused: ", created.message);
  }
  return std::make_shared<Kernel>(pipeline, api_.wgpuComputePipelineGetBindGroupLayout(pipeline, 0));
}

namespace {
/// The bind-group entries of `buffers` (whole) at bindings first, first + 1, ...
void add_entries(std::vector<WGPUBindGroupEntry>& entries, std::span<const Buffer* const> buffers) {
  for (const Buffer* b : buffers) {
    WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
    e.binding = static_cast<std::uint32_t>(entries.size());
    e.buffer = b->get();
    e.offset = 0;
    e.size = b->size();
    entries.push_back(e);
  }
}
}  // namespace

void Device::dispatch(const Kernel& k, std::span<const Buffer* const> buffers, std::uint32_t x, std::uint32_t y,
                      std::uint32_t z) {
  std::vector<WGPUBindGroupEntry> entries;
  add_entries(entries, buffers);
  encode(k, entries, x, y, z);
}

void Device::dispatch(const Kernel& k, std::span<const std::int32_t> params, std::span<const Buffer* const> data,
                      std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  const std::size_t bytes = std::max<std::size_t>(16, params.size_bytes());
  const std::size_t align = info_->storage_offset_align;
  std::size_t at = (params_host_.size() + align - 1) / align * align;
  if (batching_ && bytes <= kParamBlockBytes) {
    if (at + bytes > kParamBlockBytes) {
      flush();
      at = 0;
    }
    if (!params_.get()) params_ = create_buffer(kParamBlockBytes, false);
    params_host_.resize(at + bytes, 0);
    std::memcpy(params_host_.data() + at, params.data(), params.size_bytes());
  } else {
    Buffer own = create_buffer(bytes, false);
    write(own, 0, params.data(), params.size_bytes(), true);
    std::vector<const Buffer*> all{&own};
    all.insert(all.end(), data.begin(), data.end());
    dispatch(k, all, x, y, z);
    return;
  }
  std::vector<WGPUBindGroupEntry> entries(1, WGPU_BIND_GROUP_ENTRY_INIT);
  entries[0].binding = 0;
  entries[0].buffer = params_.get();
  entries[0].offset = at;
  entries[0].size = bytes;
  add_entries(entries, data);
  encode(k, entries, x, y, z);
}

void Device::encode(const Kernel& k, std::span<const WGPUBindGroupEntry> entries, std::uint32_t x, std::uint32_t y,
                    std::uint32_t z) {
  WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
  bd.layout = k.layout();
  bd.entryCount = entries.size();
  bd.entries = entries.data();
  WGPUBindGroup group = api_.wgpuDeviceCreateBindGroup(device_, &bd);
  WGPUCommandEncoder enc = batch_;
  if (!enc) {
    WGPUCommandEncoderDescriptor ed = WGPU_COMMAND_ENCODER_DESCRIPTOR_INIT;
    enc = api_.wgpuDeviceCreateCommandEncoder(device_, &ed);
  }
  WGPUComputePassDescriptor cpd = WGPU_COMPUTE_PASS_DESCRIPTOR_INIT;
  WGPUComputePassEncoder pass = api_.wgpuCommandEncoderBeginComputePass(enc, &cpd);
  api_.wgpuComputePassEncoderSetPipeline(pass, k.pipeline());
  api_.wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
  api_.wgpuComputePassEncoderDispatchWorkgroups(pass, x, y, z);
  api_.wgpuComputePassEncoderEnd(pass);
  api_.wgpuComputePassEncoderRelease(pass);
  api_.wgpuBindGroupRelease(group);
  if (!batching_) {
    submit(enc);
    return;
  }
  batch_ = enc;
  if (++batched_ >= kBatchDispatches) flush();
}

void Device::flush() {
  if (!batch_) return;
  WGPUCommandEncoder enc = batch_;
  batch_ = nullptr;
  batched_ = 0;
  // The block's queue write runs before the batch (queue writes precede the next submission);
  // the next batch takes a new block, this one freed once its work has run.
  if (params_.get()) {
    write(params_, 0, params_host_.data(), params_host_.size(), true);
    params_ = Buffer();
    params_host_.clear();
  }
  submit(enc);
}

void Device::end_batch() {
  batching_ = false;
  flush();
}

void Device::synchronize() {
  flush();
  api_.wgpuDevicePoll(device_, true, nullptr);
}

}  // namespace tenferro::webgpu
