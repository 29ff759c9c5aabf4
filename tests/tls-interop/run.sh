#!/usr/bin/env bash
# Interop of rustls + libaead (bindings/rustls-libaead) with peers nobody here wrote, on loopback:
#   - Debian's `openssl s_server` and `openssl s_client`, both directions, every suite in
#     suites.txt: 1 MiB each way byte for byte, then a run of tiny records (checked on the wire);
#   - rustls with its own *ring* record protection, both roles, 1 MiB echoed (suites *ring* has:
#     suites.txt's last column; not the opt-in TLS13_AES_128_CCM_SHA256);
#   - a proxy that flips one byte of a record: our side must end with bad_record_mac and the
#     peer must report receiving it.
# Also runs the crate's own tests, clippy and its README's Rust blocks (tests/snippets/rust.py).
# Every process runs under `timeout` (the README's blocks under rust.py's own).
# Usage: bash tests/tls-interop/run.sh      (AEAD_BUILD_DIR: the C library's build dir,
#        default <repo>/build; AEAD_INTEROP_SUITES: a regex to run only some suites;
#        AEAD_INTEROP_KEEP=1 keeps the work directory with every log)
set -euo pipefail
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
interop_init tls-interop cargo openssl python3 pkg-config timeout cmp
CRATE="$REPO/bindings/rustls-libaead"
T=30 BIG=1048576 TINY=65536  # seconds any one process may run; bytes each way in the main and tiny-record runs
JOBS=${AEAD_TLS_JOBS:-2}  # cases at a time: each is two processes that mostly wait on each other

echo "== $(openssl version); library: $AEAD_BUILD_DIR"
prune_rustls_target
(cd "$CRATE" && export CARGO_TARGET_DIR="$RUSTLS_TARGET" && cargo build --locked --examples && cargo test --locked &&
    { ! cargo clippy --version >/dev/null 2>&1 || cargo clippy --locked --all-targets -- -D warnings; })
(export CARGO_TARGET_DIR="$RUSTLS_TARGET" && python3 "$REPO/tests/snippets/rust.py" --crate "$CRATE" "$CRATE/README.md")
BIN="$RUSTLS_TARGET/debug/examples"
make_certs ecdsa rsa
for d in up down; do head -c $BIG /dev/urandom >"$WORK/$d.bin" && head -c $TINY "$WORK/$d.bin" >"$WORK/$d-tiny.bin"; done

# --- helpers (a case runs in its lane: servers listen on ${PORTS[0]}, a proxy on ${PORTS[1]}) ------------
# cmds TARGET: for $SUITE, our server and client (OURS_S, OURS_C) and OpenSSL's (SS, SC), under timeout;
# the clients connect to 127.0.0.1:TARGET.
cmds() {
    local c="$WORK/cert-$CERT.pem" k="$WORK/key-$CERT.pem" ca="$WORK/ca-$CERT.pem" o
    if [ "$VERSION" = 13 ]; then o=(-tls1_3 -ciphersuites "$OSSL"); else o=(-tls1_2 -cipher "$OSSL"); fi
    OURS_S=(timeout $T "$BIN/tls-server" --listen "${PORTS[0]}" --cert "$c" --key "$k" --suite "$SUITE" --once)
    OURS_C=(timeout $T "$BIN/tls-client" --connect "127.0.0.1:$1" --ca "$ca" --suite "$SUITE")
    SS=(timeout $T openssl s_server -accept "127.0.0.1:${PORTS[0]}" -cert "$c" -key "$k" -naccept 1 -quiet "${o[@]}")
    SC=(timeout $T openssl s_client -connect "127.0.0.1:$1" -servername localhost -CAfile "$ca" -verify_return_error
        -quiet -no_ign_eof -nocommands "${o[@]}")
}

