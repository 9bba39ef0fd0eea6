# shellcheck shell=bash
# Sourced by the ae/ scripts that parse options, from the checkout's root.
#
# option_value NAME WHAT "$@": with "$@" the script's arguments from an
# option on, sets variable NAME to the value that follows the option. A
# missing value, or one that is itself an option (`--out --jobs 4` would
# otherwise write into a directory named --jobs), is bad input: the script
# exits 2 saying what the option needs. Without this, bash's ${2:?} said
# "line 82: 2: --jobs needs a number" and exited 1.
option_value() {
  local name=$1 what=$2
  shift 2
  if [[ $# -lt 2 || "$2" == --* ]]; then
    echo "ae/$(basename "$0"): $1 needs $what" >&2
    exit 2
  fi
  printf -v "$name" '%s' "$2"
}

# option_set "$@": the same for --set PATH=VALUE, appended to the calling
# script's array `sets` as the two words dmbench takes.
option_set() {
  local value
  option_value value "PATH=VALUE" "$@"
  sets+=(--set "$value")
}

# option_mode OPTION: a mode option (--quick, --full or --paper-scale) into
# the calling script's variable `mode`. A second, different mode is bad
# input: the run would otherwise take the last one, which the user may not
# have meant (--paper-scale --quick runs quick).
option_mode() {
  if [[ -n "$mode" && "$mode" != "$1" ]]; then
    echo "ae/$(basename "$0"): $mode and $1: give one mode (--quick, --full or --paper-scale)" >&2
    exit 2
  fi
  mode=$1
}

# option_positive OPTION VALUE: a value that is not a positive integer (0,
# 2x, -1) is bad input: the script exits 2 naming the option and the value.
option_positive() {
  if ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
    echo "ae/$(basename "$0"): $1 takes a positive integer, got '$2'" >&2
    exit 2
  fi
}
