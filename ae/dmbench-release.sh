# shellcheck shell=bash
# Sourced by the ae/ scripts that run dmbench on this machine, from the
# checkout's root: unless DMBENCH already names a binary, installs the
# packages of ae/setup.sh's profile $setup_profile (default main), builds the
# Release dmbench and sets DMBENCH to it, so that a fresh machine needs no
# other step.
if [[ -z "${DMBENCH:-}" ]]; then
  ae/setup.sh "${setup_profile:-main}"
  echo "== build (release)" >&2
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$(nproc)" --target dmbench >/dev/null
  DMBENCH=build/release/harness/cli/dmbench
fi
