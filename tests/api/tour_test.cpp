// Runs examples/tour.cpp and checks what it prints, for the default device and the CPU, against
// the same computations done here in plain loops over the same random inputs.
#include <cstdio>
#include <sstream>
#include <string>

#include "api_support.hpp"

namespace tenferro::test {
namespace {

struct TourLine {
  std::string device;
  double mps = 0, chain = 0, expr = 0;
};

std::vector<TourLine> run_tour() {
  std::FILE* p = popen(TENFERRO_TOUR_EXE, "r");
  EXPECT_NE(p, nullptr);
  std::vector<TourLine> out;
  if (p == nullptr) return out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) {
    std::istringstream in(buf);
    TourLine l;
    std::string k1, k2, k3;
    in >> l.device >> k1 >> l.mps >> k2 >> l.chain >> k3 >> l.expr;
    EXPECT_TRUE(in && k1 == "mps" && k2 == "chain" && k3 == "expr") << buf;
    l.device.pop_back();  // the ':'
    out.push_back(l);
  }
  EXPECT_EQ(pclose(p), 0);
  return out;
}

TourLine reference() {
  const std::vector<double> A = to_vector<double>(rand({8, 2, 8}, DType::F64, Device::cpu(), 1));
  std::vector<double> env(64, 1.0);
  for (int site = 0; site < 10; ++site) {
    std::vector<double> next(64, 0.0);
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        for (int s = 0; s < 2; ++s)
          for (int c = 0; c < 8; ++c)
            for (int d = 0; d < 8; ++d)
              next[static_cast<std::size_t>(c + 8 * d)] += env[static_cast<std::size_t>(a + 8 * b)] *
                                                           A[static_cast<std::size_t>(a + 8 * s + 16 * c)] *
                                                           A[static_cast<std::size_t>(b + 8 * s + 16 * d)];
    env = next;
  }
  TourLine r;
  for (double v : env) r.mps += v;
  std::vector<double> M = to_vector<double>(rand({64, 64}, DType::F64, Device::cpu(), 2));
  for (double& v : M) v /= 32.0;
  auto mm = [](const std::vector<double>& x, const std::vector<double>& y) {
    std::vector<double> z(64 * 64, 0.0);
    for (std::size_t i = 0; i < 64; ++i)
      for (std::size_t k = 0; k < 64; ++k)
        for (std::size_t j = 0; j < 64; ++j) z[i + 64 * k] += x[i + 64 * j] * y[j + 64 * k];
    return z;
  };
  for (double v : mm(mm(M, M), M)) r.chain += v;
  r.expr = -1;
  for (double v : to_vector<double>(rand({1000}, DType::F64, Device::cpu(), 3)))
    r.expr = std::max(r.expr, 2.0 * v * v - v / (v + 1.0));
  return r;
}

TEST(ApiTour, PrintsTheReferenceResultsOnTheDefaultDeviceAndTheCpu) {
  const std::vector<TourLine> lines = run_tour();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].device, default_device().name());
  EXPECT_EQ(lines[1].device, "cpu");
  const TourLine want = reference();
  for (const TourLine& l : lines) {
    SCOPED_TRACE(l.device);
    EXPECT_NEAR(l.mps, want.mps, 1e-12 * want.mps);
    EXPECT_NEAR(l.chain, want.chain, 1e-12 * want.chain);
    EXPECT_NEAR(l.expr, want.expr, 1e-15);
  }
}

}  // namespace
}  // namespace tenferro::test
