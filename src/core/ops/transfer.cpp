// upload / download: the only ops that move data between host and device.
#include "core/check.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

Tensor upload(Backend& be, const TensorView& host) {
  TENFERRO_CHECK(host.defined(), invalid_argument, "upload", "host", "tensor is undefined");
  TENFERRO_CHECK(host.domain() == kHostDomain, runtime_state, "upload", "host",
                 "upload takes a host tensor; this one is on ", to_string(host.placement()));
  return be.upload(host);
}

Tensor download(Backend& be, const TensorView& t) {
  detail::check_resident(be, t, "download", "t");
  return be.download(t);
}

}  // namespace tenferro
