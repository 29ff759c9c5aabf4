#!/usr/bin/env bash
# DTLS 1.2 interop of pion/dtls v3 with libaead's record protection (bindings/pion-libaead) on loopback
# UDP: against Debian's `openssl s_server -dtls1_2` / `s_client -dtls1_2`, against itself, and against
# unmodified pion; then through proxy.py, which duplicates and replays datagrams, and flips a byte in
# 30 records. Then DTLS 1.3 records under the Go binding's DTLS13RecordProtector, keyed from a pion
# handshake (examples/dtls13-record-layer), plainly and through the proxy. Every process runs under
# `timeout`. Prints a table: peer x suite x case with the counts.
# Needs: libaead built in $AEAD_BUILD_DIR (the build stage), Go, openssl, python3.
#
# pion v3.1.15 looks up the suites it implements itself before the custom ones, so libaead protects
# the records only of the suites pion lacks: TLS_ECDHE_ECDSA_WITH_AES_256_CCM and _AES_256_CCM_8
# (bindings/pion-libaead/README.md). The rows against unmodified pion use the IDs both have and
# check that the handshake and the data work, and that libaead's counters stay at 0 there.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# shellcheck source=../../bindings/go/env.sh
source "$repo/bindings/go/env.sh"   # libaead of the build tree: PKG_CONFIG_PATH, LD_LIBRARY_PATH, -tags libaead_system
command -v openssl >/dev/null || { echo "dtls-interop: not available here: openssl (tests/setup.sh installs it)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "dtls-interop: not available here: python3" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

echo "== pion-libaead module: vet, tests (records against pion's own ciphers, pion handshakes)"
module="$repo/bindings/pion-libaead"
(cd "$module" && go mod download && go vet ./... && timeout 300 go test -count=1 ./...) || exit 1
unformatted="$(cd "$module" && gofmt -l .)"
[ -z "$unformatted" ] || { echo "FAIL: gofmt would change: $unformatted" >&2; exit 1; }
(cd "$module" && go build -o "$work/bin/" ./examples/...) || exit 1
server="$work/bin/dtls-echo-server" client="$work/bin/dtls-echo-client"

# shellcheck source=lib.sh
source "$here/lib.sh"   # make_cert, freeport, waitport, counts
make_cert "$work" || exit 1
ossl_name() {
    case $1 in
        TLS_ECDHE_ECDSA_WITH_AES_256_CCM) echo ECDHE-ECDSA-AES256-CCM ;;
        TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8) echo ECDHE-ECDSA-AES256-CCM8 ;;
    esac
}
echoed() { sed -n 's/.*: \([0-9]*\) echoed byte for byte, \([0-9]*\) chunks lost.*/\1 B, lost \2/p' "$1" | head -1; }

fails=0
table=()
row() {  # peer suite case result client-side server-side proxy
    table+=("$(printf '| %s | %s | %s | %s | %s | %s | %s |' "$@")")
}
bytes=$((1 << 20))

# start_proxy LISTEN_PORT TO_PORT MODE TOWARD OUT: proxy.py in the background (its pid in $proxy),
# until 2 s without a datagram; returns once its port is bound.
start_proxy() {
    timeout 150 python3 "$here/proxy.py" --listen "$1" --to "$2" --mode "$3" --toward "$4" --idle 2 >"$5" 2>&1 &
    proxy=$!
    pids+=("$proxy")
    waitport "$1"
}

# client_through SUITE OUT SERVER_PORT [PROXY_MODE TOWARD [CLIENT_FLAGS]]: the example client against the
# server, through the proxy when a mode is given (a flipping proxy costs 30 chunks, each given 500 ms; an echo later than that still counts).
client_through() {
    local suite=$1 out=$2 sp=$3 mode=${4:-} toward=${5:-server} cflags=${6:-} cp=$3 maxlost=0 wait=1s rc=0 proxy
    if [ -n "$mode" ]; then
        cp=$(freeport)
        start_proxy "$cp" "$sp" "$mode" "$toward" "$out.proxy" || rc=1
        [ "$mode" = flip ] && maxlost=30 wait=500ms
    fi
    # shellcheck disable=SC2086
    timeout 120 "$client" --connect "127.0.0.1:$cp" --suite "$suite" --bytes "$bytes" --max-lost "$maxlost" \
        --wait "$wait" $cflags >"$out.client" 2>&1 || rc=1
    if [ -n "$mode" ]; then wait "$proxy" || rc=1; fi
    return $rc
}

