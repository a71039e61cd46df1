# shellcheck shell=bash
# Sourced by ./run-tests: install the checkers of the browser code (package.json's
# devDependencies, at the versions package-lock.json pins) into node_modules when needed.
#
#   tussle_node_modules
#
# `npm ci` runs only when package-lock.json is newer than what the last install wrote
# (node_modules/.package-lock.json), so a run after the first costs nothing, as the
# virtual environment is reinstalled only when pyproject.toml changes.

TUSSLE_ROOT="${TUSSLE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
# eslint 9 runs on Node 18.18 and later (package.json's "engines").
TUSSLE_NODE_MIN="18.18"

tussle_node_modules() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        printf 'tussle: Node.js %s or newer and npm are needed to check the browser code (apt-get install nodejs npm)\n' \
            "$TUSSLE_NODE_MIN" >&2
        return 1
    fi
    if ! node -e '
        const [major, minor] = process.versions.node.split(".").map(Number);
        const [needMajor, needMinor] = process.argv[1].split(".").map(Number);
        process.exit(major > needMajor || (major === needMajor && minor >= needMinor) ? 0 : 1);
    ' "$TUSSLE_NODE_MIN"; then
        printf 'tussle: Node.js %s is too old to check the browser code: %s or newer is needed\n' \
            "$(node --version)" "$TUSSLE_NODE_MIN" >&2
        return 1
    fi
    local installed="$TUSSLE_ROOT/node_modules/.package-lock.json"
    if [[ -f "$installed" && ! "$TUSSLE_ROOT/package-lock.json" -nt "$installed" ]]; then
        return 0
    fi
    printf 'tussle: installing the checkers of the browser code into node_modules (npm ci; again when package-lock.json changes)\n' >&2
    (cd "$TUSSLE_ROOT" && npm ci --no-audit --no-fund) || {
        printf 'tussle: npm ci failed (see its messages above)\n' >&2
        return 1
    }
}
