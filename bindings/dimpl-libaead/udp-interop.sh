#!/usr/bin/env bash
# dimpl + libaead over real UDP on loopback: the examples dtls-echo-server / dtls-echo-client
# (bindings/dimpl-libaead/examples) against dimpl on its own aws-lc-rs provider (DTLS 1.2 and 1.3)
# and against Debian's `openssl s_server -dtls1_2` / `s_client -dtls1_2` (DTLS 1.2), both roles; then
# through tests/lib/fault_proxy.py, which duplicates datagrams and re-sends old ones late (the data
# must arrive exactly once), or flips a byte in 30 protected records toward one side (the libaead side
# must count 30 forgeries when they go to it; the echo completes, the client resending what was lost).
# Every process runs under `timeout`. Prints a table: peer x version x suite x libaead's role x case.
#
# Matrix (kept within the stage budget): every suite both peers have, both roles, 1 MiB echoed; the
# proxy cases (dup, flip toward server, flip toward client), both roles, for one suite per version
# and peer: AES_128_GCM (DTLS 1.3) and ECDHE_ECDSA_AES128_GCM_SHA256 (DTLS 1.2).
#
# Usage: udp-interop.sh DIR   (DIR holds the built examples; test.sh builds them and runs this.)
set -uo pipefail
# shellcheck source=../../tests/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../tests/lib/common.sh"
interop_init udp-interop openssl python3 timeout
bin="${1:?usage: udp-interop.sh DIR-WITH-THE-BUILT-EXAMPLES}"
server="$bin/dtls-echo-server" client="$bin/dtls-echo-client"
for t in "$server" "$client"; do [ -x "$t" ] || die "no $t (cargo build --examples)"; done
make_certs ecdsa
cert=(--cert "$WORK/cert-ecdsa.pem" --key "$WORK/key-ecdsa.pem")
T=120 PORT_KIND=udp JOBS=${UDP_INTEROP_JOBS:-3} bytes=$((1 << 20))
chunks=$(((bytes + 999) / 1000))
# OpenSSL's name of a suite: ECDHE-ECDSA-AES128-GCM-SHA256, ..., ECDHE-ECDSA-CHACHA20-POLY1305.
ossl_name() { local n=${1//_/-}; [[ $n != *CHACHA* ]] || n=${n%-SHA256}; echo "$n"; }
# What dimpl dropped before libaead, "X of Y" (counts: tests/lib).
dropped() { sed -n 's/.*dimpl dropped \([0-9]*\) of \([0-9]*\) protected.*/\1 of \2/p' "$1" | head -1; }
resent() { sed -n 's/.* \([0-9]*\) resent .*/\1/p' "$1" | head -1; }

# judge PEER VERSION SUITE ROLE CASE TOWARD: the expectations on the libaead side ($D/ROLE), then a row;
# the calling case's ok (0: so far so good) and e (yes: every byte came back, each once).
judge() {
    local peer=$1 ver=$2 suite=$3 role=$4 case=$5 toward=$6 c d p o r f late
    c=$(counts "$D/$role") d=$(dropped "$D/$role") p=$(proxy_line)
    [ "$e" = yes ] || ok=1
    IFS=/ read -r o r f <<<"${c:-0/0/0}"
    # The libaead side opened every chunk (the server) or every echo (the client).
    [ "${o:-0}" -ge "$chunks" ] || ok=1
    case $case in
        clean) [ "$r" = 0 ] && [ "$f" = 0 ] || ok=1 ;;
        dup*)
            # Duplicates and late copies went toward the libaead side: refused by dimpl's window or
            # libaead's, none opened twice (the echo check), none a forgery.
            late=$(proxy_stat "$role" late)
            [ "$f" = 0 ] && [ "$late" -ge 0 ] && [ "$((${d%% *} + r))" -ge "$late" ] || ok=1 ;;
        flip*)
            if [ "$toward" = "$role" ]; then [ "$f" = 30 ] || ok=1; else [ "$f" = 0 ] || ok=1; fi ;;
    esac
    row "$ok" "$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' "$peer" "$ver" "$suite" "$role" "$case" \
        "$([ "$ok" = 0 ] && echo ok || echo FAIL) (echo $e, resent $(resent "$D/client" 2>/dev/null))" \
        "${c:--}" "${d:--}" "${p:--}" "$(elapsed)")"
}

# run_client MODE ARGS...: the example client to 127.0.0.1:$CP (through, tests/lib) with 1 MiB (flip: up to 60 chunks
# resent after 30 ms each), then the proxy's end. Sets e (yes: every byte came back, each once).
run_client() {
    local mode=$1 rc=0 flags=()
    shift
    [ "$mode" = flip ] && flags=(--wait 30ms --max-resend 60)
    timeout 90 "$client" --connect "127.0.0.1:$CP" --bytes "$bytes" "${flags[@]}" "$@" >"$D/client" 2>&1 || rc=1
    if [ -n "$PROXY" ]; then wait "$PROXY" || rc=1; fi
    e=no
    grep -q "byte for byte, each once: yes" "$D/client" && e=yes
    return $rc
}

