"""What the Python test scripts share: the C library's build folder, steps side by side, and for the interop
stages (tls, dtls, quic, dimpl) a work folder whose processes end with the script, certificates, ports, the
fault proxy (fault_proxy.py) and cases run one or `jobs` at a time, each leaving one row, then the tally.

    from harness import use_build_dir, side_by_side, Interop   (sys.path: this folder)
"""
import atexit
import concurrent.futures
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

LIB_DIR = Path(__file__).resolve().parent
REPO = LIB_DIR.parent.parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "libaead"
# The rustls-libaead crate's build folder (tls-interop, quic-interop), in the cache like the other crates':
# a fresh clone then rebuilds only the path crates, not rustls, ring and quinn.
RUSTLS_TARGET = CACHE / "cargo-target" / "rustls-libaead"


def die(stage, text):
    print(f"{stage}: {text}", file=sys.stderr)
    sys.exit(1)


def use_build_dir(stage):
    """AEAD_BUILD_DIR (default <repo>/build), absolute, must hold libaead.so.1 and meson-uninstalled/; exported
    with pkg-config's path (meson's aead-uninstalled.pc first) and the loader's (its libaead.so.1 first)."""
    want = os.environ.get("AEAD_BUILD_DIR") or str(REPO / "build")
    d = Path(want).resolve()
    if not (d / "libaead.so.1").exists() or not (d / "meson-uninstalled").is_dir():
        die(stage, f"{want} has no libaead.so.1 or meson-uninstalled/: build the C library first"
                   " (meson setup build && meson compile -C build, or tests/run-all.sh build)")
    os.environ["AEAD_BUILD_DIR"] = str(d)
    for var, first in (("PKG_CONFIG_PATH", d / "meson-uninstalled"), ("LD_LIBRARY_PATH", d)):
        os.environ[var] = ":".join(filter(None, [str(first), os.environ.get(var)]))
    return d


