# Ports, waiting for processes, and the fault proxy (fault_proxy.py), for the interop stages; sourced by
# common.sh. PORT_KIND (tcp, the default, or udp) is the kind of port the stage's programs bind.
# shellcheck shell=bash
USED_PORTS=" "

# free_ports N: N free PORT_KIND ports on 127.0.0.1 in PORTS, none handed out before by this shell
# (cases run in parallel); the kernel picks them (bound at once, then released).
free_ports() {
    local p
    PORTS=()
    while [ ${#PORTS[@]} -lt "$1" ]; do
        for p in $(python3 -c 'import socket, sys
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[2] == "udp" else socket.SOCK_STREAM) for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))' "$1" "${PORT_KIND:-tcp}"); do
            case $USED_PORTS in *" $p "*) continue ;; esac
            [ ${#PORTS[@]} -lt "$1" ] && PORTS+=("$p") && USED_PORTS+="$p "
        done
    done
    return 0
}

# wait_listen PORT [PID]: until a socket is bound to PORT (TCP: listening; without connecting, as the
# servers take one connection), or PID has ended, or 20 s; fails, saying so in $D/harness.log.
wait_listen() {
    local hex i k=${PORT_KIND:-tcp}
    hex=$(printf ':%04X' "$1")
    for i in $(seq 400); do
        { cat "/proc/net/$k" "/proc/net/${k}6" 2>/dev/null || true; } |
            awk -v a="$hex" -v k="$k" 'substr($2, length($2) - 4) == a && (k == "udp" || $4 == "0A") { f = 1 } END { exit !f }' &&
            return 0
        [ -z "${2:-}" ] || kill -0 "$2" 2>/dev/null || break
        sleep 0.05
    done
    echo "nothing listens on port $1" >>"$D/harness.log"
    return 1
}

# reap VAR PID [GRACE]: waits for PID (a child of this shell; at most GRACE seconds when given, then it is
# killed) and stores its exit status in VAR.
reap() {
    local i rc=0
    if [ -n "${3:-}" ]; then
        for i in $(seq $(($3 * 20))); do kill -0 "$2" 2>/dev/null || break; sleep 0.05; done
        kill "$2" 2>/dev/null && echo "killed pid $2 (still running after $3 s)" >>"$D/harness.log"
    fi
    wait "$2" || rc=$?
    printf -v "$1" %s "$rc"
}

# start_proxy LISTEN UPSTREAM ARGS...: fault_proxy.py ARGS (see its docstring) between a client on
# LISTEN and the server on UPSTREAM, under timeout $T; returns once it listens. Its pid in PROXY, its
# summary line in $D/proxy.log, its counts in $D/proxy.json (proxy_stat).
start_proxy() {
    local listen=$1 upstream=$2
    shift 2
    timeout "$T" python3 "$LIB_DIR/fault_proxy.py" --listen "$listen" --upstream "$upstream" \
        --stats "$D/proxy.json" "$@" >>"$D/proxy.log" 2>&1 &
    track PROXY
    wait_listen "$listen" "$PROXY"
}
# through MODE TOWARD IDLE: the port a client connects to, in CP: the server's, ${PORTS[0]}, or with a MODE
# (dup, flip) a DTLS fault proxy's before it, ${PORTS[1]} (PROXY its pid, else "").
through() {
    CP=${PORTS[0]} PROXY=""
    [ -n "$1" ] || return 0
    CP=${PORTS[1]}
    start_proxy "$CP" "${PORTS[0]}" --udp --fault "$1" --toward "$2" --after 10 --max 30 --idle "$3"
}
# proxy_stat TOWARD FIELD: a count of the proxy's toward the server or the client (-1: none).
proxy_stat() {
    python3 -c 'import json, sys; print(int(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]))' \
        "$D/proxy.json" "$1" "$2" 2>/dev/null || echo -1
}
# The proxy's summary line, without its "proxy MODE: ".
proxy_line() { sed -n 's/^proxy [a-z]*: //p' "$D/proxy.log" 2>/dev/null; }
