#!/usr/bin/env bash
# DTLS 1.2 interop of pion/dtls v3 with libaead's record protection (bindings/pion-libaead) on loopback
# UDP: against Debian's `openssl s_server -dtls1_2` / `s_client -dtls1_2`, against itself, and against
# unmodified pion; then through tests/lib/fault_proxy.py, which duplicates and replays datagrams, and
# flips a byte in 30 records. Then DTLS 1.3 records under the Go binding's DTLS13RecordProtector, keyed
# from a pion handshake (examples/dtls13-record-layer), plainly and through the proxy. Every process runs
# under `timeout`. Prints a table: peer x suite x case with the counts.
# Needs: libaead built in $AEAD_BUILD_DIR (the build stage), Go, openssl, python3.
#
# pion v3.1.15 looks up the suites it implements itself before the custom ones, so libaead protects
# the records only of the suites pion lacks: TLS_ECDHE_ECDSA_WITH_AES_256_CCM and _AES_256_CCM_8
# (bindings/pion-libaead/README.md). The rows against unmodified pion use the IDs both have and
# check that the handshake and the data work, and that libaead's counters stay at 0 there.
set -uo pipefail
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
interop_init dtls-interop openssl python3 timeout
# shellcheck source=../../bindings/go/env.sh
source "$REPO/bindings/go/env.sh"  # Go on the build tree's libaead: -tags libaead_system
# Three cases at a time (AEAD_DTLS_JOBS): they wait on the network and on timers far more than they compute.
T=120 PORT_KIND=udp JOBS=${AEAD_DTLS_JOBS:-3} bytes=$((1 << 20))

echo "== pion-libaead module: vet, tests (records against pion's own ciphers, pion handshakes)"
cd "$REPO/bindings/pion-libaead" && go mod download && go vet ./... && timeout 300 go test -count=1 ./... || exit 1
unformatted="$(gofmt -l .)"
[ -z "$unformatted" ] || { echo "FAIL: gofmt would change: $unformatted" >&2; exit 1; }
go build -o "$WORK/bin/" ./examples/... && cd "$REPO" || exit 1
echo "== the Go block of bindings/pion-libaead/README.md, built and run (tests/snippets/run-go.sh)"
bash tests/snippets/run-go.sh bindings/pion-libaead bindings/pion-libaead/README.md || exit 1
server="$WORK/bin/dtls-echo-server" client="$WORK/bin/dtls-echo-client"
make_certs ecdsa
cert=(--cert "$WORK/cert-ecdsa.pem" --key "$WORK/key-ecdsa.pem")

ossl_name() { [ "$1" = TLS_ECDHE_ECDSA_WITH_AES_256_CCM ] && echo ECDHE-ECDSA-AES256-CCM || echo ECDHE-ECDSA-AES256-CCM8; }
# The client's echo (counts: tests/lib).
echoed() { sed -n 's/.*: \([0-9]*\) echoed byte for byte, \([0-9]*\) chunks lost.*/\1 B, lost \2/p' "$1" | head -1; }
# verdict PEER SUITE CASE ECHO CLIENT SERVER [PROXY_NOTE]: the row for the calling case's $ok.
verdict() {
    local p
    p=$(proxy_line)${7:+; $7}
    row "$ok" "$(printf '| %s | %s | %s | %s | %s | %s | %s |' "$1" "$2" "$3" "$([ "$ok" = 0 ] && echo ok || echo FAIL): $4" \
        "${5:--}" "${6:--}" "${p:--}")"
}

# client_through SUITE MODE TOWARD [CLIENT_FLAGS]: the example client against the server on ${PORTS[0]},
# through the proxy (on ${PORTS[1]}) when a mode (dup, flip) is given (a flipping proxy costs 30 chunks,
# each given 500 ms; an echo later than that still counts).
client_through() {
    local suite=$1 mode=$2 cflags=${4:-} maxlost=0 wait=1s rc=0
    through "$mode" "$3" 2 || rc=1
    [ "$mode" != flip ] || maxlost=30 wait=500ms
    # shellcheck disable=SC2086
    timeout 120 "$client" --connect "127.0.0.1:$CP" --suite "$suite" --bytes "$bytes" --max-lost "$maxlost" \
        --wait "$wait" $cflags >"$D/client" 2>&1 || rc=1
    [ -z "$PROXY" ] || wait "$PROXY" || rc=1
    return $rc
}

# pion_pair NAME SUITE CASE SERVER_FLAGS CLIENT_FLAGS [PROXY_MODE [TOWARD]]: the two example programs,
# optionally through the proxy. Checks: the client's echo (exact unless flipping), the counts.
pion_pair() {
    local peer=$1 suite=$2 case=$3 sflags=$4 cflags=$5 mode=${6:-} toward=${7:-server} ok=0 spid
    # shellcheck disable=SC2086
    timeout 120 "$server" --listen "${PORTS[0]}" "${cert[@]}" --suite "$suite" $sflags >"$D/server" 2>&1 & track spid
    wait_listen "${PORTS[0]}" || { echo "FAIL: server did not start" >&2; ok=1; }
    client_through "$suite" "$mode" "$toward" "$cflags" || ok=1
    wait "$spid" || ok=1
    check_case "$peer" "$suite" "$case" "$toward"
}

