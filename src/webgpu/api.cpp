// Loading wgpu-native (api.hpp).
#include "webgpu/api.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "core/env.hpp"

namespace tenferro::webgpu {

namespace {

struct Loaded {
  Api api;
  bool ok = false;
  std::string reason;
};

const Loaded& loaded() {
  static const Loaded l = [] {
    Loaded r;
    std::string tried;
    void* lib = nullptr;
    auto attempt = [&](const std::string& path) {
      if (lib || path.empty()) return;
      lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!lib) tried += (tried.empty() ? "" : "; ") + std::string(::dlerror());
    };
    attempt(env::text("TENFERRO_WGPU_LIB").value_or(""));
    // Beside the module this code is in (an installed libtenferro.so, or the program that
    // linked the static library): where the install rules put it.
    Dl_info self{};
    if (::dladdr(reinterpret_cast<void*>(&unavailable_reason), &self) && self.dli_fname) {
      const std::string path = self.dli_fname;
      const std::size_t slash = path.rfind('/');
      if (slash != std::string::npos) attempt(path.substr(0, slash + 1) + "libwgpu_native.so");
    }
#ifdef TENFERRO_WGPU_DEFAULT_LIB
    attempt(TENFERRO_WGPU_DEFAULT_LIB);
#endif
    attempt("libwgpu_native.so");
    if (!lib) {
      r.reason = "wgpu-native could not be loaded (" + tried + "); run tools/fetch-wgpu.sh or set TENFERRO_WGPU_LIB";
      return r;
    }
#define TENFERRO_WGPU_LOAD(name)                                                          \
  r.api.name = reinterpret_cast<decltype(&::name)>(::dlsym(lib, #name));                  \
  if (!r.api.name) {                                                                       \
    r.reason = "wgpu-native lacks " #name " (a wgpu-native of another header generation?)"; \
    return r;                                                                              \
  }
    TENFERRO_WGPU_FUNCTIONS(TENFERRO_WGPU_LOAD)
#undef TENFERRO_WGPU_LOAD
    r.ok = true;  // the library stays loaded for the process
    return r;
  }();
  return l;
}

#define TENFERRO_WGPU_NAME(name) #name,
constexpr const char* kNames[] = {TENFERRO_WGPU_FUNCTIONS(TENFERRO_WGPU_NAME)};
#undef TENFERRO_WGPU_NAME

}  // namespace

const Api* api() noexcept {
  try {
    const Loaded& l = loaded();
    return l.ok ? &l.api : nullptr;
  } catch (...) {
    return nullptr;
  }
}

std::string unavailable_reason() {
  const Loaded& l = loaded();
  return l.ok ? std::string() : l.reason;
}

const char* const* function_names(std::size_t* count) noexcept {
  *count = sizeof kNames / sizeof kNames[0];
  return kNames;
}

}  // namespace tenferro::webgpu
