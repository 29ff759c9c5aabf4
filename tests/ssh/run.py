#!/usr/bin/env python3
"""The ssh stage: asyncssh with its AES-GCM packet protection replaced by libaead's SSH context (the Python
binding's AESGCMForSSH, libaead_gcm.py) against Debian's OpenSSH, both ways over loopback (ssh_interop.py; what
it checks: docs/testing.md). asyncssh comes from PyPI pinned with hashes (requirements.txt) into a venv in
${XDG_CACHE_HOME:-~/.cache}/libaead/ssh, with the binding linked to $AEAD_BUILD_DIR (default build/). Every
process runs under `timeout`; the work folder is kept on failure or with AEAD_SSH_KEEP=1.

Usage: python3 tests/ssh/run.py   (AEAD_SSH_BYTES: bytes per transfer, default 64 MiB)
"""
import atexit, fcntl, hashlib, os, pwd, shutil, signal, socket, subprocess, sys, tempfile, time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SSHD = "/usr/sbin/sshd"  # sshd re-executes itself, so it must be started by its absolute path
CIPHERS = "aes128-gcm@openssh.com,aes256-gcm@openssh.com"
sys.stdout.reconfigure(line_buffering=True)  # in order with the tools' output


def die(text):
    sys.exit(f"ssh: FAIL: {text}")


def sh(*argv, fail=None, **kw):
    """argv; a non-zero exit dies with `fail` (else with the command)."""
    subprocess.run(argv, **kw).returncode == 0 or die(fail or " ".join(map(str, argv)))


def cleanup():
    if sshd:
        sshd.terminate()
        sshd.wait()
    if os.environ.get("AEAD_SSH_KEEP", "0") == "1" or not passed:
        print(f"ssh: files kept in {WORK}")
    else:
        shutil.rmtree(WORK)


build = Path(os.path.abspath(os.environ.get("AEAD_BUILD_DIR") or REPO / "build"))
build.is_dir() or die("no build directory (AEAD_BUILD_DIR, default build/): run tests/run-all.sh build first")
(build / "libaead.so.1").exists() and (build / "meson-uninstalled").is_dir() or \
    die(f"{build} has no libaead.so.1 or meson-uninstalled/: run tests/run-all.sh build first")
os.access(SSHD, os.X_OK) or die(f"{SSHD} not found (Debian's openssh-server: tests/setup.sh installs it)")
for tool in "ssh ssh-keygen python3 timeout pkg-config".split():
    shutil.which(tool) or die(f"{tool} not found")
for var in "OPENSSL_CONF OPENSSL_MODULES LIBAEAD_NO_FAST LIBAEAD_FORCE_ABI LIBAEAD_LIBRARY PYTHONPATH".split():
    os.environ.pop(var, None)
os.environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
started = time.monotonic()
WORK = Path(tempfile.mkdtemp(prefix="libaead-ssh.", dir="/tmp"))
sshd, passed = None, False
atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "libaead/ssh"
cache.mkdir(parents=True, exist_ok=True)
fcntl.flock(lock := open(cache / "lock", "w"), fcntl.LOCK_EX)  # one run at a time over the cached venv (to exit)
# One venv per set of pins, Python and checkout (its libaead links to this checkout's build directory).
key = f"{sys.version}\n".encode() + (HERE / "requirements.txt").read_bytes() + f"{REPO}\n".encode()
VENV = cache / f"venv-{hashlib.sha256(key).hexdigest()[:16]}"
VPY = VENV / "bin/python"
t0 = time.monotonic()
if not (VENV / ".complete").exists():
    print(f"== venv {VENV}: asyncssh from PyPI (tests/ssh/requirements.txt, hashes checked)")
    shutil.rmtree(VENV, ignore_errors=True)
    sh(sys.executable, "-m", "venv", VENV)
    sh("timeout", "600", VPY, "-m", "pip", "install", "--quiet", "--require-hashes", "--only-binary=:all:", "-r",
       HERE / "requirements.txt", fail="pip install -r tests/ssh/requirements.txt")
    (VENV / ".complete").touch()
