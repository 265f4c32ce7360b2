// Private helpers shared by the einsum translation units.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tenferro/einsum.hpp"

namespace tenferro::einsum_detail {

/// The op name of einsum's errors.
inline constexpr const char* kOp = "einsum";

/// execute (tenferro/einsum.hpp) with a memory limit for the program (LowerOptions::memory_limit;
/// 0: the default bound).
Tensor execute_within(Backend& be, const EinsumSpec& spec, const Path& path, std::span<const TensorView> operands,
                      const EinsumProgress& progress, std::uint64_t memory_limit);

/// UTF-8 encoding of a code point (labels beyond Unicode, i.e. ellipsis dims, print "…k").
std::string label_text(char32_t label);
/// Labels of a term as text, e.g. "ijk".
std::string labels_text(const EinsumSpec& spec, const std::vector<int>& ids);

}  // namespace tenferro::einsum_detail
