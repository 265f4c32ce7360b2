// tenferro in one screen: an MPS norm, a matrix chain, an elementwise expression and a
// reduction, on the default device (a GPU when there is one) and on the CPU.
#include <cstdio>
#include <tenferro/tenferro.hpp>
using namespace tenferro;

int main() {
  for (Device dev : {default_device(), Device::cpu()}) {
    Tensor A = rand({8, 2, 8}, DType::F64, dev, 1);  // MPS site tensor: bond, physical, bond
    Tensor env = ones({8, 8}, DType::F64, dev);       // <psi|psi> of 10 sites, boundary of ones
    for (int site = 0; site < 10; ++site) env = einsum("ab,asc,bsd->cd", env, A, A);
    Tensor M = rand({64, 64}, DType::F64, dev, 2) / 32.0;
    Tensor chain = einsum("ij,jk,kl->il", M, M, M);  // the planner picks the order
    Tensor x = rand({1000}, DType::F64, dev, 3);
    Tensor y = 2.0 * x * x - x / (x + 1.0);          // runs where x lives
    std::printf("%s: mps %.17g chain %.17g expr %.17g\n", dev.name().c_str(), item<double>(sum(env)),
                item<double>(sum(chain)), item<double>(reduce_max(y, {0})));
  }
}
