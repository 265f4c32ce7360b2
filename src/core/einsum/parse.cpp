// einsum subscripts: UTF-8 decoding, parsing, and binding to operand shapes (EinsumSpec).
#include <algorithm>
#include <map>

#include "core/einsum/internal.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/error.hpp"

namespace tenferro {
namespace einsum_detail {

std::string label_text(char32_t c) {
  std::string s;
  if (c >= kEllipsisLabelBase) return "\xE2\x80\xA6" + std::to_string(static_cast<unsigned long>(c - kEllipsisLabelBase));
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

std::string labels_text(const EinsumSpec& spec, const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += id < 0 ? std::string("1") : label_text(spec.labels[static_cast<std::size_t>(id)]);
  return s;
}

}  // namespace einsum_detail

using einsum_detail::kOp;
using einsum_detail::label_text;

namespace {

// Decodes one code point starting at s[i]; advances i. Rejects overlong forms, surrogates,
// values above U+10FFFF and truncated sequences.
char32_t decode_utf8(std::string_view s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int len = 0;
  char32_t c = 0;
  if (b0 < 0x80) {
    ++i;
    return b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, c = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, c = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, c = b0 & 0x07;
  } else {
    TENFERRO_FAIL(invalid_argument, kOp, "subscripts", "invalid UTF-8: unexpected byte 0x", std::hex,
                  static_cast<int>(b0), std::dec, " at byte ", i);
  }
  TENFERRO_CHECK(i + static_cast<std::size_t>(len) <= s.size(), invalid_argument, kOp, "subscripts",
                 "invalid UTF-8: truncated sequence at byte ", i);
  for (int k = 1; k < len; ++k) {
    const unsigned char b = byte(i + static_cast<std::size_t>(k));
    TENFERRO_CHECK((b & 0xC0) == 0x80, invalid_argument, kOp, "subscripts",
                   "invalid UTF-8: bad continuation byte at byte ", i + static_cast<std::size_t>(k));
    c = (c << 6) | (b & 0x3F);
  }
  static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  TENFERRO_CHECK(c >= kMin[len] && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF), invalid_argument, kOp,
                 "subscripts", "invalid UTF-8: overlong form, surrogate or value beyond U+10FFFF at byte ", i);
  i += static_cast<std::size_t>(len);
  return c;
}

bool is_space(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

EinsumSubscripts parse_subscripts(std::string_view s) {
  EinsumSubscripts out;
  out.inputs.emplace_back();
  EinsumTerm* term = &out.inputs.back();
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t at = i;
    const char32_t c = decode_utf8(s, i);
    if (is_space(c)) continue;
    if (c == ',') {
      TENFERRO_CHECK(!out.explicit_output, invalid_argument, kOp, "subscripts",
                     "',' after \"->\" at byte ", at, ": the output is a single term");
      out.inputs.emplace_back();
      term = &out.inputs.back();
    } else if (c == '-') {
      TENFERRO_CHECK(i < s.size() && s[i] == '>', invalid_argument, kOp, "subscripts", "'-' at byte ", at,
                     " is not followed by '>'");
      TENFERRO_CHECK(!out.explicit_output, invalid_argument, kOp, "subscripts", "second \"->\" at byte ", at);
      ++i;
      out.explicit_output = true;
      term = &out.output;
    } else if (c == '>') {
      TENFERRO_FAIL(invalid_argument, kOp, "subscripts", "'>' at byte ", at, " without a preceding '-'");
    } else if (c == '.') {
      TENFERRO_CHECK(s.substr(i, 2) == "..", invalid_argument, kOp, "subscripts",
                     "'.' at byte ", at, " is not part of an ellipsis \"...\"");
      i += 2;
      TENFERRO_CHECK(term->ellipsis < 0, invalid_argument, kOp, "subscripts", "second ellipsis in one term at byte ",
                     at);
      term->ellipsis = static_cast<int>(term->labels.size());
    } else {
      term->labels.push_back(c);
    }
  }
  return out;
}

EinsumSpec make_spec(std::string_view subscripts, std::span<const Shape> shapes) {
  const EinsumSubscripts sub = parse_subscripts(subscripts);
  const std::size_t n = sub.inputs.size();
  TENFERRO_CHECK(shapes.size() == n, invalid_argument, kOp, "operands", "subscripts \"", subscripts, "\" name ", n,
                 " operand(s), got ", shapes.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::int64_t e : shapes[i])
      TENFERRO_CHECK(e >= 0, invalid_argument, kOp, "operands", "operand ", i, " has the negative extent ", e,
                     " (shape ", shapes[i], ")");

  // Ellipsis ranks and the broadcast extents of the ellipsis dims (aligned at the end).
  std::vector<std::int64_t> ell_rank(n, 0);
  std::int64_t ell_max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& t = sub.inputs[i];
    const auto nl = static_cast<std::int64_t>(t.labels.size());
    const auto r = static_cast<std::int64_t>(shapes[i].size());
    if (t.ellipsis >= 0) {
      TENFERRO_CHECK(r >= nl, rank_mismatch, kOp, "operands", "operand ", i, " has rank ", r, " but its term has ", nl,
                     " labels plus an ellipsis");
      ell_rank[i] = r - nl;
    } else {
      TENFERRO_CHECK(r == nl, rank_mismatch, kOp, "operands", "operand ", i, " has rank ", r, " (shape ", shapes[i],
                     ") but its term has ", nl, " labels");
    }
    ell_max = std::max(ell_max, ell_rank[i]);
  }
  std::vector<std::int64_t> ell_extent(static_cast<std::size_t>(ell_max), 1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& t = sub.inputs[i];
    for (std::int64_t j = 0; j < ell_rank[i]; ++j) {
      const std::int64_t e = shapes[i][static_cast<std::size_t>(t.ellipsis + j)];
      auto& g = ell_extent[static_cast<std::size_t>(ell_max - ell_rank[i] + j)];
      TENFERRO_CHECK(e == g || e == 1 || g == 1, shape_mismatch, kOp, "operands", "ellipsis dimension ", j,
                     " of operand ", i, " has extent ", e, ", which does not broadcast with extent ", g);
      if (g == 1) g = e;
    }
  }

