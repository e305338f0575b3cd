"""Build the harness's C extension `sbwalk` (sbwalk.c) from source with the machine's C compiler and the
running interpreter's own build flags (sysconfig: CC, CFLAGS, CCSHARED, LDSHARED, the include directory
and the extension suffix), into the running interpreter's site-packages (the harness's venv). No build
tool is downloaded: the flags are those CPython was built with, the compiler is the machine's.

    harnesses/python/.venv/bin/python harnesses/python/sbwalk/build.py [--out DIR]

Python.h comes with the interpreter (a pyenv or source build) or, for Debian's python3, with the
`python3-dev` package; when it is missing and apt-get can install it (root), this installs it.
Exit 0 on success; 1 with the reason otherwise."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "sbwalk.c"


def _python_h() -> Path:
    return Path(sysconfig.get_config_var("INCLUDEPY") or sysconfig.get_paths()["include"]) / "Python.h"


def _ensure_headers() -> None:
    if _python_h().exists():
        return
    apt = shutil.which("apt-get")
    if apt and os.geteuid() == 0:
        ver = f"{sys.version_info.major}.{sys.version_info.minor}"
        pkg = f"libpython{ver}-dev"
        print(f"sbwalk: {_python_h()} is missing; apt-get install -y {pkg}", file=sys.stderr)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        cmd = [apt, "install", "-y", "-q", "--no-install-recommends", pkg]
        if subprocess.run(cmd, env=env).returncode != 0:
            subprocess.run([apt, "update", "-q"], env=env, check=False)
            subprocess.run(cmd, env=env, check=False)
    if not _python_h().exists():
        sys.exit(f"sbwalk: {_python_h()} not found: apt-get install -y python3-dev (the headers of this Python)")


def build(out_dir: Path) -> Path:
    _ensure_headers()
    cv = sysconfig.get_config_var
    cc = shlex.split(cv("CC") or "cc")
    if shutil.which(cc[0]) is None:
        cc = ["cc"]
    cflags = shlex.split(cv("CFLAGS") or "") + shlex.split(cv("CCSHARED") or "-fPIC")
    ldshared = shlex.split(cv("LDSHARED") or "cc -shared")
    if shutil.which(ldshared[0]) is None:
        ldshared = [cc[0], *ldshared[1:]]
    suffix = cv("EXT_SUFFIX") or ".so"
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"sbwalk{suffix}"
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        obj, so = Path(tmp) / "sbwalk.o", Path(tmp) / f"sbwalk{suffix}"
        steps = (
            [*cc, *cflags, "-O2", "-std=c11", "-I", str(_python_h().parent), "-c", str(SOURCE), "-o", str(obj)],
            [*ldshared, str(obj), "-o", str(so)],
        )
        for argv in steps:
            r = subprocess.run(argv, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"sbwalk: {shlex.join(argv)} failed:\n{r.stdout}{r.stderr}")
        os.replace(so, target)  # atomic: a running harness never imports half a file
    return target


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path(sysconfig.get_paths()["platlib"]))
    print(build(p.parse_args().out))


if __name__ == "__main__":
    main()
