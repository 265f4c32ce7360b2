// WebGpuBackend (backend.hpp) and the WebGPU provider (provider.hpp).
#include "webgpu/backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "backend_common/element_bytes.hpp"
#include "backend_common/host_pack.hpp"
#include "backend_common/process_backends.hpp"
#include "backend_common/reduce_layout.hpp"
#include "backend_common/window_layout.hpp"
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
    case OpFamily::structural:  // lowered by core to fill, copy, triangular, gather and scatter-replace
      return true;             // which move any dtype's bits
    case OpFamily::unary:
    case OpFamily::analytic:
    case OpFamily::binary:
    case OpFamily::compare:
    case OpFamily::select:
    case OpFamily::clamp: return elementwise_supported(op, d);
    case OpFamily::reduce: return reduce_supported(op, d);
    case OpFamily::dot: return gemm_supported(d);
    case OpFamily::cast: return cast_supported(d);
    case OpFamily::gather: return gather_supported(d);
    case OpFamily::scatter: return scatter_supported(d);
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

void WebGpuBackend::begin_session() {
  std::lock_guard lock(mu_);
  if (sessions_++ == 0) dev_.begin_batch();
}

void WebGpuBackend::end_session() {
  std::lock_guard lock(mu_);
  if (--sessions_ == 0) dev_.end_batch();
}

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
  if (g.x != 0) dev_.dispatch(k, params, data, g.x, g.y, 1);
}

