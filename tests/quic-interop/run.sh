#!/usr/bin/env bash
# QUIC interop of libaead's packet protection with stacks nobody here wrote, over loopback UDP.
#
# Peers (the table below; all speak the echo protocol of aioquic_echo.py's docstring):
#   aioquic          aioquic 1.7.2 from PyPI, unmodified, on its own packet protection (aioquic_echo.py)
#   aioquic+libaead  the same script with docs/quic.md's two-line swap (libaead.quic.AEAD / HeaderProtection)
#   quic-go          quic-go v0.65.0, unmodified (quicgo/, its own go.mod)
#   quinn+libaead    quinn on bindings/rustls-libaead (its examples quic-echo-server / quic-echo-client)
#   quinn+ring       the same examples with --ring
#   The quinn rows are enabled when those example sources exist in bindings/rustls-libaead/examples/
#   (or AEAD_QUIC_QUINN_BIN names a directory with both binaries).
# What the harness reads from each peer: the last line of its stdout with "bytes=N", its fields suite=
# (the negotiated or the one forced; TLS13_ names are taken as TLS_), key_updates= / initiated= and, from a
# libaead side, forgeries= (libaead's own count of failed authentications while the connection ran).
# Matrix: every libaead side (aioquic+libaead, quinn+libaead) against every other enabled peer, in both
# roles, for each suite in SUITES (a side that can choose constrains it; every side that reports the suite
# must report that one):
#   plain       1 MiB echoed byte for byte;
#   key-update  the same, with a 1-RTT key update initiated by the libaead side mid-transfer (and followed
#               by the peer: aioquic_echo.py checks packets decrypted under the new keys; quic-go and
#               aioquic report the update they saw). aioquic keeps no old receive keys after its own
#               update, so the peer's packets still in flight then fail to open and are dropped: they
#               appear in aioquic's drop count and, on libaead, in the forgery count (tens per update);
#   proxy-flip  through tests/lib/fault_proxy.py, which flips the last byte of every 20th data-carrying 1-RTT
#               packet (at most 30) travelling to the libaead side: those must be dropped (the libaead side's
#               forgery count, read from libaead's own usage counters, is > 0) and the echo still complete;
#   fips        plain, with aioquic+libaead's packet protection under the FIPS test provider
#               (tests/fips/env.sh), AES suites only (its handshake crypto stays pyca's own OpenSSL).
# Every process runs under `timeout`; every log is in a work directory, tailed on failure and kept then.
# Python: a venv in ${XDG_CACHE_HOME:-~/.cache}/libaead/quic-interop (aioquic from PyPI, libaead linked to
# $AEAD_BUILD_DIR's libaead.so.1 through pkg-config, as bindings/python/test.sh's LIBAEAD_SYSTEM=1 step),
# reinstalled when the binding's sources change.
# Usage: bash tests/quic-interop/run.sh   (AEAD_BUILD_DIR: the C library's build, default <repo>/build;
#        AEAD_QUIC_PEERS / AEAD_QUIC_SUITES / AEAD_QUIC_CASES: regexes selecting rows; AEAD_INTEROP_KEEP=1
#        keeps the work directory; AEAD_QUIC_JOBS: cases run at a time, default 2)
set -euo pipefail
# shellcheck source=../lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
interop_init quic-interop go python3 openssl pkg-config timeout sha256sum
CRATE="$REPO/bindings/rustls-libaead"
unset OPENSSL_CONF OPENSSL_MODULES
export PIP_DISABLE_PIP_VERSION_CHECK=1
T=40 BYTES=1048576 PORT_KIND=udp JOBS=${AEAD_QUIC_JOBS:-2}  # seconds any one process may run; bytes echoed in every case
SUITES=(TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256)
started=$(date +%s)

