// JSON tensors: parsing into column-major host tensors, printing, and tolerance checks.
#include "json_tensor.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "tenferro/backend/backend.hpp"

namespace tenferro::cli {
namespace {

using json = nlohmann::json;

// The largest tensor a case file may describe; guards against absurd shapes.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 31;

[[noreturn]] void bad(const std::string& msg) { throw CaseError(msg); }

std::string at(const std::vector<std::int64_t>& idx) {
  return idx.empty() ? std::string("data") : "data" + format_list(idx);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

double parse_real(const json& v, const std::vector<std::int64_t>& idx) {
  if (v.is_number_unsigned()) return static_cast<double>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return static_cast<double>(v.get<std::int64_t>());
  if (v.is_number_float()) return v.get<double>();
  if (v.is_string()) {
    const std::string s = lower(v.get<std::string>());
    if (s == "nan" || s == "+nan" || s == "-nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf" || s == "+inf" || s == "infinity" || s == "+infinity")
      return std::numeric_limits<double>::infinity();
    if (s == "-inf" || s == "-infinity") return -std::numeric_limits<double>::infinity();
    bad(at(idx) + ": string \"" + v.get<std::string>() + "\" is not a number (use \"nan\", \"inf\", \"-inf\")");
  }
  bad(at(idx) + ": expected a number, got " + std::string(v.type_name()));
}

std::int64_t parse_int(const json& v, const std::vector<std::int64_t>& idx) {
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      bad(at(idx) + ": integer " + std::to_string(u) + " is out of the int64 range");
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    // Accept integral floats (3.0) that an int64 holds exactly; reject fractions.
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
      return static_cast<std::int64_t>(d);
    bad(at(idx) + ": expected an integer, got " + v.dump());
  }
  bad(at(idx) + ": expected an integer, got " + std::string(v.type_name()));
}

template <class T> T parse_element(const json& v, const std::vector<std::int64_t>& idx) {
  if constexpr (std::is_same_v<T, bool>) {
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_integer() && (v.get<std::int64_t>() == 0 || v.get<std::int64_t>() == 1))
      return v.get<std::int64_t>() != 0;
    bad(at(idx) + ": expected true or false, got " + v.dump());
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    const std::int64_t x = parse_int(v, idx);
    if (x < std::numeric_limits<std::int32_t>::min() || x > std::numeric_limits<std::int32_t>::max())
      bad(at(idx) + ": integer " + std::to_string(x) + " is out of the i32 range");
    return static_cast<std::int32_t>(x);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return parse_int(v, idx);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(parse_real(v, idx));
  } else {
    using R = typename T::value_type;
    if (v.is_array()) {
      if (v.size() != 2) bad(at(idx) + ": a complex element is [re, im], got " + v.dump());
      return T(static_cast<R>(parse_real(v[0], idx)), static_cast<R>(parse_real(v[1], idx)));
    }
    return T(static_cast<R>(parse_real(v, idx)), R(0));  // a bare real means (x, 0)
  }
}

// Checks that the nesting of `data` matches `shape` before anything is allocated, so the
// memory a case takes is bounded by the size of its JSON.
void check_nesting(const json& data, const Shape& shape, std::size_t depth, std::vector<std::int64_t>& idx) {
  if (depth == shape.size()) return;
  if (!data.is_array())
    bad(at(idx) + ": expected a list of " + std::to_string(shape[depth]) + " entries (axis " +
        std::to_string(depth) + " of shape " + format_list(shape) + "), got " + std::string(data.type_name()));
  if (static_cast<std::int64_t>(data.size()) != shape[depth])
    bad(at(idx) + ": list has " + std::to_string(data.size()) + " entries, expected " +
        std::to_string(shape[depth]) + " (axis " + std::to_string(depth) + " of shape " + format_list(shape) + ")");
  for (std::size_t i = 0; i < data.size(); ++i) {
    idx.push_back(static_cast<std::int64_t>(i));
    check_nesting(data[i], shape, depth + 1, idx);
    idx.pop_back();
  }
}

// @pre check_nesting(data, shape) passed.
template <class T>
void fill_from(const json& data, const Shape& shape, const Strides& strides, std::size_t depth,
               std::int64_t pos, std::vector<std::int64_t>& idx, std::vector<T>& out) {
  if (depth == shape.size()) {
    out[static_cast<std::size_t>(pos)] = parse_element<T>(data, idx);
    return;
  }
  for (std::int64_t i = 0; i < shape[depth]; ++i) {
    idx.push_back(i);
    fill_from(data[static_cast<std::size_t>(i)], shape, strides, depth + 1, pos + i * strides[depth], idx, out);
    idx.pop_back();
  }
}

// Calls f(index, colex position) for every element in row-major (file) order; stops when f
// returns false.
template <class F> bool for_each_row_major(const Shape& shape, F&& f) {
  const Strides strides = compact_strides(shape);
  const std::int64_t n = Layout::compact(shape).numel();  // (zero first: [2^62, 2^62, 0] is empty)
  if (n == 0) return true;
  std::vector<std::int64_t> idx(shape.size(), 0);
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t pos = 0;
    for (std::size_t a = 0; a < shape.size(); ++a) pos += idx[a] * strides[a];
    if (!f(idx, pos)) return false;
    for (std::size_t a = shape.size(); a-- > 0;) {
      if (++idx[a] < shape[a]) break;
      idx[a] = 0;
    }
  }
  return true;
}

