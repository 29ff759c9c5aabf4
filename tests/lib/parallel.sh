# Independent single-process steps (a pytest run, a fuzz target, a suite under qemu-user) side by side:
# CI's machine has two cores and each of these keeps one busy. Each step runs in a subshell of its own
# (errexit as in the caller), its output goes to a log of its own, and `together_wait` prints the logs in
# the order the steps were started, so a stage's output reads as if they had run one after the other.
#   together STEP-NAME COMMAND...    start (waits while $TOGETHER_MAX steps, default 2, are running)
#   together_wait                    wait for every step; prints each log; fails if any step failed
# shellcheck shell=bash
TOGETHER_NAMES=() TOGETHER_PIDS=() TOGETHER_DIR=
together() {
    local name=$1
    shift
    [ -n "$TOGETHER_DIR" ] || TOGETHER_DIR=$(mktemp -d)
    while [ "$(jobs -rp | wc -l)" -ge "${TOGETHER_MAX:-2}" ]; do wait -n || true; done
    ("$@") >"$TOGETHER_DIR/${#TOGETHER_NAMES[@]}.log" 2>&1 </dev/null &
    TOGETHER_PIDS+=("$!")
    TOGETHER_NAMES+=("$name")
}
together_wait() {
    local i rc=0 st
    for i in "${!TOGETHER_PIDS[@]}"; do
        st=0
        wait "${TOGETHER_PIDS[$i]}" || st=$?
        cat "$TOGETHER_DIR/$i.log"
        if [ "$st" != 0 ]; then
            echo "FAILED (exit $st): ${TOGETHER_NAMES[$i]}" >&2
            rc=1
        fi
    done
    rm -rf "$TOGETHER_DIR"
    TOGETHER_NAMES=() TOGETHER_PIDS=() TOGETHER_DIR=
    return $rc
}