std::uint32_t WebGpuBackend::run_checked(const Kernel& k, const std::vector<std::int32_t>& params,
                                         std::span<const Buffer* const> data, std::uint64_t n) {
  std::uint32_t err = 0;
  Buffer e = dev_.create_buffer(4, false);
  dev_.write(e, 0, &err, 4, true);
  std::vector<const Buffer*> all(data.begin(), data.end());
  all.push_back(&e);
  run(k, params, all, n);
  dev_.read(e, 0, &err, 4);
  return err;
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

void WebGpuBackend::triangular(const TensorView& x_in, std::int64_t k, bool lower, const TensorView& out) {
  detail::check_triangular_args(*this, x_in, lower, out);
  TENFERRO_CHECK(x_in.rank() >= 2, rank_mismatch, lower ? "tril" : "triu", "x", "[webgpu] rank ", x_in.rank(),
                 " < 2");
  const TensorView x = apart_from(x_in, out);
  const Bits b = bits_of(out.dtype());
  // k within [-rows, cols] (core clamps it; clamping again keeps a direct call in 32 bits).
  const std::int64_t kc = std::clamp<std::int64_t>(k, -x.dim(0), x.dim(1));
  const Layout l[] = {out.layout(), x.layout()};
  const std::int32_t extra[] = {static_cast<std::int32_t>(kc), lower ? 1 : 0};
  std::lock_guard lock(mu_);
  const Kernel& kn = kernel("triangular" + std::to_string(int(b)), [&] { return copy_wgsl(b, true); });
  const Buffer* data[] = {&storage_of(x).buffer(), &storage_of(out).buffer()};
  run(kn, layout_params(out.shape(), l, extra), data, static_cast<std::uint64_t>(out.numel()));
}

void WebGpuBackend::elementwise(OpId op, std::span<const TensorView> inputs_in, const TensorView& out,
                                CompareDir dir) {
  detail::check_elementwise_args(*this, op, inputs_in, out);
  const OpFamily fam = op_info(op).family;
  // The operand dtype: select's on_true (inputs[0] is the Bool predicate), else the first input.
  const DType d = inputs_in[fam == OpFamily::select ? 1 : 0].dtype();
  TENFERRO_CHECK(elementwise_supported(op, d), unsupported, op_name(op), "x", "[webgpu] ", op_name(op), " on ",
                 dtype_name(d), " has no WebGPU kernel");
  std::vector<TensorView> inputs;
  std::vector<Layout> l{out.layout()};
  for (const TensorView& t : inputs_in) {
    inputs.push_back(apart_from(t, out));
    l.push_back(inputs.back().layout());
  }
  std::string key = "ew_" + std::string(op_name(op)) + "_" + std::string(dtype_name(d));
  if (fam == OpFamily::compare) {
    key += '_';
    key += compare_dir_name(dir);
  }
  std::lock_guard lock(mu_);
  const Kernel& k = kernel(key, [&] { return elementwise_wgsl(op, d, dir); });
  std::vector<const Buffer*> data;
  for (const TensorView& t : inputs) data.push_back(&storage_of(t).buffer());
  data.push_back(&storage_of(out).buffer());
  const auto n = static_cast<std::uint64_t>(out.numel());
  if (!elementwise_can_fail(op, d)) {
    run(k, layout_params(out.shape(), l), data, n);
    return;
  }
  if (run_checked(k, layout_params(out.shape(), l), data, n) == 0) return;
  if (op == OpId::pow)
    TENFERRO_FAIL(numerical_failure, op_name(op), "rhs",
                  "negative integer exponent: got an exponent < 0, expected exponents >= 0");
  TENFERRO_FAIL(numerical_failure, op_name(op), "rhs", "integer ", op == OpId::div ? "division" : "remainder",
                " by zero: got a zero divisor, expected nonzero divisors");
}

void WebGpuBackend::cast(const TensorView& src_in, const TensorView& dst, const char* op, bool exact) {
  detail::check_cast_args(*this, src_in, dst, op);
  const DType from = src_in.dtype(), to = dst.dtype();
  if (from == to) {
    copy(src_in, dst);
    return;
  }
  TENFERRO_CHECK(cast_has_kernel(from, to), unsupported, op, "x", "[webgpu] a cast from ", dtype_name(from), " to ",
                 dtype_name(to), " has no WebGPU kernel");
  const TensorView src = apart_from(src_in, dst);
  const bool can_fail = cast_can_fail(from, to);
  const Layout l[] = {dst.layout(), src.layout()};
  const std::int32_t extra[] = {exact ? 1 : 0};
  std::uint32_t err = 0;
  {
    std::lock_guard lock(mu_);
    const Kernel& k = kernel("cast_" + std::string(dtype_name(from)) + "_" + std::string(dtype_name(to)),
                             [&] { return cast_wgsl(from, to); });
    const Buffer* data[] = {&storage_of(src).buffer(), &storage_of(dst).buffer()};
    const std::vector<std::int32_t> params = layout_params(dst.shape(), l, extra);
    const auto n = static_cast<std::uint64_t>(dst.numel());
    if (can_fail) err = run_checked(k, params, data, n);
    else run(k, params, data, n);
  }
  TENFERRO_CHECK(err == 0, invalid_argument, op, "x", "[webgpu] a NaN, infinite, out-of-range",
                 exact ? " or non-integral" : "", " value cannot be cast from ", dtype_name(from), " to ",
                 dtype_name(to));
}
namespace {

using I64 = std::int64_t;

/// The extra words of gather_wgsl / scatter_wgsl (kernels.hpp). `window_axes`: axes of big
/// holding window offsets; `dropped`: operand dims without a window axis; `extent[d]`: the
/// window extent along d.
std::vector<std::int32_t> index_words(const TensorView& operand, const TensorView& indices, const TensorView& big,
                                      const Axes& window_axes, const Axes& dropped, const Shape& extent,
                                      const Axes& start_map, I64 ivd, const Axes& op_batching,
                                      const Axes& idx_batching, bool skip) {
  const Layout& ol = operand.layout();
  const Layout& il = indices.layout();
  const Layout& bl = big.layout();
  detail::IndexGeometry g = detail::index_geometry(kIndexHeader, ol, il, bl, window_axes, dropped, extent, start_map,
                                                   ivd, op_batching, idx_batching, skip);
  std::vector<I64>& w = g.words;
  w[0] = g.batch_axes;
  w[1] = g.window_axes;
  w[2] = static_cast<I64>(start_map.size());
  w[3] = ivd < indices.rank() ? il.strides[static_cast<std::size_t>(ivd)] : 0;
  w[4] = bl.offset;
  w[5] = il.offset;
  w[6] = ol.offset;
  w[7] = (skip ? 1 : 0) | (indices.dtype() == DType::I64 ? 2 : 0);
  w[8] = g.window_numel;
  return {w.begin(), w.end()};  // every word fits: tensors hold fewer than 2^31 elements
}

}  // namespace

void WebGpuBackend::gather(const TensorView& operand_in, const TensorView& indices_in, const GatherConfig& cfg,
                           const TensorView& out) {
  detail::check_gather_args(*this, operand_in, indices_in, out);
  TENFERRO_CHECK(indices_in.dtype() == DType::I32 || indices_in.dtype() == DType::I64, invalid_argument, "gather",
                 "start_indices", "[webgpu] indices of dtype ", dtype_name(indices_in.dtype()), ", expected I32 or I64");
  if (out.numel() == 0) return;
  const TensorView operand = apart_from(operand_in, out), indices = apart_from(indices_in, out);
  Axes dropped = cfg.collapsed_slice_dims;
  dropped.insert(dropped.end(), cfg.operand_batching_dims.begin(), cfg.operand_batching_dims.end());
  const std::vector<std::int32_t> w =
      index_words(operand, indices, out, cfg.offset_dims, dropped, cfg.slice_sizes, cfg.start_index_map,
                  cfg.index_vector_dim, cfg.operand_batching_dims, cfg.start_indices_batching_dims, false);
  const Bits b = bits_of(out.dtype());
  const auto n = static_cast<std::uint64_t>(out.numel());
  std::lock_guard lock(mu_);
  const Kernel& k = kernel("gather" + std::to_string(int(b)), [&] { return gather_wgsl(b); });
  const Buffer* data[] = {&storage_of(out).buffer(), &storage_of(operand).buffer(), &storage_of(indices).buffer()};
  run(k, layout_params({out.numel()}, {}, w), data, n);
}

void WebGpuBackend::scatter(const TensorView& out, const TensorView& indices_in, const TensorView& updates_in,
                            const ScatterConfig& cfg) {
  detail::check_scatter_args(*this, out, indices_in, updates_in);
  const DType d = out.dtype();
  TENFERRO_CHECK(indices_in.dtype() == DType::I32 || indices_in.dtype() == DType::I64, invalid_argument, "scatter",
                 "scatter_indices", "[webgpu] indices of dtype ", dtype_name(indices_in.dtype()),
                 ", expected I32 or I64");
  TENFERRO_CHECK(cfg.combiner == ScatterCombiner::replace || (scatter_supported(d) && d != DType::Bool), unsupported,
                 "scatter", "operand", "[webgpu] scatter-", combiner_name(cfg.combiner), " on ", dtype_name(d),
                 " has no WebGPU kernel");
  if (updates_in.numel() == 0 || out.numel() == 0) return;
  const TensorView indices = apart_from(indices_in, out), updates = apart_from(updates_in, out);
  Axes dropped = cfg.inserted_window_dims;
  dropped.insert(dropped.end(), cfg.input_batching_dims.begin(), cfg.input_batching_dims.end());
  // The window extent per operand dim: the updates' extent on window dims, 1 elsewhere.
  Shape extent(static_cast<std::size_t>(out.rank()), 1);
  std::size_t next = 0;
  for (I64 dim = 0; dim < out.rank(); ++dim)
    if (!detail::contains_axis(dropped, dim))
      extent[static_cast<std::size_t>(dim)] = updates.dim(cfg.update_window_dims[next++]);
  std::vector<std::int32_t> w =
      index_words(out, indices, updates, cfg.update_window_dims, dropped, extent, cfg.scatter_dims_to_operand_dims,
                  cfg.index_vector_dim, cfg.input_batching_dims, cfg.scatter_indices_batching_dims,
                  cfg.out_of_bounds == OutOfBounds::skip);
  // One window never targets an element twice when out's layout is injective (its offsets
  // span exactly numel elements): a plain read-modify-write. Otherwise atomics where the
  // kernel has them, else serial passes in big's order.
  const Layout& ol = out.layout();
  const bool unique = updates.numel() == w[8] && ol.max_offset() - ol.min_offset() + 1 == out.numel();
  const bool serial = !unique && !scatter_concurrent(d, cfg.combiner);
  w[9] = unique ? 1 : serial ? 2 : 0;
  const I64 n = updates.numel();
  std::lock_guard lock(mu_);
  const Kernel& k = kernel("scatter_" + std::string(dtype_name(d)) + "_" + std::string(combiner_name(cfg.combiner)),
                           [&] { return scatter_wgsl(d, cfg.combiner); });
  const Buffer* data[] = {&storage_of(out).buffer(), &storage_of(updates).buffer(), &storage_of(indices).buffer()};
  if (!serial) {
    run(k, layout_params({n}, {}, w), data, static_cast<std::uint64_t>(n));
    return;
  }
  // Each update costs the serial loop one iteration and its axis loops one per axis.
  const I64 chunk = std::max<I64>(1, kScatterSerialChunk / (1 + w[0] + w[1] + w[2]));
  for (I64 first = 0; first < n; first += chunk) {
    w[10] = static_cast<std::int32_t>(first);
    w[11] = static_cast<std::int32_t>(std::min(chunk, n - first));
    run(k, layout_params({1}, {}, w), data, 1);
  }
}

void WebGpuBackend::reduce(OpId op, const TensorView& x, const Axes& axes, const TensorView& out) {
  detail::check_reduce_args(*this, op, x, out);
  const DType d = x.dtype();
  TENFERRO_CHECK(reduce_supported(op, d), unsupported, op_name(op), "x", "[webgpu] ", op_name(op), " on ",
                 dtype_name(d), " has no WebGPU kernel");
  const bool idempotent = op == OpId::reduce_max || op == OpId::reduce_min;
  const detail::ReduceLayout L = detail::make_reduce_layout(x, axes, out, idempotent);
  // Each pass reduces chunks of at most kReduceChunk elements: into `out` when one chunk covers
  // the reduced axes, else into a compact scratch [kept..., chunks] that the next pass reduces
  // along its last axis.
  Shape kept;
  Layout lo, lx;
  lo.offset = L.o0;
  lx.offset = L.x0;
  std::int64_t nout = 1;
  for (const detail::ReduceAxis& a : L.kept) {
    kept.push_back(a.n);
    lo.strides.push_back(a.so);
    lx.strides.push_back(a.sx);
    nout *= a.n;
  }
  std::vector<detail::ReduceAxis> red = L.red;
  TensorView src = x;
  for (;;) {
    std::int64_t total = 1;
    for (const detail::ReduceAxis& a : red) total *= a.n;
    const std::int64_t parts = (total + kReduceChunk - 1) / kReduceChunk;
    std::vector<std::int32_t> extra{static_cast<std::int32_t>(parts), static_cast<std::int32_t>(kReduceChunk),
                                    static_cast<std::int32_t>(red.size())};
    for (const detail::ReduceAxis& a : red) {
      extra.push_back(static_cast<std::int32_t>(a.n));
      extra.push_back(static_cast<std::int32_t>(a.sx));
    }
    Shape shape = kept;
    shape.push_back(parts);
    Layout lxp = lx, ld = lo;
    lxp.strides.push_back(0);
    ld.strides.push_back(0);
    const TensorView dst = parts == 1 ? out : TensorView(allocate(d, {nout * parts}));
    if (parts > 1) ld = Layout::compact(shape);
    const Layout l[] = {ld, lxp};
    {
      std::lock_guard lock(mu_);
      const Kernel& k = kernel("reduce_" + std::string(op_name(op)) + "_" + std::string(dtype_name(d)),
                               [&] { return reduce_wgsl(op, d); });
      const Buffer* data[] = {&storage_of(src).buffer(), &storage_of(dst).buffer()};
      run(k, layout_params(shape, l, extra), data, static_cast<std::uint64_t>(nout * parts));
    }
    if (parts == 1) return;
    src = dst;
    lx = Layout::compact(kept);
    red = {detail::ReduceAxis{parts, nout, 0}};
  }
}

void WebGpuBackend::gemm(const GemmCall& call) {
  detail::check_gemm_args(*this, call);
  const DType d = call.c.dtype();
  TENFERRO_CHECK(gemm_supported(d), unsupported, "dot_general", "lhs", "[webgpu] dot_general on ", dtype_name(d),
                 " has no WebGPU kernel");
  TENFERRO_CHECK(!call.chained(), internal, "dot_general", "out", "[webgpu] a chained output view (gemm_caps says none)");
  const TensorView a = apart_from(call.a, call.c), b = apart_from(call.b, call.c);
  const TensorView& c = call.c;
  std::vector<std::int32_t> alpha = words_of(call.alpha, d), beta = words_of(call.beta, d),
                            one = words_of(Scalar::of(d, 1.0), d);
  alpha.resize(2, 0);
  beta.resize(2, 0);
  one.resize(2, 0);
  const bool beta_zero = (beta[0] & 0x7fffffff) == 0 && (beta[1] & 0x7fffffff) == 0;  // +-0 in both parts
  const Layout l[] = {c.layout()};
  const std::int64_t M = c.dim(0), N = c.dim(1), B = c.dim(2), K = a.dim(1);
  // The tiled kernel where a tile's reuse pays (both sides at least 16) and its grid fits the
  // adapter's limits (batches run in passes of at most the limit); else one invocation per
  // element of c. K == 0 takes the per-element kernel, which gives beta * c exactly.
  const std::int64_t tile = gemm_tile(d), max_groups = dev_.info().max_workgroups;
  const std::int64_t gx = (M + tile - 1) / tile, gy = (N + tile - 1) / tile;
  const bool tiled = K > 0 && M >= 16 && N >= 16 && gx <= max_groups && gy <= max_groups;
  const auto& sa = a.strides();
  const auto& sb = b.strides();
  // Each slab is loaded along its operand's smaller stride (coalesced on a compact operand).
  const int order = tiled ? (std::abs(sa[1]) < std::abs(sa[0]) ? 8 : 0) | (std::abs(sb[0]) < std::abs(sb[1]) ? 16 : 0) : 0;
  std::lock_guard lock(mu_);
  const std::string dn(dtype_name(d));
  const Kernel& k = tiled ? kernel("gemm_tiled_" + dn, [&] { return gemm_tiled_wgsl(d); })
                          : kernel("gemm_" + dn, [&] { return gemm_wgsl(d); });
  const Buffer* data[] = {&storage_of(a).buffer(), &storage_of(b).buffer(), &storage_of(c).buffer()};
  // K in passes of at most kGemmChunk: the first applies beta, the later ones add to c.
  for (std::int64_t k0 = 0; k0 == 0 || k0 < K; k0 += kGemmChunk) {
    const bool first = k0 == 0;
    std::vector<std::int32_t> extra{static_cast<std::int32_t>(std::min(K - k0, kGemmChunk))};
    extra.push_back(static_cast<std::int32_t>(a.offset() + k0 * sa[1]));
    for (auto st : sa) extra.push_back(static_cast<std::int32_t>(st));
    extra.push_back(static_cast<std::int32_t>(b.offset() + k0 * sb[0]));
    for (auto st : sb) extra.push_back(static_cast<std::int32_t>(st));
    extra.insert(extra.end(), alpha.begin(), alpha.end());
    extra.insert(extra.end(), first ? beta.begin() : one.begin(), first ? beta.end() : one.end());
    extra.push_back((call.conj_a ? 1 : 0) | (call.conj_b ? 2 : 0) | (first && beta_zero ? 4 : 0) | order);
    if (!tiled) {
      run(k, layout_params(c.shape(), l, extra), data, static_cast<std::uint64_t>(c.numel()));
      continue;
    }
    extra.push_back(0);  // the batch of z = 0
    for (std::int64_t b0 = 0; b0 < B; b0 += max_groups) {
      extra.back() = static_cast<std::int32_t>(b0);
      dev_.dispatch(k, layout_params(c.shape(), l, extra), data, static_cast<std::uint32_t>(gx),
                    static_cast<std::uint32_t>(gy), static_cast<std::uint32_t>(std::min(B - b0, max_groups)));
    }
  }
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