template <class R> std::string format_real(R x) {
  if (std::isnan(x)) return "\"nan\"";
  if (std::isinf(x)) return x > 0 ? "\"inf\"" : "\"-inf\"";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), x);  // shortest round-trip form of R
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

template <class T> std::string format_element(const T& x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(x);
  } else if constexpr (std::is_floating_point_v<T>) {
    return format_real(x);
  } else {
    std::string s = "[";  // appended piecewise: GCC 12 warns (-Wrestrict) on "[" + string
    s += format_real(x.real());
    s += ", ";
    s += format_real(x.imag());
    s += "]";
    return s;
  }
}

template <class T>
void write_nested(std::ostringstream& os, const std::vector<T>& v, const Shape& shape, const Strides& strides,
                  std::size_t depth, std::int64_t pos) {
  if (depth == shape.size()) {
    os << format_element<T>(v[static_cast<std::size_t>(pos)]);
    return;
  }
  os << '[';
  for (std::int64_t i = 0; i < shape[depth]; ++i) {
    if (i) os << ", ";
    write_nested(os, v, shape, strides, depth + 1, pos + i * strides[depth]);
  }
  os << ']';
}

bool close_real(double g, double e, double rtol) {
  if (std::isnan(e)) return std::isnan(g);
  if (std::isinf(e)) return g == e;
  if (!std::isfinite(g)) return false;
  return std::abs(g - e) <= rtol * std::max(std::abs(e), 1.0);
}

template <class T> bool close_element(const T& g, const T& e, double rtol) {
  if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
    return g == e;
  } else if constexpr (std::is_floating_point_v<T>) {
    return close_real(static_cast<double>(g), static_cast<double>(e), rtol);
  } else {
    const std::complex<double> gd(g.real(), g.imag()), ed(e.real(), e.imag());
    const bool finite = std::isfinite(gd.real()) && std::isfinite(gd.imag()) && std::isfinite(ed.real()) &&
                        std::isfinite(ed.imag());
    if (finite) return std::abs(gd - ed) <= rtol * std::max(std::abs(ed), 1.0);
    return close_real(gd.real(), ed.real(), rtol) && close_real(gd.imag(), ed.imag(), rtol);
  }
}

}  // namespace

