#!/usr/bin/env bash
# dimpl + libaead over real UDP on loopback: the examples dtls-echo-server / dtls-echo-client
# (bindings/dimpl-libaead/examples) against dimpl on its own aws-lc-rs provider (DTLS 1.2 and 1.3)
# and against Debian's `openssl s_server -dtls1_2` / `s_client -dtls1_2` (DTLS 1.2), both roles; then
# through tests/dtls-interop/proxy.py, which duplicates datagrams and re-sends old ones late (the data
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
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${1:?usage: udp-interop.sh DIR-WITH-THE-BUILT-EXAMPLES}"
server="$bin/dtls-echo-server" client="$bin/dtls-echo-client"
proxy_py="$repo/tests/dtls-interop/proxy.py"
for t in "$server" "$client"; do [ -x "$t" ] || { echo "udp-interop: no $t (cargo build --examples)" >&2; exit 1; }; done
command -v openssl >/dev/null || { echo "udp-interop: not available here: openssl (tests/setup.sh installs it)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "udp-interop: not available here: python3" >&2; exit 1; }

work="$(mktemp -d)"
mkdir "$work/rows" "$work/fails"
lanes=()
cleanup() {
    local p
    for p in "${lanes[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=../../tests/dtls-interop/lib.sh
source "$repo/tests/dtls-interop/lib.sh"   # make_cert, freeport, waitport, counts
make_cert "$work" || exit 1
ossl_name() {
    case $1 in
        ECDHE_ECDSA_AES128_GCM_SHA256) echo ECDHE-ECDSA-AES128-GCM-SHA256 ;;
        ECDHE_ECDSA_AES256_GCM_SHA384) echo ECDHE-ECDSA-AES256-GCM-SHA384 ;;
        ECDHE_ECDSA_CHACHA20_POLY1305_SHA256) echo ECDHE-ECDSA-CHACHA20-POLY1305 ;;
    esac
}
# What dimpl dropped before libaead, "X of Y" (counts: lib.sh).
dropped() { sed -n 's/.*dimpl dropped \([0-9]*\) of \([0-9]*\) protected.*/\1 of \2/p' "$1" | head -1; }
resent() { sed -n 's/.* \([0-9]*\) resent .*/\1/p' "$1" | head -1; }

bytes=$((1 << 20))
chunks=$(((bytes + 999) / 1000))
row() {  # peer version suite role case result libaead-side dimpl-dropped proxy; then the seconds it took
    local t
    t=$(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $row_start }")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@" "$t" >"$work/rows/$(printf %03d "$row_id")"
}

# Rows run in $jobs lanes at once (they mostly wait: on loopback round trips, the flipping proxy's
# losses, the proxy's idle exit). Each lane is a subshell that stops what it started when it ends.
jobs=${UDP_INTEROP_JOBS:-3}
row_id=0
lane() {  # RUNNER ARGS...
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    row_id=$((row_id + 1))
    (
        pids=()
        trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
        row_start=$EPOCHREALTIME
        "$@"
    ) &
    lanes+=($!)
}

# start_proxy OUT SERVER_PORT MODE TOWARD [IDLE]: sets proxy_port (to connect to) and proxy_pid.
start_proxy() {
    local out=$1 sp=$2 mode=$3 toward=$4 idle=${5:-1}
    proxy_port=$(freeport)
    timeout 120 python3 "$proxy_py" --listen "$proxy_port" --to "$sp" --mode "$mode" --toward "$toward" --idle "$idle" \
        >"$out.proxy" 2>&1 &
    proxy_pid=$!
    pids+=("$proxy_pid")
    waitport "$proxy_port"
}

# judge PEER VERSION SUITE ROLE CASE OUT OK ECHO_OK TOWARD: the expectations on the libaead side, then a row.
judge() {
    local peer=$1 ver=$2 suite=$3 role=$4 case=$5 out=$6 ok=$7 echo_ok=$8 toward=${9:-}
    local side="$out.$role" c d p o r f
    c=$(counts "$side")
    d=$(dropped "$side")
    p=$(sed -n 's/^proxy [a-z]*: //p' "$out.proxy" 2>/dev/null)
    [ "$echo_ok" = yes ] || ok=0
    IFS=/ read -r o r f <<<"${c:-0/0/0}"
    # The libaead side opened every chunk (the server) or every echo (the client).
    [ "${o:-0}" -ge "$chunks" ] || ok=0
    case $case in
        clean) [ "$r" = 0 ] && [ "$f" = 0 ] || ok=0 ;;
        dup*)
            # Duplicates and late copies went toward the libaead side: refused by dimpl's window or
            # libaead's, none opened twice (the echo check), none a forgery.
            local late
            late=$(sed -n "s/.*late $role \([0-9]*\).*/\1/p" "$out.proxy")
            [ "$f" = 0 ] && [ "$(( ${d%% *} + r ))" -ge "${late:-1}" ] || ok=0 ;;
        flip*)
            if [ "$toward" = "$role" ]; then [ "$f" = 30 ] || ok=0; else [ "$f" = 0 ] || ok=0; fi ;;
    esac
    local res=ok
    if [ "$ok" != 1 ]; then
        res=FAIL
        : >"$work/fails/$row_id"
        tail -n 6 "$out".client "$out".server "$out".proxy "$out".ossl >&2 2>/dev/null
    fi
    row "$peer" "$ver" "$suite" "$role" "$case" "$res (echo $echo_ok, resent $(resent "$out.client" 2>/dev/null))" \
        "${c:--}" "${d:--}" "${p:--}"
}

