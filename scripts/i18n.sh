#!/bin/sh
# The translation catalogue (docs/i18n.md).
#   scripts/i18n.sh update   extract the marked strings into po/napkin.pot (xgettext) and merge
#                            them into po/zh_CN.po (msgmerge): new ones come in untranslated
#   scripts/i18n.sh check    fail unless po/napkin.pot is what the sources mark now, and every
#                            msgid of the sources is in po/zh_CN.po, translated, not fuzzy, with no
#                            stale (#~) entry, and msgfmt --check passes (the ctest i18n_catalog)
set -eu
cd "$(dirname "$0")/.."
pot_of_sources() {
	# _("..."), N_("..."), P_("one", "many", n) and C_("context", "..."); file names only (no line numbers), so the
	# template changes only when the strings do
	find src -name '*.c' -o -name '*.h' | LC_ALL=C sort |
		xgettext --from-code=UTF-8 --language=C -k -k_ -kN_ -kP_:1,2 -kC_:1c,2 -kCP_:1c,2,3 -kNC_:1c,2 --add-comments=TRANSLATORS: \
			--add-location=file --sort-by-file --package-name=napkin --msgid-bugs-address=' ' \
			--files-from=- -o - |
		sed -e '/^"POT-Creation-Date:/d' -e 's/^"Content-Type: text\/plain; charset=CHARSET\\n"/"Content-Type: text\/plain; charset=UTF-8\\n"/'
}
case "${1:-}" in
update)
	pot_of_sources >po/napkin.pot
	msgmerge --quiet --no-fuzzy-matching --no-wrap --add-location=file --sort-by-file -o po/zh_CN.po.tmp po/zh_CN.po po/napkin.pot
	# entries the sources no longer mark are dropped, not kept as #~
	msgattrib --no-obsolete --no-wrap -o po/zh_CN.po po/zh_CN.po.tmp
	rm -f po/zh_CN.po.tmp
	msgfmt --check --statistics -o /dev/null po/zh_CN.po
	;;
check)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	bad=0
	pot_of_sources >"$tmp/napkin.pot" 2>"$tmp/xgettext"
	# one msgid both alone and as a plural's singular gets one translation for two uses: give
	# the plural a context (CP_, docs/i18n.md)
	if grep -q 'warning' "$tmp/xgettext"; then
		grep -A2 'warning' "$tmp/xgettext" | head -12
		bad=1
	fi
	if ! cmp -s "$tmp/napkin.pot" po/napkin.pot; then
		echo "po/napkin.pot is stale: run scripts/i18n.sh update"
		diff -u po/napkin.pot "$tmp/napkin.pot" | head -40
		bad=1
	fi
	# every msgid of the sources is in zh_CN.po with a translation (msgcmp counts untranslated
	# and fuzzy entries as missing)
	if ! msgcmp po/zh_CN.po "$tmp/napkin.pot" 2>"$tmp/cmp"; then
		echo "po/zh_CN.po lacks translations:"
		head -40 "$tmp/cmp"
		bad=1
	fi
	if grep -n '^#, .*fuzzy' po/zh_CN.po; then
		echo "po/zh_CN.po has fuzzy entries (above)"
		bad=1
	fi
	if grep -n '^#~' po/zh_CN.po | head -10 | grep .; then
		echo "po/zh_CN.po has obsolete (#~) entries (above)"
		bad=1
	fi
	# no stale entries: every msgid of zh_CN.po is one the sources mark
	msgmerge --quiet --no-fuzzy-matching -o "$tmp/merged.po" po/zh_CN.po "$tmp/napkin.pot"
	if grep -n '^#~ msgid' "$tmp/merged.po" | head -10 | grep .; then
		echo "po/zh_CN.po has entries the sources no longer mark (above): run scripts/i18n.sh update"
		bad=1
	fi
	# one word for one term (docs/glossary.md): the translations never use the words it sets aside
	# (旋钮 for knobs: 设置/设置项; 主权重 for the master copy: 主副本; 令牌/词元 for tokens: Token;
	# 检查器 for the tensor inspector: Tensor 查看器), nor do the lessons' Chinese texts, which
	# also never name a pane that is not on screen (Tensor 面板: the inspector is a view, T)
	msgattrib --no-wrap --translated -o "$tmp/tr.po" po/zh_CN.po
	# (and the forms a teacher's trial of the Chinese course found: 速记 and 简写 for the 6·N·D
	# estimate: 估算; 完全重计算: 完整重计算; 设置设置; 屋顶: Roofline; 有减去无: 使用 − 不使用;
	# 数据面板, a pane that does not exist)
	if sed -n '/^msgstr/,/^$/p' "$tmp/tr.po" | grep -n '旋钮\|主权重\|令牌\|词元\|检查器\|速记\|简写\|完全重计算\|设置设置\|屋顶\|有减去无\|数据面板'; then
		echo "po/zh_CN.po uses words docs/glossary.md sets aside (above)"
		bad=1
	fi
	if grep -n '旋钮\|令牌\|词元\|检查器\|Tensor 面板\|数据面板\|速记\|完全重计算' presets/lessons/*.yaml; then
		echo "a lesson uses words docs/glossary.md sets aside (above)"
		bad=1
	fi
	# the class trial's terms (docs/glossary.md, "Interface words"): a step is 已答出 or 还没有答出
	# (not 已达成 / 尚未达成); the bound is Memory-Bound / Compute-Bound, as the chapter spells it;
	# a dtype in Chinese prose is in capitals (the "dtype in prose" words: BF16, FP8 E4M3)
	if sed -n '/^msgstr/,/^$/p' "$tmp/tr.po" | grep -n '已达成\|尚未达成\|[^-_a-z]compute-bound\|[^-_a-z]memory-bound'; then
		echo "po/zh_CN.po uses words docs/glossary.md sets aside (above: 已答出, 还没有答出, Compute-Bound, Memory-Bound)"
		bad=1
	fi
	if grep -n '已达成\|尚未达成' presets/lessons/*.yaml; then
		echo "a lesson uses words docs/glossary.md sets aside (above: 已答出, 还没有答出)"
		bad=1
	fi
	if grep -A2 '^msgctxt "dtype in prose"' "$tmp/tr.po" | grep '^msgstr' | grep -v '^msgstr "[A-Z0-9 ]*"$'; then
		echo "po/zh_CN.po: a dtype in prose is not in capitals (above; docs/glossary.md: FP32, BF16)"
		bad=1
	fi
	if ! msgfmt --check --statistics -o "$tmp/zh_CN.mo" po/zh_CN.po 2>"$tmp/stat"; then
		cat "$tmp/stat"
		bad=1
	fi
	cat "$tmp/stat"
	[ "$bad" = 0 ] && echo "ok: the zh_CN catalogue covers every marked string"
	exit "$bad"
	;;
*)
	echo "usage: scripts/i18n.sh update|check" >&2
	exit 2
	;;
esac