# --- the peers' programs ---------------------------------------------------------------------
# One venv per checkout (its libaead links to this checkout's build directory).
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/quic-interop/venv-$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')-$(printf %s "$REPO" | sha256sum | cut -c1-12)"
VPY="$VENV/bin/python"
t0=$(date +%s)
if ! "$VPY" -c 'import aioquic, cffi, setuptools; assert aioquic.__version__.startswith("1.7.")' 2>/dev/null; then
    echo "== venv $VENV: aioquic 1.7.2 from PyPI"
    rm -rf "$VENV" && python3 -m venv "$VENV" && "$VPY" -m pip install --quiet "aioquic==1.7.2" "cffi>=1.17" "setuptools>=77"
fi
# The binding, linked to $AEAD_BUILD_DIR's library (reinstalled when its sources change).
# shellcheck source=../python-binding.sh
. "$REPO/tests/python-binding.sh"
install_binding "$VPY" "$WORK/pip-libaead.log" || exit 1
echo "== python ready in $(($(date +%s) - t0)) s: $("$VPY" -c 'import aioquic, libaead; print("aioquic", aioquic.__version__, "/", libaead.library_version())')"

t0=$(date +%s)
(cd "$HERE/quicgo" && GOFLAGS=-mod=readonly go build -o "$WORK/quicgo" .)
echo "== quic-go echo built in $(($(date +%s) - t0)) s ($(cd "$HERE/quicgo" && go list -m -f '{{.Path}} {{.Version}}' github.com/quic-go/quic-go))"

QUINN=0 QUINN_WHY="bindings/rustls-libaead/examples has no quic-echo-server / quic-echo-client" QUINN_BROKEN=0
QBIN="$RUSTLS_TARGET/debug/examples"
have_example() { [ -e "$CRATE/examples/$1.rs" ] || [ -e "$CRATE/examples/$1/main.rs" ]; }
if [ -n "${AEAD_QUIC_QUINN_BIN:-}" ]; then  # examples built elsewhere (a directory with both binaries)
    QBIN=$AEAD_QUIC_QUINN_BIN
    [ -x "$QBIN/quic-echo-server" ] && [ -x "$QBIN/quic-echo-client" ] && QUINN=1 QUINN_WHY="prebuilt, from $QBIN" ||
        QUINN_WHY="AEAD_QUIC_QUINN_BIN=$QBIN has no quic-echo-server / quic-echo-client"
elif have_example quic-echo-server && have_example quic-echo-client; then
    t0=$(date +%s)
    # The tls-interop stage's environment (tests/lib), so both stages share one set of build artifacts.
    (cd "$CRATE" && CARGO_TARGET_DIR="$RUSTLS_TARGET" cargo build --locked --example quic-echo-server --example quic-echo-client) &&
        QUINN=1 QUINN_WHY="examples built in $(($(date +%s) - t0)) s" ||
        QUINN_WHY="cargo build of the examples FAILED" QUINN_BROKEN=1  # a failed row at the end
fi

FIPS_CONF="" FIPS_MODULES="" FIPS_WHY="tests/fips/env.sh failed"
fips_vars=$(cd "$REPO" && bash -c 'source tests/fips/env.sh >/dev/null && printf "%s\n%s\n" "$OPENSSL_CONF" "$OPENSSL_MODULES"') &&
    { read -r FIPS_CONF; read -r FIPS_MODULES; } <<<"$fips_vars" && FIPS_WHY=""

