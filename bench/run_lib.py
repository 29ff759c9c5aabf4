"""What the benchmark runners share (bench/all.py, the bindings' bench.py): the repository, the load average,
a meson build's aead_version(), the environment a sourced bash file sets up (tests/lib/harness.py's
sourced_env: bindings/go/env.sh and bindings/java/jdk.sh stay bash, the test scripts share them), and one line
instead of a traceback when a command fails (it has said why).

    sys.path.insert(0, "<repo>/bench"); from run_lib import REPO, load, sourced_env, use_build_dir, version_of
"""
import subprocess, sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "lib"))
from harness import sourced_env, use_build_dir  # noqa: E402  (re-exported for the runners)
__all__ = ["REPO", "load", "sourced_env", "use_build_dir", "version_of"]


def _hook(kind, e, tb, default=sys.excepthook):
    if not issubclass(kind, subprocess.CalledProcessError):
        return default(kind, e, tb)
    print(f"{Path(sys.argv[0]).name}: {' '.join(map(str, e.cmd))}: exit status {e.returncode}", file=sys.stderr)


sys.excepthook = _hook


def load(n=3):
    """The first n figures of /proc/loadavg."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:n])


def version_of(build):
    """A meson build dir -> its libaead's aead_version(): "libaead X (OpenSSL Y ...)" (in a process of its
    own: two builds' libaead.so.1 share a name)."""
    code = ('import ctypes, sys; lib = ctypes.CDLL(sys.argv[1] + "/libaead.so.1"); '
            'lib.aead_version.restype = ctypes.c_char_p; print(lib.aead_version().decode())')
    return subprocess.run([sys.executable, "-c", code, str(build)], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.rstrip("\n")
