// Einsum instance files: see instance.hpp.
#include "instance.hpp"

#include <climits>
#include <cstdint>
#include <filesystem>
#include <optional>

#include "json_tensor.hpp"
#include "printable.hpp"

namespace tenferro::cli {

Instance parse_instance(const std::string& text, const std::string& file, const std::string& layout) {
  nlohmann::json j;
  try {
    j = parse_json(text);
  } catch (const std::exception& e) {
    throw InputError("instance file '" + file + "' is not valid JSON: " + e.what());
  }
  Instance inst;
  if (!j.is_object()) throw InputError("instance file '" + file + "': top level must be an object");
  // The column-major variant when asked for and present (else the plain strings).
  const bool col = layout == "colmajor" && j.contains("format_string_colmajor") && j.contains("shapes_colmajor");
  const std::string fkey = col ? "format_string_colmajor" : "format_string", skey = col ? "shapes_colmajor" : "shapes";
  inst.layout = col ? "colmajor" : "rowmajor";
  if (!j.contains(fkey) || !j[fkey].is_string())
    throw InputError("instance file '" + file + "': missing string field \"" + fkey + "\"");
  inst.format = j[fkey].get<std::string>();
  if (!j.contains(skey) || !j[skey].is_array())
    throw InputError("instance file '" + file + "': missing array field \"" + skey + "\"");
  for (std::size_t i = 0; i < j[skey].size(); ++i) {
    const auto& s = j[skey][i];
    if (!s.is_array()) throw InputError("instance file '" + file + "': " + skey + "[" + std::to_string(i) + "] is not an array");
    Shape shape;
    for (const auto& e : s) {
      if (!e.is_number_integer() || e.get<std::int64_t>() < 0)
        throw InputError("instance file '" + file + "': " + skey + "[" + std::to_string(i) +
                         "] must hold non-negative integers, got " + s.dump());
      shape.push_back(e.get<std::int64_t>());
    }
    inst.shapes.push_back(std::move(shape));
  }
  // The name is printed in reports and errors: escaped and cut (printable.hpp).
  inst.name = printable(j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>()
                                                                   : std::filesystem::path(file).stem().string());
  if (j.contains("paths")) inst.paths = j["paths"];
  return inst;
}

Instance read_instance(const std::string& file, const std::string& layout) {
  if (file.empty()) throw InputError("missing INSTANCE.json argument");
  std::string text;
  try {
    text = read_input_file(file, "instance file");
  } catch (const std::runtime_error& e) {
    throw InputError("instance file '" + file + "' " + e.what());
  }
  return parse_instance(text, file, layout);
}

Path stored_path(const Instance& inst, const std::string& key) {
  if (!inst.paths.is_object() || !inst.paths.contains(key) || !inst.paths[key].is_object() ||
      !inst.paths[key].contains("path") || !inst.paths[key]["path"].is_array())
    throw InputError("instance '" + inst.name + "' has no paths." + key + ".path");
  Path p;
  // Positions as the JSON holds them: get<int>() would wrap 2^32 to 0.
  const auto position = [](const nlohmann::json& v) -> std::optional<int> {
    if (v.is_number_unsigned()) {
      const std::uint64_t u = v.get<std::uint64_t>();
      return u <= static_cast<std::uint64_t>(INT_MAX) ? std::optional<int>(static_cast<int>(u)) : std::nullopt;
    }
    if (!v.is_number_integer()) return std::nullopt;
    const std::int64_t i = v.get<std::int64_t>();
    return i >= 0 && i <= INT_MAX ? std::optional<int>(static_cast<int>(i)) : std::nullopt;
  };
  for (const auto& step : inst.paths[key]["path"]) {
    const std::optional<int> i = step.is_array() && step.size() == 2 ? position(step[0]) : std::nullopt;
    const std::optional<int> j = step.is_array() && step.size() == 2 ? position(step[1]) : std::nullopt;
    if (!i || !j)
      throw InputError("instance '" + inst.name + "': paths." + key +
                       ".path steps must be [i, j] pairs of operand positions (0 .. 2^31 - 1), got " +
                       printable(step.dump()));
    p.emplace_back(*i, *j);
  }
  return p;
}

}  // namespace tenferro::cli
