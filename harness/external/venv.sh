# shellcheck shell=bash
# Sourced by the setup scripts that install pinned Python packages into a venv.

# ensure_venv LABEL VENV REQUIREMENTS...
#   Makes VENV a working virtual environment of $REPTEST_PYTHON (default python3, 3.10 or
#   newer; a broken venv is recreated) holding the pinned REQUIREMENTS files. pip runs
#   only when the stamp in the venv does not match the hash of those files and the
#   interpreter's version, so a second run only checks. Fails with a message naming LABEL.
ensure_venv() {
  local label=$1 venv=$2
  shift 2
  local python="${REPTEST_PYTHON:-python3}"
  local stamp="$venv/.reptest-requirements.sha256" want requirement
  "$python" -c 'import sys; assert sys.version_info >= (3, 10), sys.version' 2>/dev/null \
    || { echo "$label: $python is missing or older than 3.10" >&2; return 1; }
  if [ -d "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then
    echo "$label: $venv is broken (its interpreter does not run); recreating it"
    rm -rf "$venv"
  fi
  # A venv copied or moved from elsewhere still runs its interpreter, but its scripts
  # (pip, scrapy, pytest) start the interpreter of the old place, by their #! line.
  if [ -f "$venv/bin/pip" ]; then
    local first logical physical
    first="$(head -n 1 "$venv/bin/pip")"
    logical="$(cd "$venv" && pwd)"
    physical="$(cd "$venv" && pwd -P)"
    case "$first" in
      "#!$logical/bin/python" | "#!$logical/bin/python3" | "#!$physical/bin/python" | "#!$physical/bin/python3") ;;
      *)
        echo "$label: $venv was made at another path (its scripts start ${first#\#!}); recreating it"
        rm -rf "$venv"
        ;;
    esac
  fi
  if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv" \
      || { echo "$label: cannot create the venv at $venv" >&2; return 1; }
  fi
  want="$( { cat "$@"; "$venv/bin/python" -c 'import sys; print(sys.version)'; } \
    | sha256sum | cut -d' ' -f1 )"
  if [ "$want" = "$(cat "$stamp" 2>/dev/null || true)" ]; then
    echo "$label: venv up to date ($venv)"
    return 0
  fi
  local args=()
  for requirement in "$@"; do
    args+=(-r "$requirement")
  done
  rm -f "$stamp"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input "${args[@]}" \
    || { echo "$label: pip install ${args[*]} failed" >&2; return 1; }
  echo "$want" > "$stamp"
}
