// Private helpers shared by the einsum translation units.
#pragma once
#include <string>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::einsum_detail {

/// The op name of einsum's errors.
inline constexpr const char* kOp = "einsum";

/// UTF-8 encoding of a code point (labels beyond Unicode, i.e. ellipsis dims, print "…k").
std::string label_text(char32_t label);
/// Labels of a term as text, e.g. "ijk".
std::string labels_text(const EinsumSpec& spec, const std::vector<int>& ids);

}  // namespace tenferro::einsum_detail
