"""Builds the Python package's C++ module with CMake (python/CMakeLists.txt), the same
target `cmake -DTOOLGRAM_BUILD_PYTHON=ON` builds, for the interpreter pip runs under.
The metadata is in pyproject.toml.

Environment: TOOLGRAM_BUILD_JOBS (default: every core), CMAKE_GENERATOR (Ninja when
installed), CCACHE_DIR (ccache is used when installed).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DTOOLGRAM_BUILD_PYTHON=ON",
            "-DTOOLGRAM_BUILD_TESTS=OFF",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        if not (build_dir / "CMakeCache.txt").exists() and shutil.which("ninja") and "CMAKE_GENERATOR" not in os.environ:
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        jobs = os.environ.get("TOOLGRAM_BUILD_JOBS", str(os.cpu_count() or 2))
        print("toolgram: building the C++ module with CMake in", build_dir, flush=True)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "toolgram_python", "--parallel", jobs], check=True)
        built = sorted((build_dir / "python" / "toolgram").glob("_toolgram*.so"))
        if not built:
            raise RuntimeError("toolgram: CMake built no _toolgram module in " + str(build_dir))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


setup(ext_modules=[CMakeExtension("toolgram._toolgram")], cmdclass={"build_ext": CMakeBuild})
