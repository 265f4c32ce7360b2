// JSON <-> host tensor conversion and result checking for `tenferro eval` (EVAL_FORMAT.md).
// A JSON tensor is {"dtype", "shape", "data"}; `data` is nested lists in logical index order
// (outermost list = axis 0, NumPy's tolist()), independent of storage. Host tensors are
// column-major: element (i0, i1, ...) lives at colex position i0 + d0*i1 + d0*d1*i2 + ...
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tenferro/tensor.hpp"

namespace tenferro::cli {

/// A malformed case file or case (bad JSON, bad tensor, unknown op, ...): reported as an
/// ERROR line, never as an op error, so `expected_error` never matches it.
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// nlohmann::json::parse with the nesting limited to kMaxJsonDepth levels: deeper input throws
/// std::runtime_error naming the limit (copying a value nested 150000 deep overflowed the stack
/// and crashed `tenferro eval`).
inline constexpr int kMaxJsonDepth = 1000;
template <class Input> nlohmann::json parse_json(Input&& in) {
  return nlohmann::json::parse(std::forward<Input>(in), [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth)
      throw std::runtime_error("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    return true;
  });
}

/// The largest input file (case file, instance, pattern file) read: inputs are parsed whole,
/// in memory.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{1} << 30;
/// The whole of `path`, a regular file of at most kMaxInputFileBytes (devices and pipes such
/// as /dev/zero would be read without end). @throws std::runtime_error saying what `path` is
/// instead ("is a directory, not a <what>", "does not exist or is not a regular file",
/// "is larger than 1 GiB, the limit of a <what>", "cannot be read").
std::string read_input_file(const std::string& path, const char* what);

/// Builds a compact host (CPU backend) tensor from a JSON tensor object.
/// Integers are read exactly as int64 (i32 out of range, fractions, bools for numbers: error);
/// floats accept numbers and "nan", "inf", "-inf"; complex elements are [re, im]; bool
/// elements true/false. @throws CaseError when the object, dtype, shape or data is malformed
/// or the nesting of `data` does not match `shape`.
Tensor tensor_from_json(const nlohmann::json& j);

/// The number of lists and elements that `data` of a tensor of this shape holds in nested lists:
/// for [2^62, 0], 2^62 + 1 empty lists, though it holds no element. Saturates at INT64_MAX.
std::int64_t json_nested_items(const Shape& shape);
/// The most lists and elements tensor_to_json writes (2^28, a few GB of text).
inline constexpr std::int64_t kMaxJsonItems = std::int64_t{1} << 28;

/// The tensor (any host view) as one line of JSON in the case-file format; non-finite floats
/// are written as "nan", "inf", "-inf". @pre t is host-visible (CPU backend).
/// @throws std::runtime_error when json_nested_items(t.shape()) > kMaxJsonItems.
std::string tensor_to_json(const TensorView& t);

/// Default relative tolerance of EVAL_FORMAT.md: 1e-5 for f32/c32, 1e-12 for f64/c64, 0 else.
double default_rtol(DType d);

/// Checks `got` against `expected` (both host views): dtype and shape exact; integers and
/// bools exact; floats |got - exp| <= rtol * max(|exp|, 1) per element (complex: modulus of
/// the difference), NaN matches NaN, infinities match in sign (per component for complex).
/// @returns nullopt on a match, else a description of the first (row-major) mismatch:
/// "at [i, j]: got G, expected E".
std::optional<std::string> compare_tensors(const TensorView& got, const TensorView& expected,
                                           double rtol);

/// Formats a shape or index list as [a, b, c].
std::string format_list(std::span<const std::int64_t> v);

}  // namespace tenferro::cli
