// set_accuracy / accuracy (tenferro/options.hpp): the Vulkan backend holds and applies its
// choices; other backends (the CPU backend) only keep them, here.
#include <map>
#include <mutex>

#include "core/options.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/options.hpp"
#include "tenferro/runtime.hpp"
#ifdef TENFERRO_HAVE_VULKAN
#include "vulkan/provider.hpp"
#endif

namespace tenferro {

namespace {

struct Kept {
  std::mutex mutex;
  std::map<const Backend*, AccuracyOptions> choices;
};

Kept& kept() {
  static Kept k;
  return k;
}

}  // namespace

void set_accuracy(Backend& be, const AccuracyOptions& a) {
#ifdef TENFERRO_HAVE_VULKAN
  if (vk::set_accuracy_if_vulkan(be, a)) return;
#endif
  check_accuracy(a);
  Kept& k = kept();
  std::lock_guard guard(k.mutex);
  AccuracyOptions c = a;
  if (c.ozaki != OzakiMode::uncertified) c.ozaki_moduli = 0;
  k.choices[&be] = c;
}

AccuracyOptions accuracy(const Backend& be) {
#ifdef TENFERRO_HAVE_VULKAN
  if (const std::optional<AccuracyOptions> a = vk::accuracy_if_vulkan(be)) return *a;
#endif
  Kept& k = kept();
  std::lock_guard guard(k.mutex);
  const auto it = k.choices.find(&be);
  return it != k.choices.end() ? it->second : default_accuracy();
}

void set_accuracy(const Device& device, const AccuracyOptions& a) { set_accuracy(backend_for(device), a); }

AccuracyOptions accuracy(const Device& device) { return accuracy(backend_for(device)); }

}  // namespace tenferro
