// Sliced einsum across MPI processes (tenferro/slicing.hpp; docs/einsum.md, "Slicing").
// Header-only: a program that includes it links MPI itself (find_package(MPI), MPI::MPI_CXX);
// the library does not depend on MPI. Not included by tenferro/tenferro.hpp.
//
//   SlicePlan plan = plan_slices(spec, path, DType::F64, limit);   // the same on every rank
//   Backend* devs[] = {&default_backend()};
//   Tensor r = mpi::execute_distributed(MPI_COMM_WORLD, devs, plan, operands);  // rank 0 gets it
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>

#include "tenferro/backend/backend.hpp"
#include "tenferro/error.hpp"
#include "tenferro/ops.hpp"
#include "tenferro/slicing.hpp"

namespace tenferro::mpi {

/// The MPI datatype of a dtype's elements, or MPI_DATATYPE_NULL (Bool: not summed).
inline MPI_Datatype datatype_of(DType d) {
  switch (d) {
    case DType::F32: return MPI_FLOAT;
    case DType::F64: return MPI_DOUBLE;
    case DType::I32: return MPI_INT32_T;
    case DType::I64: return MPI_INT64_T;
    case DType::C32: return MPI_C_FLOAT_COMPLEX;
    case DType::C64: return MPI_C_DOUBLE_COMPLEX;
    case DType::Bool: break;
  }
  return MPI_DATATYPE_NULL;
}

/// Every rank of `comm` takes its share of plan's slices (SliceRun first = rank, stride = size)
/// on its `devices` (execute_sliced), then the partial results are summed with MPI_SUM: at
/// `root` (MPI_Reduce), or at every rank with `allreduce`. Returns the sum on devices[0] where
/// it is delivered, an undefined Tensor elsewhere. Collective: every rank calls it with the same
/// plan (slices are taken by index) and the same root and allreduce.
///
/// Errors: a rank whose share throws sends no partial sum: after every rank has run, the ranks
/// agree on the outcome (MPI_Allreduce) before any reduction, so that every rank throws: the
/// failing rank its own error, the others Error{backend_failure} (op "einsum", arg "comm")
/// naming the first failing rank and its message. Never a partial sum. A rank that dies
/// ends the job through MPI's own error handling.
inline Tensor execute_distributed(MPI_Comm comm, std::span<Backend* const> devices, const SlicePlan& plan,
                                  std::span<const TensorView> operands, bool allreduce = false, int root = 0) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Tensor local;
  std::exception_ptr failure;
  char message[512] = {};
  try {
    TENFERRO_CHECK(root >= 0 && root < size, invalid_argument, "einsum", "root", "root ", root, " is not a rank of ",
                   size);
    TENFERRO_CHECK(datatype_of(plan.dtype) != MPI_DATATYPE_NULL, unsupported, "einsum", "plan",
                   "partial results of dtype ", dtype_name(plan.dtype), " are not summed across ranks");
    SliceRun run;
    run.first = rank;
    run.stride = size;
    local = execute_sliced(devices, plan, operands, run);
  } catch (const std::exception& e) {
    failure = std::current_exception();
    std::strncpy(message, e.what(), sizeof message - 1);
  }
  // The lowest failing rank, or size when none failed; its message goes to every rank.
  int mine = failure ? rank : size, first_failed = size;
  MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, comm);
  if (first_failed < size) {
    MPI_Bcast(message, sizeof message, MPI_CHAR, first_failed, comm);
    if (failure) std::rethrow_exception(failure);
    throw Error(ErrorKind::backend_failure, "einsum", "comm",
                "[einsum] rank " + std::to_string(first_failed) + " of " + std::to_string(size) + " failed: " + message);
  }
  Backend& be = *devices[0];
  Tensor host = be.is_host() ? std::move(local) : download(be, local);  // compact (execute_sliced)
  const MPI_Datatype type = datatype_of(plan.dtype);
  auto* data = host.storage()->host_data();
  const std::size_t es = dtype_size(plan.dtype);
  // In pieces of at most 2^30 elements (MPI counts are int).
  for (std::int64_t at = 0, n = host.numel(); at < n;) {
    const int count = static_cast<int>(std::min<std::int64_t>(n - at, std::int64_t{1} << 30));
    void* p = data + static_cast<std::size_t>(at) * es;
    if (allreduce) MPI_Allreduce(MPI_IN_PLACE, p, count, type, MPI_SUM, comm);
    else if (rank == root) MPI_Reduce(MPI_IN_PLACE, p, count, type, MPI_SUM, root, comm);
    else MPI_Reduce(p, nullptr, count, type, MPI_SUM, root, comm);
    at += count;
  }
  if (!allreduce && rank != root) return Tensor();
  return be.is_host() ? host : upload(be, host);
}

}  // namespace tenferro::mpi
