#!/usr/bin/env bash
# SSH with libaead's SSH context (AEAD_POLICY_SSH through the Python binding's AESGCMForSSH) as the AES-GCM
# packet protection of asyncssh, against Debian's OpenSSH, both ways, over loopback (ssh_interop.py):
#   1. asyncssh client -> OpenSSH sshd, started here as the current user on a free 127.0.0.1 port with a
#      throwaway host key and authorized key in a temporary directory, and only
#      Ciphers aes128-gcm@openssh.com,aes256-gcm@openssh.com;
#   2. OpenSSH's ssh -> an asyncssh server, on another free 127.0.0.1 port.
# Per cipher and direction: a command, 64 MiB up and 64 MiB down with sha256 compared, at least one rekey
# (asyncssh's rekey_bytes, OpenSSH's RekeyLimit). libaead_gcm.py replaces asyncssh's GCM for both names and
# trips on the stock path; the run fails unless libaead's own usage counters account for every packet sealed.
# Needs: openssh-server and openssh-client (tests/setup.sh installs them), the C library's meson build
# (AEAD_BUILD_DIR, default build/: tests/run-all.sh build), python3 with venv. asyncssh 2.24.1 and what it
# needs come from PyPI, pinned with hashes (requirements.txt), into a venv in
# ${XDG_CACHE_HOME:-~/.cache}/libaead/ssh, where libaead's binding is built linked to $AEAD_BUILD_DIR (as
# tests/quic-interop does) and rebuilt when its sources change. A missing piece fails the stage.
# Every process runs under `timeout`; the temporary directory and sshd go away on exit (AEAD_SSH_KEEP=1
# keeps the directory, as does a failure).
# Usage: bash tests/ssh/run.sh   (AEAD_SSH_BYTES: bytes per transfer, default 64 MiB)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
die() { echo "ssh: FAIL: $*" >&2; exit 1; }
AEAD_BUILD_DIR="$(cd "${AEAD_BUILD_DIR:-$REPO/build}" 2>/dev/null && pwd)" ||
    die "no build directory (AEAD_BUILD_DIR, default build/): run tests/run-all.sh build first"
[ -e "$AEAD_BUILD_DIR/libaead.so.1" ] && [ -d "$AEAD_BUILD_DIR/meson-uninstalled" ] ||
    die "$AEAD_BUILD_DIR has no libaead.so.1 or meson-uninstalled/: run tests/run-all.sh build first"
SSHD=/usr/sbin/sshd  # sshd re-executes itself, so it must be started by its absolute path
[ -x "$SSHD" ] || die "$SSHD not found (Debian's openssh-server: tests/setup.sh installs it)"
for tool in ssh ssh-keygen python3 timeout pkg-config; do command -v "$tool" >/dev/null 2>&1 || die "$tool not found"; done
unset OPENSSL_CONF OPENSSL_MODULES LIBAEAD_NO_FAST LIBAEAD_FORCE_ABI LIBAEAD_LIBRARY PYTHONPATH
export PIP_DISABLE_PIP_VERSION_CHECK=1
BYTES=${AEAD_SSH_BYTES:-67108864}
started=$(date +%s)

WORK="$(mktemp -d /tmp/libaead-ssh.XXXXXX)"
SSHD_PID=""
status=1
cleanup() {
    if [ -n "$SSHD_PID" ]; then kill "$SSHD_PID" 2>/dev/null || true; wait "$SSHD_PID" 2>/dev/null || true; fi
    if [ "${AEAD_SSH_KEEP:-0}" = 1 ] || [ "$status" != 0 ]; then
        echo "ssh: files kept in $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# --- the venv: asyncssh (pinned, hashes) and libaead's binding linked to the build ---------------------------
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/ssh"
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock 9 # one run at a time over the cached venv
# One venv per set of pins, Python and checkout (its libaead links to this checkout's build directory).
VENV="$CACHE/venv-$({ python3 -c 'import sys; print(sys.version)'; cat "$HERE/requirements.txt"; echo "$REPO"; } |
    sha256sum | cut -c1-16)"
