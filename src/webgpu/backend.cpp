// WebGpuBackend (backend.hpp) and the WebGPU provider (provider.hpp).
#include "webgpu/backend.hpp"

#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "backend_common/element_bytes.hpp"
#include "backend_common/host_pack.hpp"
#include "backend_common/process_backends.hpp"
#include "core/check.hpp"
#include "webgpu/kernels.hpp"
#include "webgpu/provider.hpp"

namespace tenferro::webgpu {

namespace {

const WgpuStorage& storage_of(const TensorView& t) { return static_cast<const WgpuStorage&>(*t.storage()); }

bool compact_at_zero(const TensorView& t) { return t.layout().offset == 0 && t.layout().is_compact(); }

// The bits of a scalar of dtype d as the 32-bit words of the fill kernel (a Bool in the low
// byte of one word).
std::vector<std::int32_t> words_of(const Scalar& v, DType d) {
  const auto raw = detail::element_bytes(v, d);
  std::vector<std::int32_t> w((dtype_size(d) + 3) / 4);
  std::memcpy(w.data(), raw.data(), w.size() * 4);
  return w;
}

}  // namespace

WebGpuBackend::WebGpuBackend(int ordinal)
    : dev_(ordinal), domain_(new_domain_id()), placement_{MemoryKind::Device, DeviceKind::WebGpu, ordinal} {
  register_backend(domain_, *this);  // last: a constructor that throws leaves no entry behind
}

WebGpuBackend::~WebGpuBackend() { unregister_backend(domain_); }

std::string WebGpuBackend::device_name() const {
  return dev_.info().row.name + " (WebGPU on " + dev_.info().native_api + ")";
}

bool WebGpuBackend::supports(OpId op, DType d) const {
  if (!contract_allows(op, d)) return false;
  switch (op_info(op).family) {
    case OpFamily::structural:  // lowered by core to fill and copy, which move any dtype's bits
      return op != OpId::tril && op != OpId::triu && op != OpId::dynamic_slice && op != OpId::dynamic_update_slice;
    case OpFamily::unary:
    case OpFamily::binary: return elementwise_supported(op, d);
    default: return false;
  }
}

Tensor WebGpuBackend::allocate(DType dtype, const Shape& shape) {
  const std::int64_t n = shape_numel(shape, "allocate");
  const std::uint64_t bytes = static_cast<std::uint64_t>(n) * dtype_size(dtype);
  TENFERRO_CHECK(n <= std::numeric_limits<std::int32_t>::max(), out_of_memory, "allocate", "shape",
                 "[webgpu] a tensor of ", n, " elements exceeds the 2^31 - 1 that 32-bit indices reach");
  TENFERRO_CHECK(bytes <= dev_.info().max_storage_binding, out_of_memory, "allocate", "shape", "[webgpu] a tensor of ",
                 bytes, " bytes exceeds the adapter's maxStorageBufferBindingSize (", dev_.info().max_storage_binding,
                 " bytes): a tensor is one binding");
  std::lock_guard lock(mu_);
  Buffer b = dev_.create_buffer(bytes);
  return Tensor(std::make_shared<WgpuStorage>(std::move(b), bytes, domain_, placement_), dtype, shape);
}

Tensor WebGpuBackend::upload(const TensorView& host) {
  detail::check_upload_source(host);
  Tensor out = allocate(host.dtype(), host.shape());
  const std::size_t bytes = static_cast<std::size_t>(out.numel()) * dtype_size(out.dtype());
  if (bytes == 0) return out;
  std::vector<std::byte> packed(bytes);
  detail::pack(host, packed.data());
  std::lock_guard lock(mu_);
  dev_.write(storage_of(out).buffer(), 0, packed.data(), bytes);
  ++ups_;
  up_bytes_ += bytes;
  return out;
}

Tensor WebGpuBackend::download(const TensorView& t) {
  detail::check_resident(*this, t, "download", "t");
  const TensorView src = compact_at_zero(t) ? t : TensorView([&] {
    Tensor c = allocate(t.dtype(), t.shape());
    copy(t, c);
    return c;
  }());
  Tensor out = host_empty(t.dtype(), t.shape());
  const std::size_t bytes = static_cast<std::size_t>(out.numel()) * dtype_size(out.dtype());
  if (bytes == 0) return out;
  std::lock_guard lock(mu_);
  dev_.read(storage_of(src).buffer(), 0, out.storage()->host_data(), bytes);
  ++downs_;
  down_bytes_ += bytes;
  return out;
}

TransferStats WebGpuBackend::transfer_stats() const { return {up_bytes_, down_bytes_, ups_, downs_}; }

void WebGpuBackend::synchronize() {
  std::lock_guard lock(mu_);
  dev_.synchronize();
}

template <class Make> const Kernel& WebGpuBackend::kernel(const std::string& key, Make&& make) {
  auto it = kernels_.find(key);
  if (it == kernels_.end()) it = kernels_.emplace(key, dev_.compile(key, make())).first;
  return *it->second;
}

void WebGpuBackend::run(const Kernel& k, const std::vector<std::int32_t>& params, std::span<const Buffer* const> data,
                        std::uint64_t n) {
  const Grid g = grid(n, dev_.info().max_workgroups);
  if (g.x == 0) return;
  Buffer p = dev_.create_buffer(params.size() * 4, false);
  dev_.write(p, 0, params.data(), params.size() * 4);
  std::vector<const Buffer*> all{&p};
  all.insert(all.end(), data.begin(), data.end());
  dev_.dispatch(k, all, g.x, g.y);
}

TensorView WebGpuBackend::apart_from(const TensorView& t, const TensorView& other) {
  if (t.storage() != other.storage()) return t;
  Tensor c = allocate(t.dtype(), t.shape());
  copy(t, c);
  return c;
}

void WebGpuBackend::fill(const TensorView& out, const Scalar& value) {
  detail::check_resident(*this, out, "fill", "out");
  const Bits b = bits_of(out.dtype());
  const Layout l[] = {out.layout()};
  const std::vector<std::int32_t> w = words_of(value, out.dtype());
  std::lock_guard lock(mu_);
  const Kernel& k = kernel("fill" + std::to_string(int(b)), [&] { return fill_wgsl(b); });
  const Buffer* data[] = {&storage_of(out).buffer()};
  run(k, layout_params(out.shape(), l, w), data, static_cast<std::uint64_t>(out.numel()));
}

void WebGpuBackend::copy(const TensorView& src_in, const TensorView& dst) {
  detail::check_copy_args(*this, src_in, dst);
  const TensorView src = apart_from(src_in, dst);
  const Bits b = bits_of(dst.dtype());
  const Layout l[] = {dst.layout(), src.layout()};
  std::lock_guard lock(mu_);
  const Kernel& k = kernel("copy" + std::to_string(int(b)), [&] { return copy_wgsl(b); });
  const Buffer* data[] = {&storage_of(src).buffer(), &storage_of(dst).buffer()};
  run(k, layout_params(dst.shape(), l), data, static_cast<std::uint64_t>(dst.numel()));
}

void WebGpuBackend::elementwise(OpId op, std::span<const TensorView> inputs_in, const TensorView& out,
                                CompareDir) {
  detail::check_elementwise_args(*this, op, inputs_in, out);
  TENFERRO_CHECK(elementwise_supported(op, out.dtype()), unsupported, op_name(op), "x", "[webgpu] ", op_name(op),
                 " on ", dtype_name(out.dtype()), " has no WebGPU kernel");
  std::vector<TensorView> inputs;
  std::vector<Layout> l{out.layout()};
  for (const TensorView& t : inputs_in) {
    inputs.push_back(apart_from(t, out));
    l.push_back(inputs.back().layout());
  }
  std::lock_guard lock(mu_);
  const Kernel& k = kernel("ew_" + std::string(op_name(op)) + "_" + std::string(dtype_name(out.dtype())),
                           [&] { return elementwise_wgsl(op, out.dtype()); });
  std::vector<const Buffer*> data;
  for (const TensorView& t : inputs) data.push_back(&storage_of(t).buffer());
  data.push_back(&storage_of(out).buffer());
  run(k, layout_params(out.shape(), l), data, static_cast<std::uint64_t>(out.numel()));
}

// No WGSL kernel yet: supports() is false for these, so core never calls them; a direct caller
// gets the same unsupported error.
void WebGpuBackend::cast(const TensorView&, const TensorView&, const char* op, bool) {
  TENFERRO_FAIL(unsupported, op, "x", "[webgpu] casts have no WebGPU kernel");
}
void WebGpuBackend::reduce(OpId op, const TensorView&, const Axes&, const TensorView&) {
  TENFERRO_FAIL(unsupported, op_name(op), "x", "[webgpu] reductions have no WebGPU kernel");
}
void WebGpuBackend::gemm(const GemmCall&) {
  TENFERRO_FAIL(unsupported, "dot_general", "lhs", "[webgpu] products have no WebGPU kernel");
}
void WebGpuBackend::triangular(const TensorView&, std::int64_t, bool lower, const TensorView&) {
  TENFERRO_FAIL(unsupported, lower ? "tril" : "triu", "x", "[webgpu] tril / triu have no WebGPU kernel");
}
void WebGpuBackend::gather(const TensorView&, const TensorView&, const GatherConfig&, const TensorView&) {
  TENFERRO_FAIL(unsupported, "gather", "operand", "[webgpu] gather has no WebGPU kernel");
}
void WebGpuBackend::scatter(const TensorView&, const TensorView&, const TensorView&, const ScatterConfig&) {
  TENFERRO_FAIL(unsupported, "scatter", "operand", "[webgpu] scatter has no WebGPU kernel");
}

// ---- provider ------------------------------------------------------------------------------

namespace {

std::vector<DeviceInfo> list() {
  std::vector<DeviceInfo> out;
  for (const AdapterInfo& a : adapters()) out.push_back(a.row);
  return out;
}

Backend& webgpu_backend(int ordinal) {
  const auto& all = adapters();
  TENFERRO_CHECK(!all.empty(), unsupported, "webgpu", "ordinal", "no WebGPU adapter: ",
                 api() ? std::string("wgpu-native found none") : unavailable_reason());
  if (ordinal < 0) {  // the preferred adapter: discrete, integrated, other, then CPU ones
    auto rank = [](const std::string& type) {
      return type == "discrete" ? 0 : type == "integrated" ? 1 : type == "cpu" ? 3 : 2;
    };
    const AdapterInfo* best = &all.front();
    for (const AdapterInfo& a : all)
      if (rank(a.row.type) < rank(best->row.type)) best = &a;
    ordinal = best->row.ordinal;
  }
  return detail::process_backend<WebGpuBackend>(ordinal);
}

}  // namespace

const Provider& provider() {
  static const Provider p{"webgpu", &list, &webgpu_backend};
  return p;
}

}  // namespace tenferro::webgpu
