// The environment parser (src/core/env.hpp): booleans, byte sizes and integers in their
// accepted forms, every other form refused with Error{invalid_argument} naming the variable;
// default_accuracy() (tenferro/options.hpp) refusing an invalid value on every call until the
// value is valid.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/env.hpp"
#include "tenferro/error.hpp"
#include "tenferro/options.hpp"

namespace tenferro {
namespace {

constexpr std::uint64_t kMax = ~std::uint64_t{0};

/// The Error a refused value raises; fails the test when none is raised.
Error refusal(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a refusal";
  return Error(ErrorKind::internal, "", "", "");
}

TEST(Env, BooleansAcceptExactlyTheEightWordsInAnyCase) {
  for (const char* t : {"1", "true", "TRUE", "True", "on", "ON", "yes", "Yes"}) EXPECT_TRUE(env::parse_bool("V", t)) << t;
  for (const char* f : {"0", "false", "FALSE", "off", "Off", "no", "NO"}) EXPECT_FALSE(env::parse_bool("V", f)) << f;
  for (const char* bad : {"2", "y", "n", "enable", "yes ", " 1", "01", "-1", "truee", "o"}) {
    const Error e = refusal([&] { env::parse_bool("TENFERRO_X", bad); });
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << bad;
    EXPECT_EQ(e.op(), "environment");
    EXPECT_EQ(e.arg(), "TENFERRO_X");
    EXPECT_NE(std::string(e.what()).find("TENFERRO_X='" + std::string(bad) + "'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1, true, on, yes or 0, false, off, no"), std::string::npos) << e.what();
  }
}

TEST(Env, ByteSizesTakeBinaryUnits) {
  EXPECT_EQ(env::parse_bytes("V", "0"), 0u);
  EXPECT_EQ(env::parse_bytes("V", "1"), 1u);
  EXPECT_EQ(env::parse_bytes("V", "123456789"), 123456789u);
  EXPECT_EQ(env::parse_bytes("V", "1K"), 1024u);
  EXPECT_EQ(env::parse_bytes("V", "1k"), 1024u);
  EXPECT_EQ(env::parse_bytes("V", "1KiB"), 1024u);
  EXPECT_EQ(env::parse_bytes("V", "3M"), 3u << 20);
  EXPECT_EQ(env::parse_bytes("V", "3mib"), 3u << 20);
  EXPECT_EQ(env::parse_bytes("V", "1G"), std::uint64_t{1} << 30);
  EXPECT_EQ(env::parse_bytes("V", "1GiB"), std::uint64_t{1} << 30);
  EXPECT_EQ(env::parse_bytes("V", "2T"), std::uint64_t{2} << 40);
  EXPECT_EQ(env::parse_bytes("V", "1.5G"), std::uint64_t{3} << 29);
  EXPECT_EQ(env::parse_bytes("V", ".5K"), 512u);
  EXPECT_EQ(env::parse_bytes("V", "0.001K"), 1u);   // 1.024 bytes, rounded down
  EXPECT_EQ(env::parse_bytes("V", "0.0001K"), 0u);  // 0.1024 bytes
  EXPECT_EQ(env::parse_bytes("V", "18446744073709551615"), kMax);
  EXPECT_EQ(env::parse_bytes("V", "16777215T"), ((std::uint64_t{1} << 24) - 1) << 40);
  EXPECT_EQ(env::parse_bytes("V", "16777215.999999999999999999T"), kMax);  // floor below 2^64
}

TEST(Env, ByteSizesRefuseOtherFormsByName) {
  for (const char* bad : {"1X", "-5", "+5", "1.5.5", "1.5", "1.", ".", "", "G", "1 G", " 1", "1G ", "1GB", "1KB", "1B",
                          "1e9", "0x10", "1Gi", "1iB", "18446744073709551616", "16777216T", "17179869184G",
                          "99999999999999999999999", "1.0000000000000000000G"}) {
    const Error e = refusal([&] { env::parse_bytes("TENFERRO_VK_MEMORY_CAP", bad); });
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << bad;
    EXPECT_EQ(e.arg(), "TENFERRO_VK_MEMORY_CAP") << bad;
    EXPECT_NE(std::string(e.what()).find("TENFERRO_VK_MEMORY_CAP='" + std::string(bad) + "'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("K, M, G, T (also KiB, MiB, GiB, TiB; 1K = 1024 bytes)"), std::string::npos)
        << e.what();
  }
}

TEST(Env, IntegersRefuseSignsJunkAndRange) {
  EXPECT_EQ(env::parse_uint("V", "0", 0, 2), 0u);
  EXPECT_EQ(env::parse_uint("V", "2", 0, 2), 2u);
  EXPECT_EQ(env::parse_uint("V", "007", 0, 10), 7u);
  EXPECT_EQ(env::parse_uint("V", "18446744073709551615", 0, kMax), kMax);
  for (const char* bad : {"3", "-1", "+1", "1x", "1 ", " 1", "1.0", "0x1", "", "18446744073709551616"}) {
    const Error e = refusal([&] { env::parse_uint("TENFERRO_VK_GEMM_3M", bad, 0, 2); });
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << bad;
    EXPECT_EQ(e.arg(), "TENFERRO_VK_GEMM_3M");
    EXPECT_NE(std::string(e.what()).find("a whole decimal number from 0 to 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(refusal([] { env::parse_uint("V", "0", 1, 5); }).kind(), ErrorKind::invalid_argument);
}

TEST(Env, ReadersTakeTheDefaultWhenUnsetOrEmpty) {
  ::unsetenv("TENFERRO_ENV_TEST_VAR");
  EXPECT_TRUE(env::flag("TENFERRO_ENV_TEST_VAR", true));
  EXPECT_EQ(env::bytes("TENFERRO_ENV_TEST_VAR", 7), 7u);
  EXPECT_EQ(env::uint("TENFERRO_ENV_TEST_VAR", 9, 0, 10), 9u);
  ::setenv("TENFERRO_ENV_TEST_VAR", "", 1);
  EXPECT_FALSE(env::flag("TENFERRO_ENV_TEST_VAR", false));
  ::setenv("TENFERRO_ENV_TEST_VAR", "2M", 1);
  EXPECT_EQ(env::bytes("TENFERRO_ENV_TEST_VAR", 7), 2u << 20);
  ::setenv("TENFERRO_ENV_TEST_VAR", "yes", 1);
  EXPECT_TRUE(env::flag("TENFERRO_ENV_TEST_VAR", false));
  EXPECT_EQ(refusal([] { env::uint("TENFERRO_ENV_TEST_VAR", 9, 0, 10); }).arg(), "TENFERRO_ENV_TEST_VAR");
  ::unsetenv("TENFERRO_ENV_TEST_VAR");
}

// The first default_accuracy() of this process: refused on every call while a value is
// invalid, then read once valid (nothing kept from the failed calls).
TEST(Env, DefaultAccuracyRefusesInvalidValuesUntilFixed) {
  ::setenv("TENFERRO_VK_GEMM_OZAKI", "5", 1);
  for (int k = 0; k < 2; ++k) {
    const Error e = refusal([] { default_accuracy(); });
    EXPECT_EQ(e.arg(), "TENFERRO_VK_GEMM_OZAKI");
    EXPECT_NE(std::string(e.what()).find("0 (off), 1 (certified) or 8 to 20"), std::string::npos) << e.what();
  }
  ::setenv("TENFERRO_VK_GEMM_OZAKI", "14", 1);
  ::setenv("TENFERRO_VK_GEMM_3M", "yes", 1);
  EXPECT_EQ(refusal([] { default_accuracy(); }).arg(), "TENFERRO_VK_GEMM_3M");
  ::setenv("TENFERRO_VK_GEMM_3M", "2", 1);
  ::setenv("TENFERRO_VK_F32_VIA_F64", "3", 1);
  EXPECT_EQ(refusal([] { default_accuracy(); }).arg(), "TENFERRO_VK_F32_VIA_F64");
  ::setenv("TENFERRO_VK_F32_VIA_F64", "0", 1);
  const AccuracyOptions a = default_accuracy();
  EXPECT_EQ(a.ozaki, OzakiMode::uncertified);
  EXPECT_EQ(a.ozaki_moduli, 14);
  EXPECT_EQ(a.gemm_3m, Gemm3M::always);
  EXPECT_EQ(a.f32_via_f64, F32ViaF64::never);
  // Read once: later changes of the environment do not apply.
  ::setenv("TENFERRO_VK_GEMM_3M", "x", 1);
  EXPECT_EQ(default_accuracy(), a);
  for (const char* v : {"TENFERRO_VK_GEMM_OZAKI", "TENFERRO_VK_GEMM_3M", "TENFERRO_VK_F32_VIA_F64"}) ::unsetenv(v);
}

}  // namespace
}  // namespace tenferro
