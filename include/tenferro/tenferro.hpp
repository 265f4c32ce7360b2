// tenferro for users: the one header a program includes (docs/guide.md).
//
//   #include <tenferro/tenferro.hpp>
//   using namespace tenferro;
//   Tensor a = rand({64, 64}, DType::F64, Device::parse("vulkan"));
//   Tensor b = einsum("ij,jk->ik", a, a) * 2.0 + 1.0;   // runs where a lives
//   double s = item<double>(sum(b));                     // downloads as needed
//
// What it holds:
//   dtype.hpp   DType, the element types, Scalar
//   error.hpp   Error: kind, op, argument ("[op] what is wrong")
//   device.hpp  Device (cpu, vulkan:N), default_device(), devices()
//   tensor.hpp  Tensor / TensorView (views: member functions), host tensors, to_vector
//   api.hpp     factories, ops on the operands' device, operators, to(x, device), the rules
//               for devices, views and copies, C++ numbers and comparisons
//   einsum.hpp  einsum planning (paths, costs, options)
//   runtime.hpp the device list as `tenferro devices` prints it
//   options.hpp accuracy choices per device (Ozaki-II, 3M, f32 through f64)
// Views and copies: a member function of a tensor never copies (x.transpose(p) is a view of x's
// storage); a free function never returns a view (transpose_copy(x, p) is a new tensor; every
// free structural op with a view twin carries _copy). Ops run on their operands' device; moving
// data is explicit (to, to_host, to_vector).
// Not included: the provider interface (tenferro/backend/*.hpp: Backend's primitives, memory,
// profiling, GemmCall) and the ops on an explicit backend (tenferro/ops.hpp).
#pragma once

#include "tenferro/api.hpp"
#include "tenferro/device.hpp"
#include "tenferro/dtype.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/error.hpp"
#include "tenferro/expr.hpp"
#include "tenferro/options.hpp"
#include "tenferro/runtime.hpp"
#include "tenferro/slicing.hpp"
#include "tenferro/tensor.hpp"
