// Einsum instance files (data/instances format): reading one into subscripts, shapes and stored
// paths, the part of `tenferro einsum` before any planning, kept apart from the command so
// that the fuzzing harness (fuzz/parsers_fuzz.cpp) runs the same code on arbitrary bytes.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tenferro/einsum.hpp"

namespace tenferro::cli {

/// Bad input to `tenferro einsum` (the instance file or an option): reported as
/// "tenferro einsum: <message>" with exit code 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Instance {
  std::string name, format;
  std::vector<Shape> shapes;
  nlohmann::json paths;
  // Which strings were read: "colmajor" (format_string_colmajor, shapes_colmajor) or
  // "rowmajor" (format_string, shapes: asked for, or the file has no column-major variant).
  std::string layout;
};

/// The instance held by `text`, the contents of the file `file` (named in messages; its stem is
/// the name when the instance has none). `layout` is "colmajor" (the column-major strings when
/// present) or "rowmajor". @throws InputError for anything malformed, never another type.
Instance parse_instance(const std::string& text, const std::string& file, const std::string& layout);

/// parse_instance of the file's contents (read_input_file); an unreadable file is InputError too.
Instance read_instance(const std::string& file, const std::string& layout);

/// The stored path paths.<key>.path of an instance. @throws InputError when it is missing or a
/// step is not a pair of positions in [0, 2^31 - 1].
Path stored_path(const Instance& inst, const std::string& key);

}  // namespace tenferro::cli
