"""Extracts the machine code of the pipelines in NVIDIA's shader disk cache, for reading what
the driver compiled a kernel to.

NVIDIA's driver keeps compiled pipelines in $__GL_SHADER_DISK_CACHE_PATH/GLCache/.../*.bin
(header "CDVN", zstd frames). A decompressed frame holds an "NVuc" image (after "NVDANVVM"); its
section table (32-byte entries from 0x20: type, size, offset) names the code section (type 1).
Writes each code section to OUT/NAME_k.code; `nvdisasm -b SM90 FILE` disassembles it (raw
Hopper instructions).
Usage: python3 sass_extract.py CACHE_DIR OUT_DIR  (needs the zstd command or python zstandard).
"""
import os
import struct
import subprocess
import sys


def unzstd(blob):
    try:
        import zstandard  # noqa: PLC0415

        return zstandard.ZstdDecompressor().decompressobj().decompress(blob)
    except ImportError:
        r = subprocess.run(["zstd", "-d", "-c"], input=blob, capture_output=True, check=False)
        return r.stdout


def code_sections(img):
    """(offset, size) of the code sections of an NVuc image (section entries of 32 bytes)."""
    nsec = struct.unpack_from("<H", img, 8)[0]
    out = []
    for i in range(nsec):
        if 0x20 + 32 * (i + 1) > len(img):
            break
        typ, size, off = struct.unpack_from("<IIQ", img, 0x20 + 32 * i)
        if typ == 1 and 0 < size and off + size <= len(img):
            out.append((off, size))
    return out


def main(src, dst):
    os.makedirs(dst, exist_ok=True)
    k = 0
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".bin"):
                continue
            blob = open(os.path.join(root, f), "rb").read()
            i = blob.find(b"\x28\xb5\x2f\xfd")
            while i >= 0:
                raw = unzstd(blob[i:])
                j = raw.find(b"NVuc")
                if j >= 0:
                    img = raw[j:]
                    for off, size in code_sections(img):
                        name = os.path.join(dst, "%s_%d.code" % (f[:-4], k))
                        open(name, "wb").write(img[off:off + size])
                        print(name, size)
                        k += 1
                i = blob.find(b"\x28\xb5\x2f\xfd", i + 4)
    print("code sections:", k)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
