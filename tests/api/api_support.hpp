// Shared helpers of the user-API tests: the devices to run on and reading a tensor through its
// backend (the test support's reader, not the API under test).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro::test {

/// The CPU, and the preferred Vulkan device when there is one.
inline std::vector<Device> api_devices() {
  std::vector<Device> out{Device::cpu()};
  if (vulkan_available()) out.push_back(Device::vulkan());
  return out;
}

/// x's logical values, read by the backend of its device.
inline RefTensor read_on(const TensorView& x) { return read(backend_for(x.device()), x); }

/// A RefTensor placed on a device (compact).
inline Tensor put_on(const RefTensor& r, const Device& d) {
  const TensorView v = place(backend_for(d), r, LayoutCase::compact);
  return Tensor(v.storage(), v.dtype(), v.shape());
}

/// Runs f expecting Error{kind} naming op and arg.
inline void expect_api_error(ErrorKind kind, const std::string& op, const std::string& arg,
                             const std::function<void()>& f) {
  try {
    f();
    ADD_FAILURE() << "expected " << error_kind_name(kind) << " from " << op << ", got no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.op(), op) << e.what();
    EXPECT_EQ(e.arg(), arg) << e.what();
  }
}

}  // namespace tenferro::test
