"""A copy of the compiled core built for coverage-guided fuzzing, beside the normal one.

libFuzzer (inside atheris) steers by the coverage of the code it runs; the rules and the
load checks are C compiled by Cython, which atheris's Python bytecode instrumentation
cannot see.  So this module builds a second copy of core/ with clang's
`-fsanitize=fuzzer-no-link` (edge counters and comparison hooks in every C function)
into build/fuzz/site/, plus a shared libFuzzer runtime (from the static one that atheris
ships) to preload so that the counters' symbols resolve.  The normal build is untouched.

Without clang the fuzzer still runs on the normal build, guided by Python coverage only;
`build()` returns None then and the caller says so.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "fuzz"
SITE = OUT / "site"
RUNTIME = OUT / "libfuzzer_runtime.so"
SOURCES = ("*.py", "*.pyx", "*.pxd")


def _stale(target: Path, sources: list[Path]) -> bool:
    return not target.exists() or any(s.stat().st_mtime > target.stat().st_mtime
                                      for s in sources)


def _libfuzzer_archive() -> Path | None:
    """The libFuzzer that atheris was built against (shipped beside it in site-packages)."""
    archive = Path(sysconfig.get_paths()["purelib"]) / "libclang_rt.fuzzer_no_main.a"
    return archive if archive.exists() else None


def _build_core(clang: str) -> None:
    sources = [p for pattern in SOURCES for p in (ROOT / "core").rglob(pattern)
               if "__pycache__" not in p.parts]
    stamp = SITE / "core" / ".built"
    if not _stale(stamp, sources + [ROOT / "setup.py"]):
        return
    shutil.rmtree(SITE, ignore_errors=True)
    (SITE / "core").mkdir(parents=True)
    for source in sources:                 # the games' folders too (core/games/<game>/)
        copy = SITE / source.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, copy)
    shutil.copy2(ROOT / "setup.py", SITE / "setup.py")
    env = {"CC": clang, "LDSHARED": f"{clang} -shared",
           "CFLAGS": "-fsanitize=fuzzer-no-link -Wno-everything"}
    print(f"building the instrumented core in {SITE} (about a minute) ...", flush=True)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=SITE,
                   env={**os.environ, **env}, check=True, stdout=subprocess.DEVNULL)
    stamp.touch()


def _build_runtime(clang: str, archive: Path) -> None:
    if not _stale(RUNTIME, [archive]):
        return
    OUT.mkdir(parents=True, exist_ok=True)
    subprocess.run([clang + "++", "-shared", "-o", str(RUNTIME), "-Wl,--whole-archive",
                    str(archive), "-Wl,--no-whole-archive", "-lpthread"], check=True)


def build() -> tuple[Path, Path] | None:
    """(site directory holding the instrumented core, runtime to LD_PRELOAD), or None
    when clang or atheris's libFuzzer archive is missing."""
    clang, archive = shutil.which("clang"), _libfuzzer_archive()
    if clang is None or archive is None or shutil.which("clang++") is None:
        return None
    _build_core(clang)
    _build_runtime(clang, archive)
    return SITE, RUNTIME