# Waits until file $1 holds $2 bytes, or process $3 has ended, or $T seconds passed.
wait_size() {
    local i
    for i in $(seq $((T * 20))); do
        [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || { [ "$(stat -c %s "$1")" -ge "$2" ]; return; }
        sleep 0.05
    done
    return 1
}

# tiny_records OURS THEIRS: the proxy's record counts toward the side OURS sends to and THEIRS, appended
# to $what; fails unless both sides sent tiny records (rustls: fragments of at most 32 - 5 header bytes;
# OpenSSL: -max_send_frag 512).
tiny_records() {
    local n max n2 max2
    n=$(proxy_stat "$1" data) max=$(proxy_stat "$1" max_data)
    n2=$(proxy_stat "$2" data) max2=$(proxy_stat "$2" max_data)
    what="$what (ours: $n records <= $max B, theirs: $n2 <= $max2 B)"
    [ "$n" -ge $((TINY / 27)) ] && [ "$max" -le 64 ] && [ "$n2" -ge $((TINY / 512)) ] && [ "$max2" -le 560 ] ||
        { what="$what; records not tiny"; return 1; }
}

# check_same A B LABEL / check_exit STATUS NAME: a failure fails the calling case (bad); they return 0.
check_same() { cmp -s "$1" "$2" || bad "$3 differs"; }
check_exit() { [ "$1" = 0 ] || bad "$2 exit $1"; }
# sizes MODE WHAT: the calling case's data and flags for MODE ("" or -tiny: through the counting proxy).
sizes() {
    up=$WORK/up$1.bin down=$WORK/down$1.bin size=$BIG target=${PORTS[0]} ours=() theirs=() what="1 MiB $2"
    [ -z "$1" ] || size=$TINY target=${PORTS[1]} ours=(--max-fragment 32) theirs=(-max_send_frag 512) what="64 KiB $2, tiny records"
    cmds "$target"
}
# verdict CASE: the calling case's row ($ok, $what) for $SUITE.
verdict() { row "$ok" "$(printf '%-46s %-34s %s' "$SUITE" "$1" "$([ "$ok" = 0 ] && echo PASS || echo FAIL): $what")"; }

# --- the cases -------------------------------------------------------------------------------
# Our client against `openssl s_server` (which writes what it receives to stdout and sends its
# stdin): up.bin goes up, down.bin comes down, both compared byte for byte. $1 = "tiny" routes
# through the counting proxy with tiny records from both sides.
client_vs_s_server() {
    local mode=${1:-} up down size target ours theirs what ss cl rc_cl rc_ss ok=0
    sizes "${mode:+-tiny}" "each way"
    mkfifo "$D/ss.in" "$D/cl.in"
    "${SS[@]}" "${theirs[@]}" <"$D/ss.in" >"$D/ss.out" 2>"$D/ss.err" & track ss
    exec {ssin}>"$D/ss.in" && wait_listen "${PORTS[0]}"
    [ "$mode" != tiny ] || start_proxy "$target" "${PORTS[0]}"
    "${OURS_C[@]}" "${ours[@]}" <"$D/cl.in" >"$D/cl.out" 2>"$D/cl.err" & track cl
    exec {clin}>"$D/cl.in"
    cat "$up" >&$clin & cat "$down" >&$ssin &
    wait_size "$D/ss.out" "$size" "$cl" && wait_size "$D/cl.out" "$size" "$cl" || true
    exec {clin}>&- && reap rc_cl "$cl"  # end of our input: close_notify, answered by s_server's
    exec {ssin}>&- && reap rc_ss "$ss"
    check_same "$up" "$D/ss.out" "upload" && check_same "$down" "$D/cl.out" "download"
    check_exit "$rc_cl" tls-client && check_exit "$rc_ss" s_server
    if [ "$mode" = tiny ] && [ $ok = 0 ]; then wait "$PROXY" || true; tiny_records server client || ok=1; fi
    verdict "client -> openssl s_server${mode:+ ($mode)}"
}

# `openssl s_client` against our echo server: up.bin sent, echoed back, compared.
s_client_vs_server() {
    local mode=${1:-} up down size target ours theirs what srv sc rc_sc rc_srv ok=0
    sizes "${mode:+-tiny}" echoed
    mkfifo "$D/sc.in"
    "${OURS_S[@]}" "${ours[@]}" >/dev/null 2>"$D/srv.err" & track srv
    wait_listen "${PORTS[0]}"
    [ "$mode" != tiny ] || start_proxy "$target" "${PORTS[0]}"
    "${SC[@]}" "${theirs[@]}" <"$D/sc.in" >"$D/sc.out" 2>"$D/sc.err" & track sc
    exec {scin}>"$D/sc.in"
    cat "$up" >&$scin &
    wait_size "$D/sc.out" "$size" "$sc" || true
    exec {scin}>&- && reap rc_sc "$sc" && reap rc_srv "$srv"
    check_same "$up" "$D/sc.out" "echo"
    check_exit "$rc_srv" tls-server && check_exit "$rc_sc" s_client
    if [ "$mode" = tiny ] && [ $ok = 0 ]; then wait "$PROXY" || true; tiny_records client server || ok=1; fi
    verdict "openssl s_client -> server${mode:+ ($mode)}"
}

# rustls with libaead against rustls with *ring*: $1 = the client's provider, $2 = the server's.
rustls_pair() {
    local srv rc_cl=0 rc_srv ok=0 what="1 MiB echoed"
    cmds "${PORTS[0]}"
    "${OURS_S[@]}" --provider "$2" >/dev/null 2>"$D/srv.err" & track srv
    wait_listen "${PORTS[0]}"
    "${OURS_C[@]}" --provider "$1" <"$WORK/up.bin" >"$D/cl.out" 2>"$D/cl.err" || rc_cl=$?
    reap rc_srv "$srv"
    check_same "$WORK/up.bin" "$D/cl.out" "echo"
    check_exit "$rc_cl" tls-client && check_exit "$rc_srv" tls-server
    verdict "rustls($1) client -> rustls($2) server"
}

# One byte flipped in the 10th application_data record travelling towards our side.
# $1 = the peer (s_client or rustls-ring: we serve; s_server: we are the client).
tamper() {
    local peer=$1 toward=server ours theirs rc_ours rc_theirs ok=0 what
    cmds "${PORTS[1]}"
    mkfifo "$D/peer.in" "$D/ours.in"
    if [ "$peer" = s_server ]; then
        toward=client
        "${SS[@]}" <"$D/peer.in" >/dev/null 2>"$D/peer.err" & track theirs
        exec {pin}>"$D/peer.in"
        wait_listen "${PORTS[0]}"
        start_proxy "${PORTS[1]}" "${PORTS[0]}" --toward client --flip 10
        "${OURS_C[@]}" <"$D/ours.in" >/dev/null 2>"$D/ours.err" & track ours
        exec {oin}>"$D/ours.in"
        # s_server is single-threaded and blocking: if its stdin is readable before the handshake
        # ends, it next blocks reading from the client, so the client says something.
        echo hello >&$oin
        cat "$WORK/down.bin" >&$pin &
        reap rc_ours "$ours" && exec {oin}>&-
    else
        "${OURS_S[@]}" >/dev/null 2>"$D/ours.err" & track ours
        wait_listen "${PORTS[0]}"
        start_proxy "${PORTS[1]}" "${PORTS[0]}" --toward server --flip 10
        [ "$peer" = s_client ] && PEER_C=("${SC[@]}") || PEER_C=("${OURS_C[@]}" --provider ring)
        "${PEER_C[@]}" <"$D/peer.in" >/dev/null 2>"$D/peer.err" & track theirs
        exec {pin}>"$D/peer.in"
        cat "$WORK/up.bin" >&$pin &
        reap rc_ours "$ours"
    fi
    exec {pin}>&- && reap rc_theirs "$theirs"
    wait "$PROXY" || true
    what="ours: exit $rc_ours, $(grep -o 'sent alert [a-z_]*' "$D/ours.err" | head -n 1 || echo 'no alert')"
    [ "$rc_ours" != 0 ] && grep -q 'sent alert bad_record_mac' "$D/ours.err" || ok=1
    [ "$(proxy_stat $toward flipped)" = 1 ] || bad "nothing flipped"
    # The peer must have received the alert: OpenSSL says "alert bad record mac", rustls "BadRecordMac".
    grep -qiE 'alert bad record mac|BadRecordMac' "$D/peer.err" && what="$what; $peer got bad_record_mac" ||
        bad "$peer did not report bad_record_mac"
    verdict "tamper ($peer -> ours)"
}

# --- the matrix ------------------------------------------------------------------------------
while read -r SUITE VERSION OSSL CERT RING; do
    case $SUITE in '#'* | '') continue ;; esac
    [[ $SUITE =~ ${AEAD_INTEROP_SUITES:-.} ]] || continue
    echo "== $SUITE"
    [ "$RING" = yes ] || echo "   (no rustls+ring cases: rustls's *ring* provider has no $SUITE)"
    for c in client_vs_s_server "client_vs_s_server tiny" s_client_vs_server "s_client_vs_server tiny" \
        "rustls_pair libaead ring" "rustls_pair ring libaead" "tamper s_client" "tamper s_server" "tamper rustls-ring"; do
        case $c in *rustls*) [ "$RING" = yes ] || continue ;; esac
        # shellcheck disable=SC2086
        lane $c
    done
done <"$HERE/suites.txt"

results "" "== results"
finish
