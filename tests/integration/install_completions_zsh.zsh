# Drives a real interactive zsh in a pseudo-terminal (zsh/zpty) to complete
# one command line with the completions in COMPDIR, for
# install_completions.sh. Every match zsh's compadd is given goes to OUT,
# one per line; everything the terminal showed (errors included) to OUT.tty.
# Usage: zsh -f install_completions_zsh.zsh COMPDIR HOME OUT 'command line'
zmodload zsh/zpty || exit 77
zpty z "HOME=${(q)2} zsh -f -i"
zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)3}.dump"
zpty -w z "compadd() { local -a __h; builtin compadd -O __h \"\$@\"; print -rl -- \$__h >> ${(q)3}; builtin compadd \"\$@\"; }"
zpty -w z "zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no"
zpty -w -n z "$4"$'\t'
# Wait for the first matches (or give up after 3 s), then drain the terminal.
for i in {1..30}; do [[ -s $3 ]] && break; sleep 0.1; done
sleep 0.3
local chunk
while zpty -r -t z chunk; do print -rn -- "$chunk" >> $3.tty; done
zpty -d z
