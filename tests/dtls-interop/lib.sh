# Helpers shared by the DTLS interop scripts (tests/dtls-interop/run.sh, bindings/dimpl-libaead/udp-interop.sh).
# shellcheck shell=bash

# make_cert DIR: a self-signed ECDSA P-256 certificate and key in DIR/cert.pem and DIR/key.pem.
make_cert() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost \
        -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null || { echo "FAIL: no ECDSA certificate" >&2; return 1; }
}
# A loopback UDP port nobody has bound.
freeport() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
waitport() {  # the UDP port is bound (the server is up)
    local i
    for i in $(seq 100); do
        grep -qi ":$(printf "%04X" "$1") " /proc/net/udp /proc/net/udp6 && return 0
        sleep 0.05
    done
    return 1
}
# opened/replays/forgeries from an example's exit line.
counts() { sed -n 's/.*records opened \([0-9]*\), replays refused \([0-9]*\), forgeries refused \([0-9]*\).*/\1\/\2\/\3/p' "$1" | head -1; }
