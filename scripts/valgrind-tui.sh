#!/bin/sh
# Runs the explorer's end-to-end tests (tests/tui/test_*.sh and tests/hostile/tui_*.sh) with
# napkin under valgrind memcheck: any invalid read or write, use of uninitialised memory, or
# definite leak fails the run. Suppressions (scripts/valgrind-ncurses.supp) cover only
# ncurses' and terminfo's own internals, each one explained there.
#
#   ./scripts/valgrind-tui.sh            (after ./scripts/test.sh; BUILD=dir for another build)
#   ./scripts/valgrind-tui.sh tests/tui/test_sweep.sh ...   (only those tests)
#
# Logs are kept in $BUILD/valgrind-tui/ (one per napkin process).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
build=${BUILD:-build}
napkin=$root/$build/napkin
[ -x "$napkin" ] || { echo "valgrind-tui: no $napkin (run ./scripts/test.sh first)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind-tui: valgrind is not installed" >&2; exit 2; }
command -v tmux >/dev/null || { echo "valgrind-tui: tmux is not installed" >&2; exit 2; }

logs=$root/$build/valgrind-tui
rm -rf "$logs"
mkdir -p "$logs"
wrapper=$logs/napkin
cat >"$wrapper" <<EOS
#!/bin/sh
exec valgrind --quiet --tool=memcheck --error-exitcode=99 --leak-check=full \\
	--show-leak-kinds=definite --errors-for-leak-kinds=definite --track-origins=yes \\
	--suppressions="$root/scripts/valgrind-ncurses.supp" --log-file="$logs/vg.%p.log" \\
	"$napkin" "\$@"
EOS
chmod +x "$wrapper"

# valgrind makes napkin some 20 times slower to start: wider deadlines
export NAPKIN_TUI_DEADLINE=${NAPKIN_TUI_DEADLINE:-90}
status=0
n=0
[ $# -gt 0 ] || set -- tests/tui/test_*.sh tests/hostile/tui_*.sh
for t in "$@"; do
	[ -f "$t" ] || continue
	n=$((n + 1))
	if sh "$t" "$wrapper" >"$logs/$(basename "$t" .sh).out" 2>&1; then
		echo "ok   $t"
	else
		echo "FAIL $t (see $build/valgrind-tui/$(basename "$t" .sh).out)"
		tail -n 5 "$logs/$(basename "$t" .sh).out" | sed 's/^/     /'
		status=1
	fi
done

# every process's report: valgrind writes nothing with --quiet unless it found something
found=0
for log in "$logs"/vg.*.log; do
	[ -f "$log" ] || continue
	if [ -s "$log" ]; then
		found=$((found + 1))
		echo "---- $log"
		head -n 60 "$log"
	fi
done
procs=$(ls "$logs"/vg.*.log 2>/dev/null | wc -l)
echo "valgrind-tui: $n tests, $procs napkin processes under memcheck, $found with findings"
[ "$found" -eq 0 ] || status=1
exit $status