std::string read_input_file(const std::string& path, const char* what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw std::runtime_error(std::string("is a directory, not a ") + what);
  if (!fs::is_regular_file(path, ec)) throw std::runtime_error("does not exist or is not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec || size > kMaxInputFileBytes)
    throw std::runtime_error(std::string("is larger than 1 GiB, the limit of a ") + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot be read");
  // No more than the size taken above, should the file grow meanwhile.
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string format_list(std::span<const std::int64_t> v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Tensor tensor_from_json(const json& j) {
  if (!j.is_object()) bad("a tensor is an object {\"dtype\", \"shape\", \"data\"}, got " + std::string(j.type_name()));
  for (const char* key : {"dtype", "shape", "data"})
    if (!j.contains(key)) bad(std::string("tensor lacks \"") + key + "\"");
  if (!j["dtype"].is_string()) bad("tensor \"dtype\" must be a string");
  const std::string dname = j["dtype"].get<std::string>();
  const std::optional<DType> dtype = parse_dtype(dname);
  if (!dtype) bad("unknown dtype \"" + dname + "\" (expected f32 f64 i32 i64 bool c32 c64)");
  const json& js = j["shape"];
  if (!js.is_array()) bad("tensor \"shape\" must be a list of extents");
  Shape shape;
  for (const json& e : js) {
    if (!e.is_number_integer() || (!e.is_number_unsigned() && e.get<std::int64_t>() < 0) ||
        (e.is_number_unsigned() && e.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)))
      bad("tensor \"shape\" entries must be integers in [0, 2^63), got " + js.dump());
    shape.push_back(e.get<std::int64_t>());
  }
  // An empty shape holds nothing, whatever its other extents ([0, 2^62, 2^62]: its data is []).
  const std::optional<std::int64_t> n = numel_if_fits(shape);
  if (!n || *n > kMaxElements) bad("tensor shape " + js.dump() + " is too large (at most 2^31 elements)");
  std::vector<std::int64_t> idx;
  check_nesting(j["data"], shape, 0, idx);
  const Strides strides = compact_strides(shape);
  return visit_dtype(*dtype, [&](auto tag) -> Tensor {
    using T = typename decltype(tag)::type;
    std::vector<T> values(static_cast<std::size_t>(*n));
    fill_from<T>(j["data"], shape, strides, 0, 0, idx, values);
    return host_tensor<T>(shape, values);
  });
}

std::int64_t json_nested_items(const Shape& shape) {
  std::int64_t items = 1, lists = 1;  // the outermost list (rank 0: the bare value)
  for (std::int64_t e : shape) {
    if (__builtin_mul_overflow(lists, e, &lists) || __builtin_add_overflow(items, lists, &items))
      return std::numeric_limits<std::int64_t>::max();
    if (lists == 0) break;
  }
  return items;
}

std::string tensor_to_json(const TensorView& t) {
  const std::int64_t items = json_nested_items(t.shape());
  if (items > kMaxJsonItems)
    throw std::runtime_error("a tensor of shape " + format_list(t.shape()) + " is " + std::to_string(items) +
                             " nested lists and elements in JSON, more than the " + std::to_string(kMaxJsonItems) +
                             " printed; give the case an `expected` to check it instead");
  std::ostringstream os;
  os << "{\"dtype\": \"" << dtype_name(t.dtype()) << "\", \"shape\": " << format_list(t.shape()) << ", \"data\": ";
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::vector<T> v = to_vector<T>(t);
    write_nested(os, v, t.shape(), compact_strides(t.shape()), 0, 0);
  });
  os << '}';
  return os.str();
}

double default_rtol(DType d) {
  switch (d) {
    case DType::F32:
    case DType::C32: return 1e-5;
    case DType::F64:
    case DType::C64: return 1e-12;
    case DType::I32:
    case DType::I64:
    case DType::Bool: return 0.0;
  }
  return 0.0;
}

std::optional<std::string> compare_tensors(const TensorView& got, const TensorView& expected, double rtol) {
  if (got.dtype() != expected.dtype())
    return "dtype: got " + std::string(dtype_name(got.dtype())) + ", expected " +
           std::string(dtype_name(expected.dtype()));
  if (got.shape() != expected.shape())
    return "shape: got " + format_list(got.shape()) + ", expected " + format_list(expected.shape());
  return visit_dtype(got.dtype(), [&](auto tag) -> std::optional<std::string> {
    using T = typename decltype(tag)::type;
    const std::vector<T> g = to_vector<T>(got), e = to_vector<T>(expected);
    std::optional<std::string> diff;
    for_each_row_major(got.shape(), [&](const std::vector<std::int64_t>& idx, std::int64_t pos) {
      const auto p = static_cast<std::size_t>(pos);
      if (close_element<T>(g[p], e[p], rtol)) return true;
      diff = "at " + format_list(idx) + ": got " + format_element<T>(g[p]) + ", expected " + format_element<T>(e[p]);
      return false;
    });
    return diff;
  });
}

}  // namespace tenferro::cli
