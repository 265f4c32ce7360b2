// Op-case files (EVAL_FORMAT.md) read into cases: the part of `tenferro eval` before any op
// runs, kept apart from the file system so that the fuzzing harness (fuzz/parsers_fuzz.cpp)
// runs the same code on arbitrary bytes.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tenferro/tensor.hpp"

namespace tenferro::cli {

// A parsed case; inputs and expected are host tensors.
struct Case {
  std::string name;
  std::string op;
  std::vector<Tensor> inputs;
  nlohmann::json attrs;
  std::optional<Tensor> expected;
  std::optional<ErrorKind> expected_error;
  std::optional<double> rtol;
};

/// The case's "name" when it is a string, else "case<index>".
std::string case_name(const nlohmann::json& j, std::size_t index);

/// The case objects of a file's contents `text`: the file's one case object, or its
/// {"cases": [...]} list (a bare list is taken too). @throws CaseError for invalid JSON (nested
/// deeper than kMaxJsonDepth included) or another top level, never another type.
std::vector<nlohmann::json> parse_case_file(const std::string& text);

/// The case object `j` (the index-th of its file) parsed: op known to eval, inputs and expected
/// built as host tensors, expected_error and rtol checked. The attrs are only checked to be an
/// object (run_op reads them). @throws CaseError for anything malformed, never another type.
Case parse_case(const nlohmann::json& j, std::size_t index);

}  // namespace tenferro::cli