# pion_pair NAME SUITE CASE SERVER_FLAGS CLIENT_FLAGS [PROXY_MODE [TOWARD]]: the two example programs,
# optionally through the proxy. Checks: the client's echo (exact unless flipping), the counts.
pion_pair() {
    local peer=$1 suite=$2 case=$3 sflags=$4 cflags=$5 mode=${6:-} toward=${7:-server}
    local sp out="$work/$RANDOM" ok=1
    sp=$(freeport)
    # shellcheck disable=SC2086
    timeout 120 "$server" --listen "$sp" --cert "$work/cert.pem" --key "$work/key.pem" --suite "$suite" $sflags \
        >"$out.server" 2>&1 &
    pids+=($!)
    local spid=$!
    waitport "$sp" || { echo "FAIL: server did not start" >&2; ok=0; }
    client_through "$suite" "$out" "$sp" "$mode" "$toward" "$cflags" || ok=0
    wait "$spid" || ok=0
    check_case "$peer" "$suite" "$case" "$out" "$ok" "$mode" "$toward"
}

# check_case: the expectations per case, then one table row.
check_case() {
    local peer=$1 suite=$2 case=$3 out=$4 ok=$5 mode=$6 toward=$7 c s p
    c=$(counts "$out.client")
    s=$(counts "$out.server")
    p=$(sed -n 's/^proxy [a-z]*: //p' "$out.proxy" 2>/dev/null)
    local e
    e=$(echoed "$out.client")
    case $case in
        clean | dup*)
            [ "$e" = "$bytes B, lost 0" ] || ok=0 ;;
        flip*)
            # 30 records dropped as forgeries on the side the proxy flips toward: 30 chunks lost.
            [ "$e" = "$((bytes - 30 * 1000)) B, lost 30" ] || ok=0
            local side=$s
            [ "$toward" = client ] && side=$c
            if [ "${LIBAEAD_SIDE:-yes}" = yes ]; then [ "${side##*/}" = 30 ] || ok=0; fi ;;
    esac
    # Every libaead side opened records (at least the 1049 chunks), unless the peer is unmodified pion
    # and the suite one pion implements: then 0.
    if [ "$ok" = 1 ] && [ -n "${EXPECT_ZERO:-}" ]; then
        [ "$c" = "0/0/0" ] && [ "$s" = "0/0/0" ] || ok=0
    fi
    [ "$ok" = 1 ] && r=ok || { r=FAIL; fails=$((fails + 1)); tail -n 5 "$out".client "$out".server "$out".proxy >&2 2>/dev/null; }
    row "$peer" "$suite" "$case" "$r: $e" "${c:--}" "${s:--}" "${p:--}"
}

# ossl_server SUITE CASE [PROXY_MODE [TOWARD]]: openssl s_server echoing through a FIFO, the
# pion+libaead client (the libaead side) against it.
ossl_server() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-client}
    local sp out="$work/$RANDOM" ok=1
    sp=$(freeport)
    mkfifo "$out.fifo"
    timeout 120 openssl s_server -dtls1_2 -accept "127.0.0.1:$sp" -cert "$work/cert.pem" -key "$work/key.pem" \
        -cipher "$(ossl_name "$suite")" -quiet -naccept 1 0<>"$out.fifo" >"$out.fifo" 2>"$out.server" &
    pids+=($!)
    waitport "$sp" || ok=0
    client_through "$suite" "$out" "$sp" "$mode" "$toward" || ok=0
    check_case "openssl s_server" "$suite" "$case" "$out" "$ok" "$mode" "$toward"
}

