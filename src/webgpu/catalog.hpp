// Every WGSL kernel the WebGPU backend's generators (kernels.hpp) can produce, each with a name,
// enumerated from the op table and the generators' *_supported predicates: what the shader
// compiler checks (tests/webgpu/catalog_test.cpp through wgpu-native's naga,
// tests/webgpu/tint_check.py through Dawn's Tint) compile, so that a kernel no test dispatches
// is compiled all the same.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace tenferro::webgpu {

/// (name, WGSL source) of every kernel: copy_<bits>, triangular_<bits>, fill_<bits> and
/// gather_<bits> for every Bits; cast_<from>_<to> for every pair cast_has_kernel accepts;
/// scatter_<combiner>_<dtype> (replace on every dtype, the other combiners where the backend
/// runs them);
/// ew_<op>_<dtype> for every (op, dtype) elementwise_supported accepts, compare as
/// ew_compare_<dtype>_<dir> for every direction the contract allows on dtype (EQ and NE on
/// complex); <op>_<dtype> (reduce_sum_f32, ...) for every pair reduce_supported accepts;
/// gemm_<dtype> and gemm_tiled_<dtype> for every dtype gemm_supported accepts. Names are unique and usable as file names.
std::vector<std::pair<std::string, std::string>> kernel_catalog();

}  // namespace tenferro::webgpu
