# shellcheck shell=bash
# Sourced by .ci/run: `step <command> [args...]` runs one timed CI step, and a SIGTERM, SIGINT or
# SIGHUP to the script ends the running step's whole process tree before the script exits.
#
# Each step runs in the background in a process group of its own (`set -m` only while it is
# started), and the script waits for it with `wait`, which a trapped signal interrupts at once (a
# foreground command would be waited for first: bash runs a trap only after it ends). The trap
# sends the signal on to the step's group (SIGTERM for SIGHUP: the kit's scripts clean up on SIGINT
# and SIGTERM, e.g. test:medusa stops its PostgreSQL and Medusa), waits until the group is empty for
# at most CI_STEP_GRACE seconds (default 30), SIGKILLs what is left and waits for it to go, and
# exits 130 (INT), 143 (TERM) or 129 (HUP). Job control also keeps SIGINT's default in the step,
# where a background job of a script would start with SIGINT ignored.
#
# A step's output goes where the script's goes; its stdin is /dev/null (a step in a group of its
# own must not read a terminal). A step that fails returns its exit code, so `set -e` ends the
# script with it, as when the command ran in the foreground; `VAR=value step command` passes VAR
# on to the command.

step_pid=
step_name=

step() {
  local t=$SECONDS status=0
  echo "::: $* (node $(node --version))"
  step_name=$*
  set -m
  "$@" </dev/null &
  step_pid=$!
  set +m
  wait "$step_pid" || status=$?
  step_pid=
  if ((status != 0)); then
    echo "::: $* failed (exit $status) after $((SECONDS - t)) s"
    return "$status"
  fi
  echo "::: $* took $((SECONDS - t)) s"
}

# step_group_alive <pgid>: whether a process of the group still runs. Not `kill -0`, which counts
# zombies: the step's orphans are reaped by init, which may take its time.
step_group_alive() {
  local stat line state pgrp
  if [[ ! -d /proc/self ]]; then
    kill -0 -- "-$1" 2>/dev/null
    return
  fi
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$stat" || continue
    # the command name may hold spaces and parentheses: the fields after it follow the last ')'
    read -r state _ pgrp _ <<<"${line##*) }"
    [[ $pgrp == "$1" && $state != Z ]] && return 0
  done
  return 1
}

# step_stop <signal received> <signal to send the step> <exit code>
step_stop() {
  trap '' INT TERM HUP
  if [[ -n $step_pid ]]; then
    local grace=${CI_STEP_GRACE:-30} waited=0
    echo "::: $1: stopping the running step ($step_name)" >&2
    kill -s "$2" -- "-$step_pid" 2>/dev/null || true
    while step_group_alive "$step_pid" && ((waited < grace * 10)); do
      sleep 0.1
      waited=$((waited + 1))
    done
    if step_group_alive "$step_pid"; then
      echo "::: $1: the step's processes were still running after ${grace} s: killed" >&2
      kill -s KILL -- "-$step_pid" 2>/dev/null || true
      # SIGKILLed processes take a moment to be gone on a loaded machine
      waited=0
      while step_group_alive "$step_pid" && ((waited < 50)); do
        sleep 0.1
        waited=$((waited + 1))
      done
    fi
  fi
  exit "$3"
}
trap 'step_stop SIGINT INT 130' INT
trap 'step_stop SIGTERM TERM 143' TERM
trap 'step_stop SIGHUP TERM 129' HUP