# through OUT SERVER_PORT MODE TOWARD [IDLE]: sets cp, the port to connect to (the proxy's when a MODE
# is given), and proxy, the proxy's pid or "".
through() {
    cp=$2 proxy=""
    [ -n "$3" ] || return 0
    start_proxy "$1" "$2" "$3" "$4" "${5:-1}" || return 1
    cp=$proxy_port proxy=$proxy_pid
}

# run_client OUT MODE ARGS...: the example client to 127.0.0.1:$cp with 1 MiB (flip: up to 60 chunks
# resent after 30 ms each), then the proxy's end. Sets e (yes: every byte came back, each once).
run_client() {
    local out=$1 mode=$2 rc=0 flags=()
    shift 2
    [ "$mode" = flip ] && flags=(--wait 30ms --max-resend 60)
    timeout 90 "$client" --connect "127.0.0.1:$cp" --bytes "$bytes" "${flags[@]}" "$@" >"$out.client" 2>&1 || rc=1
    if [ -n "$proxy" ]; then wait "$proxy" || rc=1; fi
    e=no
    grep -q "byte for byte, each once: yes" "$out.client" && e=yes
    return $rc
}

# dimpl_pair VERSION SUITE ROLE CASE [MODE TOWARD]: dimpl + libaead as ROLE against dimpl + aws-lc-rs.
dimpl_pair() {
    local ver=$1 suite=$2 role=$3 case=$4 mode=${5:-} toward=${6:-}
    local out="$work/$RANDOM$RANDOM" ok=1 sp cp spid proxy e sprov=aws-lc-rs cprov=libaead
    [ "$role" = server ] && sprov=libaead cprov=aws-lc-rs
    sp=$(freeport)
    timeout 60 "$server" --listen "$sp" --cert "$work/cert.pem" --key "$work/key.pem" --version "$ver" \
        --suite "$suite" --provider "$sprov" --idle 2s >"$out.server" 2>&1 &
    spid=$!
    pids+=("$spid")
    waitport "$sp" || ok=0
    through "$out" "$sp" "$mode" "$toward" || ok=0
    run_client "$out" "$mode" --version "$ver" --suite "$suite" --provider "$cprov" || ok=0
    wait "$spid" || ok=0
    judge "dimpl + aws-lc-rs" "$ver" "$suite" "$role" "$case" "$out" "$ok" "$e" "$toward"
}

# ossl_server SUITE CASE [MODE TOWARD]: openssl s_server echoing through a FIFO, the dimpl + libaead
# client against it.
ossl_server() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-}
    local out="$work/$RANDOM$RANDOM" ok=1 sp cp proxy e
    sp=$(freeport)
    mkfifo "$out.fifo"
    timeout 90 openssl s_server -dtls1_2 -accept "127.0.0.1:$sp" -cert "$work/cert.pem" -key "$work/key.pem" \
        -cipher "$(ossl_name "$suite")" -quiet -naccept 1 0<>"$out.fifo" >"$out.fifo" 2>"$out.ossl" &
    pids+=($!)
    waitport "$sp" || ok=0
    through "$out" "$sp" "$mode" "$toward" || ok=0
    run_client "$out" "$mode" --version 1.2 --suite "$suite" || ok=0
    judge "openssl s_server" 1.2 "$suite" client "$case" "$out" "$ok" "$e" "$toward"
}

