#!/usr/bin/env python3
"""Rewrites the disassembly of cm2mm.comp's direct variant (no SH, no VEC) so that A and B are
loaded with OpCooperativeMatrixLoadTensorNV (SPV_NV_tensor_addressing, SPV_NV_cooperative_matrix2)
from 2-D tensor layouts [M][K] and [N][K], B through a transposing view: what GLSL's
coopMatLoadTensorNV compiles to, which glslang 13 cannot emit. Usage: tensorize.py BM BN BK < in.spvasm > out.spvasm
(tools/cm2_probe/README.md)."""
import re, sys

bm, bn, bk = sys.argv[1:4]
src = sys.stdin.read().splitlines()
out = []
decls = f"""%tc_u0 = OpConstant %uint 0
%tc_u1 = OpConstant %uint 1
%tc_u2 = OpConstant %uint 2
%tc_i0 = OpConstant %int 0
%tc_i3 = OpConstant %int 3
%tc_i4 = OpConstant %int 4
%tc_i5 = OpConstant %int 5
%tc_bm = OpConstant %uint {bm}
%tc_bn = OpConstant %uint {bn}
%tc_bk = OpConstant %uint {bk}
%tc_false = OpConstantFalse %bool
%tl2 = OpTypeTensorLayoutNV %tc_u2 %tc_u0
%tv2 = OpTypeTensorViewNV %tc_u2 %tc_false %tc_u1 %tc_u0"""
layouts = """%tpM = OpAccessChain %_ptr_PushConstant_uint %p %tc_i3
%tM = OpLoad %uint %tpM
%tpN = OpAccessChain %_ptr_PushConstant_uint %p %tc_i4
%tN = OpLoad %uint %tpN
%tpK = OpAccessChain %_ptr_PushConstant_uint %p %tc_i5
%tK = OpLoad %uint %tpK
%tl0 = OpCreateTensorLayoutNV %tl2
%tla = OpTensorLayoutSetDimensionNV %tl2 %tl0 %tM %tK
%tlb = OpTensorLayoutSetDimensionNV %tl2 %tl0 %tN %tK
%tvt = OpCreateTensorViewNV %tv2"""
chains = {}
last_var = max(i for i, l in enumerate(src) if "OpVariable" in l and "Function" in l)
for i, line in enumerate(src):
    s = line.strip()
    if s.startswith("OpExtension \"SPV_KHR_cooperative_matrix\""):
        out += [line, 'OpExtension "SPV_NV_cooperative_matrix2"', 'OpExtension "SPV_NV_tensor_addressing"']
        continue
    if s == "OpCapability CooperativeMatrixKHR":
        out += [line, "OpCapability TensorAddressingNV", "OpCapability CooperativeMatrixTensorAddressingNV"]
        continue
    if s.startswith("%main = OpFunction"):
        out += decls.splitlines() + [line]
        continue
    m = re.match(r"(%\w+) = OpAccessChain %_ptr_PhysicalStorageBuffer_char (%\w+) %int_0 (%\w+)$", s)
    if m:
        chains[m.group(1)] = m.group(2)
    m = re.match(r"(%\w+) = OpCooperativeMatrixLoadKHR (%\w+) (%\w+) %int_([01]) (%\w+) Aligned 1$", s)
    if m:
        res, ty, ptr, lay = m.group(1), m.group(2), m.group(3), m.group(4)
        t = "a" if lay == "0" else "b"
        base = chains[ptr]
        out += [f"%tp{t} = OpAccessChain %_ptr_PhysicalStorageBuffer_char {base} %int_0 %tc_u0",
                f"%tu{t} = OpUndef {ty}",
                f"%to{t} = OpLoad %uint {'%m0' if t == 'a' else '%n0'}",
                f"%tk{t} = OpLoad %uint %k",
                f"%ts{t} = OpTensorLayoutSliceNV %tl2 %tl{t} %to{t} {'%tc_bm' if t == 'a' else '%tc_bn'} %tk{t} %tc_bk",
                f"{res} = OpCooperativeMatrixLoadTensorNV {ty} %tp{t} %tu{t} %ts{t} Aligned 16 " + ("None" if t == "a" else "TensorView %tvt")]
        continue
    out.append(line)
    if i == last_var:
        out += layouts.splitlines()
print("\n".join(out))
