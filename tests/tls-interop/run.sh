#!/usr/bin/env bash
# Interop of rustls + libaead (bindings/rustls-libaead) with peers nobody here wrote, on loopback:
#   - Debian's `openssl s_server` and `openssl s_client`, both directions, every suite in
#     suites.txt: 1 MiB each way byte for byte, then a run of tiny records (checked on the wire);
#   - rustls with its own *ring* record protection, both roles, 1 MiB echoed (suites *ring* has:
#     suites.txt's last column; not the opt-in TLS13_AES_128_CCM_SHA256);
#   - a proxy that flips one byte of a record: our side must end with bad_record_mac and the
#     peer must report receiving it.
# Also runs the crate's own tests and clippy. Every process runs under `timeout`.
# Usage: bash tests/tls-interop/run.sh      (AEAD_BUILD_DIR: the C library's build dir,
#        default <repo>/build; AEAD_INTEROP_SUITES: a regex to run only some suites;
#        AEAD_INTEROP_KEEP=1 keeps the work directory with every log)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CRATE="$REPO/bindings/rustls-libaead"
AEAD_BUILD_DIR="${AEAD_BUILD_DIR:-$REPO/build}"
AEAD_BUILD_DIR="$(cd "$AEAD_BUILD_DIR" 2>/dev/null && pwd)" || {
    echo "tls-interop: AEAD_BUILD_DIR does not exist; build the C library first (meson setup build && meson compile -C build)" >&2
    exit 1
}
[ -e "$AEAD_BUILD_DIR/libaead.so.1" ] && [ -d "$AEAD_BUILD_DIR/meson-uninstalled" ] || {
    echo "tls-interop: $AEAD_BUILD_DIR has no libaead.so.1 or meson-uninstalled/: build the C library first" >&2
    exit 1
}
for tool in cargo openssl python3 pkg-config timeout cmp; do
    command -v "$tool" >/dev/null 2>&1 || { echo "tls-interop: $tool not found" >&2; exit 1; }
done
export PKG_CONFIG_PATH="$AEAD_BUILD_DIR/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$AEAD_BUILD_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export RUSTFLAGS="-D warnings"
T=30            # seconds any one process may run
BIG=1048576     # bytes each way in the main runs
TINY=65536      # bytes each way in the tiny-record runs

echo "== $(openssl version); library: $AEAD_BUILD_DIR"
(
    cd "$CRATE"
    cargo build --locked --examples
    cargo test --locked
    if cargo clippy --version >/dev/null 2>&1; then
        cargo clippy --locked --all-targets -- -D warnings
    fi
)
BIN="$CRATE/target/debug/examples"

WORK="$(mktemp -d /tmp/tls-interop.XXXXXX)"
PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    if [ "${AEAD_INTEROP_KEEP:-0}" = 1 ]; then echo "tls-interop: logs kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# --- certificates (test CA + leaf for localhost / 127.0.0.1), data ---------------------------
cat >"$WORK/leaf.ext" <<'EOF'
basicConstraints=critical,CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1
EOF
for kind in ecdsa rsa; do
    if [ "$kind" = ecdsa ]; then newkey=(-newkey ec -pkeyopt ec_paramgen_curve:P-256); else newkey=(-newkey rsa:2048); fi
    (
        cd "$WORK"
        openssl req -x509 -nodes -days 2 -subj "/CN=tls-interop $kind CA" "${newkey[@]}" -keyout "ca-$kind.key" -out "ca-$kind.pem"
        openssl req -new -nodes -subj /CN=localhost "${newkey[@]}" -keyout "key-$kind.pem" -out "$kind.csr"
        openssl x509 -req -in "$kind.csr" -CA "ca-$kind.pem" -CAkey "ca-$kind.key" -CAcreateserial -days 2 \
            -extfile leaf.ext -out "cert-$kind.pem"
    ) 2>/dev/null