# ossl_client SUITE: the pion+libaead server against openssl s_client, fed 1 MiB in 1000-byte
# writes; what comes back must be the same bytes.
ossl_client() {
    local suite=$1 sp out="$work/$RANDOM" ok=1
    sp=$(freeport)
    head -c "$bytes" /dev/urandom >"$out.in"
    : >"$out.out"
    timeout 120 "$server" --listen "$sp" --cert "$work/cert.pem" --key "$work/key.pem" --suite "$suite" \
        >"$out.server" 2>&1 &
    pids+=($!)
    local spid=$!
    waitport "$sp" || ok=0
    # The feeder paces the writes (DTLS does not retransmit application data: a burst larger than the
    # socket buffers would be dropped) and closes s_client's input once everything came back.
    python3 - "$out.in" "$out.out" <<'EOF' | timeout 120 openssl s_client -dtls1_2 -connect "127.0.0.1:$sp" \
        -cipher "$(ossl_name "$suite")" -quiet -no_ign_eof -nocommands >"$out.out" 2>"$out.client" || ok=0
import os, sys, time
data = open(sys.argv[1], "rb").read()
time.sleep(0.5)
for off in range(0, len(data), 1000):
    sys.stdout.buffer.write(data[off:off + 1000]); sys.stdout.flush()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and os.path.getsize(sys.argv[2]) < min(off + 1000, len(data)):
        time.sleep(0.0002)
EOF
    wait "$spid" || ok=0
    local e="differs"
    cmp -s "$out.in" "$out.out" && e="$bytes B, lost 0"
    [ "$e" = "$bytes B, lost 0" ] || ok=0
    local s
    s=$(counts "$out.server")
    [ "${s%%/*}" -ge 1049 ] 2>/dev/null || ok=0
    [ "$ok" = 1 ] && r=ok || { r=FAIL; fails=$((fails + 1)); cat "$out.server" "$out.client" >&2; }
    row "openssl s_client" "$suite" "clean" "$r: $e" "-" "${s:--}" "-"
}

ccm=(TLS_ECDHE_ECDSA_WITH_AES_256_CCM TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8)
echo "== pion+libaead <-> openssl (-dtls1_2), both roles, 1 MiB echoed"
for s in "${ccm[@]}"; do
    ossl_server "$s" clean
    ossl_client "$s"
done
echo "== pion+libaead <-> pion+libaead, 1 MiB echoed"
for s in "${ccm[@]}"; do pion_pair "pion+libaead" "$s" clean "" ""; done
echo "== pion+libaead <-> unmodified pion, both roles (suites pion implements: pion's cipher is used, libaead's counts stay 0)"
for s in TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 \
         TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 TLS_ECDHE_ECDSA_WITH_AES_128_CCM TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8; do
    EXPECT_ZERO=1 pion_pair "unmodified pion (server)" "$s" clean "--pion" ""
    EXPECT_ZERO=1 pion_pair "unmodified pion (client)" "$s" clean "" "--pion"
done
echo "== through the proxy: every 10th datagram twice, 50 old ones late (the data must arrive exactly once)"
pion_pair "pion+libaead" "${ccm[0]}" "dup+late" "" "" dup
ossl_server "${ccm[0]}" "dup+late" dup
echo "== through the proxy: 30 records with a flipped byte (libaead's side must count 30 forgeries)"
pion_pair "pion+libaead" "${ccm[0]}" "flip toward server" "" "" flip server
pion_pair "pion+libaead" "${ccm[0]}" "flip toward client" "" "" flip client
ossl_server "${ccm[0]}" "flip toward client" flip client

