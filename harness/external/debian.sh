# Sourced by the setup scripts of adapters whose library comes from Debian's packages.

# ensure_debian LABEL CHECK PACKAGE...
#   Runs CHECK (a command or function); when it fails, installs the packages with apt-get
#   (as root; `apt-get update` first only when the lists do not know the last package
#   yet) and runs CHECK again. Not root: says what to install and fails.
ensure_debian() {
  local label=$1 check=$2
  shift 2
  if "$check"; then
    echo "$label: already installed"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "$label: missing; install as root: apt-get install $*" >&2
    return 1
  fi
  # (The policy is read whole first: grep -q would cut the pipe, and pipefail would see it.)
  local policy
  policy="$(apt-cache policy "${@: -1}" 2>/dev/null || true)"
  if ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
    apt-get update
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "$@"
  "$check" || { echo "$label: still does not load after installing $*" >&2; return 1; }
}

# say_hello LABEL COMMAND...
#   Starts the adapter with stdin closed and prints its handshake line; fails when none comes.
say_hello() {
  local label=$1 hello
  shift
  hello="$("$@" </dev/null | head -n 1)" || true
  [ -n "$hello" ] || { echo "$label: the adapter does not start" >&2; return 1; }
  echo "$label: $hello"
}
