// The error model of SEMANTICS.md "Errors": one exception type carrying kind, op, argument
// and a message "[op] what is wrong: got X, expected Y".
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tenferro {

enum class ErrorKind {
  shape_mismatch,
  rank_mismatch,
  axis_out_of_bounds,
  dtype_mismatch,
  invalid_argument,
  unsupported,
  numerical_failure,
  out_of_memory,
  backend_failure,
  runtime_state,
  host_access,
  device_lost,
  internal,
};

std::string_view error_kind_name(ErrorKind k);
/// Parses a kind name ("shape_mismatch", ...); returns false if unknown.
bool parse_error_kind(std::string_view name, ErrorKind& out);
/// True for the five validation kinds (raised before any work).
constexpr bool is_validation_kind(ErrorKind k) { return k <= ErrorKind::invalid_argument; }

class Error : public std::runtime_error {
 public:
  /// `op` names the op ("pad"), `arg` the argument at fault ("" when none).
  Error(ErrorKind kind, std::string op, std::string arg, const std::string& message);
  ErrorKind kind() const noexcept { return kind_; }
  const std::string& op() const noexcept { return op_; }
  const std::string& arg() const noexcept { return arg_; }
  /// The message without the "[op] " prefix.
  const std::string& detail() const noexcept { return detail_; }

 private:
  ErrorKind kind_;
  std::string op_, arg_, detail_;
};

/// Prints shapes/axes as [a, b, c] (declared here so error messages can stream them).
std::ostream& operator<<(std::ostream& os, const std::vector<long>& v);

namespace detail {
template <class... A> std::string cat(const A&... a) {
  std::ostringstream os;
  (os << ... << a);
  return os.str();
}
[[noreturn]] void throw_error(ErrorKind kind, std::string_view op, std::string_view arg,
                              const std::string& message);
}  // namespace detail

}  // namespace tenferro

/// Throws Error{kind, op, arg, message} unless cond holds. Message parts are streamed.
#define TENFERRO_CHECK(cond, kind, op, arg, ...)                                          \
  do {                                                                                    \
    if (!(cond))                                                                          \
      ::tenferro::detail::throw_error(::tenferro::ErrorKind::kind, op, arg,               \
                                      ::tenferro::detail::cat(__VA_ARGS__));              \
  } while (0)

#define TENFERRO_FAIL(kind, op, arg, ...)                                                 \
  ::tenferro::detail::throw_error(::tenferro::ErrorKind::kind, op, arg,                   \
                                  ::tenferro::detail::cat(__VA_ARGS__))

/// Internal invariant: violated means a tenferro bug, raised as ErrorKind::internal.
#define TENFERRO_ASSERT(cond)                                                             \
  do {                                                                                    \
    if (!(cond))                                                                          \
      ::tenferro::detail::throw_error(::tenferro::ErrorKind::internal, "internal", "",    \
                                      ::tenferro::detail::cat(__FILE__, ":", __LINE__,    \
                                                              ": assertion ", #cond));    \
  } while (0)