done
head -c $BIG /dev/urandom >"$WORK/up.bin"
head -c $BIG /dev/urandom >"$WORK/down.bin"
head -c $TINY "$WORK/up.bin" >"$WORK/up-tiny.bin"
head -c $TINY "$WORK/down.bin" >"$WORK/down-tiny.bin"

# --- helpers ---------------------------------------------------------------------------------
# free_ports N: N distinct free ports on 127.0.0.1 (all bound at once, so never the same twice).
free_ports() {
    python3 -c 'import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}
free_port() { free_ports 1; }

# Waits until something listens on 127.0.0.1:$1 (without connecting: servers take one connection).
wait_listen() {
    local hex i
    hex=$(printf '0100007F:%04X' "$1")
    for i in $(seq 1 200); do
        awk -v a="$hex" '$2 == a && $4 == "0A" { found = 1 } END { exit !found }' /proc/net/tcp && return 0
        sleep 0.05
    done
    echo "tls-interop: nothing listens on port $1 (the case will fail)" >&2
}

# Waits until file $1 holds $2 bytes, or process $3 has ended, or $T seconds passed.
wait_size() {
    local i
    for i in $(seq 1 $((T * 20))); do
        [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || { [ "$(stat -c %s "$1")" -ge "$2" ]; return; }
        sleep 0.05
    done
    return 1
}

# reap VAR PID: waits for PID (a child of this shell, so not in a $(...) subshell) and stores
# its exit status in VAR.
reap() { local rc=0; wait "$2" || rc=$?; printf -v "$1" %s "$rc"; }

# OpenSSL's options for suite $1: protocol and the one cipher suite.
ossl_suite() {
    if [ "$VERSION" = 13 ]; then echo "-tls1_3 -ciphersuites $OSSL"; else echo "-tls1_2 -cipher $OSSL"; fi
}

# A proxy between a client and 127.0.0.1:$2, listening on $1; extra arguments go to flip_proxy.py.
start_proxy() {
    local listen=$1 upstream=$2
    shift 2
    timeout $T python3 "$HERE/flip_proxy.py" --listen "$listen" --upstream "$upstream" --stats "$D/stats.json" "$@" &
    PROXY=$!
    PIDS+=("$PROXY")
    wait_listen "$listen"
}

# Reads a number from the proxy's stats: stat DIRECTION FIELD.
stat_of() {
    python3 -c 'import json, sys; print(int(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]))' \
        "$D/stats.json" "$1" "$2" 2>/dev/null || echo -1
}

# tiny_records OURS THEIRS: the proxy's record counts in our direction and the peer's, appended to
# $what; fails unless both sides sent tiny records (rustls: fragments of at most 32 - 5 header
# bytes; OpenSSL: -max_send_frag 512).
tiny_records() {
    local n max n2 max2
    n=$(stat_of "$1" app_records) max=$(stat_of "$1" max_app_record)
    n2=$(stat_of "$2" app_records) max2=$(stat_of "$2" max_app_record)
    what="$what (ours: $n records <= $max B, theirs: $n2 <= $max2 B)"
    [ "$n" -ge $((TINY / 27)) ] && [ "$max" -le 64 ] && [ "$n2" -ge $((TINY / 512)) ] && [ "$max2" -le 560 ] ||
        { what="$what; records not tiny"; return 1; }
}

# check_same A B LABEL / check_exit STATUS NAME: a failure sets ok=1 and is noted in $what
# (both are the calling case's locals).
check_same() { cmp -s "$1" "$2" || { ok=1; what="$what; $3 differs"; }; }
check_exit() { [ "$1" = 0 ] || { ok=1; what="$what; $2 exit $1"; }; }

# verdict CASE: records the calling case's outcome ($ok, $what) for $SUITE.
verdict() { record "$SUITE" "$1" "$([ "$ok" = 0 ] && echo PASS || echo FAIL): $what" "$ok"; }

RESULTS=()
FAILED=0
record() { # suite, case, outcome text, ok(0/1)
    RESULTS+=("$(printf '%-46s %-34s %s' "$1" "$2" "$3")")
    if [ "$4" != 0 ]; then
        FAILED=$((FAILED + 1))
        echo "---- FAILED: $1 $2: $3; logs in $D:" >&2
        tail -n 5 "$D"/*.err >&2 2>/dev/null || true
    fi
}

# --- the cases -------------------------------------------------------------------------------
# Our client against `openssl s_server` (which writes what it receives to stdout and sends its
# stdin): $UP goes up, $DOWN comes down, both compared byte for byte. $1 = "tiny" routes
# through the counting proxy with tiny records from both sides.
client_vs_s_server() {
    local mode=$1 up=$WORK/up.bin down=$WORK/down.bin size=$BIG port target
    local ours=() theirs=()
    if [ "$mode" = tiny ]; then
        up=$WORK/up-tiny.bin down=$WORK/down-tiny.bin size=$TINY
        ours=(--max-fragment 32) theirs=(-max_send_frag 512)
    fi
    mkfifo "$D/ss.in" "$D/cl.in"
    port=$(free_port)
    # shellcheck disable=SC2046
    timeout $T openssl s_server -accept "127.0.0.1:$port" -cert "$WORK/cert-$CERT.pem" -key "$WORK/key-$CERT.pem" \
        -naccept 1 -quiet $(ossl_suite) "${theirs[@]}" <"$D/ss.in" >"$D/ss.out" 2>"$D/ss.err" &
    local ss=$!
    PIDS+=("$ss")
    exec {ssin}>"$D/ss.in"
    wait_listen "$port"
    target=$port
    if [ "$mode" = tiny ]; then target=$(free_port); start_proxy "$target" "$port"; fi
    timeout $T "$BIN/tls-client" --connect "127.0.0.1:$target" --ca "$WORK/ca-$CERT.pem" --suite "$SUITE" \
        "${ours[@]}" <"$D/cl.in" >"$D/cl.out" 2>"$D/cl.err" &
    local cl=$!
    PIDS+=("$cl")
    exec {clin}>"$D/cl.in"
    cat "$up" >&$clin &
    cat "$down" >&$ssin &
    wait_size "$D/ss.out" "$size" "$cl" && wait_size "$D/cl.out" "$size" "$cl" || true
    exec {clin}>&-  # end of our input: close_notify, answered by s_server's
    local rc_cl rc_ss
    reap rc_cl "$cl"
    exec {ssin}>&-
    reap rc_ss "$ss"
    local ok=0 what="1 MiB each way"
    [ "$mode" = tiny ] && what="64 KiB each way, tiny records"
    check_same "$up" "$D/ss.out" "upload"
    check_same "$down" "$D/cl.out" "download"
    check_exit "$rc_cl" tls-client
    check_exit "$rc_ss" s_server
    if [ "$mode" = tiny ] && [ $ok = 0 ]; then
        wait "$PROXY" || true
        tiny_records c2s s2c || ok=1
    fi
    verdict "client -> openssl s_server${mode:+ ($mode)}"
}

# `openssl s_client` against our echo server: $UP sent, echoed back, compared.
s_client_vs_server() {
    local mode=$1 up=$WORK/up.bin size=$BIG port target ours=() theirs=()
    if [ "$mode" = tiny ]; then up=$WORK/up-tiny.bin size=$TINY ours=(--max-fragment 32) theirs=(-max_send_frag 512); fi
    mkfifo "$D/sc.in"
    port=$(free_port)
    timeout $T "$BIN/tls-server" --listen "$port" --cert "$WORK/cert-$CERT.pem" --key "$WORK/key-$CERT.pem" \
        --suite "$SUITE" --once "${ours[@]}" >/dev/null 2>"$D/srv.err" &
    local srv=$!
    PIDS+=("$srv")
    wait_listen "$port"
    target=$port
    if [ "$mode" = tiny ]; then target=$(free_port); start_proxy "$target" "$port"; fi
    # shellcheck disable=SC2046
    timeout $T openssl s_client -connect "127.0.0.1:$target" -servername localhost -CAfile "$WORK/ca-$CERT.pem" \
        -verify_return_error -quiet -no_ign_eof -nocommands $(ossl_suite) "${theirs[@]}" \
        <"$D/sc.in" >"$D/sc.out" 2>"$D/sc.err" &
    local sc=$!
    PIDS+=("$sc")
    exec {scin}>"$D/sc.in"
    cat "$up" >&$scin &
    wait_size "$D/sc.out" "$size" "$sc" || true
    exec {scin}>&-
    local rc_sc rc_srv
    reap rc_sc "$sc"
    reap rc_srv "$srv"
    local ok=0 what="1 MiB echoed"
    [ "$mode" = tiny ] && what="64 KiB echoed, tiny records"
    check_same "$up" "$D/sc.out" "echo"
    check_exit "$rc_srv" tls-server
    check_exit "$rc_sc" s_client
    if [ "$mode" = tiny ] && [ $ok = 0 ]; then
        wait "$PROXY" || true
        tiny_records s2c c2s || ok=1
    fi
    verdict "openssl s_client -> server${mode:+ ($mode)}"
}

# rustls with libaead against rustls with *ring*: $1 = the client's provider, $2 = the server's.
rustls_pair() {
    local cp=$1 sp=$2 port
    port=$(free_port)
    timeout $T "$BIN/tls-server" --listen "$port" --cert "$WORK/cert-$CERT.pem" --key "$WORK/key-$CERT.pem" \
        --suite "$SUITE" --once --provider "$sp" >/dev/null 2>"$D/srv.err" &
    local srv=$!
    PIDS+=("$srv")
    wait_listen "$port"
    local rc_cl=0 rc_srv
    timeout $T "$BIN/tls-client" --connect "127.0.0.1:$port" --ca "$WORK/ca-$CERT.pem" --suite "$SUITE" \
        --provider "$cp" <"$WORK/up.bin" >"$D/cl.out" 2>"$D/cl.err" || rc_cl=$?
    reap rc_srv "$srv"
    local ok=0 what="1 MiB echoed"
    check_same "$WORK/up.bin" "$D/cl.out" "echo"
    check_exit "$rc_cl" tls-client
    check_exit "$rc_srv" tls-server
    verdict "rustls($cp) client -> rustls($sp) server"
}

# One byte flipped in the 10th application_data record travelling towards our side.
# $1 = our role (server: peer is s_client or rustls-ring; client: peer is s_server).
tamper() {
    local peer=$1 port proxy_port ours_err theirs_err rc_ours rc_theirs
    read -r port proxy_port < <(free_ports 2)
    mkfifo "$D/peer.in" "$D/ours.in"
    case $peer in
    s_client | rustls-ring)
        timeout $T "$BIN/tls-server" --listen "$port" --cert "$WORK/cert-$CERT.pem" --key "$WORK/key-$CERT.pem" \
            --suite "$SUITE" --once >/dev/null 2>"$D/ours.err" &
        local ours=$!
        PIDS+=("$ours")
        wait_listen "$port"
        start_proxy "$proxy_port" "$port" --flip-dir c2s --flip-record 10
        if [ "$peer" = s_client ]; then
            # shellcheck disable=SC2046
            timeout $T openssl s_client -connect "127.0.0.1:$proxy_port" -servername localhost \
                -CAfile "$WORK/ca-$CERT.pem" -verify_return_error -quiet -no_ign_eof -nocommands $(ossl_suite) \
                <"$D/peer.in" >/dev/null 2>"$D/peer.err" &
        else
            timeout $T "$BIN/tls-client" --connect "127.0.0.1:$proxy_port" --ca "$WORK/ca-$CERT.pem" \
                --suite "$SUITE" --provider ring <"$D/peer.in" >/dev/null 2>"$D/peer.err" &
        fi
        local theirs=$!
        PIDS+=("$theirs")
        exec {pin}>"$D/peer.in"
        cat "$WORK/up.bin" >&$pin &
        reap rc_ours "$ours"
        exec {pin}>&-
        reap rc_theirs "$theirs"
        ;;
    s_server)
        # shellcheck disable=SC2046
        timeout $T openssl s_server -accept "127.0.0.1:$port" -cert "$WORK/cert-$CERT.pem" -key "$WORK/key-$CERT.pem" \
            -naccept 1 -quiet $(ossl_suite) <"$D/peer.in" >/dev/null 2>"$D/peer.err" &
        local theirs=$!
        PIDS+=("$theirs")
        exec {pin}>"$D/peer.in"
        wait_listen "$port"
        start_proxy "$proxy_port" "$port" --flip-dir s2c --flip-record 10
        timeout $T "$BIN/tls-client" --connect "127.0.0.1:$proxy_port" --ca "$WORK/ca-$CERT.pem" --suite "$SUITE" \
            <"$D/ours.in" >/dev/null 2>"$D/ours.err" &
        local ours=$!
        PIDS+=("$ours")
        exec {oin}>"$D/ours.in"
        # s_server is single-threaded and blocking: if its stdin is readable before the handshake
        # ends, it next blocks reading from the client, so the client says something.
        echo hello >&$oin
        cat "$WORK/down.bin" >&$pin &
        reap rc_ours "$ours"
        exec {oin}>&-
        exec {pin}>&-
        reap rc_theirs "$theirs"
        ;;
    esac
    wait "$PROXY" || true
    local ok=0 what
    what="ours: exit $rc_ours, $(grep -o 'sent alert [a-z_]*' "$D/ours.err" | head -n 1 || echo 'no alert')"
    [ "$rc_ours" != 0 ] && grep -q 'sent alert bad_record_mac' "$D/ours.err" || ok=1
    [ "$(stat_of "$([ "$peer" = s_server ] && echo s2c || echo c2s)" flipped)" = 1 ] || { ok=1; what="$what; nothing flipped"; }
    # The peer must have received the alert: OpenSSL says "alert bad record mac", rustls "BadRecordMac".
    if grep -qiE 'alert bad record mac|BadRecordMac' "$D/peer.err"; then
        what="$what; $peer got bad_record_mac"
    else
        ok=1
        what="$what; $peer did not report bad_record_mac"
    fi
    verdict "tamper ($peer -> ours)"
}

# --- the matrix ------------------------------------------------------------------------------
while read -r SUITE VERSION OSSL CERT RING; do
    case $SUITE in '#'* | '') continue ;; esac
    [[ $SUITE =~ ${AEAD_INTEROP_SUITES:-.} ]] || continue
    echo "== $SUITE"
    [ "$RING" = yes ] || echo "   (no rustls+ring cases: rustls's *ring* provider has no $SUITE)"
    n=0
    for c in "client_vs_s_server ''" "client_vs_s_server tiny" "s_client_vs_server ''" "s_client_vs_server tiny" \
        "rustls_pair libaead ring" "rustls_pair ring libaead" "tamper s_client" "tamper s_server" "tamper rustls-ring"; do
        n=$((n + 1))
        case $c in *rustls*) [ "$RING" = yes ] || continue ;; esac
        D="$WORK/$SUITE.$n"
        mkdir -p "$D"
        eval "$c"
    done
done <"$HERE/suites.txt"

echo
echo "== results"
printf '%s\n' "${RESULTS[@]}"
echo "tls-interop: $((${#RESULTS[@]} - FAILED)) passed, $FAILED failed"
[ "$FAILED" = 0 ]
