// Private helpers shared by the einsum translation units (parse, plan, execute).
#pragma once
#include <string>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::einsum_detail {

/// UTF-8 encoding of a code point (labels beyond Unicode, i.e. ellipsis dims, print "…k").
std::string label_text(char32_t label);
/// Labels of a term as text, e.g. "ijk".
std::string labels_text(const EinsumSpec& spec, const std::vector<int>& ids);

}  // namespace tenferro::einsum_detail
