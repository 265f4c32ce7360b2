// A 2x3 by 3x2 matrix product on the default backend (a GPU when there is one, else lavapipe
// or the CPU backend): upload, dot_general, download, print. Exits 1 if the product is wrong
// (f32, which every device supports; the small integers make it exact).
#include <cstdio>
#include <vector>

#include "tenferro/ops.hpp"
#include "tenferro/runtime.hpp"
#include "tenferro/tensor.hpp"

int main() {
  using namespace tenferro;
  try {
    Backend& be = default_backend();
    // Column-major: a = [[1, 2, 3], [4, 5, 6]], b = [[7, 8], [9, 10], [11, 12]].
    Tensor a_host = host_tensor<float>({2, 3}, {1, 4, 2, 5, 3, 6});
    Tensor b_host = host_tensor<float>({3, 2}, {7, 9, 11, 8, 10, 12});
    Tensor a = be.upload(a_host);
    Tensor b = be.upload(b_host);

    DotGeneralConfig cfg;  // contract a's axis 1 with b's axis 0: c = a b
    cfg.lhs_contracting_dims = {1};
    cfg.rhs_contracting_dims = {0};
    Tensor c = dot_general(be, a, b, cfg);

    std::vector<float> v = to_vector<float>(be.download(c));
    std::printf("backend %s (%s)\nc = [[%g, %g], [%g, %g]]\n", be.name().c_str(), be.device_name().c_str(),
                v[0], v[2], v[1], v[3]);
    const std::vector<float> expected = {58, 139, 64, 154};
    return v == expected ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