# check_case PEER SUITE CASE TOWARD: the expectations per case, then the row.
check_case() {
    local c s e side
    c=$(counts "$D/client") s=$(counts "$D/server") e=$(echoed "$D/client")
    case $3 in
        clean | dup*) [ "$e" = "$bytes B, lost 0" ] || ok=1 ;;
        flip*)  # 30 records dropped as forgeries on the side the proxy flips toward: 30 chunks lost.
            [ "$e" = "$((bytes - 30 * 1000)) B, lost 30" ] || ok=1
            side=$s && [ "$4" != client ] || side=$c
            [ "${LIBAEAD_SIDE:-yes}" != yes ] || [ "${side##*/}" = 30 ] || ok=1 ;;
    esac
    # Every libaead side opened records (at least the 1049 chunks), unless the peer is unmodified pion
    # and the suite one pion implements: then 0.
    if [ "$ok" = 0 ] && [ -n "${EXPECT_ZERO:-}" ]; then
        [ "$c" = "0/0/0" ] && [ "$s" = "0/0/0" ] || ok=1
    fi
    verdict "$1" "$2" "$3" "$e" "$c" "$s"
}

# ossl_server SUITE CASE [PROXY_MODE [TOWARD]]: openssl s_server echoing through a FIFO, the
# pion+libaead client (the libaead side) against it.
ossl_server() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-client} ok=0
    mkfifo "$D/fifo"
    timeout 120 openssl s_server -dtls1_2 -accept "127.0.0.1:${PORTS[0]}" "${cert[@]}" \
        -cipher "$(ossl_name "$suite")" -quiet -naccept 1 0<>"$D/fifo" >"$D/fifo" 2>"$D/server" & track
    wait_listen "${PORTS[0]}" || ok=1
    client_through "$suite" "$mode" "$toward" || ok=1
    check_case "openssl s_server" "$suite" "$case" "$toward"
}

# ossl_client SUITE: the pion+libaead server against openssl s_client, fed 1 MiB in 1000-byte
# writes (tests/lib/feed.py); what comes back must be the same bytes.
ossl_client() {
    local suite=$1 ok=0 spid e="differs" s
    head -c "$bytes" /dev/urandom >"$D/in.bin" && : >"$D/out.bin"
    timeout 120 "$server" --listen "${PORTS[0]}" "${cert[@]}" --suite "$suite" >"$D/server" 2>&1 & track spid
    wait_listen "${PORTS[0]}" || ok=1
    python3 "$LIB_DIR/feed.py" "$D/in.bin" "$D/out.bin" 2 0 2>"$D/feed" | timeout 120 openssl s_client -dtls1_2 \
        -connect "127.0.0.1:${PORTS[0]}" -cipher "$(ossl_name "$suite")" -quiet -no_ign_eof -nocommands \
        >"$D/out.bin" 2>"$D/client" || ok=1
    wait "$spid" || ok=1
    cmp -s "$D/in.bin" "$D/out.bin" && e="$bytes B, lost 0" || ok=1
    s=$(counts "$D/server")
    [ "${s%%/*}" -ge 1049 ] 2>/dev/null || ok=1
    verdict "openssl s_client" "$suite" "clean" "$e" "-" "$s"
}

