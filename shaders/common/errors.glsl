// Kernel-detected errors: OR the bit into the device error word and remember the first op's
// tag; the host rethrows at the next synchronization (STYLE.md B4). Requires `p`.
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ErrorRef {
  uint bits;
  uint tag;
};

void raise_error(uint bit) {
  ErrorRef e = ErrorRef(p.error_addr);
  atomicOr(e.bits, bit);
  atomicCompSwap(e.tag, 0u, p.tag);
}
