"""Builds the Cython extensions of core/ (the rest of the metadata is in pyproject.toml).

Release builds turn bounds and wraparound checks off.  For a build with every check
on (bounds, wraparound, None, overflow of C division), set CORE_DEBUG=1:

    CORE_DEBUG=1 pip install -e ".[dev]"
"""

import importlib.util
import os

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("CORE_DEBUG") == "1"
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}


def registered_modules() -> list[str]:
    """Each registered game's compiled modules (core/registry.py, read from its file: the
    package cannot be imported before it is built)."""
    spec = importlib.util.spec_from_file_location("registry", "core/registry.py")
    registry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(registry)
    return [module for entry in registry.GAMES for module in entry.modules]


EXTENSIONS = [
    Extension(module, [module.replace(".", "/") + ".pyx"],
              extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"])
    for module in ("core._base", *registered_modules())
]
# The search runs one tree per POSIX thread (root parallelism).
EXTENSIONS.append(Extension("core.ismcts", ["core/ismcts.pyx"],
                            extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"])
                            + ["-pthread"],
                            extra_link_args=["-pthread"]))

# The batched vector of core.rl steps its games on POSIX threads too.
EXTENSIONS.append(Extension("core.vector", ["core/vector.pyx"],
                            extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"])
                            + ["-pthread"],
                            extra_link_args=["-pthread"]))



class ParallelBuildExt(build_ext):
    """Compiles the extensions side by side, one per core (`-j` unless given): pip gives
    no way to pass it, and the modules are a minute of C compiling one after another."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES,
                            annotate=os.environ.get("CORE_ANNOTATE") == "1",
                            nthreads=os.cpu_count() or 1),
      cmdclass={"build_ext": ParallelBuildExt})
