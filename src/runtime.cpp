// The runtime (tenferro/runtime.hpp): the providers this library was built with, device
// listing and the default device. The one place that knows which backends exist.
#include <charconv>
#include <string>
#include <string_view>
#include <utility>

#include "core/options.hpp"
#include "cpu/provider.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/backend/provider.hpp"
#ifdef TENFERRO_HAVE_VULKAN
#include "vulkan/provider.hpp"
#endif
#ifdef TENFERRO_HAVE_WEBGPU
#include "webgpu/provider.hpp"
#endif

namespace tenferro {

namespace {

std::span<const Provider* const> providers() {
  static const Provider* const kProviders[] = {
      &cpu::provider(),
#ifdef TENFERRO_HAVE_VULKAN
      &vk::provider(),
#endif
#ifdef TENFERRO_HAVE_WEBGPU
      &webgpu::provider(),
#endif
  };
  return kProviders;
}

const Provider* find_provider(std::string_view name) {
  for (const Provider* p : providers())
    if (name == p->name) return p;
  return nullptr;
}

/// The default device's preference (lower first): discrete GPUs, integrated, other GPUs, then
/// the CPU backend. A CPU device of a GPU API (lavapipe: Vulkan on the CPU) ranks last, so it is
/// never the default: the CPU backend runs the same einsum instances 20-45x faster on 2 cores
/// (bench/RESULTS.md, "CPU backend against PyTorch CPU"); TENFERRO_DEVICE or an explicit device
/// selects it.
int preference(const DeviceInfo& d) {
  if (d.backend == "cpu") return 3;
  if (d.backend == "webgpu") return 5;  // runs a part of the contract: only when chosen
  if (d.type == "discrete") return 0;
  if (d.type == "integrated") return 1;
  if (d.type == "cpu") return 4;
  return 2;
}

/// A whole decimal ordinal, or -1.
int parse_ordinal(std::string_view s) {
  int v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v >= 0 ? v : -1;
}

}  // namespace

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  for (const Provider* p : providers())
    for (DeviceInfo& d : p->devices()) out.push_back(std::move(d));
  return out;
}

std::optional<DeviceInfo> device_info(const Backend& be) {
  const Provider* p = find_provider(be.name());
  if (p == nullptr) return std::nullopt;
  for (DeviceInfo& d : p->devices())
    if (d.ordinal == be.placement().ordinal) return d;
  return std::nullopt;
}

bool vulkan_available() noexcept {
  const Provider* p = find_provider("vulkan");
  return p != nullptr && !p->devices().empty();
}

Backend& get_backend(const std::string& name, int ordinal) {
  if (const Provider* p = find_provider(name)) return p->open(ordinal);
  std::string known;
  for (const Provider* p : providers()) known += std::string(known.empty() ? "" : ", ") + p->name;
  TENFERRO_FAIL(unsupported, "get_backend", "name", "unknown backend '", name, "' (this build has: ", known, ")");
}

namespace {
/// TENFERRO_DEVICE's and Device::parse's text: "cpu", "vulkan", "vulkan:N" or (env_form) a
/// bare Vulkan ordinal N. Returns the provider's name and the ordinal (-1: preferred).
std::pair<std::string, int> parse_device(const std::string& text, const char* op, const char* arg, bool env_form) {
  const std::string_view s = text;
  const std::size_t colon = s.find(':');
  const std::string_view name = colon == std::string_view::npos ? s : s.substr(0, colon);
  if (env_form)
    if (const int n = parse_ordinal(s); n >= 0) return {"vulkan", n};
  if (colon == std::string_view::npos && find_provider(name)) return {std::string(name), -1};
  if (colon != std::string_view::npos && find_provider(name)) {
    const int n = parse_ordinal(s.substr(colon + 1));
    TENFERRO_CHECK(n >= 0, invalid_argument, op, arg, arg, "='", text,
                   "': the part after ':' must be a device ordinal (0, 1, ...)");
    return {std::string(name), n};
  }
  TENFERRO_FAIL(invalid_argument, op, arg, arg, "='", text,
                "' is not a device: expected cpu, vulkan, vulkan:N, webgpu, webgpu:N",
                env_form ? " or a Vulkan ordinal N" : "");
}
}  // namespace

Backend& default_backend() {
  const std::string& dev = options().device;
  if (!dev.empty()) {
    const auto [name, ordinal] = parse_device(dev, "default_backend", "TENFERRO_DEVICE", true);
    return get_backend(name, ordinal);
  }
  const Provider* best = nullptr;
  DeviceInfo best_info;
  for (const Provider* p : providers())
    for (DeviceInfo& d : p->devices())
      if (best == nullptr || preference(d) < preference(best_info)) {
        best = p;
        best_info = std::move(d);
      }
  return best->open(best_info.ordinal);
}

Backend& backend_for(const Device& device) {
  if (device.is_cpu()) return cpu_backend();
  return get_backend(device_kind_name(device.kind()), device.ordinal());
}

Device device_of(const Backend& be) {
  const Placement p = be.placement();
  return Device(p.device, p.ordinal);
}

// ---- Device (tenferro/device.hpp) ----------------------------------------------------------------
Device Device::vulkan(int ordinal) { return device_of(get_backend("vulkan", ordinal)); }

Device Device::parse(std::string_view name) {
  const auto [provider, ordinal] = parse_device(std::string(name), "Device", "name", false);
  return device_of(get_backend(provider, ordinal));
}

std::string Device::name() const {
  if (is_cpu()) return "cpu";
  std::string n = device_kind_name(kind_);
  n += ':';
  n += std::to_string(ordinal_);
  return n;
}

std::string Device::description() const { return backend_for(*this).device_name(); }

Device default_device() { return device_of(default_backend()); }

std::vector<Device> devices() {
  std::vector<Device> out;
  for (const DeviceInfo& d : list_devices())
    out.emplace_back(d.backend == "cpu" ? DeviceKind::Cpu : d.backend == "webgpu" ? DeviceKind::WebGpu : DeviceKind::Vulkan,
                     d.ordinal);
  return out;
}

}  // namespace tenferro