# --- the peer table --------------------------------------------------------------------------
# name | enabled (1/0) | libaead side | chooses the suite | key update as client | as server | FIPS |
# reports the key updates it saw (key_updates=) | server exits after one connection (else: killed once it
# printed its line)
PEERS=(
    "aioquic          1        0 1 1 1 0 1 1"
    "aioquic+libaead  1        1 1 1 1 1 1 1"
    "quic-go          1        0 0 0 0 0 1 1"
    "quinn+libaead    $QUINN   1 1 1 0 0 0 0"
    "quinn+ring       $QUINN   0 1 1 0 0 0 0"
)
peer_field() { printf '%s\n' "${PEERS[@]}" | awk -v n="$1" -v c="$2" '$1 == n { print $c }'; }
echo "== peers"
printf '   %-16s %-8s %-8s %-7s %-18s %s\n' peer enabled libaead suites key-update fips
for row in "${PEERS[@]}"; do
    set -- $row
    note="" && [[ $1 != quinn* ]] || note="  ($QUINN_WHY)"
    printf '   %-16s %-8s %-8s %-7s %-18s %s%s\n' "$1" "$([ "$2" = 1 ] && echo yes || echo NO)" \
        "$([ "$3" = 1 ] && echo yes || echo no)" "$([ "$4" = 1 ] && echo choose || echo fixed)" \
        "client:$5 server:$6" "$([ "$7" = 1 ] && echo yes || echo no)" "$note"
done

# The command of PEER in ROLE: peer_cmd PEER ROLE PORT_OR_TARGET SUITE KU FIPS -> CMD array.
peer_cmd() {
    local peer=$1 role=$2 where=$3 suite=$4 ku=$5 fips=$6
    CMD=()
    case $peer in
    aioquic | aioquic+libaead)
        CMD=(timeout $T env)
        [ "$fips" = 1 ] && CMD+=(QI_FIPS_OPENSSL_CONF="$FIPS_CONF" QI_FIPS_OPENSSL_MODULES="$FIPS_MODULES")
        CMD+=("$VPY" "$HERE/aioquic_echo.py" "$role" --suite "$suite" --timeout $((T - 5)))
        [ "$peer" = aioquic+libaead ] && CMD+=(--libaead)
        [ "$fips" = 1 ] && CMD+=(--fips)
        [ "$ku" = 1 ] && CMD+=(--key-update)
        ;;
    quic-go) CMD=(timeout $T "$WORK/quicgo" "$role") ;;
    quinn+libaead | quinn+ring)  # rustls's names: TLS13_AES_128_GCM_SHA256
        CMD=(timeout $T "$QBIN/quic-echo-$role" --suite "${suite/#TLS_/TLS13_}")
        [ "$peer" = quinn+ring ] && CMD+=(--ring)
        [ "$ku" = 1 ] && CMD+=(--key-update)
        ;;
    esac
    if [ "$role" = server ]; then
        CMD+=(--listen "$where" --cert "$WORK/cert-ecdsa.pem" --key "$WORK/key-ecdsa.pem")
    else
        CMD+=(--connect "127.0.0.1:$where" --ca "$WORK/ca-ecdsa.pem" --bytes "$BYTES")
    fi
}

make_certs ecdsa