VPY="$VENV/bin/python"
t0=$(date +%s)
if [ ! -e "$VENV/.complete" ]; then
    echo "== venv $VENV: asyncssh from PyPI (tests/ssh/requirements.txt, hashes checked)"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    timeout 600 "$VPY" -m pip install --quiet --require-hashes --only-binary=:all: -r "$HERE/requirements.txt" ||
        die "pip install -r tests/ssh/requirements.txt"
    touch "$VENV/.complete"
fi
# shellcheck source=../python-binding.sh
. "$REPO/tests/python-binding.sh"
install_binding "$VPY" "$WORK/pip-libaead.log" || die "pip install ./bindings/python"
echo "== python ready in $(($(date +%s) - t0)) s: $(cd "$WORK" && "$VPY" -c 'import asyncssh, libaead
print("asyncssh", asyncssh.__version__, "/", libaead.library_version(), "/ backend", libaead.backend)')"

# --- keys and sshd ----------------------------------------------------------------------------------------
user=$(id -un)
ssh-keygen -q -t ed25519 -N "" -C "libaead-ssh sshd host" -f "$WORK/sshd_host_key"
ssh-keygen -q -t ed25519 -N "" -C "libaead-ssh asyncssh host" -f "$WORK/asyncssh_host_key"
ssh-keygen -q -t ed25519 -N "" -C "libaead-ssh client" -f "$WORK/client_key"
cp "$WORK/client_key.pub" "$WORK/authorized_keys"
chmod 600 "$WORK/authorized_keys"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "[127.0.0.1]:$port $(cat "$WORK/sshd_host_key.pub")" >"$WORK/known_hosts_sshd"
cat >"$WORK/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $WORK/sshd_host_key
PidFile none
AuthorizedKeysFile $WORK/authorized_keys
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $user
Ciphers aes128-gcm@openssh.com,aes256-gcm@openssh.com
PrintMotd no
LogLevel DEBUG1
EOF
# Started as root (as CI is), sshd needs its privilege-separation directory, which Debian's service scripts
# create at boot (a machine without them may not have it): created the same way when missing.
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then mkdir -p -m 0755 /run/sshd; fi
"$SSHD" -t -f "$WORK/sshd_config" || die "sshd refused the configuration ($WORK/sshd_config)"
timeout 170 "$SSHD" -f "$WORK/sshd_config" -D -e 2>"$WORK/sshd.log" &
SSHD_PID=$!
for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    kill -0 "$SSHD_PID" 2>/dev/null || { cat "$WORK/sshd.log" >&2; die "sshd exited"; }
    sleep 0.1
done
echo "== $("$SSHD" -V 2>&1 | head -n 1) listening on 127.0.0.1:$port as $user (Ciphers aes128-gcm@openssh.com,aes256-gcm@openssh.com)"

# --- both directions --------------------------------------------------------------------------------------
rc=0
(cd "$WORK" && PYTHONPATH="$HERE" timeout 170 "$VPY" "$HERE/ssh_interop.py" --sshd-port "$port" --sshd-log "$WORK/sshd.log" \
    --user "$user" --client-key "$WORK/client_key" --known-hosts "$WORK/known_hosts_sshd" \
    --host-key "$WORK/asyncssh_host_key" --authorized-keys "$WORK/authorized_keys" --work "$WORK" --bytes "$BYTES") || rc=$?
if [ $rc != 0 ]; then
    echo "--- sshd.log (tail)"; tail -n 30 "$WORK/sshd.log"
    [ $rc != 124 ] || echo "ssh: FAIL: ssh_interop.py ran out of time (170 s)"
    die "ssh_interop.py exited with $rc"
fi
status=0
echo "ssh: passed in $(($(date +%s) - started)) s"
