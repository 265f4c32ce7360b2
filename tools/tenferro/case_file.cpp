// Op-case files: see case_file.hpp.
#include "case_file.hpp"

#include "eval.hpp"
#include "json_tensor.hpp"
#include "printable.hpp"

namespace tenferro::cli {

using json = nlohmann::json;

std::string case_name(const json& j, std::size_t index) {
  if (j.is_object()) {
    auto it = j.find("name");
    if (it != j.end() && it->is_string()) return it->get<std::string>();
  }
  return "case" + std::to_string(index);
}

Case parse_case(const json& j, std::size_t index) {
  if (!j.is_object()) throw CaseError("a case must be an object, got " + std::string(j.type_name()));
  Case c;
  c.name = case_name(j, index);
  auto it = j.find("op");
  if (it == j.end() || !it->is_string()) throw CaseError("case lacks a string \"op\"");
  c.op = it->get<std::string>();
  if (!is_known_op(c.op)) throw CaseError("unknown op \"" + printable(c.op) + "\"");
  it = j.find("inputs");
  if (it == j.end() || !it->is_array()) throw CaseError("case lacks an \"inputs\" list");
  for (std::size_t i = 0; i < it->size(); ++i) {
    try {
      c.inputs.push_back(tensor_from_json((*it)[i]));
    } catch (const CaseError& e) {
      throw CaseError("inputs[" + std::to_string(i) + "]: " + e.what());
    }
  }
  c.attrs = j.value("attrs", json::object());
  if (!c.attrs.is_object() && !c.attrs.is_null()) throw CaseError("\"attrs\" must be an object");
  const bool has_expected = j.contains("expected"), has_error = j.contains("expected_error");
  if (has_expected && has_error) throw CaseError("a case has \"expected\" or \"expected_error\", not both");
  if (has_expected) {
    try {
      c.expected = tensor_from_json(j["expected"]);
    } catch (const CaseError& e) {
      throw CaseError(std::string("expected: ") + e.what());
    }
  }
  if (has_error) {
    const json& k = j["expected_error"];
    ErrorKind kind{};
    if (!k.is_string() || !parse_error_kind(k.get<std::string>(), kind))
      throw CaseError("\"expected_error\" must name an error kind (shape_mismatch rank_mismatch "
                      "axis_out_of_bounds dtype_mismatch invalid_argument unsupported numerical_failure), got " +
                      k.dump());
    c.expected_error = kind;
  }
  if (j.contains("rtol")) {
    const json& r = j["rtol"];
    if (!r.is_number() || !(r.get<double>() >= 0.0)) throw CaseError("\"rtol\" must be a non-negative number");
    c.rtol = r.get<double>();
  }
  return c;
}

std::vector<json> parse_case_file(const std::string& text) {
  json root;
  try {
    root = parse_json(text);
  } catch (const std::exception& e) {
    throw CaseError(std::string("invalid JSON: ") + e.what());
  }
  if (root.is_array()) return root.get<std::vector<json>>();
  if (!root.is_object()) throw CaseError("the file must hold a case object or {\"cases\": [...]}");
  if (root.contains("cases")) {
    if (!root["cases"].is_array()) throw CaseError("\"cases\" must be a list");
    return root["cases"].get<std::vector<json>>();
  }
  return {root};
}

}  // namespace tenferro::cli