# field FILE NAME: NAME=value from the last line of FILE that reports bytes= (empty when absent).
field() { { grep 'bytes=' "$1" 2>/dev/null || true; } | tail -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# record LABEL SUITE CASE OK(0/1) DETAIL: the case's row.
record() {
    local t
    t=$(elapsed)
    row "$4" "$(printf '%-42s %-29s %-11s %-7s %4ss  %s' "$1" "$2" "$3" "$([ "$4" = 0 ] && echo ok || echo FAILED)" "${t%.*}" "$5")"
}

# --- one run (in a lane of its own) ------------------------------------------------------------
# run_case OURS ROLE PEER SUITE CASE: the libaead side OURS in ROLE (client|server) against PEER, in $D,
# the server on ${PORTS[0]}, the proxy on ${PORTS[1]}.
run_case() {
    local ours=$1 role=$2 peer=$3 suite=$4 case=$5
    local cl=$peer sv=$ours ku_c=0 ku_s=0 fips_c=0 fips_s=0 target=${PORTS[0]} label="$peer -> $ours(server)" spid ppid=""
    [ "$role" = server ] || cl=$ours sv=$peer label="$ours(client) -> $peer"
    [ "$case" != key-update ] || { [ "$role" = client ] && ku_c=1 || ku_s=1; }
    [ "$case" != fips ] || { [ "$role" = client ] && fips_c=1 || fips_s=1; }
    if [ "$case" = fips ] && [ -z "$FIPS_CONF" ]; then
        record "$label" "$suite" "$case" 1 "no FIPS provider: $FIPS_WHY"
        return
    fi
    peer_cmd "$sv" server "${PORTS[0]}" "$suite" "$ku_s" "$fips_s"
    echo "${CMD[*]}" >"$D/server.cmd"
    "${CMD[@]}" >"$D/server.out" 2>"$D/server.err" & track spid
    if ! wait_listen "${PORTS[0]}" "$spid"; then
        local rc
        reap rc "$spid" 0
        record "$label" "$suite" "$case" 1 "the server did not start (exit $rc)"
        return
    fi
    if [ "$case" = proxy-flip ]; then
        target=${PORTS[1]}
        start_proxy "$target" "${PORTS[0]}" --udp --packets quic --min-size 200 --fault flip --toward "$role" \
            --every 20 --max 30 --idle 15 || true
        ppid=$PROXY
    fi
    peer_cmd "$cl" client "$target" "$suite" "$ku_c" "$fips_c"
    echo "${CMD[*]}" >"$D/client.cmd"
    local rc_cl=0 rc_sv rc_px
    "${CMD[@]}" >"$D/client.out" 2>"$D/client.err" || rc_cl=$?
    # The server ends once the client's close has arrived (aioquic: after its draining period); one that
    # serves on (quinn's example) is stopped once it has printed its line for the connection.
    if [ "$(peer_field "$sv" 9)" = 1 ]; then
        reap rc_sv "$spid" $([ "$rc_cl" = 0 ] && echo 10 || echo 2)
    else
        local i rc_sv=0
        for i in $(seq 100); do [ -n "$(field "$D/server.out" bytes)" ] && break; sleep 0.05; done
        kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null || true
        [ -n "$(field "$D/server.out" bytes)" ] || rc_sv="(no line for the connection)"
    fi
    if [ -n "$ppid" ]; then kill -TERM "$ppid" 2>/dev/null || true; reap rc_px "$ppid" 5; fi
    local ok=0 what="" our_out=$D/server.out peer_out=$D/client.out f s ours_k peer_k flipped forg prov
    [ "$role" = server ] || our_out=$D/client.out peer_out=$D/server.out
    [ "$rc_cl" = 0 ] || bad "client exit $rc_cl"
    [ "$rc_sv" = 0 ] || bad "server exit $rc_sv"
    for f in "$D/client.out" "$D/server.out"; do
        [ "$(field "$f" bytes)" = "$BYTES" ] || bad "$(basename "$f" .out) did not report bytes=$BYTES"
        s=$(field "$f" suite)
        [ -z "$s" ] || [ "${s/#TLS13_/TLS_}" = "$suite" ] || bad "$(basename "$f" .out) negotiated $s"
    done
    [ -n "$(field "$D/client.out" suite)$(field "$D/server.out" suite)" ] || bad "neither side reported a suite"
    [ "$ok" = 0 ] && what="1 MiB echoed"
    case $case in
    key-update)
        ours_k=$(field "$our_out" initiated)
        [ -n "$ours_k" ] || ours_k=$(field "$our_out" key_updates)
        peer_k=$(field "$peer_out" key_updates)
        what="$what; ours initiated ${ours_k:-?}, peer saw ${peer_k:-?} update(s)"
        [ "${ours_k:-0}" -ge 1 ] 2>/dev/null || bad "no key update by our side"
        # The peers that report what they saw (aioquic, quic-go) must have seen ours.
        [ "$(peer_field "$peer" 8)" != 1 ] || [ "${peer_k:-0}" -ge 1 ] 2>/dev/null || bad "the peer saw none" ;;
    proxy-flip)
        flipped=$(proxy_stat "$role" flipped) forg=$(field "$our_out" forgeries)
        what="$what; proxy flipped $flipped, our forgeries ${forg:-?}"
        [ "$flipped" -ge 1 ] 2>/dev/null || bad "nothing flipped"
        [ -n "$forg" ] || bad "our side printed no forgeries= (every libaead side must)"
        [ -z "$forg" ] || [ "$forg" -ge 1 ] 2>/dev/null || bad "no forgery counted" ;;
    fips)
        prov=$(field "$our_out" provider)
        what="$what; our keys' provider ${prov:-?}, approved seals on $(field "$our_out" seal_approved) keys"
        [ "$prov" = fips ] || bad "not the FIPS provider" ;;
    esac
    record "$label" "$suite" "$case" "$ok" "${what#; }"
}

