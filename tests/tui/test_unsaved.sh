#!/bin/sh
# No work is lost. A file napkin saved is saved again without asking only while it is as
# napkin left it: an edit made in place by another program (same inode: `>>`, or bytes
# changed with the size and modification time put back), or a file replaced by another,
# makes s ask first ("changed on disk since napkin saved it"); n keeps the edit, y
# overwrites. s to a directory is refused at once. q with unsaved changes asks (y quits,
# s saves first, n stays); a change undone is no change; Q quits at once; C-c quits at
# once with status 130 and leaves the unsaved scenario in napkin-unsaved.yaml.
. "$(dirname "$0")/lib.sh"
here=$(pwd)
d="$TUI_TMP/unsaved"
mkdir -p "$d/adir"
cd "$d"
start 120 40 --batch 8
cd "$here"
wait_for 'micro-batch +8 ' 'never drew'

# the trial's steps: s lw.yaml, a line appended from the shell, a knob changed, s again
keys s
wait_for 'save the scenario' 'no save prompt'
keys C-u
keys -l lw.yaml
keys Enter
wait_for 'saved lw\.yaml' 'no "saved" message'
echo "# my notes, added in another editor" >>"$d/lw.yaml"
keys Right
wait_for 'micro-batch +16 '
keys s
wait_for '> lw\.yaml' 'the save prompt does not offer lw.yaml'
keys Enter
wait_for "$d/lw\\.yaml changed on disk since napkin saved it: overwrite\\?" 'no question before overwriting an edited file'
keys n
wait_for 'not saved: lw\.yaml is left as it was' 'n did not keep the file'
grep -q 'my notes' "$d/lw.yaml" || fail 'n: the notes are gone'
grep -q '^batch: 8' "$d/lw.yaml" || fail 'n: the file changed'
keys s Enter
wait_for 'changed on disk since napkin saved it' 'the second s did not ask again'
keys y
wait_for 'saved lw\.yaml' 'y did not save'
grep -q 'my notes' "$d/lw.yaml" && fail 'y: the notes are still there'
grep -q '^batch: 16' "$d/lw.yaml" || fail "y: the file lacks batch: 16: $(cat "$d/lw.yaml")"

# as napkin left it: saved again without asking
keys Right
wait_for 'micro-batch +32 '
keys s Enter
wait_for 'saved lw\.yaml' 'an unchanged file napkin wrote was not saved again at once'
grep -q '^batch: 32' "$d/lw.yaml" || fail 'the unchanged file was not overwritten'

# one byte changed in place, the size and the modification time (to the nanosecond) put
# back: only the content tells
cp -p "$d/lw.yaml" "$d/ref"
printf 'X' | dd of="$d/lw.yaml" bs=1 seek=0 conv=notrunc 2>/dev/null
touch -r "$d/ref" "$d/lw.yaml"
[ "$(stat -c '%s %y %i' "$d/lw.yaml")" = "$(stat -c '%s %y' "$d/ref") $(stat -c '%i' "$d/lw.yaml")" ] ||
	fail 'the edit did not keep the size and time'
keys Left
wait_for 'micro-batch +16 '
keys s Enter
wait_for 'lw\.yaml changed on disk since napkin saved it' 'an edit with the same size and time was overwritten'
keys Escape
wait_for 'not saved: lw\.yaml is left as it was' 'Esc did not keep the file'
head -c 1 "$d/lw.yaml" | grep -q 'X' || fail 'Esc: the edit is gone'

# replaced by another file (as editors that write a copy and rename it do)
keys s Enter y
wait_for 'saved lw\.yaml'
cp "$d/lw.yaml" "$d/new" && echo "# replaced" >>"$d/new" && mv "$d/new" "$d/lw.yaml"
keys Right
wait_for 'micro-batch +32 '
keys s Enter
wait_for 'lw\.yaml changed on disk since napkin saved it' 'a replaced file was overwritten'
keys n
grep -q '# replaced' "$d/lw.yaml" || fail 'n: the replacement is gone'

# a directory: refused at once, no question
keys s C-u
keys -l adir
keys Enter
wait_for 'not saved: adir is a directory' 'a directory was not refused'
screen | grep -q 'overwrite' && fail 'a directory was asked about'
[ -d "$d/adir" ] || fail 'the directory is gone'

# q with unsaved changes asks; n stays
keys q
wait_for 'unsaved changes \(batch\): quit anyway\?' 'q quit with unsaved changes'
keys n
wait_for 'not quit' 'n did not stay'
screen | grep -Eq 'micro-batch +32 ' || fail 'n lost the change'
# s in the question saves first; q then quits at once
keys q
wait_for 'quit anyway'
keys s
wait_for 'save the scenario' 's in the question did not open the save prompt'
keys C-u
keys -l after.yaml
keys Enter
wait_for 'saved after\.yaml'
grep -q '^batch: 32' "$d/after.yaml" || fail 'the save before quitting lacks batch: 32'
keys q
[ "$(wait_exit)" = 0 ] || fail 'q after saving: exit status'
stop

# y quits, status 0
start 120 40 --batch 8
wait_for 'micro-batch +8 '
keys Right
wait_for 'micro-batch +16 '
keys q
wait_for 'quit anyway'
keys y
[ "$(wait_exit)" = 0 ] || fail 'q y: exit status'
stop

# undone back to the start: nothing unsaved, q quits at once
start 120 40 --batch 8
wait_for 'micro-batch +8 '
keys Right
wait_for 'micro-batch +16 '
keys u
wait_for 'micro-batch +8 '
keys q
[ "$(wait_exit)" = 0 ] || fail 'q after undoing everything did not quit at once'
stop

# Q quits at once
start 120 40 --batch 8
wait_for 'micro-batch +8 '
keys Right
wait_for 'micro-batch +16 '
keys Q
[ "$(wait_exit)" = 0 ] || fail 'Q: exit status'
stop

# C-c: at once, status 130, the unsaved scenario in napkin-unsaved.yaml (never over a file)
echo 'mine' >"$d/napkin-unsaved.yaml"
cd "$d"
start 120 40 --batch 8
cd "$here"
wait_for 'micro-batch +8 '
keys Right
wait_for 'micro-batch +16 '
keys C-c
[ "$(wait_exit)" = 130 ] || fail 'C-c: exit status'
grep -q 'mine' "$d/napkin-unsaved.yaml" || fail 'C-c overwrote napkin-unsaved.yaml'
grep -q '^batch: 16' "$d/napkin-unsaved-2.yaml" || fail "C-c did not keep the change: $(ls "$d")"
hist_has 'unsaved scenario is in ./napkin-unsaved-2.yaml' || fail 'C-c did not say where the changes went'
echo "ok: unsaved"
