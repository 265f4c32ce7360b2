// Part of plan.cpp (included there, inside its anonymous namespace, after Tree, Work and
// tree_flops): local search by tree rotations. Not a standalone header.
#pragma once

// For an internal node v = (c, x) with internal child c = (a, b), the rotations
// (a (b x)) and (b (a x)) keep v's result set (so nothing above v changes). A rotation is
// applied when it lowers c's + v's flops; sweeps repeat until no rotation helps (each
// applied rotation strictly lowers the total, so this terminates). Returns true if any
// rotation was applied.
bool rotate_pass(const Net& net, Tree& t, double cap, Work& work) {
  const int n = net.n;
  const auto W = static_cast<std::size_t>(net.words);
  Bits u(W), inner(W), u2(W);
  bool any = false;
  for (bool changed = true; changed && !work.over();) {
    changed = false;
    for (std::size_t v = static_cast<std::size_t>(n); v < t.nodes.size(); ++v) {
      for (int side = 0; side < 2; ++side) {
        auto& nv = t.nodes[v];
        const int c = side == 0 ? nv.l : nv.r;
        const int x = side == 0 ? nv.r : nv.l;
        if (c < n) continue;
        auto& nc = t.nodes[static_cast<std::size_t>(c)];
        const double current = nc.flops + nv.flops;
        const Bits& sx = t.nodes[static_cast<std::size_t>(x)].set;
        work.used += 8;
        for (int pick = 0; pick < 2; ++pick) {
          // Keep `a` outside, pair `b` with x first.
          const int a = pick == 0 ? nc.l : nc.r;
          const int b = pick == 0 ? nc.r : nc.l;
          const Bits& sa = t.nodes[static_cast<std::size_t>(a)].set;
          const Bits& sb = t.nodes[static_cast<std::size_t>(b)].set;
          // (b x) keeps the labels needed by a or above v.
          for (std::size_t w = 0; w < W; ++w) {
            u[w] = sb[w] | sx[w];
            inner[w] = u[w] & (sa[w] | nv.set[w]);
            u2[w] = sa[w] | inner[w];
          }
          const double f_in = prod_bits(u.data(), net.words, net.ext.data());
          const double f_out = prod_bits(u2.data(), net.words, net.ext.data());
          const double size_in = prod_bits(inner.data(), net.words, net.ext.data());
          if (f_in + f_out < current * (1 - 1e-12) && (cap <= 0 || size_in <= cap)) {
            nc.l = b;
            nc.r = x;
            nc.set = inner;
            nc.flops = f_in;
            nc.size = size_in;
            nv.l = a;
            nv.r = c;
            nv.flops = f_out;
            changed = any = true;
            break;
          }
        }
      }
    }
  }
  return any;
}
