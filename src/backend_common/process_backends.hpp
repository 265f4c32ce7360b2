// The backend of each device ordinal of a provider, made on first use and kept for the process:
// tensors may outlive any scope, so backends are never deleted (tools/lsan.supp names this
// function for the leak checker).
#pragma once
#include <map>
#include <mutex>

namespace tenferro::detail {

/// B's backend of `ordinal` (B(int ordinal) constructs it; a constructor that throws leaves no
/// entry). Thread-safe.
template <class B> B& process_backend(int ordinal) {
  static std::mutex m;
  static std::map<int, B*> backends;
  std::lock_guard guard(m);
  B*& be = backends[ordinal];
  if (!be) be = new B(ordinal);
  return *be;
}

}  // namespace tenferro::detail