# rl_pair SUITE CASE [PROXY_MODE [TOWARD]]: the dtls13-record-layer example, both roles: pion's DTLS 1.2
# handshake (TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, which unmodified pion has) on a direct path, then
# 1 MiB as DTLS 1.3 records of SUITE under bindings/go's DTLS13RecordProtector on a second flow, through
# the proxy when a mode is given. Nothing there deduplicates but libaead's window, so: each side's
# replays refused must equal the copies the proxy injected toward it (dup + late, from its summary
# line), and a flipped record must be a forgery on the flipped side (30) with the echo still complete.
rl_pair() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-server}
    local hp rp cp out="$work/$RANDOM" ok=1 spid proxy c s p e sd cd
    hp=$(freeport) rp=$(freeport)
    cp=$rp
    timeout 60 "$work/bin/dtls13-record-layer" --listen "$hp" --records "$rp" --cert "$work/cert.pem" \
        --key "$work/key.pem" --suite "$suite" >"$out.server" 2>&1 &
    spid=$!
    pids+=("$spid")
    waitport "$hp" && waitport "$rp" || { echo "FAIL: record-layer server did not start" >&2; ok=0; }
    if [ -n "$mode" ]; then
        cp=$(freeport)
        start_proxy "$cp" "$rp" "$mode" "$toward" "$out.proxy" || ok=0
    fi
    timeout 60 "$work/bin/dtls13-record-layer" --connect "127.0.0.1:$hp" --records "127.0.0.1:$cp" \
        --bytes "$bytes" --suite "$suite" >"$out.client" 2>&1 || ok=0
    wait "$spid" || ok=0
    if [ -n "$mode" ]; then wait "$proxy" || ok=0; fi
    c=$(counts "$out.client") s=$(counts "$out.server") e=$(echoed "$out.client")
    p=$(sed -n 's/^proxy [a-z]*: //p' "$out.proxy" 2>/dev/null)
    # The data: echoed byte for byte to the client, delivered once and in order to the server (the
    # same bytes: the sha256 of what the client sent and of what the server delivered).
    [ "$e" = "$bytes B, lost 0" ] || ok=0
    sd=$(sed -n 's/^server: \([0-9]*\) bytes delivered in [0-9]* chunks (sha256 \([0-9a-f]*\)).*/\1 \2/p' "$out.server")
    cd=$(sed -n 's/^client: \([0-9]*\) bytes in [0-9]* chunks (sha256 \([0-9a-f]*\)).*/\1 \2/p' "$out.client")
    [ -n "$sd" ] && [ "$sd" = "$cd" ] && [ "${sd%% *}" = "$bytes" ] || ok=0
    # Every side opened at least the 1049 chunks and the close.
    [ "${c%%/*}" -ge 1050 ] 2>/dev/null && [ "${s%%/*}" -ge 1050 ] 2>/dev/null || ok=0
    local cr=${c#*/} sr=${s#*/}
    cr=${cr%/*} sr=${sr%/*}
    case $case in
        clean) [ "${c#*/}" = 0/0 ] && [ "${s#*/}" = 0/0 ] || ok=0 ;;
        dup*)
            local ts tc
            ts=$(($(sed -n 's/.*dup server \([0-9]*\).*late server \([0-9]*\).*/\1 + \2/p' "$out.proxy")))
            tc=$(($(sed -n 's/.*dup client \([0-9]*\).*late client \([0-9]*\).*/\1 + \2/p' "$out.proxy")))
            [ "$ts" -gt 0 ] && [ "$tc" -gt 0 ] && [ "$sr" = "$ts" ] && [ "$cr" = "$tc" ] || ok=0
            [ "${c##*/}" = 0 ] && [ "${s##*/}" = 0 ] || ok=0
            p="$p; injected toward server $ts, toward client $tc" ;;
        flip*)
            local fl=$s other=$c
            [ "$toward" = client ] && fl=$c other=$s
            [ "${fl##*/}" = 30 ] && [ "${other##*/}" = 0 ] || ok=0 ;;
    esac
    [ "$ok" = 1 ] && r=ok || { r=FAIL; fails=$((fails + 1)); tail -n 5 "$out".client "$out".server "$out".proxy >&2 2>/dev/null; }
    row "Go DTLS13RecordProtector (pion DTLS 1.2 handshake, exporter keys)" "$suite (DTLS 1.3 records)" "$case" \
        "$r: $e" "${c:--}" "${s:--}" "${p:--}"
}
echo "== DTLS 1.3 records under bindings/go's DTLS13RecordProtector, keyed by a pion DTLS 1.2 handshake's exporter (libaead's window is the only one)"
rl_start=$SECONDS
for s in TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256 TLS_AES_128_CCM_SHA256; do
    rl_pair "$s" clean
done
rl_pair TLS_AES_128_GCM_SHA256 "dup+late" dup
rl_pair TLS_CHACHA20_POLY1305_SHA256 "flip toward server" flip server
rl_pair TLS_AES_128_GCM_SHA256 "flip toward client" flip client
echo "== the DTLS 1.3 record-layer rows took $((SECONDS - rl_start)) s"

echo
echo "| peer | suite | case | result (echoed) | client: libaead opened/replays/forgeries | server: libaead opened/replays/forgeries | proxy |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${table[@]}"
echo
if [ "$fails" -gt 0 ]; then
    echo "dtls-interop: $fails of ${#table[@]} cases FAILED" >&2
    exit 1
fi
echo "dtls-interop: ${#table[@]} cases passed"