# --- the matrix: AEAD_QUIC_JOBS cases at a time (default 2) ----------------------------------------
CASES_RUN=(plain key-update proxy-flip fips)
if [ "$QUINN_BROKEN" = 1 ]; then  # examples that exist but do not build: their rows cannot run
    CASES=1 CASE_ID=001 D="$WORK/001-quinn"
    mkdir -p "$D"
    row 1 "$(printf '%-42s %-29s %-11s %-7s %5s  %s' "quinn+libaead / quinn+ring" all all FAILED - "$QUINN_WHY")"
fi
for ours in aioquic+libaead quinn+libaead; do
    [ "$(peer_field "$ours" 2)" = 1 ] || continue
    for peer in aioquic quic-go quinn+ring aioquic+libaead quinn+libaead; do
        [ "$peer" != "$ours" ] && [ "$(peer_field "$peer" 2)" = 1 ] || continue
        # a pair of two libaead sides runs once (under the first of them)
        [ "$ours" = quinn+libaead ] && [ "$peer" = aioquic+libaead ] && continue
        [[ "$ours $peer" =~ ${AEAD_QUIC_PEERS:-.} ]] || continue
        for role in client server; do
            for suite in "${SUITES[@]}"; do
                [[ $suite =~ ${AEAD_QUIC_SUITES:-.} ]] || continue
                for case in "${CASES_RUN[@]}"; do
                    [[ $case =~ ${AEAD_QUIC_CASES:-.} ]] || continue
                    case $case in
                    key-update)  # initiated by our side, in its role
                        [ "$(peer_field "$ours" $([ "$role" = client ] && echo 5 || echo 6))" = 1 ] || continue
                        # Not aioquic's update against quinn: quinn starts one of its own after a random
                        # 10-1000 packets (quinn-proto key_phase_size), and when the two coincide aioquic,
                        # which keeps no previous keys, stalls to an idle timeout (seen once in ~5 runs;
                        # aioquic's limitation, on its own packet protection as much as on libaead's).
                        [[ $ours == aioquic+libaead && $peer == quinn* ]] && continue ;;
                    fips) [ "$(peer_field "$ours" 7)" = 1 ] && [[ $suite != *CHACHA* ]] || continue ;;
                    esac
                    echo "   [$((CASES + 1))] $ours as $role / $peer / $suite / $case"
                    lane run_case "$ours" "$role" "$peer" "$suite" "$case"
                done
            done
        done
    done
done

echo
results "== results (the libaead side of each row is the one named with its role)" \
    "$(printf '%-42s %-29s %-11s %-7s %5s  %s' "pair" "suite" "case" "result" "time" "detail")"
echo "peers run: $(for row in "${PEERS[@]}"; do set -- $row; [ "$2" = 1 ] && printf '%s ' "$1"; done)"
echo "peers not run: $(for row in "${PEERS[@]}"; do set -- $row; [ "$2" = 1 ] || printf '%s ' "$1"; done)"
echo "quic-interop: $(($(date +%s) - started)) s, $JOBS cases at a time"
finish
