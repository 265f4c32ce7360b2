// The catalog of WGSL kernels (catalog.hpp).
#include "webgpu/catalog.hpp"

#include "tenferro/config.hpp"
#include "tenferro/dtype.hpp"
#include "tenferro/op_info.hpp"
#include "webgpu/kernels.hpp"

namespace tenferro::webgpu {

std::vector<std::pair<std::string, std::string>> kernel_catalog() {
  std::vector<std::pair<std::string, std::string>> out;
  const std::pair<Bits, const char*> bits[] = {
      {Bits::byte, "byte"}, {Bits::u32, "u32"}, {Bits::u32x2, "u32x2"}, {Bits::u32x4, "u32x4"}};
  for (const auto& [b, name] : bits) {
    out.emplace_back(std::string("copy_") + name, copy_wgsl(b));
    out.emplace_back(std::string("triangular_") + name, copy_wgsl(b, true));
    out.emplace_back(std::string("fill_") + name, fill_wgsl(b));
    out.emplace_back(std::string("gather_") + name, gather_wgsl(b));
  }
  const CompareDir dirs[] = {CompareDir::EQ, CompareDir::NE, CompareDir::LT,
                             CompareDir::LE, CompareDir::GT, CompareDir::GE};
  for (const OpInfo& info : all_ops()) {
    for (DType d : kAllDTypes) {
      const std::string suffix = std::string(info.name) + "_" + std::string(dtype_name(d));
      if (elementwise_supported(info.id, d)) {
        if (info.family == OpFamily::compare) {
          for (CompareDir dir : dirs) {
            if (!is_ordered(d) && dir != CompareDir::EQ && dir != CompareDir::NE) continue;
            out.emplace_back("ew_" + suffix + "_" + std::string(compare_dir_name(dir)),
                             elementwise_wgsl(info.id, d, dir));
          }
        } else {
          out.emplace_back("ew_" + suffix, elementwise_wgsl(info.id, d));
        }
      }
      if (reduce_supported(info.id, d)) out.emplace_back(suffix, reduce_wgsl(info.id, d));  // reduce_<op>_<dtype>
    }
  }
  for (DType d : kAllDTypes) {
    const std::string dn(dtype_name(d));
    if (gemm_supported(d)) {
      out.emplace_back("gemm_" + dn, gemm_wgsl(d));
      out.emplace_back("gemm_tiled_" + dn, gemm_tiled_wgsl(d));
    }
    for (DType to : kAllDTypes)
      if (to != d && cast_has_kernel(d, to)) out.emplace_back("cast_" + dn + "_" + std::string(dtype_name(to)), cast_wgsl(d, to));
    // Replace (moving bits) on every dtype; the combiners where scatter_supported (Bool: replace
    // only) and the contract has them (no max / min of complex).
    for (ScatterCombiner c : {ScatterCombiner::replace, ScatterCombiner::add, ScatterCombiner::mul,
                              ScatterCombiner::max, ScatterCombiner::min}) {
      const bool order = c == ScatterCombiner::max || c == ScatterCombiner::min;
      if (c != ScatterCombiner::replace && (!scatter_supported(d) || d == DType::Bool || (order && is_complex(d))))
        continue;
      out.emplace_back("scatter_" + std::string(combiner_name(c)) + "_" + dn, scatter_wgsl(d, c));
    }
  }
  return out;
}

}  // namespace tenferro::webgpu