def side_by_side(steps, most=2):
    """Independent single-process steps [(name, argv or callable), ...], `most` at a time (CI has two cores);
    each one's output is printed whole, in the order they were given. True if every step passed."""
    def one(step):
        name, what = step
        if callable(what):
            try:
                return name, what(), ""
            except Exception:  # a step's failure is reported, not raised past the others
                return name, False, traceback.format_exc()
        p = subprocess.run(what, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
        return name, p.returncode == 0, p.stdout
    ok = True
    with concurrent.futures.ThreadPoolExecutor(most) as pool:
        for name, passed, out in pool.map(one, steps):
            sys.stdout.write(out)
            if not passed:
                print(f"FAILED: {name}", file=sys.stderr)
                ok = False
    sys.stdout.flush()
    return ok


def sourced_env(script, *call, env=None, stderr=None):
    """The environment after `source script` and then `call` (a command or a function it defines, with its
    arguments) in bash, from env (default: this process's); their output goes to stderr. If either fails (it
    has said why), exits with its status. For the bash files the shell scripts source too (bindings/go/env.sh,
    tests/fips/env.sh, bindings/java/jdk.sh)."""
    p = subprocess.run(["bash", "-c", 'source "$0" >&2 && "$@" >&2 && env -0', str(script), *(call or [":"])],
                       env=env, stdout=subprocess.PIPE, stderr=stderr)
    if p.returncode:
        sys.exit(p.returncode)
    pairs = (kv.split("=", 1) for kv in p.stdout.decode().split("\0") if "=" in kv)
    return {k: v for k, v in pairs if k not in ("_", "PWD", "OLDPWD", "SHLVL")}


def source_env(script):
    """os.environ updated with sourced_env(script)."""
    os.environ.update(sourced_env(script))


def dtls_counts(path):
    """opened/replays/forgeries from the exit line of a DTLS example (pion-libaead's, dimpl-libaead's)."""
    m = re.search(r"records opened (\d+), replays refused (\d+), forgeries refused (\d+)",
                  Path(path).read_text(errors="replace") if Path(path).exists() else "")
    return "/".join(m.groups()) if m else ""


class Interop:
    """An interop stage: the tools must be there and the C library built (use_build_dir); the Rust crates
    link that build (LIBAEAD_SYS_USE_PKG_CONFIG: no bundled copy of the core). `work` is kept at the end when
    AEAD_INTEROP_KEEP=1 or a case failed. port_kind: tcp or udp, what the stage's programs bind."""

    def __init__(self, stage, tools, jobs=1, port_kind="tcp"):
        self.stage, self.jobs, self.port_kind = stage, jobs, port_kind
        for t in tools:
            if not shutil.which(t):
                die(stage, f"not available here: {t} (tests/setup.sh installs it)")
        self.build = use_build_dir(stage)
        os.environ.update(LIBAEAD_SYS_USE_PKG_CONFIG="1", RUSTFLAGS="-D warnings")
        self.work = Path(tempfile.mkdtemp(prefix=f"{stage}.", dir="/tmp"))
        self.cases, self.failed, self.used_ports, self.procs = [], 0, set(), set()
        self.lock = threading.Lock()
        self.pool = concurrent.futures.ThreadPoolExecutor(jobs)
        atexit.register(self.cleanup)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    def cleanup(self):
        for p in list(self.procs):
            p.terminate()
        if os.environ.get("AEAD_INTEROP_KEEP") == "1" or self.failed:
            print(f"{self.stage}: logs kept in {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)

    def step(self, *argv, cwd=None, env=None):
        """A step before the cases (a build, the crate's tests): argv must pass, else the stage ends, naming it."""
        sys.stdout.flush()
        if subprocess.run([str(a) for a in argv], cwd=cwd, env=env).returncode:
            die(self.stage, f"failed: {' '.join(map(str, argv))}")

    def prune_rustls_target(self):
        """What earlier checkouts left in RUSTLS_TARGET goes after days unread."""
        subprocess.run([sys.executable, LIB_DIR / "prune_cargo_target.py", RUSTLS_TARGET], check=True)

    def make_certs(self, *kinds):
        """Per kind (ecdsa: P-256, rsa: 2048 bits) a test CA and a leaf for localhost and 127.0.0.1 (webpki
        refuses a CA as end entity): work/ca-KIND.pem, cert-KIND.pem, key-KIND.pem."""
        (self.work / "leaf.ext").write_text("\n".join([
            "basicConstraints=critical,CA:FALSE", "keyUsage=digitalSignature,keyEncipherment",
            "extendedKeyUsage=serverAuth", "subjectAltName=DNS:localhost,IP:127.0.0.1", ""]))
        for kind in kinds:
            key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"] if kind == "ecdsa" else ["-newkey", "rsa:2048"]
            for cmd in (["req", "-x509", "-nodes", "-days", "2", "-subj", f"/CN={self.stage} {kind} CA", *key,
                         "-keyout", f"ca-{kind}.key", "-out", f"ca-{kind}.pem"],
                        ["req", "-new", "-nodes", "-subj", "/CN=localhost", *key, "-keyout", f"key-{kind}.pem",
                         "-out", f"{kind}.csr"],
                        ["x509", "-req", "-in", f"{kind}.csr", "-CA", f"ca-{kind}.pem", "-CAkey", f"ca-{kind}.key",
                         "-CAcreateserial", "-days", "2", "-extfile", "leaf.ext", "-out", f"cert-{kind}.pem"]):
                p = subprocess.run(["openssl", *cmd], cwd=self.work, capture_output=True, text=True)
                if p.returncode:
                    sys.stderr.write(p.stderr)
                    die(self.stage, f"no {kind} certificate")

    def free_ports(self, n):
        """n free ports of port_kind on 127.0.0.1, none handed out before by this stage (cases run in
        parallel); the kernel picks them (bound at once, then released)."""
        kind = socket.SOCK_DGRAM if self.port_kind == "udp" else socket.SOCK_STREAM
        ports = []
        with self.lock:
            while len(ports) < n:
                socks = [socket.socket(socket.AF_INET, kind) for _ in range(n)]
                for s in socks:
                    s.bind(("127.0.0.1", 0))
                for s in socks:
                    p = s.getsockname()[1]
                    s.close()
                    if p not in self.used_ports and len(ports) < n:
                        ports.append(p)
                        self.used_ports.add(p)
        return ports

    def lane(self, fn, *args):
        """fn(case, *args) as the next case, at most `jobs` at a time; it calls case.row() once."""
        n = len(self.cases) + 1
        name = re.sub(r"[^A-Za-z0-9+.\n-]", "_", " ".join([fn.__name__.removeprefix("case_"), *map(str, args)]))
        case = Case(self, f"{n:03d}-{name}")
        self.cases.append((case, self.pool.submit(case.run, fn, args)))

    def wait(self):
        """Waits for the cases started so far (the shell's `wait`)."""
        for _, future in self.cases:
            future.result()

    def results(self, *header):
        """Waits for the cases, prints the header lines and every row in order; the numbers in
        passed, failed, rows (a case that left no row failed)."""
        for _, future in self.cases:
            future.result()
        print(*header, sep="\n")
        self.failed = self.rows = 0
        for case, _ in self.cases:
            if case.text is None:
                print(f"{case.name}: FAILED, the case left no row")
                case.show_logs(f"{case.name} left no row")
            else:
                print(case.text)
                self.rows += 1
            self.failed += not case.ok
        self.passed = len(self.cases) - self.failed
        sys.stdout.flush()

    def finish(self, cases=False):
        """The result line ("N passed, M failed"; cases: "N cases passed" or "F of N cases FAILED"); the exit
        status: 1 when a case failed."""
        if not cases:
            print(f"{self.stage}: {self.passed} passed, {self.failed} failed")
        elif not self.failed:
            print(f"{self.stage}: {self.rows} cases passed")
        else:
            print(f"{self.stage}: {self.failed} of {len(self.cases)} cases FAILED ({self.rows} rows written)", file=sys.stderr)
        return 1 if self.failed else 0


class Case:
    """One case: its log folder `dir`, three fresh ports in `ports`, its processes (killed when it ends), and
    its outcome: ok (False once bad() was called) and the row text."""

    def __init__(self, stage, name):
        self.stage, self.name, self.dir = stage, name, stage.work / name
        self.procs, self.ok, self.text, self.what = [], True, None, ""

    def run(self, fn, args):
        self.dir.mkdir(parents=True)
        self.ports, self.start = self.stage.free_ports(3), time.monotonic()
        try:
            fn(self, *args)
        except Exception:
            self.log("harness", traceback.format_exc())
        finally:
            for p in self.procs:
                end(p)
                self.stage.procs.discard(p)
        if self.text is None:
            self.ok = False

    def log(self, name, text):
        with open(self.dir / f"{name}.log", "a") as f:
            f.write(text + "\n")

    def spawn(self, argv, out=None, err=None, stdin=None, **kw):
        """argv in the background: stdout into dir/<out> (else /dev/null), stderr into dir/<err> (else with
        stdout), stdin from dir/<stdin> or an absolute path (else /dev/null); an int (a file descriptor,
        subprocess.PIPE) is passed as it is. The Popen is tracked and killed at the end."""
        def f(name, mode):
            if isinstance(name, int):
                return contextlib.nullcontext(name)
            return open(self.dir / name, mode) if name else contextlib.nullcontext(subprocess.DEVNULL)
        with f(out, "ab") as o, f(err, "ab") as e, f(stdin, "rb") as i:
            p = subprocess.Popen([str(a) for a in argv], stdout=o, stderr=e if err else subprocess.STDOUT if out else
                                 subprocess.DEVNULL, stdin=i, **kw)
        self.procs.append(p)
        self.stage.procs.add(p)
        return p

    def reap(self, p, grace=None):
        """p's exit status as the shell gives it (128+N when signal N ended it): waits for it (at most `grace`
        seconds when given, then it is killed)."""
        try:
            rc = p.wait(grace)
        except subprocess.TimeoutExpired:
            self.log("harness", f"killed pid {p.pid} (still running after {grace} s)")
            rc = end(p)
        return rc if rc >= 0 else 128 - rc

    def wait_listen(self, port, proc=None):
        """Until a socket is bound to port (TCP: listening, without connecting, as the servers take one
        connection), or proc has ended, or 20 s; False, noted in harness.log, if not."""
        k, hexport = self.stage.port_kind, f":{port:04X}"
        for _ in range(400):
            for table in (f"/proc/net/{k}", f"/proc/net/{k}6"):
                try:
                    rows = Path(table).read_text().splitlines()[1:]
                except OSError:
                    continue
                if any(r.split()[1].endswith(hexport) and (k == "udp" or r.split()[3] == "0A") for r in rows):
                    return True
            if proc is not None and proc.poll() is not None:
                break
            time.sleep(0.05)
        self.log("harness", f"nothing listens on port {port}")
        return False

    def start_proxy(self, listen, upstream, timeout, *args):
        """fault_proxy.py args (see its docstring) between a client on listen and the server on upstream,
        under `timeout`; returns the process once it listens, or not (p.listening; its summary in proxy.log,
        counts in proxy.json)."""
        p = self.spawn(["timeout", timeout, sys.executable, LIB_DIR / "fault_proxy.py", "--listen", listen,
                        "--upstream", upstream, "--stats", self.dir / "proxy.json", *args], out="proxy.log")
        p.listening = self.wait_listen(listen, p)
        return p

    def through(self, mode, toward, idle, timeout):
        """The port a client connects to: the server's, ports[0], or with a mode (dup, flip) a DTLS fault
        proxy's before it, ports[1]; and the proxy process (None without a mode)."""
        if not mode:
            return self.ports[0], None
        return self.ports[1], self.start_proxy(self.ports[1], self.ports[0], timeout, "--udp", "--fault", mode,
                                               "--toward", toward, "--after", "10", "--max", "30", "--idle", idle)

    def proxy_stat(self, toward, field):
        """A count of the proxy's toward the server or the client (-1: none)."""
        try:
            return int(json.loads((self.dir / "proxy.json").read_text())[toward][field])
        except (OSError, ValueError, KeyError, TypeError):
            return -1

    def proxy_line(self):
        """The proxy's summary line, without its "proxy MODE: "."""
        try:
            text = (self.dir / "proxy.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(m.group(1) for m in re.finditer(r"^proxy [a-z]*: (.*)$", text, re.M))

    def bad(self, text):
        """The case fails, text noted in its `what`."""
        self.ok, self.what = False, f"{self.what}; {text}"

    def elapsed(self):
        return f"{time.monotonic() - self.start:.1f}"

    def row(self, ok, text):
        """The case's row; a failed one also shows the end of its text logs."""
        self.ok, self.text = self.ok and ok, text
        if not self.ok:
            self.show_logs(text)

    def show_logs(self, text):
        out = [f"---- FAILED: {text}; logs in {self.dir}:"]
        for f in sorted(self.dir.iterdir()) if self.dir.is_dir() else []:
            data = f.read_bytes() if f.is_file() else b""
            if data and b"\0" not in data[:8000]:
                out.append(f"  -- {f.name}:")
                out += ["     " + line for line in data.decode(errors="replace").splitlines()[-8:]]
        print("\n".join(out), file=sys.stderr, flush=True)


def end(p):
    """Ends p with SIGTERM, as bash's `kill` does: `timeout` passes that on to its command, while a SIGKILL
    would leave the command running; SIGKILL only if p is still there 5 s later. Its exit status."""
    p.terminate()
    try:
        return p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        return p.wait()


def file_bytes(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def wait_size(path, size, proc, seconds):
    """Until file path holds `size` bytes (True), or proc has ended, or `seconds` passed (in 50 ms steps)."""
    for _ in range(int(seconds * 20)):
        if file_bytes(path) >= size:
            return True
        if proc.poll() is not None:
            return file_bytes(path) >= size
        time.sleep(0.05)
    return False
