// The process environment: the only place tenferro calls getenv, and the one parser of its
// values. Each layer reads its own settings through these (core: src/core/options.cpp; the CPU
// backend: src/cpu/pool.cpp; the Vulkan provider: src/vulkan/options.cpp);
// docs/configuration.md lists every variable.
//
// Every reader takes the variable's name and returns `dflt` when the variable is unset or
// empty. A value outside the accepted forms raises Error{invalid_argument} with op
// "environment" and arg = the variable's name; the message quotes the value and states the
// accepted forms. Values are never trimmed or clamped: " 1", "1 ", "+1" and "0x10" are refused.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tenferro::env {

/// The variable's value; nullopt when unset or empty.
std::optional<std::string> text(const char* name);

/// A boolean: exactly 1, true, on, yes or 0, false, off, no (case-insensitive).
bool parse_bool(std::string_view name, std::string_view value);
/// A byte size: a decimal number of bytes, or a decimal number (a fraction allowed) with a
/// binary unit K, M, G, T or KiB, MiB, GiB, TiB (case-insensitive; 1K = 1KiB = 1024 bytes),
/// rounded down to whole bytes (at most 18 fraction digits). Refused: signs, spaces, other suffixes, more than one '.',
/// values past 2^64 - 1 bytes.
std::uint64_t parse_bytes(std::string_view name, std::string_view value);
/// A decimal integer in [lo, hi]: digits only (no sign, no spaces), within the range.
std::uint64_t parse_uint(std::string_view name, std::string_view value, std::uint64_t lo, std::uint64_t hi);

/// The readers: the parsers above on the variable's value, `dflt` when unset or empty.
bool flag(const char* name, bool dflt);
std::uint64_t bytes(const char* name, std::uint64_t dflt);
std::uint64_t uint(const char* name, std::uint64_t dflt, std::uint64_t lo, std::uint64_t hi);

}  // namespace tenferro::env
