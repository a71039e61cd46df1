# shellcheck shell=bash
# Sourced by ./tussle and ./run-tests: create or reuse the project's virtual
# environment and install the project into it when needed.
#
#   tussle_venv [EXTRA ...]   e.g. `tussle_venv`, `tussle_venv server` or `tussle_venv dev`
#
# Afterwards TUSSLE_VENV is the environment's absolute path. The environment is
# $TUSSLE_VENV if set (relative to the current directory), else .venv in the
# repository. A stamp file inside it records what was installed: a hash of
# pyproject.toml, the repository's path (an editable install points there) and
# the extras. The project is (re)installed only when the stamp does not cover
# what is asked, so starting tussle stays quick after the first time.

TUSSLE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

_tussle_say() {
    printf 'tussle: %s\n' "$*" >&2
}

_tussle_hash() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        cksum "$1" | cut -d' ' -f1
    fi
}

# About how many MB installing these extras adds to an empty environment (measured with fresh
# ones: docs/architecture.md, "Installed sizes"; extras that share libraries count them twice),
# for the line said before pip runs.
_tussle_size() {
    local extra total=23
    # The largest sets hold the others: dev and train bring PyTorch, all every extra but train.
    case " $* " in
        *" dev "* | *" train "*)
            printf '2000\n'
            return
            ;;
        *" all "*)
            printf '1250\n'
            return
            ;;
    esac
    for extra in "$@"; do
        case "$extra" in
            server) total=$((total + 107)) ;;
            postgres)
                # It brings the server extra too.
                if [[ " $* " == *" server "* ]]; then total=$((total + 12)); else total=$((total + 119)); fi
                ;;
            balance) total=$((total + 390)) ;;
            bench) total=$((total + 1)) ;;
            cluster) total=$((total + 241)) ;;
            gymnasium | pettingzoo) total=$((total + 173)) ;;
            openspiel) total=$((total + 265)) ;;
            rl) total=$((total + 370)) ;;
            jax) total=$((total + 590)) ;;
        esac
    done
    printf '%s\n' "$total"
}

# Run pip (the arguments): on a terminal one line that follows what it fetches, elsewhere
# nothing; its own messages are shown only when it fails.
_tussle_pip() {
    local log rc=0 line
    log="$(mktemp "${TMPDIR:-/tmp}/tussle-pip.XXXXXX")"
    if [[ -t 2 ]]; then
        { "$@" 2>&1 | tee "$log" | while IFS= read -r line; do
            case "$line" in
                Collecting* | Downloading* | Building* | Installing*) printf '\r\033[K  %s' "${line:0:72}" >&2 ;;
            esac
        done; } || rc=$?
        printf '\r\033[K' >&2
    else
        "$@" >"$log" 2>&1 || rc=$?
    fi
    ((rc == 0)) || cat "$log" >&2
    rm -f "$log"
    return "$rc"
}

# The python that creates the environment: $PYTHON, else python3; it must be 3.11 or newer.
_tussle_base_python() {
    local py="${PYTHON:-python3}"
    if ! command -v "$py" >/dev/null 2>&1; then
        _tussle_say "cannot find $py; install Python 3.11 or newer (or set PYTHON)"
        return 1
    fi
    if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        _tussle_say "$py is Python $("$py" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo '?'); tussle needs 3.11 or newer (set PYTHON)"
        return 1
    fi
    printf '%s\n' "$py"
}

tussle_venv() {
    local venv="${TUSSLE_VENV:-$TUSSLE_ROOT/.venv}"
    case "$venv" in
        /*) ;;
        *) venv="$PWD/$venv" ;;
    esac
    TUSSLE_VENV="$venv"
    export TUSSLE_VENV

    local key stamp="$venv/.tussle-stamp"
    key="$(_tussle_hash "$TUSSLE_ROOT/pyproject.toml") $TUSSLE_ROOT"

    # Extras installed before are kept (and reinstalled along when the key
    # changes), so that ./tussle after ./run-tests does not drop the dev tools.
    local -a want=("$@")
    local have_key="" have_extras="" missing=0 extra
    if [[ -x "$venv/bin/python" && -r "$stamp" ]]; then
        have_key="$(sed -n 1p "$stamp")"
        have_extras="$(sed -n 2p "$stamp")"
    fi
    [[ "$have_key" == "$key" ]] || missing=1
    for extra in "${want[@]}"; do
        [[ " $have_extras " == *" $extra "* ]] || missing=1
    done
    [[ $missing == 0 ]] && return 0

    local -a extras=()
    for extra in $have_extras "${want[@]}"; do
        [[ " ${extras[*]} " == *" $extra "* ]] || extras+=("$extra")
    done

    if [[ ! -x "$venv/bin/python" ]]; then
        # Only an empty folder or a broken environment is (re)made: never wipe
        # a folder that TUSSLE_VENV names by mistake.
        if [[ -e "$venv" && ! -f "$venv/pyvenv.cfg" && -n "$(ls -A "$venv" 2>/dev/null)" ]]; then
            _tussle_say "$venv is not empty and not a virtual environment; set TUSSLE_VENV to another folder"
            return 1
        fi
        local base
        base="$(_tussle_base_python)" || return 1
        _tussle_say "creating a virtual environment in $venv"
        "$base" -m venv --clear "$venv" || {
            _tussle_say "could not create $venv (is the venv module of Python installed?)"
            return 1
        }
    fi

    local target="."
    if ((${#extras[@]})); then
        target=".[$(IFS=,; echo "${extras[*]}")]"
    fi
    _tussle_say "installing tussle${extras[*]:+ with ${extras[*]}} into $venv (about $(_tussle_size "${extras[@]}") MB; once, and again when pyproject.toml changes)..."
    rm -f "$stamp"
    (cd "$TUSSLE_ROOT" && _tussle_pip "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -e "$target") || {
        _tussle_say "installing tussle into $venv failed (see pip's messages above)"
        return 1
    }
    printf '%s\n%s\n' "$key" "${extras[*]}" >"$stamp"
}
