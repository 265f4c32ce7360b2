#include "backends.hpp"

#include <cstdlib>
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/runtime.hpp"

namespace tenferro::test {

namespace {
struct Gap {
  const char* backend;
  const char* op;     // op name or "*family" (e.g. "*reduce")
  const char* dtype;  // dtype name or "*"
  const char* reason;
};

// Declared gaps. Keep each with a reason; remove an entry the moment the backend gains the op
// (the stale-entry check fails otherwise); the first matching entry gives the reason.
// The CPU and Vulkan backends declare none: they run the whole contract on the devices CI and
// the GPU machine have (a device without shaderFloat64 or 8-bit storage reports undeclared
// gaps, which fail). The WebGPU backend runs transfers, fill, copy, tril / triu, select, gather
// and the dynamic slices on every dtype, compare, casts and scatter on F32, I32, C32 and Bool,
// and the other elementwise, reduce and gemm kernels of src/webgpu/kernels.hpp on F32, I32 and
// C32: its gaps are the 64-bit dtypes.
constexpr const char* kNo64 = "WebGPU has no 64-bit shader types";
const std::vector<Gap> kGaps = {
    {"webgpu", "*unary", "f64", kNo64},        {"webgpu", "*unary", "i64", kNo64},
    {"webgpu", "*unary", "c64", kNo64},        {"webgpu", "*binary", "f64", kNo64},
    {"webgpu", "*binary", "i64", kNo64},       {"webgpu", "*binary", "c64", kNo64},
    {"webgpu", "*analytic", "f64", kNo64},     {"webgpu", "*analytic", "c64", kNo64},
    {"webgpu", "*compare", "f64", kNo64},
    {"webgpu", "*compare", "i64", kNo64},      {"webgpu", "*compare", "c64", kNo64},
    {"webgpu", "*clamp", "f64", kNo64},
    {"webgpu", "*clamp", "i64", kNo64},
    {"webgpu", "*cast", "f64", kNo64},         {"webgpu", "*cast", "i64", kNo64},
    {"webgpu", "*cast", "c64", kNo64},         {"webgpu", "*reduce", "f64", kNo64},
    {"webgpu", "*reduce", "i64", kNo64},       {"webgpu", "*reduce", "c64", kNo64},
    {"webgpu", "*dot", "f64", kNo64},          {"webgpu", "*dot", "c64", kNo64},
    {"webgpu", "*scatter", "f64", kNo64},      {"webgpu", "*scatter", "i64", kNo64},
    {"webgpu", "*scatter", "c64", kNo64},
};

const char* family_name(OpFamily f) {
  switch (f) {
    case OpFamily::unary: return "unary";
    case OpFamily::analytic: return "analytic";
    case OpFamily::binary: return "binary";
    case OpFamily::compare: return "compare";
    case OpFamily::select: return "select";
    case OpFamily::clamp: return "clamp";
    case OpFamily::cast: return "cast";
    case OpFamily::structural: return "structural";
    case OpFamily::reduce: return "reduce";
    case OpFamily::dot: return "dot";
    case OpFamily::gather: return "gather";
    case OpFamily::scatter: return "scatter";
  }
  return "?";
}
}  // namespace

std::vector<TestBackend> test_backends() {
  std::vector<TestBackend> out{{"cpu", &cpu_backend()}};
  // TENFERRO_TEST_BACKENDS=cpu: the CPU backend only (the thread-count variants of
  // tests/CMakeLists.txt, which test the CPU kernels' threading). =webgpu: the CPU backend and
  // the WebGPU backend's preferred adapter (the *_webgpu entries: the WebGPU backend runs a part
  // of the contract, its gaps declared above, so it joins the suites built on the gap checks).
  const char* only = std::getenv("TENFERRO_TEST_BACKENDS");
  if (only != nullptr && std::string(only) == "cpu") return out;
  if (only != nullptr && std::string(only) == "webgpu") {
    out.push_back({"webgpu", &get_backend("webgpu", -1)});
    return out;
  }
  if (vulkan_available()) out.push_back({"vulkan", &get_backend("vulkan", -1)});
  return out;
}

std::string declared_gap(const std::string& backend, OpId op, DType d) {
  const OpInfo& info = op_info(op);
  for (const Gap& g : kGaps) {
    if (backend != g.backend) continue;
    const std::string o = g.op;
    const bool op_match = o == info.name || (o[0] == '*' && o.substr(1) == family_name(info.family));
    const std::string dt = g.dtype;
    if (op_match && (dt == "*" || dt == dtype_name(d))) return g.reason;
  }
  return "";
}

std::string check_gap_declaration(const TestBackend& tb, OpId op, DType d) {
  const bool sup = tb.be->supports(op, d);
  const std::string gap = declared_gap(tb.name, op, d);
  const std::string what = tb.name + " " + std::string(op_name(op)) + "/" + std::string(dtype_name(d));
  if (!sup && gap.empty()) return "undeclared gap: " + what + " is not supported and no reason is declared";
  if (sup && !gap.empty()) return "stale gap declaration: " + what + " is supported now (" + gap + ")";
  return "";
}

}  // namespace tenferro::test
