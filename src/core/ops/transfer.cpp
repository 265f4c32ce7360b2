// upload / download: the only ops that move data between host and device.
#include "core/check.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {

Tensor upload(Backend& be, const TensorView& host) {
  detail::check_upload_source(host);
  return be.upload(host);
}

Tensor download(Backend& be, const TensorView& t) {
  detail::check_resident(be, t, "download", "t");
  return be.download(t);
}

}  // namespace tenferro
