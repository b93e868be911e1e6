#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Manual pages and shell completions from capaudit's own option tables.

    tools/cligen.py man  CAPAUDIT PROSEDIR OUTDIR   capaudit.8, capaudit-CMD.8
    tools/cligen.py bash CAPAUDIT OUTFILE           bash completion (complete -F)
    tools/cligen.py zsh  CAPAUDIT OUTFILE           zsh completion (_capaudit)

Everything about the options (names, letters, arguments, explanations, the
words an argument may be) comes from `capaudit CMD --list-options=full`
(user/cli/options.h describes its lines), the commands and their one-line
summaries from `capaudit help`: nothing here can go stale when an option is
added. What the tables cannot say (a command's description, examples, exit
status, files) is prose kept in PROSEDIR/capaudit[-CMD].md, in a small
subset of Markdown (render_prose below). The make rules run this at build
time; tests/e2e/docs-sync.bats checks the result against the tables.
"""
import datetime
import os
import re
import subprocess
import sys


# ---------------------------------------------------------------- the tables

class Option:
    def __init__(self, fields):
        (self.long, self.short, self.arg, complete, self.help,
         self.more) = fields
        kind, _, words = complete.partition(" ")
        self.kind = kind or ("text" if self.arg else "")
        self.words = words.split()

    def names(self):
        return [n for n in (self.short, self.long) if n]


class Command:
    def __init__(self, name, summary):
        self.name, self.summary = name, summary
        self.operands = ""
        self.usage, self.about, self.tail, self.opts = [], [], [], []


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def load(binary):
    """The commands `capaudit help` lists, with their tables."""
    version = run(binary, "--version").split()[-1]
    cmds, inlist = [], False
    for line in run(binary, "help").splitlines():
        if line == "commands:":
            inlist = True
        elif inlist and not line.strip():
            break
        elif inlist:
            name, summary = line.split(None, 1)
            cmds.append(Command(name, summary))
    if not cmds:
        sys.exit("cligen: %s help lists no commands" % binary)
    for c in cmds:
        if c.name in ("help", "version"):
            continue       # no options (they take none)
        out = run(binary, c.name, "--list-options=full")
        for line in out.splitlines():
            tag, _, rest = line.partition("\t")
            if tag == "command":
                c.operands = rest.split("\t")[1]
            elif tag == "usage":
                # a line not starting with "capaudit" continues the last
                if rest.startswith("capaudit ") or not c.usage:
                    c.usage.append(rest)
                else:
                    c.usage[-1] += "\n" + rest
            elif tag == "about":
                c.about.append(rest)
            elif tag == "tail":
                c.tail.append(rest)
            elif tag == "option":
                c.opts.append(Option(rest.split("\t")))
            else:
                sys.exit("cligen: %s %s --list-options=full: unknown line %r"
                         % (binary, c.name, line))
        if not c.opts:
            sys.exit("cligen: %s %s: no options listed" % (binary, c.name))
    return version, cmds


# ---------------------------------------------------------------- roff

def esc(s):
    """Text for roff: backslashes, and the dashes of a word that starts
    with one (an option) are minus signs; others (CRI-O) hyphens."""
    s = s.replace("\\", "\\e")
    # an option (a word that starts with a dash): every dash of it, so that
    # it can be copied from the rendered page
    return re.sub(r"(?:^|(?<=[\s(\[|,=/'\"`]))-[-\w]*",
                  lambda m: m.group(0).replace("-", "\\-"), s)


def esc_all(s):
    """Literal text for roff (code, commands, file names): every dash a
    minus sign, as typed."""
    return s.replace("\\", "\\e").replace("-", "\\-")


def line_safe(s):
    """A text line that does not start with a control character."""
    return "\\&" + s if s[:1] in (".", "'") else s


def font_words(s):
    """A synopsis or an argument name: options and literal words bold,
    placeholders (upper case) italic, punctuation as it is."""
    def word(m):
        w = m.group(0)
        if w.startswith("-") or re.fullmatch(r"[a-z][a-z0-9_-]*", w):
            return "\\fB" + esc_all(w) + "\\fR"
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", w):
            return "\\fI" + w + "\\fR"
        return esc(w)
    return re.sub(r"-*[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*|-+", word, s)


def inline(s):
    """Markdown inline markup: `code` bold, *word* italic, **word** bold."""
    out, pos = [], 0
    for m in re.finditer(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*", s):
        out.append(esc(s[pos:m.start()]))
        if m.group(1) is not None:
            # code is never broken across lines
            out.append("\\fB" + esc_all(m.group(1)).replace(" ", "\\~") + "\\fR")
        elif m.group(2) is not None:
            out.append("\\fB" + esc(m.group(2)) + "\\fR")
        else:
            out.append("\\fI" + esc(m.group(3)) + "\\fR")
        pos = m.end()
    out.append(esc(s[pos:]))
    return "".join(out)


def render_prose(lines):
    """Paragraphs (blank line between), "- " bullets, definition items (a
    term line, then lines starting with ":   "), indented blocks (4
    spaces: shown as they are, an example)."""
    out, para, i = [], [], 0

    def flush():
        if para:
            out.append(".PP")
            out.extend(line_safe(inline(p)) for p in para)
            para.clear()

    while i < len(lines):
        l = lines[i]
        if not l.strip():
            flush()
            i += 1
        elif l.startswith("    "):
            flush()
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += [".PP", ".RS 4", ".EX"]
            out += [line_safe(esc_all(b)) for b in block]
            out += [".EE", ".RE"]
        elif l.startswith("- "):
            flush()
            item = [l[2:]]
            i += 1
            while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                item.append(lines[i].strip())
                i += 1
            out += [".IP \\(bu 2"] + [line_safe(inline(x)) for x in item]
        elif i + 1 < len(lines) and lines[i + 1].startswith(":   "):
            flush()
            out += [".TP", line_safe(inline(l))]
            i += 1
            while i < len(lines) and lines[i].startswith((":   ", "    ")) \
                    and lines[i].strip():
                out.append(line_safe(inline(lines[i][4:])))
                i += 1
        else:
            para.append(l.strip())
            i += 1
    flush()
    return out


def read_prose(path):
    """{SECTION: [lines]} from "# SECTION" headings."""
    sections, cur = {}, None
    if not os.path.exists(path):
        return sections
    with open(path) as f:
        text = re.sub(r"<!--.*?-->\n?", "", f.read(), flags=re.S)
        for line in text.splitlines():
            if line.startswith("# "):
                cur = line[2:].strip().upper()
                sections[cur] = []
            elif cur is not None:
                sections[cur].append(line)
            elif line.strip():
                sys.exit("cligen: %s: text before the first '# SECTION'" % path)
    return sections


def page_date():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        try:
            epoch = subprocess.run(
                ["git", "log", "-1", "--format=%ct", "--", "man", "user/cli"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                universal_newlines=True).stdout.strip()
        except OSError:
            epoch = ""
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
            if epoch else datetime.datetime.now(datetime.timezone.utc))
    return when.strftime("%Y-%m-%d")


# sections in the order man-pages(7) gives them; the prose may have any
PROSE_ORDER = ["DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "DIAGNOSTICS", "ENVIRONMENT",
               "FILES", "PRIVILEGES", "NOTES", "EXAMPLES"]


def man_page(name, summary, version, date, synopsis, sections, see_also, generated):
    """sections: prose; generated: {SECTION: roff lines} placed in order."""
    out = ['.\\" Generated by tools/cligen.py from capaudit\'s option tables and',
           '.\\" man/%s.md: edit those, not this file.' % name,
           '.TH %s 8 %s "capaudit %s" "capaudit manual"' % (name.upper(), date, version),
           ".nh", ".ad l",
           ".SH NAME", "%s \\- %s" % (esc_all(name), esc(summary)),
           ".SH SYNOPSIS", ".nf"]
    for i, s in enumerate(synopsis):
        if i:
            out.append(".sp")
        for j, part in enumerate(s.split("\n")):
            out.append(("    " if j else "") + font_words(part))
    out.append(".fi")
    names = list(PROSE_ORDER)
    names += [s for s in sections if s not in names and s != "SEE ALSO"]
    for sec in names:
        body = []
        if sec in generated:
            body += generated[sec]
        if sec in sections:
            prose = render_prose(sections[sec])
            body = prose + body if sec != "OPTIONS" else body + prose
        if body:
            if body[0] == ".PP":
                body = body[1:]
            out += [".SH " + sec] + body
    refs = see_also + [r.strip() for r in " ".join(sections.get("SEE ALSO", [])).split(",")
                       if r.strip()]
    out += [".SH SEE ALSO",
            ",\n".join(".BR \\%%%s (%s)" % (esc_all(m.group(1)), m.group(2))
                       for m in (re.match(r"(.+)\((\w+)\)$", r) for r in refs))]
    return "\n".join(wrap_roff(out)) + "\n"


def wrap_roff(lines, width=78):
    """Text lines longer than width broken at spaces (mandoc's style), but
    in no-fill blocks."""
    out, nofill, sec = [], False, ""
    for l in lines:
        if l.startswith(".SH "):
            sec = l[4:]
        if l.startswith((".nf", ".EX")):
            nofill = True
        elif l.startswith((".fi", ".EE")):
            nofill = False
        if l.startswith(".") or nofill or len(l) <= width:
            out.append(l)
            continue
        cur = ""
        for w in l.split(" "):
            if cur and len(cur) + 1 + len(w) > width:
                out.append(line_safe(cur))
                cur = w
            else:
                cur = cur + " " + w if cur else w
        out.append(line_safe(cur))
    return out


def option_items(c):
    out = []
    for o in c.opts:
        head = ", ".join("\\fB%s\\fR" % esc_all(n) for n in o.names())
        if o.arg:
            head += " " + font_words(o.arg)
        text = o.help + (" " + o.more if o.more else "")
        out += [".TP", head, line_safe(esc(text))]
    return out


def cmd_man(binary, prosedir, outdir):
    version, cmds = load(binary)
    date = page_date()
    os.makedirs(outdir, exist_ok=True)
    with_opts = [c for c in cmds if c.opts]
    pages = ["capaudit-%s(8)" % c.name for c in with_opts]

    # capaudit(8): the commands, each with its page
    items = []
    for c in cmds:
        items += [".TP", "\\fB%s\\fR" % c.name, line_safe(esc(c.summary) + ".")]
        if c.opts:
            items.append("See \\fBcapaudit\\-%s\\fR(8)." % c.name)
    prose = read_prose(os.path.join(prosedir, "capaudit.md"))
    if "DESCRIPTION" not in prose:
        sys.exit("cligen: %s/capaudit.md has no DESCRIPTION" % prosedir)
    opts = [".TP", "\\fB\\-h\\fR, \\fB\\-\\-help\\fR", "list the commands and exit",
            ".TP", "\\fB\\-\\-version\\fR", "print the version and exit"]
    write(os.path.join(outdir, "capaudit.8"), man_page(
        "capaudit", "eBPF capability-usage auditor", version, date,
        ["capaudit COMMAND [OPTIONS] [ARGS...]", "capaudit --help | --version"],
        prose, pages, {"COMMANDS": items, "OPTIONS": opts}))

    for c in with_opts:
        name = "capaudit-" + c.name
        prose = read_prose(os.path.join(prosedir, name + ".md"))
        gen = {"OPTIONS": option_items(c)}
        if "DESCRIPTION" not in prose:
            # a command without prose yet: its --help paragraph
            gen["DESCRIPTION"] = [line_safe(esc(" ".join(c.about) or c.summary + "."))]
        if "EXIT STATUS" not in prose and c.tail:
            gen["EXIT STATUS"] = [line_safe(esc(" ".join(c.tail)))]
        see = ["capaudit(8)"] + [p for p in pages if p != name + "(8)"]
        write(os.path.join(outdir, name + ".8"), man_page(
            name, c.summary, version, date, c.usage, prose, see, gen))


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# ---------------------------------------------------------------- bash

BASH_HEAD = r'''# bash completion for capaudit(8)                          -*- shell-script -*-
# Generated by tools/cligen.py from capaudit's option tables
# (capaudit COMMAND --list-options=full): edit those, not this file.

# _capaudit_words one|list WORDS: $cur as one of WORDS, or (list) as a
# comma-separated list of them; capability names in the case typed
_capaudit_words()
{
    local prefix= last=$cur words=$2
    if [[ $1 == list && $cur == *,* ]]; then
        prefix=${cur%,*},
        last=${cur##*,}
    fi
    [[ $last == [a-z]* && $words == *CAP_* ]] && words=${words,,}
    COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "$last"))
    [[ $1 == list ]] && compopt -o nospace
}

_capaudit_pids()
{
    local p pids=()
    for p in /proc/[0-9]*; do
        pids+=("${p#/proc/}")
    done
    _capaudit_words list "${pids[*]}"
}

# _capaudit_value COMMAND OPTION: complete $cur as OPTION's argument;
# returns 1 when OPTION takes none
_capaudit_value()
{
    case $1:$2 in
'''

BASH_MAIN = r'''    *)
        return 1
        ;;
    esac
    return 0
}

_capaudit()
{
    local cur prev words cword split
    _init_completion -s || return

    if ((cword == 1)); then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '-h --help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W '%(commands)s' -- "$cur"))
        fi
        return
    fi

    local cmd=${words[1]} opts= argopts= operands= i w
    case $cmd in
%(tables)s
    *)
        return
        ;;
    esac

    # the audited command: after "--", or at the first operand (getopt
    # stops there); an option's argument is not an operand
    for ((i = 2; i < cword; i++)); do
        w=${words[i]}
        if [[ $w == -- ]]; then
            [[ $operands == command ]] && { _command_offset $((i + 1)); return; }
            # operands only from here on
            [[ $operands == file ]] && _filedir
            return
        elif [[ $w == -* ]]; then
            [[ $argopts == *" $w "* ]] && ((i++))
        elif [[ $operands == command ]]; then
            _command_offset $i
            return
        fi
    done

    if [[ $split == true || ($cur != -* && $prev == -*) ]] &&
        _capaudit_value "$cmd" "$prev"; then
        return
    fi
    $split && return

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    case $operands in
    command) COMPREPLY=($(compgen -c -- "$cur")) ;;
    file) _filedir ;;
    *) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;
    esac
} &&
    complete -F _capaudit capaudit

# ex: filetype=sh
'''


def bash_value(o):
    k = o.kind
    if k == "file":
        return "_filedir"
    if k == "dir":
        return "_filedir -d"
    if k == "unitfile":
        return "_filedir service"
    if k == "user":
        return 'COMPREPLY=($(compgen -u -- "$cur"))'
    if k == "pids":
        return "_capaudit_pids"
    if k in ("one", "list"):
        return "_capaudit_words %s '%s'" % (k, " ".join(o.words))
    return ":   # %s: anything" % o.arg


def cmd_bash(binary, outfile):
    _, cmds = load(binary)
    values, tables = [], []
    for c in cmds:
        for o in c.opts:
            if o.kind:
                values.append("    %s)\n        %s\n        ;;" % (
                    "|".join("%s:%s" % (c.name, n) for n in o.names()), bash_value(o)))
        if c.opts:
            opts = " ".join(n for o in c.opts for n in (o.long, o.short) if n)
            argopts = " ".join(n for o in c.opts if o.arg for n in o.names())
            tables.append("    %s)\n        opts='%s'\n        argopts=' %s '\n"
                          "        operands=%s\n        ;;"
                          % (c.name, opts, argopts, c.operands or "''"))
    text = BASH_HEAD + "\n".join(values) + "\n" + BASH_MAIN % {
        "commands": " ".join(c.name for c in cmds), "tables": "\n".join(tables)}
    write(outfile, text)


# ---------------------------------------------------------------- zsh

def zq(s):
    """s inside a single-quoted zsh word."""
    return s.replace("'", "'\\''")


def zdesc(s):
    """An _arguments explanation, inside [...]."""
    return zq(s.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]"))


def zmsg(s):
    """An _arguments message, between colons."""
    return zq(s.replace("\\", "\\\\").replace(":", "\\:"))


def zsh_action(o):
    k = o.kind
    if k == "file":
        return "_files"
    if k == "dir":
        return "_files -/"
    if k == "unitfile":
        return '_files -g "*.service(-.)"'
    if k == "user":
        return "_users"
    if k == "pids":
        return "_sequence _pids"
    if k == "one":
        return "(%s)" % " ".join(o.words)
    if k == "list":
        return "_values -s , %s %s" % (zq(o.arg.split("[")[0].lower()) or "value",
                                       " ".join(o.words))
    return " "


def zsh_spec(o):
    if o.long == "--help":
        names = "'(- *)'{%s}" % ",".join(o.names())
        return "%s'[%s]'" % (names, zdesc(o.help))
    if o.arg:
        forms = [n + ("+" if len(n) == 2 else "=") for n in o.names()]
    else:
        forms = o.names()
    names = "{%s}" % ",".join(forms) if len(forms) > 1 else forms[0]
    spec = "%s'[%s]" % (names, zdesc(o.help))
    if o.arg:
        spec += ":%s:%s" % (zmsg(o.arg), zq(zsh_action(o)))
    return spec + "'"


def cmd_zsh(binary, outfile):
    _, cmds = load(binary)
    out = ["#compdef capaudit",
           "# zsh completion for capaudit(8): generated by tools/cligen.py from",
           "# capaudit's option tables (capaudit COMMAND --list-options=full): edit",
           "# those, not this file.",
           "",
           "_capaudit() {",
           "  local -a cmds",
           "  cmds=("]
    out += ["    '%s:%s'" % (c.name, zq(c.summary.replace(":", "\\:"))) for c in cmds]
    out += ["  )",
            "  if (( CURRENT == 2 )); then",
            "    if [[ $PREFIX == -* ]]; then",
            "      _arguments '(- *)'{-h,--help}'[list the commands]' '(- *)--version[print the version]'",
            "    else",
            "      _describe -t commands 'capaudit command' cmds",
            "    fi",
            "    return",
            "  fi",
            "  local cmd=$words[2]",
            "  shift words",
            "  (( CURRENT-- ))",
            "  curcontext=\"${curcontext%:*:*}:capaudit-$cmd:\"",
            "  case $cmd in"]
    for c in cmds:
        if not c.opts:
            continue
        specs = [zsh_spec(o) for o in c.opts]
        if c.operands == "command":
            specs += ["'(-):command: _command_names -e'", "'*::arguments:_normal'"]
        elif c.operands == "file":
            specs += ["'*:record file:_files'"]
        out.append("    %s)" % c.name)
        out.append("      _arguments -s -S : \\")
        out += ["        %s \\" % s for s in specs[:-1]]
        out.append("        %s" % specs[-1])
        out.append("      ;;")
    out += ["  esac", "}", "", '_capaudit "$@"', ""]
    write(outfile, "\n".join(out))


def main(argv):
    if len(argv) == 5 and argv[1] == "man":
        cmd_man(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == "bash":
        cmd_bash(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "zsh":
        cmd_zsh(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
