#!/bin/bash
# tests/e2e/bcomplete.bash FILE < QUERIES: what bash's completion offers,
# with bash-completion and the completion script FILE loaded, for each
# command line on standard input (the text before the cursor; a trailing
# space starts a new word). Prints "== LINE" and then one match a line,
# sorted, for each: _capaudit called as bash calls it (COMP_WORDS,
# COMP_CWORD, COMP_LINE, COMP_POINT).
source /usr/share/bash-completion/bash_completion || exit 2
source "$1" || exit 2
complete -p capaudit >/dev/null || exit 2
while IFS= read -r line; do
	read -ra w <<<"$line"
	[[ $line == *' ' ]] && w+=('')
	COMP_WORDS=("${w[@]}")
	COMP_CWORD=$((${#w[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	# compopt complains outside a real completion: not a failure here
	_capaudit capaudit "${w[COMP_CWORD]}" "${w[COMP_CWORD - 1]}" 2>/dev/null
	echo "== $line"
	((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort -u
done
exit 0
