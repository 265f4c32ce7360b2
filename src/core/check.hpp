// Validation helpers shared by the op families in src/core/ops. Each raises the error kind
// SEMANTICS.md assigns, naming the op and the argument.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/error.hpp"
#include "tenferro/op_info.hpp"

namespace tenferro::detail {

/// The input must live in be's domain: a host tensor on a device backend is runtime_state
/// ("upload first"); a device tensor on the CPU backend is runtime_state ("download first");
/// another runtime's tensor is host_access (foreign domain). Undefined views: invalid_argument.
/// A resident tensor's backend must still be usable (Backend::check_usable: device_lost).
void check_resident(const Backend& be, const TensorView& t, std::string_view op, const char* arg);

// Entry checks of the Backend primitives, which are public through Backend&: core validates
// its own calls fully, a direct caller gets at least these before any work, so that no kernel
// reads an undefined, host or foreign tensor, or past a tensor. Each names the method (the
// op for elementwise) and the argument. fill checks its out with check_resident.
/// upload: a defined host tensor (kHostDomain), else invalid_argument / runtime_state.
void check_upload_source(const TensorView& host);
/// copy and cast (op: the cast's op name): both resident, equal shapes (shape_mismatch);
/// copy also equal dtypes.
void check_copy_args(const Backend& be, const TensorView& src, const TensorView& dst);
void check_cast_args(const Backend& be, const TensorView& src, const TensorView& dst, const char* op);
/// elementwise: inputs and out resident, every input of out's shape.
void check_elementwise_args(const Backend& be, OpId op, std::span<const TensorView> inputs, const TensorView& out);
/// reduce, gemm (named dot_general), triangular (tril / triu), gather, scatter: every tensor
/// resident. Their configurations are core's to validate.
void check_reduce_args(const Backend& be, OpId op, const TensorView& x, const TensorView& out);
void check_gemm_args(const Backend& be, const GemmCall& call);
void check_triangular_args(const Backend& be, const TensorView& x, bool lower, const TensorView& out);
void check_gather_args(const Backend& be, const TensorView& operand, const TensorView& indices, const TensorView& out);
void check_scatter_args(const Backend& be, const TensorView& out, const TensorView& indices, const TensorView& updates);
/// Contract first (unsupported: "op does not accept dtype"), then be.supports() (unsupported:
/// "[backend] op: dtype not supported by this backend").
void check_supported(const Backend& be, OpId op, DType d, const char* arg = "x");
void check_same_dtype(const TensorView& a, const TensorView& b, const char* op, const char* arg);
void check_same_shape(const TensorView& a, const TensorView& b, const char* op, const char* arg);
void check_axis(std::int64_t axis, std::int64_t rank, const char* op, const char* arg);
/// Every axis in [0, rank) and no repeats (axis_out_of_bounds / invalid_argument).
void check_axes(const Axes& axes, std::int64_t rank, const char* op, const char* arg);
/// Zero of dtype d.
Scalar zero_of(DType d);
/// A rank-0 view broadcast (stride 0) to `shape`.
TensorView broadcast_scalar(const TensorView& t, const Shape& shape);
/// Converts an index tensor to I32/I64: I32/I64 pass through; F32/F64 holding exact integers
/// are cast to I64 (else invalid_argument); others invalid_argument.
TensorView index_tensor(Backend& be, const TensorView& t, const char* op, const char* arg);

}  // namespace tenferro::detail
