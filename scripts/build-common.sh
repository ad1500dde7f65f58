# Shared by scripts/demo, scripts/test and scripts/bench (sourced, not run): configure and build
# toolgram into build/ as a Release build, with Ninja when it is installed.
#
# An existing build/ keeps the generator it was created with: CMake refuses to switch
# generators in place, so -G is passed only for a fresh build directory.

# Arguments, when given, are the targets to build (scripts/bench builds only its suite).
toolgram_configure_and_build() {
    local generator_args=()
    if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null 2>&1; then
        generator_args=(-G Ninja)
    fi
    echo "toolgram: configuring build/ (Release)…"
    cmake -S . -B build "${generator_args[@]}" -DCMAKE_BUILD_TYPE=Release
    echo "toolgram: building…"
    local target_args=()
    if [ "$#" -gt 0 ]; then
        target_args=(--target "$@")
    fi
    cmake --build build --parallel "$(nproc 2>/dev/null || echo 2)" "${target_args[@]}"
}