# rl_pair SUITE CASE [PROXY_MODE [TOWARD]]: the dtls13-record-layer example, both roles: pion's DTLS 1.2
# handshake (TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, which unmodified pion has) on a direct path, then
# 1 MiB as DTLS 1.3 records of SUITE under bindings/go's DTLS13RecordProtector on a second flow, through
# the proxy when a mode is given. Nothing there deduplicates but libaead's window, so: each side's
# replays refused must equal the copies the proxy injected toward it (dup + late), and a flipped record
# must be a forgery on the flipped side (30) with the echo still complete.
rl_pair() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-server} ok=0 spid c s e sd cd hp=${PORTS[2]}
    timeout 60 "$WORK/bin/dtls13-record-layer" --listen "$hp" --records "${PORTS[0]}" "${cert[@]}" --suite "$suite" \
        >"$D/server" 2>&1 & track spid
    wait_listen "$hp" && wait_listen "${PORTS[0]}" || { echo "FAIL: record-layer server did not start" >&2; ok=1; }
    through "$mode" "$toward" 2 || ok=1
    timeout 60 "$WORK/bin/dtls13-record-layer" --connect "127.0.0.1:$hp" --records "127.0.0.1:$CP" \
        --bytes "$bytes" --suite "$suite" >"$D/client" 2>&1 || ok=1
    wait "$spid" || ok=1
    [ -z "$PROXY" ] || wait "$PROXY" || ok=1
    c=$(counts "$D/client") s=$(counts "$D/server") e=$(echoed "$D/client")
    # The data: echoed byte for byte to the client, delivered once and in order to the server (the
    # same bytes: the sha256 of what the client sent and of what the server delivered).
    [ "$e" = "$bytes B, lost 0" ] || ok=1
    sd=$(sed -n 's/^server: \([0-9]*\) bytes delivered in [0-9]* chunks (sha256 \([0-9a-f]*\)).*/\1 \2/p' "$D/server")
    cd=$(sed -n 's/^client: \([0-9]*\) bytes in [0-9]* chunks (sha256 \([0-9a-f]*\)).*/\1 \2/p' "$D/client")
    [ -n "$sd" ] && [ "$sd" = "$cd" ] && [ "${sd%% *}" = "$bytes" ] || ok=1
    # Every side opened at least the 1049 chunks and the close.
    [ "${c%%/*}" -ge 1050 ] 2>/dev/null && [ "${s%%/*}" -ge 1050 ] 2>/dev/null || ok=1
    local cr=${c#*/} sr=${s#*/} ts="" tc fl=$s other=$c
    cr=${cr%/*} sr=${sr%/*}
    case $case in
        clean) [ "${c#*/}" = 0/0 ] && [ "${s#*/}" = 0/0 ] || ok=1 ;;
        dup*)
            ts=$(($(proxy_stat server dup) + $(proxy_stat server late)))
            tc=$(($(proxy_stat client dup) + $(proxy_stat client late)))
            [ "$ts" -gt 0 ] && [ "$tc" -gt 0 ] && [ "$sr" = "$ts" ] && [ "$cr" = "$tc" ] || ok=1
            [ "${c##*/}" = 0 ] && [ "${s##*/}" = 0 ] || ok=1 ;;
        flip*)
            [ "$toward" = client ] && fl=$c other=$s
            [ "${fl##*/}" = 30 ] && [ "${other##*/}" = 0 ] || ok=1 ;;
    esac
    verdict "Go DTLS13RecordProtector (pion DTLS 1.2 handshake, exporter keys)" "$suite (DTLS 1.3 records)" "$case" \
        "$e" "$c" "$s" "${ts:+injected toward server $ts, toward client $tc}"
}

ccm=(TLS_ECDHE_ECDSA_WITH_AES_256_CCM TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8)
echo "== pion+libaead <-> openssl (-dtls1_2), both roles, 1 MiB echoed"
for s in "${ccm[@]}"; do
    lane ossl_server "$s" clean
    lane ossl_client "$s"
done
echo "== pion+libaead <-> pion+libaead, 1 MiB echoed"
for s in "${ccm[@]}"; do lane pion_pair "pion+libaead" "$s" clean "" ""; done
echo "== pion+libaead <-> unmodified pion, both roles (suites pion implements: pion's cipher is used, libaead's counts stay 0)"
for s in TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 \
         TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 TLS_ECDHE_ECDSA_WITH_AES_128_CCM TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8; do
    EXPECT_ZERO=1 lane pion_pair "unmodified pion (server)" "$s" clean "--pion" ""
    EXPECT_ZERO=1 lane pion_pair "unmodified pion (client)" "$s" clean "" "--pion"
done
echo "== through the proxy: every 10th datagram twice, 50 old ones late (the data must arrive exactly once)"
lane pion_pair "pion+libaead" "${ccm[0]}" "dup+late" "" "" dup
lane ossl_server "${ccm[0]}" "dup+late" dup
echo "== through the proxy: 30 records with a flipped byte (libaead's side must count 30 forgeries)"
lane pion_pair "pion+libaead" "${ccm[0]}" "flip toward server" "" "" flip server
lane pion_pair "pion+libaead" "${ccm[0]}" "flip toward client" "" "" flip client
lane ossl_server "${ccm[0]}" "flip toward client" flip client
wait
echo "== DTLS 1.3 records under bindings/go's DTLS13RecordProtector, keyed by a pion DTLS 1.2 handshake's exporter (libaead's window is the only one)"
rl_start=$SECONDS
for s in TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256 TLS_AES_128_CCM_SHA256; do
    lane rl_pair "$s" clean
done
lane rl_pair TLS_AES_128_GCM_SHA256 "dup+late" dup
lane rl_pair TLS_CHACHA20_POLY1305_SHA256 "flip toward server" flip server
lane rl_pair TLS_AES_128_GCM_SHA256 "flip toward client" flip client
wait
echo "== the DTLS 1.3 record-layer rows took $((SECONDS - rl_start)) s"

results "" "| peer | suite | case | result (echoed) | client: libaead opened/replays/forgeries | server: libaead opened/replays/forgeries | proxy |" \
    "|---|---|---|---|---|---|---|"
echo
finish cases