# dimpl_pair VERSION SUITE ROLE CASE [MODE TOWARD]: dimpl + libaead as ROLE against dimpl + aws-lc-rs.
dimpl_pair() {
    local ver=$1 suite=$2 role=$3 case=$4 mode=${5:-} toward=${6:-} ok=0 spid e sprov=aws-lc-rs cprov=libaead
    [ "$role" = server ] && sprov=libaead cprov=aws-lc-rs
    timeout 60 "$server" --listen "${PORTS[0]}" "${cert[@]}" --version "$ver" --suite "$suite" --provider "$sprov" \
        --idle 2s >"$D/server" 2>&1 & track spid
    wait_listen "${PORTS[0]}" || ok=1
    through "$mode" "$toward" 1 || ok=1
    run_client "$mode" --version "$ver" --suite "$suite" --provider "$cprov" || ok=1
    wait "$spid" || ok=1
    judge "dimpl + aws-lc-rs" "$ver" "$suite" "$role" "$case" "$toward"
}

# ossl_server SUITE CASE [MODE TOWARD]: openssl s_server echoing through a FIFO, the dimpl + libaead
# client against it.
ossl_server() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-} ok=0 e
    mkfifo "$D/fifo"
    timeout 90 openssl s_server -dtls1_2 -accept "127.0.0.1:${PORTS[0]}" "${cert[@]}" -cipher "$(ossl_name "$suite")" \
        -quiet -naccept 1 0<>"$D/fifo" >"$D/fifo" 2>"$D/ossl" & track
    wait_listen "${PORTS[0]}" || ok=1
    through "$mode" "$toward" 1 || ok=1
    run_client "$mode" --version 1.2 --suite "$suite" || ok=1
    judge "openssl s_server" 1.2 "$suite" client "$case" "$toward"
}

# ossl_client SUITE CASE [MODE TOWARD]: the dimpl + libaead server against openssl s_client, fed 1 MiB
# by tests/lib/feed.py, each chunk written again when nothing has come back within the wait (flip only).
# s_client sends no close_notify here: the server ends when it falls silent; it and the proxy wait 3 s
# for that: under load s_client has been seen to send nothing for over a second after its handshake
# (why, not pinned down).
ossl_client() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-} ok=0 spid opid wait=2 resend=0 e=no
    head -c "$bytes" /dev/urandom >"$D/in.bin" && : >"$D/out.bin"
    timeout 90 "$server" --listen "${PORTS[0]}" "${cert[@]}" --version 1.2 --suite "$suite" --idle 3s \
        >"$D/server" 2>&1 & track spid
    wait_listen "${PORTS[0]}" || ok=1
    through "$mode" "$toward" 3 || ok=1
    [ "$mode" = flip ] && wait=0.1 resend=60
    # -nbio: a blocking s_client that reads a record OpenSSL discards (a replay, a forgery) blocks in
    # recvfrom and stops reading its input; non-blocking it goes on, but then does not exit at the end
    # of its input, so it is stopped once the feeder is done.
    mkfifo "$D/feed"
    timeout 90 openssl s_client -dtls1_2 -connect "127.0.0.1:$CP" -cipher "$(ossl_name "$suite")" -quiet -nbio \
        -nocommands <"$D/feed" >"$D/out.bin" 2>"$D/ossl" & track opid
    python3 "$LIB_DIR/feed.py" "$D/in.bin" "$D/out.bin" "$wait" "$resend" 2>"$D/client" >"$D/feed" || ok=1
    kill "$opid" 2>/dev/null; wait "$opid"
    wait "$spid" || ok=1
    [ -z "$PROXY" ] || wait "$PROXY" || ok=1
    grep -q "each once: yes" "$D/client" && e=yes
    judge "openssl s_client" 1.2 "$suite" server "$case" "$toward"
}

suites12=(ECDHE_ECDSA_AES128_GCM_SHA256 ECDHE_ECDSA_AES256_GCM_SHA384 ECDHE_ECDSA_CHACHA20_POLY1305_SHA256)
suites13=(AES_128_GCM_SHA256 AES_256_GCM_SHA384 CHACHA20_POLY1305_SHA256)
cases() {  # RUNNER ARGS...: the proxy cases for one suite
    lane "$@" "dup+late" dup server
    lane "$@" "flip toward server" flip server
    lane "$@" "flip toward client" flip client
}

echo "== $JOBS at a time; the table follows"
echo "== dimpl + libaead <-> dimpl + aws-lc-rs over UDP, DTLS 1.2 and 1.3, both roles, 1 MiB echoed"
for role in server client; do
    for s in "${suites12[@]}"; do lane dimpl_pair 1.2 "$s" "$role" clean; done
    for s in "${suites13[@]}"; do lane dimpl_pair 1.3 "$s" "$role" clean; done
done
echo "== dimpl + libaead <-> openssl s_server / s_client -dtls1_2, 1 MiB echoed"
for s in "${suites12[@]}"; do
    lane ossl_server "$s" clean
    lane ossl_client "$s" clean
done
echo "== through fault_proxy.py: duplicated and late datagrams; 30 flipped records toward each side"
for role in server client; do
    cases dimpl_pair 1.2 "${suites12[0]}" "$role"
    cases dimpl_pair 1.3 "${suites13[0]}" "$role"
done
cases ossl_server "${suites12[0]}"
cases ossl_client "${suites12[0]}"

echo
results "| peer | DTLS | suite | libaead's role | case | result | libaead side: opened/replays/forgeries | dropped by dimpl before libaead (its window) | proxy | s |" \
    "|---|---|---|---|---|---|---|---|---|---|"
echo
finish cases
