#include "check.hpp"

namespace tenferro::detail {

void check_resident(const Backend& be, const TensorView& t, std::string_view op, const char* arg) {
  TENFERRO_CHECK(t.defined(), invalid_argument, op, arg, "tensor is undefined");
  if (t.domain() == be.domain()) return be.check_usable(op);
  const bool host = t.placement().device == DeviceKind::Cpu;
  if (host && !be.is_host())
    TENFERRO_FAIL(runtime_state, op, arg, "tensor is on the host (", to_string(t.placement()),
                  "): upload it to ", be.name(), " first");
  if (!host && be.is_host())
    TENFERRO_FAIL(runtime_state, op, arg, "tensor is on ", to_string(t.placement()),
                  ": download it to the host first");
  TENFERRO_FAIL(host_access, op, arg, "tensor belongs to a foreign allocation domain (",
                to_string(t.placement()), "), not to this ", be.name(), " runtime");
}

void check_upload_source(const TensorView& host) {
  TENFERRO_CHECK(host.defined(), invalid_argument, "upload", "host", "tensor is undefined");
  TENFERRO_CHECK(host.domain() == kHostDomain, runtime_state, "upload", "host",
                 "upload takes a host tensor; this one is on ", to_string(host.placement()));
}

void check_copy_args(const Backend& be, const TensorView& src, const TensorView& dst) {
  check_resident(be, src, "copy", "src");
  check_resident(be, dst, "copy", "dst");
  check_same_dtype(src, dst, "copy", "dst");
  check_same_shape(src, dst, "copy", "dst");
}

void check_cast_args(const Backend& be, const TensorView& src, const TensorView& dst, const char* op) {
  check_resident(be, src, op, "src");
  check_resident(be, dst, op, "dst");
  check_same_shape(src, dst, op, "dst");
}

void check_elementwise_args(const Backend& be, OpId op, std::span<const TensorView> inputs, const TensorView& out) {
  check_resident(be, out, op_name(op), "out");
  for (const TensorView& t : inputs) {
    check_resident(be, t, op_name(op), "inputs");
    TENFERRO_CHECK(t.shape() == out.shape(), shape_mismatch, op_name(op), "inputs", "input shape ", t.shape(),
                   " differs from the output shape ", out.shape());
  }
}

void check_reduce_args(const Backend& be, OpId op, const TensorView& x, const TensorView& out) {
  check_resident(be, x, op_name(op), "x");
  check_resident(be, out, op_name(op), "out");
}

void check_gemm_args(const Backend& be, const GemmCall& call) {
  check_resident(be, call.a, "dot_general", "lhs");
  check_resident(be, call.b, "dot_general", "rhs");
  check_resident(be, call.c, "dot_general", "out");
}

void check_triangular_args(const Backend& be, const TensorView& x, bool lower, const TensorView& out) {
  check_resident(be, x, lower ? "tril" : "triu", "x");
  check_resident(be, out, lower ? "tril" : "triu", "out");
}

void check_gather_args(const Backend& be, const TensorView& operand, const TensorView& indices, const TensorView& out) {
  check_resident(be, operand, "gather", "operand");
  check_resident(be, indices, "gather", "start_indices");
  check_resident(be, out, "gather", "out");
}

void check_scatter_args(const Backend& be, const TensorView& out, const TensorView& indices, const TensorView& updates) {
  check_resident(be, out, "scatter", "out");
  check_resident(be, indices, "scatter", "scatter_indices");
  check_resident(be, updates, "scatter", "updates");
}

void check_supported(const Backend& be, OpId op, DType d, const char* arg) {
  const std::string name(op_name(op));
  TENFERRO_CHECK(contract_allows(op, d), unsupported, name, arg, name, " does not accept dtype ",
                 dtype_name(d));
  TENFERRO_CHECK(be.supports(op, d), unsupported, name, arg, "[", be.name(), "] ", name, ": dtype ",
                 dtype_name(d), " not supported by this backend");
}

void check_same_dtype(const TensorView& a, const TensorView& b, const char* op, const char* arg) {
  TENFERRO_CHECK(a.dtype() == b.dtype(), dtype_mismatch, op, arg, "dtype ", dtype_name(b.dtype()),
                 " differs from ", dtype_name(a.dtype()));
}

void check_same_shape(const TensorView& a, const TensorView& b, const char* op, const char* arg) {
  TENFERRO_CHECK(a.shape() == b.shape(), shape_mismatch, op, arg, "shape ", b.shape(),
                 " differs from ", a.shape());
}

void check_axis(std::int64_t axis, std::int64_t rank, const char* op, const char* arg) {
  TENFERRO_CHECK(axis >= 0 && axis < rank, axis_out_of_bounds, op, arg, "axis ", axis,
                 " out of range for rank ", rank);
}

void check_axes(const Axes& axes, std::int64_t rank, const char* op, const char* arg) {
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  for (std::int64_t a : axes) {
    check_axis(a, rank, op, arg);
    TENFERRO_CHECK(!seen[static_cast<std::size_t>(a)], invalid_argument, op, arg, "axis ", a, " repeated");
    seen[static_cast<std::size_t>(a)] = true;
  }
}

Scalar zero_of(DType d) { return Scalar{d, 0, c64(0.0, 0.0)}; }

TensorView broadcast_scalar(const TensorView& t, const Shape& shape) {
  return t.broadcast_in_dim(shape, {});
}

TensorView index_tensor(Backend& be, const TensorView& t, const char* op, const char* arg) {
  const DType d = t.dtype();
  if (is_integer(d)) return t;
  TENFERRO_CHECK(is_real_float(d), invalid_argument, op, arg, "index tensor has dtype ", dtype_name(d),
                 ", expected i32 or i64 (or f32/f64 holding exact integers)");
  Tensor out = be.allocate(DType::I64, t.shape());
  try {
    if (t.numel() > 0) be.cast(t, out, op, /*exact=*/true);
  } catch (const Error& e) {
    // The cast primitive names its own argument; the user's argument is the index tensor.
    throw Error(e.kind(), op, arg, "index tensor: " + e.detail());
  }
  return out;
}

}  // namespace tenferro::detail
