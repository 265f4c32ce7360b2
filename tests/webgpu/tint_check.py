#!/usr/bin/env python3
"""Compiles every WGSL kernel in DIR (wgsl_dump's DIR/<name>.wgsl: the WebGPU backend's catalog,
src/webgpu/catalog.hpp) with Tint, the WGSL compiler of Dawn (Chrome's WebGPU), from PyPI's
dawn-python (pydawn; tools/fetch-dawn.sh puts it in build/dawn-python): a shader module, then a
compute pipeline (entry point "main", layout derived from the shader) on Dawn's default adapter
(lavapipe through Dawn's Vulkan backend without a GPU), so Tint's front end and its back end to
the adapter's shading language both run. wgpu-native's naga compiles the same catalog in
tests/webgpu/catalog_test.cpp. Fails listing every kernel Tint rejects, with Tint's message;
prints Tint's warnings. Before the kernels it checks that Tint rejects two broken ones. Usage: tint_check.py DIR
"""
import ctypes
import pathlib
import sys


def main(argv):
    if len(argv) != 2:
        print("usage: tint_check.py DIR", file=sys.stderr)
        return 2
    kernels = sorted(pathlib.Path(argv[1]).glob("*.wgsl"))
    if not kernels:
        print(f"tint_check: no .wgsl kernels in {argv[1]} (wgsl_dump writes them)", file=sys.stderr)
        return 1
    try:
        from pydawn import utils, webgpu
    except Exception as e:  # ImportError, or OSError when libwebgpu_dawn does not load
        print(f"tint_check: FAILED: pydawn (PyPI's dawn-python) cannot be loaded: {e!r}\n"
              "  run tools/fetch-dawn.sh (tools/install-deps.sh does), which puts it in build/dawn-python,\n"
              "  or point the CMake cache variable TENFERRO_DAWN_DIR at a directory holding pydawn/",
              file=sys.stderr)
        return 1

    adapter = utils.request_adapter_sync(webgpu.WGPUPowerPreference_HighPerformance)
    info = webgpu.WGPUAdapterInfo()
    webgpu.wgpuAdapterGetInfo(adapter, info)
    print(f"tint_check: Dawn on {utils.from_wgpu_str(info.device)} "
          f"({utils.from_wgpu_str(info.description)}, "
          f"{webgpu.WGPUBackendType__enumvalues.get(info.backendType, info.backendType)})")
    device = utils.request_device_sync(adapter, [])

    def messages(module):
        """Tint's compilation messages of a module: [(type, line, column, text)]."""
        out = []

        def cb(status, compilation_info, _1, _2):
            if status != webgpu.WGPUCompilationInfoRequestStatus_Success or not compilation_info:
                return
            ci = compilation_info.contents
            for i in range(ci.messageCount):
                m = ci.messages[i]
                out.append((m.type, m.lineNum, m.linePos, utils.from_wgpu_str(m.message)))

        cb_info = webgpu.WGPUCompilationInfoCallbackInfo2()
        cb_info.nextInChain = None
        cb_info.mode = webgpu.WGPUCallbackMode_WaitAnyOnly
        cb_info.callback = webgpu.WGPUCompilationInfoCallback2(cb)
        utils.wait(webgpu.wgpuShaderModuleGetCompilationInfo2(module, cb_info))
        return out

    def compile_kernel(name, source):
        """Tint's (stage, message) for a kernel it rejects, else None; prints its warnings."""
        # A module of invalid WGSL is an error object: the error scope holds Tint's message.
        webgpu.wgpuDevicePushErrorScope(device, webgpu.WGPUErrorFilter_Validation)
        desc = webgpu.WGPUShaderModuleWGSLDescriptor()
        desc.code = utils.to_wgpu_str(source)
        desc.chain.next = None
        desc.chain.sType = webgpu.WGPUSType_ShaderSourceWGSL
        module_desc = webgpu.WGPUShaderModuleDescriptor()
        module_desc.nextInChain = ctypes.cast(ctypes.pointer(desc), ctypes.POINTER(webgpu.struct_WGPUChainedStruct))
        module = webgpu.wgpuDeviceCreateShaderModule(device, module_desc)
        error = utils.pop_error(device)
        for kind, line, col, text in messages(module):
            if kind == webgpu.WGPUCompilationMessageType_Warning:
                print(f"tint_check: warning in {name} {line}:{col}: {text}")
        try:
            if error:
                return ("shader module", error)
            try:
                pipeline = utils.create_compute_pipeline(device, None, {"module": module, "entry_point": "main"})
                webgpu.wgpuComputePipelineRelease(pipeline)
            except RuntimeError as e:
                return ("compute pipeline", str(e))
            return None
        finally:
            webgpu.wgpuShaderModuleRelease(module)

    # The check itself: Tint must reject an undefined name (module) and a missing entry point
    # (pipeline), else a passing run would prove nothing.
    for source in ("@compute @workgroup_size(1) fn main() { let x: f32 = undefined_name; }",
                   "@compute @workgroup_size(1) fn not_main() {}"):
        if compile_kernel("self_check", source) is None:
            print(f"tint_check: FAILED: Tint accepted a kernel it must reject:\n{source}", file=sys.stderr)
            return 1

    rejected = []
    for path in kernels:
        error = compile_kernel(path.stem, path.read_text())
        if error:
            rejected.append((path.stem,) + error)

    print(f"tint_check: {len(kernels)} kernels, {len(rejected)} rejected")
    for name, stage, error in rejected:
        print(f"tint_check: Tint rejects kernel {name} ({stage}):\n{error}", file=sys.stderr)
    if rejected:
        print("tint_check: FAILED: " + " ".join(name for name, _, _ in rejected), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
