#!/bin/sh
# Static analysis of src/: cppcheck (warning, style, performance, portability) and clang-tidy
# (.clang-tidy). Both must be clean; the exit status says whether they are.
#
#   ./scripts/lint.sh              both, on every file of src/
#   ./scripts/lint.sh FILE...      both, on those files
#
# cppcheck's suppressions are in scripts/cppcheck.supp (each with its reason); clang-tidy's
# choice of checks is in .clang-tidy. clang-tidy needs compile_commands.json: the script
# configures build-lint for it (no build needed).
set -eu
cd "$(dirname "$0")/.."
build=${BUILD:-build-lint}
jobs=$(nproc 2>/dev/null || echo 2)

if [ $# -gt 0 ]; then
	files=$*
else
	files=$(find src -name '*.c' | sort)
fi

status=0
echo "== cppcheck $(cppcheck --version | sed 's/Cppcheck //')"
incs=$(for d in src/*/; do printf -- '-I%s ' "${d%/}"; done)
# shellcheck disable=SC2086
if ! cppcheck --quiet --std=c11 --enable=warning,style,performance,portability --inline-suppr \
	--suppressions-list=scripts/cppcheck.supp --error-exitcode=1 -j "$jobs" \
	-D_POSIX_C_SOURCE=200809L -D__GNUC__ -U__clang_analyzer__ $incs \
	--template='{file}:{line}:{column}: {severity}: {message} [{id}]' $files; then
	status=1
fi

echo "== clang-tidy $(clang-tidy --version | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -n1)"
cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DNAPKIN_TESTS=OFF >/dev/null
# the generated sources (embedded presets) must exist for the files that include them
cmake --build "$build" --target napkin_embed >/dev/null 2>&1 || true
# one file a clang-tidy process: the analyzer's va_list checker keeps identifiers from the
# first file's AST, and in a later file of the same process one may land at a freed one's
# address (a false "va_list is initialized again" at an ordinary call, seen once in knobs.c)
# shellcheck disable=SC2086
if ! printf '%s\n' $files | grep -v '/embed\.c$' |
	xargs -P "$jobs" -n 1 clang-tidy -p "$build" --quiet 2>/dev/null | grep -E -A3 '(warning|error):'; then
	:
else
	status=1
fi
[ $status -eq 0 ] && echo "lint: clean"
exit $status