sh("bash", "-c", '. "$0" && install_binding "$1" "$2"', REPO / "tests/python-binding.sh", VPY, WORK / "pip-libaead.log",
   fail="pip install ./bindings/python", env={**os.environ, "AEAD_BUILD_DIR": str(build)})
versions = subprocess.run([VPY, "-c", 'import asyncssh, libaead\nprint("asyncssh", asyncssh.__version__, "/", '
                           'libaead.library_version(), "/ backend", libaead.backend)'],
                          cwd=WORK, stdout=subprocess.PIPE, text=True).stdout.rstrip("\n")
print(f"== python ready in {int(time.monotonic() - t0)} s: {versions}")

user = pwd.getpwuid(os.getuid()).pw_name
for name, comment in (("sshd_host_key", "sshd host"), ("asyncssh_host_key", "asyncssh host"), ("client_key", "client")):
    sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"libaead-ssh {comment}", "-f", WORK / name)
shutil.copyfile(WORK / "client_key.pub", WORK / "authorized_keys")
os.chmod(WORK / "authorized_keys", 0o600)
port = socket.create_server(("127.0.0.1", 0)).getsockname()[1]  # (closed at once: a free port for sshd)
(WORK / "known_hosts_sshd").write_text(f"[127.0.0.1]:{port} {(WORK / 'sshd_host_key.pub').read_text().rstrip()}\n")
conf = {"ListenAddress": "127.0.0.1", "Port": port, "HostKey": WORK / "sshd_host_key", "PidFile": "none",
        "AuthorizedKeysFile": WORK / "authorized_keys", "StrictModes": "no", "UsePAM": "no",
        "PubkeyAuthentication": "yes", "PasswordAuthentication": "no", "KbdInteractiveAuthentication": "no",
        "PermitRootLogin": "prohibit-password", "AllowUsers": user, "Ciphers": CIPHERS, "PrintMotd": "no",
        "LogLevel": "DEBUG1"}
(WORK / "sshd_config").write_text("".join(f"{k} {v}\n" for k, v in conf.items()))
# Started as root (as CI is), sshd needs its privilege-separation folder, made at boot by Debian's service scripts.
if os.getuid() == 0 and not os.path.isdir("/run/sshd"):
    os.makedirs("/run/sshd", 0o755)
sh(SSHD, "-t", "-f", WORK / "sshd_config", fail=f"sshd refused the configuration ({WORK}/sshd_config)")
with open(WORK / "sshd.log", "wb") as log:
    sshd = subprocess.Popen(["timeout", "170", SSHD, "-f", WORK / "sshd_config", "-D", "-e"], stderr=log)
for _ in range(100):
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", port)) == 0:
            break
    if sshd.poll() is not None:
        sys.stderr.write((WORK / "sshd.log").read_text(errors="replace"))
        die("sshd exited")
    time.sleep(0.1)
version = subprocess.run([SSHD, "-V"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
print(f"== {version.partition(chr(10))[0]} listening on 127.0.0.1:{port} as {user} (Ciphers {CIPHERS})")

rc = subprocess.run(["timeout", "170", VPY, HERE / "ssh_interop.py", "--sshd-port", str(port),
                     "--sshd-log", WORK / "sshd.log", "--user", user, "--client-key", WORK / "client_key",
                     "--known-hosts", WORK / "known_hosts_sshd", "--host-key", WORK / "asyncssh_host_key",
                     "--authorized-keys", WORK / "authorized_keys", "--work", WORK,
                     "--bytes", os.environ.get("AEAD_SSH_BYTES") or "67108864"],
                    cwd=WORK, env={**os.environ, "PYTHONPATH": str(HERE)}).returncode
if rc:
    print("--- sshd.log (tail)", *(WORK / "sshd.log").read_text(errors="replace").splitlines()[-30:], sep="\n")
    if rc == 124:
        print("ssh: FAIL: ssh_interop.py ran out of time (170 s)")
    die(f"ssh_interop.py exited with {rc}")
passed = True
print(f"ssh: passed in {int(time.monotonic() - started)} s")
