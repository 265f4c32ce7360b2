#!/bin/sh
# The installed package as a consumer sees it (test install_consumer): installs the build tree
# into a fresh prefix, builds examples/ against it with find_package (the static library), runs
# every example, builds examples/matmul.cpp with pkg-config (the shared library) and runs it,
# checks that the shared library exports namespace tenferro alone, and runs the installed CLI.
# Usage: install_consumer.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX GENERATOR [COMPILER_LAUNCHER]
set -eu
build=$1 src=$2 work=$3 cxx=$4 generator=$5 launcher=${6:-}
rm -rf "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work.install.log" || { cat "$work.install.log"; exit 1; }

cmake -S "$src/examples" -B "$work/examples" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
      ${launcher:+"-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher"}
cmake --build "$work/examples"
ctest --test-dir "$work/examples" --output-on-failure

pc=$(find "$prefix" -name tenferro.pc)
export PKG_CONFIG_PATH="${pc%/tenferro.pc}"
libdir=$(pkg-config --variable=libdir tenferro)
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
$launcher "$cxx" -std=c++20 -O1 "$src/examples/matmul.cpp" -o "$work/matmul_pkgconfig" \
  $(pkg-config --cflags --libs tenferro) "-Wl,-rpath,$libdir"
"$work/matmul_pkgconfig"
# The shared library exports namespace tenferro alone (src/libtenferro.map), typeinfo and
# vtables included.
exported=$(nm -D --defined-only "$libdir/libtenferro.so" | cut -d' ' -f3-)
other=$(echo "$exported" | grep -v -E '^_Z(N[KRO]*|T[ISV]N)8tenferro' || true)
[ -z "$other" ] || { echo "install_consumer: libtenferro.so exports symbols outside namespace tenferro:"; echo "$other" | head; exit 1; }
echo "$exported" | grep -q '^_ZTIN8tenferro5ErrorE$' || { echo "install_consumer: libtenferro.so does not export typeinfo for tenferro::Error"; exit 1; }

"$prefix/bin/tenferro" devices > /dev/null
echo "install_consumer: ok"
