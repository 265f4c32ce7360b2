// dtype names and lattice, error kinds, placement strings, identity counters, config names.
#include <atomic>
#include <sstream>

#include "tenferro/config.hpp"
#include "tenferro/device.hpp"
#include "tenferro/dtype.hpp"
#include "tenferro/error.hpp"

namespace tenferro {

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    case DType::I32: return "i32";
    case DType::I64: return "i64";
    case DType::Bool: return "bool";
    case DType::C32: return "c32";
    case DType::C64: return "c64";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  for (DType d : kAllDTypes)
    if (s == dtype_name(d)) return d;
  if (s == "complex64") return DType::C32;
  if (s == "complex128") return DType::C64;
  if (s == "float32") return DType::F32;
  if (s == "float64") return DType::F64;
  if (s == "int32") return DType::I32;
  if (s == "int64") return DType::I64;
  return std::nullopt;
}

bool convert_allowed(DType from, DType to) {
  if (from == to || from == DType::Bool) return true;
  switch (from) {
    case DType::I32: return to == DType::I64 || to == DType::F64 || to == DType::C64;
    case DType::I64: return to == DType::F64 || to == DType::C64;
    case DType::F32: return to == DType::F64 || to == DType::C32 || to == DType::C64;
    case DType::F64: return to == DType::C64;
    case DType::C32: return to == DType::C64;
    case DType::C64:
    case DType::Bool: return false;
  }
  return false;
}

namespace {
constexpr std::string_view kKindNames[] = {
    "shape_mismatch", "rank_mismatch", "axis_out_of_bounds", "dtype_mismatch", "invalid_argument",
    "unsupported", "numerical_failure", "out_of_memory", "backend_failure", "runtime_state",
    "host_access", "device_lost", "internal"};
}

std::string_view error_kind_name(ErrorKind k) { return kKindNames[static_cast<int>(k)]; }

bool parse_error_kind(std::string_view name, ErrorKind& out) {
  for (int i = 0; i <= static_cast<int>(ErrorKind::internal); ++i)
    if (kKindNames[i] == name) {
      out = static_cast<ErrorKind>(i);
      return true;
    }
  return false;
}

Error::Error(ErrorKind kind, std::string op, std::string arg, const std::string& message)
    : std::runtime_error("[" + op + "] " + message + " (" + std::string(error_kind_name(kind)) +
                         (arg.empty() ? "" : ", argument '" + arg + "'") + ")"),
      kind_(kind), op_(std::move(op)), arg_(std::move(arg)), detail_(message) {}

namespace detail {
void throw_error(ErrorKind kind, std::string_view op, std::string_view arg, const std::string& message) {
  throw Error(kind, std::string(op), std::string(arg), message);
}
}  // namespace detail

const char* device_kind_name(DeviceKind k) {
  switch (k) {
    case DeviceKind::Cpu: return "cpu";
    case DeviceKind::Vulkan: return "vulkan";
    case DeviceKind::WebGpu: return "webgpu";
  }
  return "?";
}

std::string to_string(const Placement& p) {
  static constexpr const char* kMem[] = {"device", "pinned_host", "unpinned_host", "managed"};
  std::ostringstream os;
  os << device_kind_name(p.device) << ":" << p.ordinal << "/"
     << kMem[static_cast<int>(p.memory)];
  return os.str();
}

DomainId new_domain_id() {
  static std::atomic<DomainId> next{kHostDomain + 1};
  return next++;
}
AllocationId new_allocation_id() {
  static std::atomic<AllocationId> next{1};
  return next++;
}

std::string_view compare_dir_name(CompareDir d) {
  static constexpr std::string_view kNames[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  return kNames[static_cast<int>(d)];
}
bool parse_compare_dir(std::string_view s, CompareDir& out) {
  for (int i = 0; i < 6; ++i)
    if (compare_dir_name(static_cast<CompareDir>(i)) == s) {
      out = static_cast<CompareDir>(i);
      return true;
    }
  return false;
}

std::string_view combiner_name(ScatterCombiner c) {
  static constexpr std::string_view kNames[] = {"add", "replace", "mul", "max", "min"};
  return kNames[static_cast<int>(c)];
}
bool parse_combiner(std::string_view s, ScatterCombiner& out) {
  for (int i = 0; i < 5; ++i)
    if (combiner_name(static_cast<ScatterCombiner>(i)) == s) {
      out = static_cast<ScatterCombiner>(i);
      return true;
    }
  return false;
}

}  // namespace tenferro
