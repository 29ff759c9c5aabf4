# What the interop stages share (tests/tls-interop, quic-interop, dtls-interop, bindings/dimpl-libaead):
# the library under test, a work directory whose processes end with the script, certificates, cases run
# one or $JOBS at a time with a row each, the tally; ports, waiting and the fault proxy (net.sh).
# shellcheck shell=bash
LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$LIB_DIR/../.." && pwd)"
HERE="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"  # the sourcing script's folder
# shellcheck source=net.sh
source "$LIB_DIR/net.sh"
# shellcheck source=build_dir.sh
source "$LIB_DIR/build_dir.sh"
die() { echo "$STAGE: $*" >&2; exit 1; }
# The rustls-libaead crate's build folder (tls-interop, quic-interop), in the cache like the other crates':
# a fresh clone then rebuilds only the path crates, not rustls, ring and quinn.
RUSTLS_TARGET="${XDG_CACHE_HOME:-$HOME/.cache}/libaead/cargo-target/rustls-libaead"
# What earlier checkouts left there goes after days unread (tests/lib/prune_cargo_target.py).
prune_rustls_target() { python3 "$LIB_DIR/prune_cargo_target.py" "$RUSTLS_TARGET"; }

# interop_init STAGE TOOL...: the tools must be there, and the C library built in AEAD_BUILD_DIR (default
# <repo>/build); pkg-config, the loader and the Rust crates (LIBAEAD_SYS_USE_PKG_CONFIG: no bundled copy
# of the core) use that build. Makes $WORK, kept at the end when AEAD_INTEROP_KEEP=1 or a case failed.
interop_init() {
    local t
    STAGE=$1 && shift
    for t in "$@"; do command -v "$t" >/dev/null 2>&1 || die "not available here: $t (tests/setup.sh installs it)"; done
    use_build_dir "$STAGE"
    export LIBAEAD_SYS_USE_PKG_CONFIG=1 RUSTFLAGS="-D warnings"
    WORK="$(mktemp -d "/tmp/$STAGE.XXXXXX")"
    mkdir "$WORK/rows"
    PIDS=() CASES=0 FAILED=0 JOBS=1
    trap interop_cleanup EXIT
}
interop_cleanup() {
    kill "${PIDS[@]}" $(jobs -p) 2>/dev/null || true
    if [ "${AEAD_INTEROP_KEEP:-0}" = 1 ] || [ "$FAILED" != 0 ]; then echo "$STAGE: logs kept in $WORK"; else rm -rf "$WORK"; fi
}
# cmd & track [VAR]: the background process joins PIDS (killed when its case or the script ends), its
# pid in VAR.
track() { PIDS+=("$!"); [ -z "${1:-}" ] || printf -v "$1" %s "$!"; }
# opened/replays/forgeries from the exit line of a DTLS example (pion-libaead's, dimpl-libaead's).
counts() { sed -n 's/.*records opened \([0-9]*\), replays refused \([0-9]*\), forgeries refused \([0-9]*\).*/\1\/\2\/\3/p' "$1" | head -1; }

# make_certs KIND...: per KIND (ecdsa: P-256, rsa: 2048 bits) a test CA and a leaf for localhost and
# 127.0.0.1 (webpki refuses a CA as end entity): $WORK/ca-KIND.pem, cert-KIND.pem, key-KIND.pem.
make_certs() {
    local kind newkey
    printf '%s\n' basicConstraints=critical,CA:FALSE keyUsage=digitalSignature,keyEncipherment \
        extendedKeyUsage=serverAuth subjectAltName=DNS:localhost,IP:127.0.0.1 >"$WORK/leaf.ext"
    for kind in "$@"; do
        if [ "$kind" = ecdsa ]; then newkey=(-newkey ec -pkeyopt ec_paramgen_curve:P-256); else newkey=(-newkey rsa:2048); fi
        (cd "$WORK" &&
            openssl req -x509 -nodes -days 2 -subj "/CN=$STAGE $kind CA" "${newkey[@]}" -keyout "ca-$kind.key" -out "ca-$kind.pem" &&
            openssl req -new -nodes -subj /CN=localhost "${newkey[@]}" -keyout "key-$kind.pem" -out "$kind.csr" &&
            openssl x509 -req -in "$kind.csr" -CA "ca-$kind.pem" -CAkey "ca-$kind.key" -CAcreateserial -days 2 \
                -extfile leaf.ext -out "cert-$kind.pem") 2>"$WORK/openssl.err" || { cat "$WORK/openssl.err" >&2; die "no $kind certificate"; }
    done
}

# lane CMD...: CMD as the next case, in a subshell of its own, at most $JOBS at a time; before it starts:
# its number CASE_ID, its log directory D, three fresh ports in PORTS (net.sh) and CASE_START.
lane() {
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    CASES=$((CASES + 1)) CASE_ID=$(printf %03d "$CASES") D="$WORK/$CASE_ID-$(tr -c 'A-Za-z0-9+.\n-' _ <<<"$*")"
    mkdir -p "$D" && free_ports 3 && CASE_START=$EPOCHREALTIME
    (PIDS=(); trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT; "$@") </dev/null &
}
# bad TEXT: the calling case fails (its ok=1), TEXT noted in its $what.
bad() { ok=1 what="$what; $*"; }
# The seconds the case has taken so far, to a tenth.
elapsed() { awk -v s="$CASE_START" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }'; }
# row OK TEXT: the case's row (OK: 0 passed); a failed case also shows the end of its text logs.
row() {
    printf '%s\n' "$2" >"$WORK/rows/$CASE_ID"
    [ "$1" = 0 ] || { : >"$WORK/rows/$CASE_ID.failed"; show_logs "$2"; }
}
show_logs() {
    local f
    echo "---- FAILED: $1; logs in $D:" >&2
    for f in "$D"/*; do [ -f "$f" ] && grep -Iq . "$f" && { echo "  -- ${f##*/}:"; tail -n 8 "$f" | sed 's/^/     /'; } >&2; done
    return 0
}
# results HEADER_LINE...: waits for the cases, prints the header lines and every row in order; PASSED,
# FAILED and ROWS (the rows written; a case that left none failed).
results() {
    local i
    wait
    printf '%s\n' "$@"
    FAILED=0 ROWS=0
    for ((i = 1; i <= CASES; i++)); do
        CASE_ID=$(printf %03d "$i") && D=$(echo "$WORK/$CASE_ID"-*)
        if [ -e "$WORK/rows/$CASE_ID" ]; then
            cat "$WORK/rows/$CASE_ID" && ROWS=$((ROWS + 1))
            [ ! -e "$WORK/rows/$CASE_ID.failed" ] || FAILED=$((FAILED + 1))
        else
            echo "${D##*/}: FAILED, the case left no row" && show_logs "${D##*/} left no row" && FAILED=$((FAILED + 1))
        fi
    done
    PASSED=$((CASES - FAILED))
}
# finish [cases]: the result line ("N passed, M failed"; cases: "N cases passed" or "F of N cases
# FAILED"); fails when a case did.
finish() {
    if [ "${1:-}" != cases ]; then echo "$STAGE: $PASSED passed, $FAILED failed"
    elif [ "$FAILED" = 0 ]; then echo "$STAGE: $ROWS cases passed"
    else echo "$STAGE: $FAILED of $CASES cases FAILED ($ROWS rows written)" >&2; fi
    [ "$FAILED" = 0 ]
}
