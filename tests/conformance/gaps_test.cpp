// The capability table of every backend agrees with its declared gaps, for every op x dtype
// the contract allows; and no backend claims a pair the contract excludes.
#include <gtest/gtest.h>

#include "backends.hpp"

namespace tenferro::test {
namespace {

TEST(Gaps, EveryUnsupportedPairIsDeclaredAndNoDeclarationIsStale) {
  int checked = 0;
  for (const TestBackend& tb : test_backends())
    for (const OpInfo& op : all_ops())
      for (DType d : kAllDTypes) {
        if (!contract_allows(op.id, d)) continue;
        EXPECT_EQ(check_gap_declaration(tb, op.id, d), "");
        ++checked;
      }
  EXPECT_GT(checked, 200);
}

TEST(Gaps, CpuBackendRunsTheWholeContract) {
  for (const OpInfo& op : all_ops())
    for (DType d : kAllDTypes)
      EXPECT_EQ(cpu_backend().supports(op.id, d), contract_allows(op.id, d))
          << op.name << "/" << dtype_name(d);
}

}  // namespace
}  // namespace tenferro::test