  EinsumSpec spec;
  std::map<char32_t, int> ids;
  std::vector<int> occurrences;
  const auto id_of = [&](char32_t c, std::int64_t extent, std::size_t operand) {
    auto [it, fresh] = ids.emplace(c, static_cast<int>(spec.labels.size()));
    if (fresh) {
      spec.labels.push_back(c);
      spec.extents.push_back(extent);
      occurrences.push_back(0);
    } else {
      const std::int64_t have = spec.extents[static_cast<std::size_t>(it->second)];
      TENFERRO_CHECK(have == extent, shape_mismatch, kOp, "operands", "label '", label_text(c), "' has extent ",
                     extent, " in operand ", operand, " but extent ", have, " elsewhere");
    }
    ++occurrences[static_cast<std::size_t>(it->second)];
    return it->second;
  };
  spec.inputs.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& t = sub.inputs[i];
    const auto r = shapes[i].size();
    for (std::size_t ax = 0; ax < r; ++ax) {
      const std::int64_t e = shapes[i][ax];
      const auto ax_i = static_cast<std::int64_t>(ax);
      if (t.ellipsis >= 0 && ax_i >= t.ellipsis && ax_i < t.ellipsis + ell_rank[i]) {
        const std::int64_t k = ell_max - ell_rank[i] + (ax_i - t.ellipsis);
        const std::int64_t g = ell_extent[static_cast<std::size_t>(k)];
        if (e == 1 && g != 1) {
          spec.inputs[i].push_back(-1);  // broadcast axis: dropped
        } else {
          spec.inputs[i].push_back(id_of(kEllipsisLabelBase + static_cast<char32_t>(k), e, i));
        }
      } else {
        const std::int64_t li = t.ellipsis >= 0 && ax_i >= t.ellipsis ? ax_i - ell_rank[i] : ax_i;
        spec.inputs[i].push_back(id_of(t.labels[static_cast<std::size_t>(li)], e, i));
      }
    }
  }

  // Ellipsis dims that every operand broadcasts (all extent 1 but some larger globally cannot
  // happen: g is the max). Ellipsis dims never materialised (all operands extent 1 and
  // dropped) do not occur either, since e == g == 1 keeps the axis.
  std::vector<int> ell_ids;
  for (std::int64_t k = 0; k < ell_max; ++k) {
    auto it = ids.find(kEllipsisLabelBase + static_cast<char32_t>(k));
    if (it != ids.end()) ell_ids.push_back(it->second);
  }

  if (sub.explicit_output) {
    const auto& t = sub.output;
    std::vector<bool> seen(spec.labels.size(), false);
    for (std::size_t k = 0; k <= t.labels.size(); ++k) {
      if (t.ellipsis == static_cast<int>(k)) {
        for (int id : ell_ids) spec.output.push_back(id);
      }
      if (k == t.labels.size()) break;
      const char32_t c = t.labels[k];
      auto it = ids.find(c);
      TENFERRO_CHECK(it != ids.end(), invalid_argument, kOp, "subscripts", "output label '", label_text(c),
                     "' does not appear in any input term");
      TENFERRO_CHECK(!seen[static_cast<std::size_t>(it->second)], invalid_argument, kOp, "subscripts",
                     "output label '", label_text(c), "' is repeated");
      seen[static_cast<std::size_t>(it->second)] = true;
      spec.output.push_back(it->second);
    }
  } else {
    spec.output = ell_ids;
    std::vector<std::pair<char32_t, int>> once;
    for (std::size_t id = 0; id < spec.labels.size(); ++id) {
      if (spec.labels[id] < kEllipsisLabelBase && occurrences[id] == 1)
        once.emplace_back(spec.labels[id], static_cast<int>(id));
    }
    std::sort(once.begin(), once.end());
    for (const auto& [c, id] : once) spec.output.push_back(id);
  }

  // Planner view: distinct labels per operand minus the ones private to it and not output.
  std::vector<int> in_output(spec.labels.size(), 0), operand_count(spec.labels.size(), 0);
  for (int id : spec.output) in_output[static_cast<std::size_t>(id)] = 1;
  std::vector<std::vector<int>> distinct(n);
  std::vector<std::size_t> seen_in(spec.labels.size(), n);  // the last operand that listed the label
  for (std::size_t i = 0; i < n; ++i) {
    for (int id : spec.inputs[i]) {
      if (id >= 0 && seen_in[static_cast<std::size_t>(id)] != i) {
        seen_in[static_cast<std::size_t>(id)] = i;
        distinct[i].push_back(id);
        ++operand_count[static_cast<std::size_t>(id)];
      }
    }
  }
  spec.reduced.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int id : distinct[i]) {
      const auto u = static_cast<std::size_t>(id);
      if (in_output[u] || operand_count[u] > 1) spec.reduced[i].push_back(id);
    }
  }
  return spec;
}

std::string spec_to_string(const EinsumSpec& spec) {
  std::string s;
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    if (i) s += ',';
    s += einsum_detail::labels_text(spec, spec.inputs[i]);
  }
  return s + "->" + einsum_detail::labels_text(spec, spec.output);
}

}  // namespace tenferro
