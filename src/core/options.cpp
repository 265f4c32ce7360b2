#include "core/options.hpp"

#include "core/env.hpp"

namespace tenferro {

const Options& options() {
  static const Options o = [] {
    Options r;
    r.device = env::text("TENFERRO_DEVICE").value_or("");
    return r;
  }();
  return o;
}

}  // namespace tenferro
