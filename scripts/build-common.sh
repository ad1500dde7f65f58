# Shared by scripts/demo, scripts/test and scripts/bench (sourced, not run): configure and build
# toolgram into build/ as a Release build, with Ninja when it is installed.
#
# An existing build/ keeps the generator it was created with: CMake refuses to switch
# generators in place, so -G is passed only for a fresh build directory.
#
# ccache, when installed, is the compiler launcher, with its cache in build/ccache: a
# rebuild after build/'s objects are gone is served from it. Nothing installs it: the
# unity build (CMakeLists.txt) compiles the library in a dozen files whose paths differ
# between build trees, so the test suite's add_subdirectory consumer, which ccache used to
# serve, compiles them anew either way. CCACHE_DIR overrides where the cache is,
# CCACHE_DISABLE=1 turns it off.

# Arguments, when given, are the targets to build (scripts/bench builds only its suite).
toolgram_configure_and_build() {
    local generator_args=()
    if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null 2>&1; then
        generator_args=(-G Ninja)
    fi
    # Passed empty when ccache is absent, so a build/ configured with it before still builds.
    local launcher=""
    if command -v ccache >/dev/null 2>&1; then
        launcher=ccache
        export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}"
    fi
    echo "toolgram: configuring build/ (Release${launcher:+, compiler through ccache})…"
    # TOOLGRAM_BUILD_PYTHON=ON (scripts/test) adds the Python module and its pytest suite;
    # unset, build/ keeps what it was configured with.
    local python_args=()
    if [ -n "${TOOLGRAM_BUILD_PYTHON:-}" ]; then
        python_args=("-DTOOLGRAM_BUILD_PYTHON=$TOOLGRAM_BUILD_PYTHON")
    fi
    cmake -S . -B build "${generator_args[@]}" -DCMAKE_BUILD_TYPE=Release \
          "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" "${python_args[@]}"
    echo "toolgram: building…"
    local target_args=()
    if [ "$#" -gt 0 ]; then
        target_args=(--target "$@")
    fi
    cmake --build build --parallel "$(nproc 2>/dev/null || echo 2)" "${target_args[@]}"
}
