// The backends every conformance test runs on, with their declared gaps (IREE-style).
// A gap is an (op, dtype) the contract allows but the backend does not run; each needs a
// reason. The test for a gap asserts the op raises Error{unsupported}; a declared gap whose
// backend now supports the pair fails (stale entries cannot linger), and an undeclared
// unsupported pair fails too.
#pragma once
#include <string>
#include <vector>

#include "tenferro/backend/backend.hpp"

namespace tenferro::test {

struct TestBackend {
  std::string name;
  Backend* be;
};

/// "cpu" always; "vulkan" (default device) when the provider is built and a device exists;
/// with TENFERRO_TEST_BACKENDS=webgpu, "cpu" and "webgpu" (its preferred adapter) instead.
std::vector<TestBackend> test_backends();

/// The reason a backend declares for not running op on dtype d, or "" when none is declared.
std::string declared_gap(const std::string& backend, OpId op, DType d);

/// Checks the declaration against backend.supports(op, d). Returns "" when consistent, else
/// why not (undeclared gap, or stale declaration).
std::string check_gap_declaration(const TestBackend& tb, OpId op, DType d);

}  // namespace tenferro::test
