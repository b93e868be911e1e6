#!/bin/zsh -f
# tests/e2e/zcomplete.zsh DIR < QUERIES: what zsh's completion offers, with
# the _capaudit found in DIR, for each command line on standard input (the
# text before the cursor; a trailing space starts a new word). Prints
# "== LINE" and then one match a line, sorted, for each. It drives one
# interactive zsh in a pseudo-terminal (zsh/zpty), in which compadd also
# prints what the completion functions add, and presses Tab. Tab completes
# and then prints a marker; nothing more is typed until the marker is read,
# so the completion never runs with input pending (zsh completes differently
# when it sees typeahead, and on a busy host it would).
zmodload zsh/zpty || exit 2
dir=$1

zpty z zsh -f -i || exit 2
zpty -w z "fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() {
  [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]] && { builtin compadd "$@"; return $? }
  local -a hits; builtin compadd -A hits "$@"
  local -A o; zparseopts -E -A o P: p: S: s: X: x: J: V: 1 2 q Q f e a l k U n r: R: W: M: F: E: i: I: o: d:
  local h; for h in $hits; do print -r -- "<<${o[-p]}${o[-P]}$h>>"; done
  builtin compadd "$@"
}'
zpty -w z 'ca-tab() { zle complete-word; print -rn -- TABDONE$((6*7)) }; zle -N ca-tab'
zpty -w z "bindkey '^I' ca-tab; zstyle ':completion:*' list-prompt ''; LISTMAX=100000"
# the markers are printed as arithmetic, so that their echo does not match
zpty -w z 'print BEGIN$((6*7))'
zpty -r z junk '*BEGIN42*' || exit 2
n=0
while IFS= read -r line; do
	n=$((n + 1))
	zpty -n -w z "$line"$'\t'
	out= rest=
	zpty -r z out '*TABDONE42*' || exit 2
	zpty -n -w z $'\C-e\C-u'"print END\$((1000+$n))"$'\n'
	zpty -r z rest "*END$((1000 + n))*" || exit 2
	print -r -- "== $line"
	print -r -- "$out" | tr -d '\r' | grep -o '<<[^<>]*>>' | sed 's/^<<//; s/>>$//' | sort -u
done
zpty -d z