# ossl_client SUITE CASE [MODE TOWARD]: the dimpl + libaead server against openssl s_client, fed 1 MiB
# in 1000-byte writes, one at a time, each written again when nothing has come back within the wait
# (flip only); what comes back must be the same bytes, once (a resent chunk may come twice: its first
# echo was only slow). s_client sends no close_notify here:
# the server ends when it falls silent; it and the proxy wait 3 s for that: under load s_client has
# been seen to send nothing for over a second after its handshake (why, not pinned down).
ossl_client() {
    local suite=$1 case=$2 mode=${3:-} toward=${4:-}
    local out="$work/$RANDOM$RANDOM" ok=1 sp cp spid proxy="" wait=2 resend=0
    sp=$(freeport)
    head -c "$bytes" /dev/urandom >"$out.in"
    : >"$out.out"
    timeout 90 "$server" --listen "$sp" --cert "$work/cert.pem" --key "$work/key.pem" --version 1.2 \
        --suite "$suite" --idle 3s >"$out.server" 2>&1 &
    spid=$!
    pids+=("$spid")
    waitport "$sp" || ok=0
    through "$out" "$sp" "$mode" "$toward" 3 || ok=0
    [ "$mode" = flip ] && wait=0.1 resend=60
    # -nbio: a blocking s_client that reads a record OpenSSL discards (a replay, a forgery) blocks in
    # recvfrom and stops reading its input; non-blocking it goes on, but then does not exit at the end
    # of its input, so it is stopped once the feeder is done.
    mkfifo "$out.feed"
    timeout 90 openssl s_client -dtls1_2 -connect "127.0.0.1:$cp" -cipher "$(ossl_name "$suite")" -quiet -nbio \
        -nocommands <"$out.feed" >"$out.out" 2>"$out.ossl" &
    local opid=$!
    pids+=("$opid")
    python3 - "$out.in" "$out.out" "$wait" "$resend" 2>"$out.client" >"$out.feed" <<'EOF' || ok=0
import os, sys, time
data = open(sys.argv[1], "rb").read()
wait, budget = float(sys.argv[3]), int(sys.argv[4])
size = lambda: os.path.getsize(sys.argv[2])
resent, resends = set(), 0
time.sleep(0.5)
for off in range(0, len(data), 1000):
    piece = data[off:off + 1000]
    while True:
        base = size()
        sys.stdout.buffer.write(piece); sys.stdout.flush()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and size() < base + len(piece):
            time.sleep(0.0002)
        if size() > base or resends >= budget:
            break
        resent.add(off)  # nothing came back: written again
        resends += 1
# What comes back late, then the check: the input, each chunk once, except that a resent chunk
# whose first echo was only slow may follow itself.
last, still = size(), time.monotonic()
while time.monotonic() - still < 0.5:
    time.sleep(0.02)
    if size() != last:
        last, still = size(), time.monotonic()
out, pos, twice = open(sys.argv[2], "rb").read(), 0, 0
ok = True
for off in range(0, len(data), 1000):
    piece = data[off:off + 1000]
    ok = ok and out[pos:pos + len(piece)] == piece
    pos += len(piece)
    while off in resent and out[pos:pos + len(piece)] == piece:
        pos += len(piece)
        twice += 1
ok = ok and pos == len(out)
print("client: %d bytes: %d resent (s_client, %d echoed twice); back byte for byte, each once: %s"
      % (len(data), resends, twice, "yes" if ok else "no"), file=sys.stderr)
EOF
    kill "$opid" 2>/dev/null
    wait "$opid"
    wait "$spid" || ok=0
    [ -n "$proxy" ] && { wait "$proxy" || ok=0; }
    local e=no
    grep -q "each once: yes" "$out.client" && e=yes
    judge "openssl s_client" 1.2 "$suite" server "$case" "$out" "$ok" "$e" "$toward"
}

suites12=(ECDHE_ECDSA_AES128_GCM_SHA256 ECDHE_ECDSA_AES256_GCM_SHA384 ECDHE_ECDSA_CHACHA20_POLY1305_SHA256)
suites13=(AES_128_GCM_SHA256 AES_256_GCM_SHA384 CHACHA20_POLY1305_SHA256)
cases() {  # RUNNER ARGS...: the proxy cases for one suite
    lane "$@" "dup+late" dup server
    lane "$@" "flip toward server" flip server
    lane "$@" "flip toward client" flip client
}

echo "== $jobs at a time; the table follows"
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
echo "== through proxy.py: duplicated and late datagrams; 30 flipped records toward each side"
for role in server client; do
    cases dimpl_pair 1.2 "${suites12[0]}" "$role"
    cases dimpl_pair 1.3 "${suites13[0]}" "$role"
done
cases ossl_server "${suites12[0]}"
cases ossl_client "${suites12[0]}"
wait

echo
echo "| peer | DTLS | suite | libaead's role | case | result | libaead side: opened/replays/forgeries | dropped by dimpl before libaead (its window) | proxy | s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
cat "$work"/rows/*
echo
rows=$(find "$work/rows" -type f | wc -l)
fails=$(find "$work/fails" -type f | wc -l)
if [ "$fails" -gt 0 ] || [ "$rows" != "$row_id" ]; then
    echo "udp-interop: $fails of $row_id cases FAILED ($rows rows written)" >&2
    exit 1
fi
echo "udp-interop: $rows cases passed"
