"""What the benchmark runners share (bench/all.py, the bindings' bench.py): the repository, the load average,
a meson build's aead_version(), the environment a sourced bash file sets up (bindings/go/env.sh,
bindings/java/jdk.sh, tests/lib/build_dir.sh: the test scripts share them, so they stay bash), and one line
instead of a traceback when a command fails (it has said why).

    sys.path.insert(0, "<repo>/bench"); from run_lib import REPO, load, sourced_env, version_of
"""
import subprocess, sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _hook(kind, e, tb, default=sys.excepthook):
    if not issubclass(kind, subprocess.CalledProcessError):
        return default(kind, e, tb)
    print(f"{Path(sys.argv[0]).name}: {' '.join(map(str, e.cmd))}: exit status {e.returncode}", file=sys.stderr)


sys.excepthook = _hook


def load(n=3):
    """The first n figures of /proc/loadavg."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:n])


def sourced_env(script, *call, env=None, stderr=None):
    """The environment after `source script` and then `call` (a function it defines, with its arguments) in
    bash; their output goes to stderr. If either fails (it has said why), exits with its status."""
    p = subprocess.run(["bash", "-c", 'source "$0" >&2 && "$@" >&2 && env -0', str(script), *call],
                       env=env, stdout=subprocess.PIPE, stderr=stderr)
    if p.returncode:
        sys.exit(p.returncode)
    pairs = (kv.split("=", 1) for kv in p.stdout.decode().split("\0") if "=" in kv)
    return {k: v for k, v in pairs if k not in ("_", "PWD", "OLDPWD", "SHLVL")}


def version_of(build):
    """A meson build dir -> its libaead's aead_version(): "libaead X (OpenSSL Y ...)" (in a process of its
    own: two builds' libaead.so.1 share a name)."""
    code = ('import ctypes, sys; lib = ctypes.CDLL(sys.argv[1] + "/libaead.so.1"); '
            'lib.aead_version.restype = ctypes.c_char_p; print(lib.aead_version().decode())')
    return subprocess.run([sys.executable, "-c", code, str(build)], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.rstrip("\n")
