// A 2x3 by 3x2 matrix product on the default device (a GPU when there is one, else lavapipe
// or the CPU), printed. Exits 1 if the product is wrong (f32, which every device supports; the
// small integers make it exact). Values are in column-major order (docs/guide.md).
#include <cstdio>
#include <vector>

#include <tenferro/tenferro.hpp>

int main() {
  using namespace tenferro;
  try {
    const Device dev = default_device();
    // a = [[1, 2, 3], [4, 5, 6]], b = [[7, 8], [9, 10], [11, 12]].
    Tensor a = tensor<float>({2, 3}, {1, 4, 2, 5, 3, 6}, dev);
    Tensor b = tensor<float>({3, 2}, {7, 9, 11, 8, 10, 12}, dev);
    std::vector<float> c = to_vector<float>(matmul(a, b));
    std::printf("%s (%s)\nc = [[%g, %g], [%g, %g]]\n", dev.name().c_str(), dev.description().c_str(), c[0],
                c[2], c[1], c[3]);
    return c == std::vector<float>{58, 139, 64, 154} ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
