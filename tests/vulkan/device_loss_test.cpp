// Device loss (src/vulkan/provider.hpp, "Device loss"), simulated with TestHooks::lose_device_at
// at a submission, a wait, a memory allocation, a session's end and a tensor's release: the
// failing call raises device_lost naming its op; every later op, transfer, synchronize,
// session, allocation and mapping on that backend raises device_lost naming the op within
// kCallLimit (a call that does not return by then fails the test: no hang); host tensors and
// a download made before the loss keep their values; the CPU backend and another Vulkan
// device, when the machine has one, still compute.
//
// A lost backend stays lost for the rest of its process (backends are process-lifetime
// singletons), so main() runs each test in a process of its own: this binary again, with a
// filter naming one test, under a time limit that also covers the child's exit.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/options.hpp"

extern char** environ;

namespace tenferro::vktest {
namespace {

// Each call after the loss must return (raising device_lost) within this; lavapipe shares two
// cores with other builds in CI, so the bound is generous against the microseconds it takes.
constexpr auto kCallLimit = std::chrono::seconds(10);
// One test's process, its exit included.
constexpr auto kProcessLimit = std::chrono::seconds(120);

// Runs f on a thread of its own and waits for it at most kCallLimit: a call that hangs ends the
// process (its thread cannot be joined), which the parent reports as a failure.
std::exception_ptr run_bounded(const std::string& what, const std::function<void()>& f) {
  std::packaged_task<void()> task(f);
  std::future<void> done = task.get_future();
  std::thread t(std::move(task));
  if (done.wait_for(kCallLimit) != std::future_status::ready) {
    std::fprintf(stderr, "FAIL: %s did not return within %lld s after the device loss\n", what.c_str(),
                 static_cast<long long>(kCallLimit.count()));
    std::fflush(nullptr);
    std::_Exit(3);
  }
  t.join();
  try {
    done.get();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

// f raises Error{device_lost} naming `op`, in bounded time.
void expect_lost(const char* op, const std::function<void()>& f) {
  const std::exception_ptr e = run_bounded(op, f);
  if (!e) {
    ADD_FAILURE() << op << " succeeded on a lost device";
    return;
  }
  try {
    std::rethrow_exception(e);
  } catch (const Error& err) {
    static bool shown = false;  // one message per process in the log, for its wording
    if (!std::exchange(shown, true)) std::printf("%s\n", err.what());
    EXPECT_EQ(err.kind(), ErrorKind::device_lost) << op << ": " << err.what();
    EXPECT_EQ(err.op(), op) << err.what();
  } catch (const std::exception& other) {
    ADD_FAILURE() << op << " raised a non-tenferro exception: " << other.what();
  }
}

class DeviceLoss : public ::testing::Test {
 protected:
  void SetUp() override {
    if (vk::list_vulkan_devices().empty()) GTEST_SKIP() << "no Vulkan device present (lavapipe or a GPU is needed)";
    const int ord = vk::default_vulkan_ordinal();
    be_ = &vk::vulkan_backend(ord);
    // Another Vulkan device, created before the loss, must be unaffected by it.
    for (const DeviceInfo& d : vk::list_vulkan_devices())
      if (d.ordinal != ord) {
        other_ = &vk::vulkan_backend(d.ordinal);
        break;
      }
    a_vals_ = {1, 2, 3, 4, 5, 6};
    b_vals_ = {10, 20, 30, 40, 50, 60};
    host_a_ = host_tensor<float>({2, 3}, a_vals_);
    host_b_ = host_tensor<float>({2, 3}, b_vals_);
    a_ = upload(be(), host_a_);
    b_ = upload(be(), host_b_);
    idx_ = upload(be(), host_tensor<std::int64_t>({2}, {1, 0}));
    downloaded_ = download(be(), add(be(), a_, b_));  // a download made before the loss
    ASSERT_EQ(to_vector<float>(downloaded_), (std::vector<float>{11, 22, 33, 44, 55, 66}));
  }

  void TearDown() override {
    if (!be_) return;
    vk::test_hooks().lose_device_at = nullptr;
    // The loss was simulated: the real device may still run work submitted before it. Let it
    // finish, so that the process does not exit with work in flight.
    vkDeviceWaitIdle(dynamic_cast<vk::VulkanBackend&>(be()).device().get());
  }

  Backend& be() { return *be_; }

  // Sets the hook; after the call that consumed it, checks that it fired.
  static void lose_at(const char* call) { vk::test_hooks().lose_device_at = call; }
  static void expect_hook_fired() { EXPECT_EQ(vk::test_hooks().lose_device_at, nullptr) << "the injection never fired"; }

  // Every kind of later call raises device_lost naming its op, promptly; the rest is unaffected.
  void expect_every_later_call_lost() {
    ASSERT_TRUE(dynamic_cast<vk::VulkanBackend&>(be()).lost());
    Backend& b = be();
    // Ops (core names them: the residency check of their tensors asks Backend::check_usable).
    expect_lost("add", [&] { add(b, a_, b_); });
    expect_lost("reduce_sum", [&] { reduce_sum(b, a_, {0}); });
    expect_lost("transpose", [&] { transpose_copy(b, a_, {1, 0}); });
    GatherConfig g;  // rows idx_ of a_: out(r, k) = a_(idx_[r], k)
    g.offset_dims = {1};
    g.collapsed_slice_dims = {0};
    g.start_index_map = {0};
    g.index_vector_dim = 1;
    g.slice_sizes = {1, 3};
    expect_lost("gather", [&] { gather(b, a_, idx_, g); });
    expect_lost("einsum", [&] {
      const TensorView ops[2] = {a_, b_};
      einsum(b, "ij,kj->ik", ops);
    });
    // Transfers, synchronization, sessions, allocation.
    expect_lost("upload", [&] { upload(b, host_a_); });
    expect_lost("download", [&] { download(b, a_); });
    expect_lost("synchronize", [&] { b.synchronize(); });
    bool body_ran = false;
    expect_lost("with_session", [&] { with_session(b, [&] { body_ran = true; }); });
    EXPECT_FALSE(body_ran);
    expect_lost("allocate", [&] { b.allocate(DType::F32, {16}); });
    // The backend's primitives, public through Backend&, name themselves.
    expect_lost("fill", [&] { b.fill(a_, Scalar::of(DType::F32, 0.0)); });
    expect_lost("copy", [&] { b.copy(a_, b_); });
    // Host access to device memory that is host-visible (lavapipe); elsewhere it is not
    // mappable at all (host_access), lost or not.
    if (b.placement().memory == MemoryKind::Managed) expect_lost("map", [&] { map_read(a_); });
    // Dropping device tensors returns (their memory stays with the lost device).
    EXPECT_EQ(run_bounded("dropping device tensors", [&] { a_ = b_ = idx_ = Tensor(); }), nullptr);
    // Still lost.
    expect_lost("upload", [&] { upload(b, host_tensor<float>({1}, {1})); });

    // Host data is intact and the other backends compute.
    EXPECT_EQ(to_vector<float>(host_a_), a_vals_);
    EXPECT_EQ(to_vector<float>(host_b_), b_vals_);
    EXPECT_EQ(to_vector<float>(downloaded_), (std::vector<float>{11, 22, 33, 44, 55, 66}));
    EXPECT_EQ(to_vector<float>(add(cpu_backend(), host_a_, host_b_)), (std::vector<float>{11, 22, 33, 44, 55, 66}));
    if (other_) {
      const Tensor s = add(*other_, upload(*other_, host_a_), upload(*other_, host_b_));
      EXPECT_EQ(to_vector<float>(download(*other_, s)), (std::vector<float>{11, 22, 33, 44, 55, 66}));
      std::printf("other Vulkan device unaffected: %s\n", other_->device_name().c_str());
    } else {
      std::printf("one Vulkan device: the other-device check needs a second one\n");
    }
  }

  Backend* be_ = nullptr;
  Backend* other_ = nullptr;
  std::vector<float> a_vals_, b_vals_;
  Tensor host_a_, host_b_, a_, b_, idx_, downloaded_;
};

// vkQueueSubmit fails: outside a session an op is submitted at once, so the op fails.
TEST_F(DeviceLoss, AtSubmission) {
  lose_at("vkQueueSubmit");
  expect_lost("add", [&] { add(be(), a_, b_); });
  expect_hook_fired();
  expect_every_later_call_lost();
}

// The wait for submitted work fails. A GPU polls the timeline counter
// (vkGetSemaphoreCounterValue) before it blocks in vkWaitSemaphores, a CPU device (lavapipe)
// blocks at once: "Semaphore" names whichever of the two the wait reaches first.
TEST_F(DeviceLoss, AtWait) {
  const Tensor s = add(be(), a_, b_);  // submitted
  lose_at("Semaphore");
  expect_lost("synchronize", [&] { be().synchronize(); });
  expect_hook_fired();
  expect_every_later_call_lost();
}

// vkAllocateMemory fails: 96 MiB is more than any block the set-up left (64 MiB blocks).
TEST_F(DeviceLoss, AtAllocation) {
  lose_at("vkAllocateMemory");
  expect_lost("allocate", [&] { be().allocate(DType::F32, {24ll << 20}); });
  expect_hook_fired();
  expect_every_later_call_lost();
}

// The submission that closes a session fails: with_session raises it.
TEST_F(DeviceLoss, AtSessionEnd) {
  Tensor s;
  expect_lost("with_session", [&] {
    with_session(be(), [&] {
      s = add(be(), a_, b_);  // recorded, not yet submitted
      lose_at("vkQueueSubmit");
    });
  });
  expect_hook_fired();
  expect_every_later_call_lost();
}

// A tensor's release asks the timeline whether its last use completed, and that query finds the
// loss: a destructor raises nothing (no terminate), and the next call raises device_lost.
TEST_F(DeviceLoss, WhileReleasingATensor) {
  Tensor s = add(be(), a_, b_);  // submitted: its release asks the timeline
  lose_at("vkGetSemaphoreCounterValue");
  EXPECT_EQ(run_bounded("releasing a tensor", [&] { s = Tensor(); }), nullptr);
  expect_hook_fired();
  expect_every_later_call_lost();
}

}  // namespace
}  // namespace tenferro::vktest

// Each test in a process of its own (see the top of the file). With a filter (a child, or a
// user's choice) the tests run here as usual.
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(filter) != "*" || GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
  std::vector<std::string> names;
  const ::testing::UnitTest& u = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < u.total_test_suite_count(); ++i)
    for (int j = 0; j < u.GetTestSuite(i)->total_test_count(); ++j)
      names.push_back(std::string(u.GetTestSuite(i)->name()) + "." + u.GetTestSuite(i)->GetTestInfo(j)->name());
  int failed = 0;
  for (const std::string& name : names) {
    std::string filter = "--gtest_filter=" + name;
    char* args[] = {const_cast<char*>("/proc/self/exe"), filter.data(), nullptr};
    std::fflush(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args, environ) != 0) {
      std::printf("[  FAILED  ] %s: could not start a process for it\n", name.c_str());
      ++failed;
      continue;
    }
    const auto until = std::chrono::steady_clock::now() + tenferro::vktest::kProcessLimit;
    int status = 0;
    pid_t r = 0;
    while ((r = waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (r == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      std::printf("[  FAILED  ] %s: its process did not end within %lld s (a hang)\n", name.c_str(),
                  static_cast<long long>(tenferro::vktest::kProcessLimit.count()));
      ++failed;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::printf("[  FAILED  ] %s: its process ended with %s %d\n", name.c_str(),
                  WIFEXITED(status) ? "status" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
      ++failed;
    }
  }
  std::printf("%d of %zu device-loss tests failed (each in a process of its own)\n", failed, names.size());
  return failed == 0 ? 0 : 1;
}
