// Text from case files, instance files and the command line, made safe to print: a case name
// holding terminal control sequences could redraw a FAIL line as PASS, and a 50 MB name was
// echoed whole.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tenferro::cli {

/// The most bytes of one name (case, op, file, instance) that the CLI prints.
inline constexpr std::size_t kMaxPrintedName = 200;
/// The most bytes of one error message that the CLI prints.
inline constexpr std::size_t kMaxPrintedMessage = 4000;

/// `s` with every control character (C0, DEL, and C1 as UTF-8 or raw bytes) and every byte
/// that is not part of valid UTF-8 written as a \xNN escape; when `s` has more than `max`
/// bytes, the first `max` (whole characters) and "... (N bytes)". Its output holds no control
/// character, so applying it again only truncates.
std::string printable(std::string_view s, std::size_t max = kMaxPrintedName);

}  // namespace tenferro::cli
