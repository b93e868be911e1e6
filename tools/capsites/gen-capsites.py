#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The kernel's capability logic as data: every call site of the capability
API in a kernel source tree, with the capabilities it accepts (in the order
it asks), whether the check is audited, what a denial does there, and
plain conditions that allow without any capability; then, along the call
chain, every call of a function that answers false on a denial (or passes
the answer on), with what its caller does then (the "via" rows).
docs/capsites.md says what each column means and how the rules below read
the source.

  tools/capsites/gen-capsites.py SRC LABEL PACKAGE > user/facts/capsites/linux-LABEL.tsv

SRC is an unpacked kernel tree (Debian's linux-source-X.Y), LABEL its
"X.Y", PACKAGE the package and version it came from (printed in the header).
tools/capsites/fetch-and-generate.sh does it for every kernel of the table.

The reading is a small parser of C, not a compiler: what it cannot decide
is written "unknown", never guessed. One row per statement that asks.
"""
import itertools
import os
import re
import subprocess
import sys

# The capability API: callers of these are call sites (user/facts/callsite.c
# lists the same functions: the first stack frame outside them is the site).
DIRECT = {
    # name: (index of the capability argument, audited?)
    "capable": (0, True),
    "ns_capable": (1, True),
    "ns_capable_noaudit": (1, False),
    "ns_capable_setid": (1, True),
    "file_ns_capable": (2, True),
    "has_ns_capability": (2, True),
    "has_ns_capability_noaudit": (2, False),
    "has_capability": (1, True),
    "has_capability_noaudit": (1, False),
    "capable_wrt_inode_uidgid": (-1, True),   # last argument
    "sk_ns_capable": (2, True),
    "sk_capable": (1, True),
    "sk_net_capable": (1, True),
    "netlink_ns_capable": (2, True),
    "__netlink_ns_capable": (2, True),
    "netlink_capable": (1, True),
    "netlink_net_capable": (1, True),
    "sockopt_ns_capable": (1, True),
    "sockopt_capable": (0, True),
    "security_capable": (2, None),   # audited unless CAP_OPT_NOAUDIT is passed
    "cap_capable": (2, None),
}
# Helpers with the capability inside (include/linux/capability.h and
# friends): expanded from their definitions in the tree itself.
HELPERS = ["perfmon_capable", "bpf_capable", "checkpoint_restore_ns_capable",
           "checkpoint_restore_ns_capable_noaudit", "inode_owner_or_capable",
           "ptracer_capable", "bpf_ns_capable", "bpf_token_capable"]
NOAUDIT_HELPERS = {"checkpoint_restore_ns_capable_noaudit", "ptracer_capable"}
# Where the helpers are defined (first definition found wins).
HELPER_FILES = ["include/linux/capability.h", "kernel/capability.c", "kernel/bpf/token.c",
                "fs/inode.c", "include/linux/bpf.h", "net/core/sock.c"]
# The API's own bodies are not call sites.
API_FILES = {"kernel/capability.c", "security/commoncap.c", "kernel/bpf/token.c"}
SKIP_DIRS = ("Documentation/", "tools/", "samples/", "scripts/", "security/selinux/",
             "security/apparmor/", "security/smack/", "security/tomoyo/", "security/landlock/")
ARCHES = ("arch/x86/", "arch/arm64/")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}

LABEL_RE = re.compile(r"(case\s[^:;{}?]+|default|[A-Za-z_]\w*)\s*:(?!:)")
CAP_RE = re.compile(r"\bCAP_[A-Z_]+\b")
ERR_RE = re.compile(r"-\s*(E[A-Z0-9]+)\b")


_STRIP_RE = re.compile(
    r"/\*.*?(?:\*/|\Z)"                  # block comment (to the end if open)
    r"|//[^\n]*"                           # line comment
    r"|\"(?:\\.|[^\"\\])*(?:\"|\\?\Z)"   # string literal
    r"|'(?:\\.|[^'\\])*(?:'|\\?\Z)"        # character literal
    r"|^\#(?:[^\n]*\\\n)*[^\n]*",         # preprocessor line, with continuations
    re.S | re.M)
_NOTNL = re.compile(r"[^\n]")


def _blank(t):
    return " " * len(t) if "\n" not in t else _NOTNL.sub(" ", t)


def strip(text, keep_literals=False):
    """Comments, preprocessor lines and (unless keep_literals) the inside of
    string/char literals blanked; newlines and every offset kept."""
    def sub(m):
        t = m.group(0)
        c = t[0]
        if c in "\"'":
            if keep_literals:
                return t
            if len(t) >= 2 and t[-1] == c:
                return c + _blank(t[1:-1]) + c
            # unterminated: its last character becomes the quote
            return (c + _blank(t[1:-1]) + c)[:len(t)] if len(t) > 1 else c
        return _blank(t)
    return _STRIP_RE.sub(sub, text)


def match_paren(s, i):
    """Index of the bracket closing s[i] ('(' or '{'), or -1."""
    open_, close = s[i], {"(": ")", "{": "}", "[": "]"}[s[i]]
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_:
            depth += 1
        elif s[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return -1


def functions(s):
    """(name, body start, body end, is_static, parameters, head) of each
    function definition; head is its text before the parameters ("static
    bool foo")."""
    res = []
    depth = 0
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "{":
            if depth == 0:
                head = s[max(0, i - 2000):i]
                # a definition's head cannot hold ; { or }: the search
                # starts after the last of them (the same match, found fast)
                cut = max(head.rfind(";"), head.rfind("{"), head.rfind("}"))
                m = re.search(r"([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*$", head[cut + 1:])
                end = match_paren(s, i)
                if end < 0:
                    break
                if m and m.group(1) not in KEYWORDS:
                    line_start = head.rfind(";")
                    line_start = max(line_start, head.rfind("}"))
                    decl = head[line_start + 1:]
                    res.append((m.group(1), i + 1, end, "static" in decl.split("(")[0],
                                m.group(2), " ".join(decl.split("(")[0].split())))
                i = end + 1
                continue
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        i += 1
    return res


def split_args(s):
    """Top-level comma-separated arguments of an argument list (no parens)."""
    args, depth, cur = [], 0, []
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    args.append("".join(cur).strip())
    return args


# ---- boolean expressions over capability atoms and opaque atoms ----------

class Atom:
    def __init__(self, kind, text, cap=None, audited=True):
        self.kind = kind      # "cap" or "opaque" or "const"
        self.text = text
        self.cap = cap
        self.audited = audited
        self.value = None     # for "const"
        self.zero_ok = False  # the call returns 0 when the capability is granted


def tokenize(e):
    return [t for t in re.findall(r"\|\||&&|!=|==|[!()]|[^!()|&=]+|[|&=]", e) if t.strip()]


class Parser:
    """expr := and ('||' and)*; and := unary ('&&' unary)*; unary := '!' unary | primary"""

    def __init__(self, text, gen, subst):
        self.text = text
        self.gen = gen
        self.subst = subst
        self.pos = 0

    def parse(self):
        t = self.or_()
        self.skip_ws()
        if self.pos < len(self.text):
            return ("opaque", Atom("opaque", self.text.strip()))
        return t

    def skip_ws(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, tok):
        self.skip_ws()
        return self.text.startswith(tok, self.pos)

    def or_(self):
        terms = [self.and_()]
        while self.peek("||"):
            self.pos += 2
            terms.append(self.and_())
        return terms[0] if len(terms) == 1 else ("or", terms)

    def and_(self):
        terms = [self.unary()]
        while self.peek("&&"):
            self.pos += 2
            terms.append(self.unary())
        return terms[0] if len(terms) == 1 else ("and", terms)

    def unary(self):
        if self.peek("!") and not self.peek("!="):
            self.pos += 1
            return ("not", self.unary())
        return self.primary()

    def primary(self):
        """A parenthesised expression, a capability call, or an opaque chunk
        running to the next top-level && or || (or the end)."""
        self.skip_ws()
        start = self.pos
        if self.peek("("):
            end = match_paren(self.text, self.pos)
            after = self.text[end + 1:].lstrip() if end > 0 else ""
            if end > 0 and (not after or after.startswith("&&") or after.startswith("||")
                            or after.startswith(")")):
                inner = self.text[self.pos + 1:end]
                self.pos = end + 1
                return Parser(inner, self.gen, self.subst).parse()
        # scan an operand
        depth = 0
        i = self.pos
        while i < len(self.text):
            c = self.text[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and self.text.startswith(("&&", "||"), i):
                break
            i += 1
        chunk = self.text[start:i].strip()
        self.pos = i
        return self.gen.atom(chunk, self.subst)


def atoms_of(t, out):
    if t[0] in ("or", "and"):
        for x in t[1]:
            atoms_of(x, out)
    elif t[0] == "not":
        atoms_of(t[1], out)
    else:
        if t[1] not in out:
            out.append(t[1])
    return out


def evaluate(t, env, seen):
    """Short-circuit evaluation; seen collects the atoms evaluated, in order."""
    k = t[0]
    if k == "or":
        for x in t[1]:
            if evaluate(x, env, seen):
                return True
        return False
    if k == "and":
        for x in t[1]:
            if not evaluate(x, env, seen):
                return False
        return True
    if k == "not":
        return not evaluate(t[1], env, seen)
    a = t[1]
    if a.kind == "const":
        return a.value
    seen.append(a)
    return env[id(a)]


class Gen:
    def __init__(self, src):
        self.src = src
        self.helpers = {}   # name -> (params, expression tree text, file)
        # chain mode: (name, token, inverted) of the one function whose calls
        # are read as the capability (denied <=> it returns false, or true
        # when inverted); every other call, the capability API's included,
        # is then an opaque operand
        self.only = None
        self.fn_lit = self.fn_head = None   # the function being read
        self.load_helpers()

    # -- helpers --------------------------------------------------------
    def load_helpers(self):
        for rel in HELPER_FILES:
            path = os.path.join(self.src, rel)
            if not os.path.exists(path):
                continue
            s = strip(open(path, errors="replace").read())
            for name, b0, b1, _static, params, _head in functions(s):
                if name in HELPERS and name not in self.helpers:
                    expr = bool_body(s[b0:b1])
                    if expr is not None:
                        pnames = [re.findall(r"(\w+)\s*$", p)[0] if re.findall(r"(\w+)\s*$", p)
                                  else "" for p in split_args(params)]
                        self.helpers[name] = (pnames, expr, rel)

    def atom(self, chunk, subst):
        """An operand: a capability call (expanded) or opaque text."""
        for k, v in subst.items():
            chunk = re.sub(r"\b%s\b" % re.escape(k), v, chunk)
        m = re.match(r"^([A-Za-z_]\w*)\s*\(", chunk)
        if m and chunk.endswith(")") and match_paren(chunk, m.end() - 1) == len(chunk) - 1:
            name = m.group(1)
            args = split_args(chunk[m.end():-1])
            # likely()/unlikely() (include/linux/compiler.h) only hint the
            # branch: the condition is their argument
            if name in ("likely", "unlikely") and len(args) == 1:
                return Parser(args[0], self, subst).parse()
            if self.only:
                if name == self.only[0]:
                    a = ("atom", Atom("cap", chunk, cap=self.only[1]))
                    # a function that answers true on a denial ("is
                    # unprivileged"): its call is the capability's negation
                    return ("not", a) if self.only[2] else a
            elif name in DIRECT:
                idx, audited = DIRECT[name]
                arg = args[idx] if -len(args) <= idx < len(args) else ""
                caps = CAP_RE.findall(arg)
                if audited is None:
                    audited = "CAP_OPT_NOAUDIT" not in chunk
                cap = caps[0] if len(caps) == 1 and arg.strip() == caps[0] else None
                a = Atom("cap", chunk, cap=cap or "unknown", audited=audited)
                # security_capable() and cap_capable() return 0 when granted
                a.zero_ok = name in ("security_capable", "cap_capable")
                return ("atom", a)
            if name in self.helpers and not self.only:
                pnames, expr, _ = self.helpers[name]
                sub = {p: a for p, a in zip(pnames, args) if p}
                t = Parser(expr, self, sub).parse()
                if name in NOAUDIT_HELPERS:
                    for a in atoms_of(t, []):
                        if a.kind == "cap":
                            a.audited = False
                return t
        # comparisons of two capability constants (bpf_ns_capable's
        # "cap != CAP_SYS_ADMIN" once cap is known)
        m = re.match(r"^(CAP_[A-Z_]+)\s*(==|!=)\s*(CAP_[A-Z_]+)$", chunk)
        if m:
            a = Atom("const", chunk)
            a.value = (m.group(1) == m.group(3)) == (m.group(2) == "==")
            return ("atom", a)
        if re.fullmatch(r"(true|1)", chunk):
            a = Atom("const", chunk)
            a.value = True
            return ("atom", a)
        if re.fullmatch(r"(false|0)", chunk):
            a = Atom("const", chunk)
            a.value = False
            return ("atom", a)
        return ("atom", Atom("opaque", " ".join(chunk.split())))

    def has_cap_call(self, text):
        if self.only:
            return re.search(r"(?<![.>])\b%s\s*\(" % self.only[0], text)
        return self.has_api_call(text)

    def has_api_call(self, text):
        return re.search(r"\b(%s)\s*\(" % "|".join(list(DIRECT) + list(self.helpers)), text)


def bool_body(body):
    """The expression a bool function returns, from `return E;` alone or a
    chain of `if (C) return true|false;` ending in `return E;`; None if the
    body is anything else."""
    stmts = statements(body)
    chain = []
    final = None
    for st in stmts:
        m = re.match(r"^if\s*\(", st)
        if m:
            end = match_paren(st, m.end() - 1)
            rest = st[end + 1:].strip().rstrip(";").strip()
            rest = rest.strip("{} \n\t").rstrip(";").strip()
            if rest.startswith("return"):
                v = rest[len("return"):].strip()
                if v in ("true", "1", "false", "0"):
                    chain.append((st[m.end():end], v in ("true", "1")))
                    continue
            return None
        if st.startswith("return"):
            final = st[len("return"):].strip().rstrip(";").strip()
            break
        if re.match(r"^(\w[\w\s\*]*\s+)?\w+\s*=", st) or re.match(r"^[\w\s\*]+;$", st):
            continue   # declarations and assignments
        return None
    if final is None:
        return None
    expr = final
    for cond, val in reversed(chain):
        expr = "(%s) || (%s)" % (cond, expr) if val else "!(%s) && (%s)" % (cond, expr)
    return expr


def statements(body):
    """Top-level statements of a block body, as text."""
    res = []
    i, n = 0, len(body)
    while i < n:
        while i < n and body[i].isspace():
            i += 1
        if i >= n:
            break
        j = stmt_end(body, i)
        if j <= i:   # a stray closing bracket
            i += 1
            continue
        res.append(body[i:j].strip())
        i = j
    return res


CTRL_RE = re.compile(r"(if|while|for|switch)\s*\(")
CALL_RE = re.compile(r"([A-Za-z_]\w*)\s*\(")


def control(s, i):
    """The control statement starting at s[i]: (keyword, offset of the '('
    of its controlling expression), or None. A macro followed by a block
    (list_for_each_entry(...) {...}, scoped_guard(...) {...}) is a loop:
    "for"."""
    m = CTRL_RE.match(s, i)
    if m:
        return m.group(1), m.end() - 1
    m = CALL_RE.match(s, i)
    if m and m.group(1) not in KEYWORDS:
        e = match_paren(s, m.end() - 1)
        if e > 0:
            k = e + 1
            while k < len(s) and s[k].isspace():
                k += 1
            if s.startswith("{", k):
                return "for", m.end() - 1
    return None


def stmt_end(s, i):
    """End (exclusive) of the statement starting at s[i]."""
    n = len(s)
    while i < n and s[i].isspace():
        i += 1
    lab = LABEL_RE.match(s, i)
    if lab:
        return lab.end()   # a label is a statement of its own here
    if s.startswith("{", i):
        e = match_paren(s, i)
        return n if e < 0 else e + 1
    c = control(s, i)
    if c:
        e = match_paren(s, c[1])
        if e < 0:
            return n
        j = stmt_end(s, e + 1)
        if c[0] == "if":
            k = j
            while k < n and s[k].isspace():
                k += 1
            if re.match(r"else\b", s[k:]):
                j = stmt_end(s, k + 4)
        return j
    if re.match(r"do\b", s[i:]):
        j = stmt_end(s, i + 2)
        k = s.find(";", j)
        return n if k < 0 else k + 1
    depth = 0
    j = i
    while j < n:
        c = s[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return j
            depth -= 1
        elif c == ";" and depth == 0:
            return j + 1
        j += 1
    return n


ERRCONST_RE = re.compile(r"\(?\s*-\s*E[A-Z0-9]+\s*\)?|ERR_PTR\s*\(\s*-E[A-Z0-9]+\s*\)")
# a compound assignment, the target a variable, member or element
CASSIGN_RE = re.compile(r"^[A-Za-z_]\w*(\s*(->|\.)\s*\w+|\s*\[[^\]]*\])*\s*"
                        r"([-+*/%&|^]|<<|>>)=(?!=).*;$", re.S)


def is_err(effect):
    """An errno, or an errno a netlink ack carries (ack:EPERM)."""
    return bool(re.fullmatch(r"(ack:)?E[A-Z0-9]+", effect or ""))


class Ctx:
    """Where a statement being read sits: the function's stripped body (and
    the same text with its literals, offset for offset), the statement's
    start in it, and the function's head ("static bool foo")."""

    def __init__(self, gen, fbody, st0):
        self.gen = gen
        self.fbody = fbody
        self.st0 = st0
        self.lit = gen.fn_lit if gen.fn_lit is not None and len(gen.fn_lit) == len(fbody) \
            else fbody
        self.head = gen.fn_head or ""

    def is_bool(self):
        return bool(re.search(r"\bbool\s+\w+$", self.head))

    def text(self, sub):
        """sub (a piece of the stripped body) as the source writes it, for
        the change column: literals back, whitespace collapsed, no ';'."""
        i = self.fbody.find(sub)
        t = self.lit[i:i + len(sub)] if i >= 0 else sub
        return change_text(t)


def change_text(t):
    t = " ".join(t.split()).rstrip(";").strip()
    return t if len(t) <= 120 else t[:117] + "..."


def ack_of(x):
    """The errno a netlink_ack() call of statement x carries ("EPERM"), or None."""
    m = re.match(r"^(?:return\s+)?netlink_ack\s*\(", x)
    if not m:
        return None
    e = match_paren(x, m.end() - 1)
    for a in split_args(x[m.end():e]):
        me = re.fullmatch(r"\(?\s*-\s*(E[A-Z0-9]+)\s*\)?", a)
        if me:
            return me.group(1)
    return None


def mask_value(v, before):
    """For `return VAR;`: VAR's assignments before it, "; "-joined, when they
    make it a mask of flags rather than an error: every plain assignment a
    value (value_like(), or 0) and the rest |= (fs/attr.c
    setattr_should_drop_suidgid(): int kill = 0; kill = ATTR_KILL_SUID;
    kill |= setattr_should_drop_sgid(...); return kill;). None otherwise."""
    if not re.fullmatch(r"[A-Za-z_]\w*", v):
        return None
    found = re.findall(r"\b%s\s*(\|?=)(?!=)\s*([^;]+);" % re.escape(v), before)
    if not found or not any(op == "=" for op, _ in found):
        return None
    for op, x in found:
        if op == "=" and not (value_like(x) or x.strip() == "0"):
            return None
        if ERR_RE.search(x):
            return None
    return "; ".join("%s %s %s" % (v, op, " ".join(x.split())) for op, x in found)


def value_like(v):
    """A returned expression that is a value, not an error: a constant that
    is no errno (ATTR_KILL_SGID, 4), or arithmetic without calls (mode &
    ~S_ISGID). A variable, a member or a call may hold an error: no."""
    v = v.strip()
    if ERR_RE.search(v) or "ERR_PTR" in v or re.search(r"[A-Za-z_]\w*\s*\(", v):
        return False
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", v):
        return not re.fullmatch(r"E[A-Z0-9]+", v)
    if re.fullmatch(r"\(?\s*(0[xX][0-9a-fA-F]+|[1-9][0-9]*)[uUlL]*\s*\)?", v):
        return True
    if re.match(r"^\(?\s*-", v):
        return False
    if re.fullmatch(r"[A-Za-z_]\w*(\s*(->|\.)\s*\w+|\s*\[[^\]]*\])*", v):
        return False
    return bool(re.search(r"[-+*/%&|^~<>!?]", v))


def errno_of(stmt, body_before, ctx=None):
    """What a denial branch does: an errno, "ack:E..." (a netlink ack
    carrying it), "false" (returns a false value to its caller), "value"
    (returns another value), "silent", or "unknown"; with the statement it
    runs for "silent" and "value" (else None)."""
    st = stmt.strip()
    if st.startswith("{"):
        st = st[1:-1].strip()
    first = statements(st)
    for n, x in enumerate(first):
        ack = ack_of(x)
        if ack:
            return "ack:" + ack, None
        m = re.match(r"^return\s+(.*);$", x, re.S)
        if m:
            v = m.group(1).strip()
            e = ERR_RE.search(v)
            if e and ERRCONST_RE.fullmatch(v):
                return e.group(1), None
            if v in ("false", "0", "NULL"):
                return "false", None
            if value_like(v):
                return "value", ctx.text(x) if ctx else change_text(x)
            mask = mask_value(v, body_before + st[:st.find(x)])
            if mask:
                return "value", change_text("return %s (%s)" % (v, mask))
            return "unknown", None
        m = re.match(r"^goto\s+\w+\s*;$", x)
        if m:
            # the error variable set last before the jump
            errs = re.findall(r"\b\w+\s*=\s*-\s*(E[A-Z0-9]+)\s*;", st[:st.find(x)])
            if errs:
                return errs[-1], None
            errs = re.findall(r"\b\w+\s*=\s*-\s*(E[A-Z0-9]+)\s*;", straight_path(body_before))
            return (errs[-1] if errs else "unknown"), None
        m = re.match(r"^(continue|break)\s*;$", x)
        if m:
            # an error stored just before: it is the effect if what runs
            # after the switch (or loop) the break leaves returns it
            errs = [re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*-\s*(E[A-Z0-9]+)\s*;", y)
                    for y in first[:n]]
            errs = [y for y in errs if y]
            if not errs and m.group(1) == "break" and len(first) == 1 and ctx:
                # err = -EPERM; if (!capable(X)) break;  (net/socket.c
                # sock_ioctl(), net/x25/af_x25.c x25_ioctl())
                prev = preceding(ctx)
                prev = prev and re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*-\s*(E[A-Z0-9]+)\s*;", prev)
                if prev:
                    errs = [prev]
            if not errs:
                return "silent", m.group(1)
            var, err = errs[-1].groups()
            if m.group(1) == "break" and ctx and returns_after_break(ctx, var):
                return err, None
            return "unknown", None
        m = re.match(r"^\w+(->\w+|\.\w+)*\s*=\s*(.*);$", x, re.S)
        if m and len(first) == 1:
            e = ERR_RE.fullmatch(m.group(2).strip())
            if e:
                return e.group(1), None
            return "silent", ctx.text(x) if ctx else change_text(x)
        if CASSIGN_RE.match(x) and len(first) == 1:
            return "silent", ctx.text(x) if ctx else change_text(x)
    # a block of assignments and nothing else, no error among them: the
    # call goes on with those values (drivers/gpu/drm/i915/i915_query.c)
    if len(first) > 1 and all((re.match(r"^\w+(->\w+|\.\w+)*\s*=\s*(.*);$", x, re.S)
                               or CASSIGN_RE.match(x)) and not ERR_RE.search(x)
                              for x in first):
        return "silent", ctx.text(st) if ctx else change_text(st)
    return "unknown", None


def straight_path(before):
    """The text before a statement without the blocks and one-statement
    branches already closed: assignments there did not run on every path."""
    out = []
    i = 0
    n = len(before)
    while i < n:
        if before[i] == "{":
            e = match_paren(before, i)
            if e >= 0:
                out.append(";")   # the block ends the statement it belonged to
                i = e + 1
                continue
        out.append(before[i])
        i += 1
    t = "".join(out)
    return re.sub(r"\b(if|else|for|while)\b[^;{}]*;", " ", t)


def line_of(s, pos):
    return s.count("\n", 0, pos) + 1


def enclosing_statement(body, pos):
    """(start, end) of the innermost statement of body around pos: walk the
    blocks down from the top."""
    i = 0
    n = len(body)
    best = None
    while i < n:
        while i < n and body[i].isspace():
            i += 1
        if i >= n:
            break
        j = stmt_end(body, i)
        if i <= pos < j:
            best = (i, j)
            st = body[i:j]
            # descend into a compound statement's inner blocks when the
            # call is not in the controlling expression
            c = control(st, 0)
            if c:
                e = match_paren(st, c[1])
                if pos - i <= e:
                    return best
                # the branch holding pos
                k = e + 1
                inner = enclosing_in_branches(body, i + k, j, pos)
                return inner or best
            if st.startswith("{"):
                inner = enclosing_statement(body[i + 1:j - 1], pos - i - 1)
                if inner:
                    return (inner[0] + i + 1, inner[1] + i + 1)
                return best
            if re.match(r"do\b", st):
                inner = enclosing_in_branches(body, i + 2, j, pos)
                return inner or best
            return best
        i = j
    return best


def enclosing_in_branches(body, k, end, pos):
    sub = body[k:end]
    # strip an "else" keyword
    r = enclosing_statement(sub, pos - k)
    if r:
        st = sub[r[0]:r[1]]
        if re.match(r"else\b", st):
            r2 = enclosing_statement(sub[r[0] + 4:], pos - k - r[0] - 4)
            if r2:
                return (r2[0] + k + r[0] + 4, r2[1] + k + r[0] + 4)
        return (r[0] + k, r[1] + k)
    return None


def stmt_path(body, pos, base=0):
    """The statements around pos, outermost first, as (kind, start, end)
    with offsets in the function body: kind "if" (the whole statement),
    "then"/"else" (its branches), "switch", "for", "while", "do", "block"
    or "stmt"; the last is the innermost (an "if", loop or switch when pos
    is in its controlling expression)."""
    i, n = 0, len(body)
    while i < n:
        while i < n and body[i].isspace():
            i += 1
        if i >= n:
            break
        j = stmt_end(body, i)
        if j <= i:
            i += 1
            continue
        if i <= pos < j:
            st = body[i:j]
            c = control(st, 0)
            if c:
                node = (c[0], base + i, base + j)
                e = match_paren(st, c[1])
                if e < 0 or pos - i <= e:
                    return [node]
                k = i + e + 1
                if c[0] != "if":
                    return [node] + stmt_path(body[k:j], pos - k, base + k)
                t_end = stmt_end(body, k)
                if pos < t_end:
                    return [node, ("then", base + k, base + t_end)] + \
                        stmt_path(body[k:t_end], pos - k, base + k)
                k2 = t_end
                while k2 < j and body[k2].isspace():
                    k2 += 1
                k2 += 4   # "else"
                return [node, ("else", base + k2, base + j)] + \
                    stmt_path(body[k2:j], pos - k2, base + k2)
            if st.startswith("{"):
                return [("block", base + i, base + j)] + \
                    stmt_path(body[i + 1:j - 1], pos - i - 1, base + i + 1)
            if re.match(r"do\b", st):
                return [("do", base + i, base + j)] + \
                    stmt_path(body[i + 2:j], pos - i - 2, base + i + 2)
            return [("stmt", base + i, base + j)]
        i = j
    return []


def statements_at(body, i, end):
    """(start, end) of the statements of body from i to end."""
    res = []
    while i < end:
        while i < end and body[i].isspace():
            i += 1
        if i >= end:
            break
        j = min(stmt_end(body, i), end)
        if j <= i:
            i += 1
            continue
        res.append((i, j))
        i = j
    return res


def following(fbody, path, idx):
    """The statements that run after path[idx] ends normally, walking out
    through blocks and if-branches: (start, end) each, then None at the
    function's end, or "stop" at the end of a loop's or a switch's body
    (where the reader cannot follow)."""
    level = idx
    while True:
        node = path[level]
        parent = path[level - 1] if level > 0 else None
        if parent is None or parent[0] == "block":
            hi = len(fbody) if parent is None else parent[2] - 1
            for x in statements_at(fbody, node[2], hi):
                yield x
            if parent is None:
                yield None
                return
            level -= 1
        elif parent[0] in ("then", "else"):
            level -= 2
        else:
            yield "stop"
            return


def assigns(var, t):
    return re.search(r"(?<![\w.>])%s\s*(=(?!=)|[-+*/%%&|^]=|<<=|>>=|\+\+|--)|(\+\+|--)\s*%s\b"
                     % (var, var), t)


def label_at(fbody, name):
    """Offset of label name: in fbody, or None."""
    for m in re.finditer(r"(?<![\w.>?:])%s\s*:(?!:)" % name, fbody):
        p = stmt_path(fbody, m.start())
        if p and p[-1][0] == "stmt" and p[-1][1] == m.start():
            return m.start()
    return None


def returns_var(fbody, path, idx, var, jumps=0):
    """Whether what runs after path[idx] returns var before anything
    assigns it or returns something else (following gotos)."""
    for x in following(fbody, path, idx):
        if x is None or x == "stop":
            return False
        t = fbody[x[0]:x[1]].strip()
        if LABEL_RE.fullmatch(t):
            continue
        if re.fullmatch(r"return\s*\(?\s*%s\s*\)?\s*;" % var, t):
            return True
        if re.match(r"(return\b|break\s*;|continue\s*;)", t):
            return False
        mg = re.fullmatch(r"goto\s+(\w+)\s*;", t)
        if mg:
            p = label_at(fbody, mg.group(1))
            if p is None or jumps >= 4:
                return False
            lp = stmt_path(fbody, p)
            return returns_var(fbody, lp, len(lp) - 1, var, jumps + 1)
        if assigns(var, t):
            return False
    return False


def preceding(ctx):
    """The statement just before the one at ctx.st0 in its block, or None."""
    path = stmt_path(ctx.fbody, ctx.st0)
    if not path:
        return None
    parent = path[-2] if len(path) > 1 else None
    if parent is not None and parent[0] != "block":
        return None
    lo = 0 if parent is None else parent[1] + 1
    sts = statements_at(ctx.fbody, lo, ctx.st0)
    return ctx.fbody[sts[-1][0]:sts[-1][1]].strip() if sts else None


def returns_after_break(ctx, var):
    """A break in the statement at ctx.st0 leaves the innermost switch or
    loop around it: whether the function then returns var."""
    path = stmt_path(ctx.fbody, ctx.st0)
    for idx in range(len(path) - 2, -1, -1):
        if path[idx][0] in ("switch", "for", "while", "do"):
            return returns_var(ctx.fbody, path, idx, var)
    return False


def on_straight_path(fbody, p, st0):
    """Whether the plain statement at p runs on every path to st0 (no
    branch or loop around it that is not also around st0)."""
    a, b = stmt_path(fbody, p), stmt_path(fbody, st0)
    if not a or a[-1][0] != "stmt":
        return False
    return b[:len(a) - 1] == a[:-1]


def grant_assign_errno(then_b, ctx, tree=None):
    """if (... capable(X)) VAR = EXPR;  (mm/mlock.c do_mlock()): a denial
    leaves VAR as it was. When it was last set to a constant -E... on the
    straight path before, that errno; "unknown" when VAR held such an error
    somewhere before but the reader cannot tell; None when it never did
    (then the denial only skips the assignment)."""
    tb = then_b.strip()
    if tb.startswith("{"):
        tb = tb[1:-1].strip()
    sts = statements(tb)
    if len(sts) != 1:
        return None
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*=(?!=)\s*(.*);", sts[0], re.S)
    if not m or ERR_RE.fullmatch(m.group(2).strip()):
        return None
    var = m.group(1)
    if tree and tree[0] == "and":
        # if (err == -ENOKEY && capable(X)) err = 0;  (fs/crypto/keyring.c
        # fscrypt_verify_key_added()): asked only when VAR holds that error
        for t in tree[1]:
            if t[0] == "atom" and t[1].kind == "cap":
                break
            if t[0] == "atom":
                me = re.fullmatch(r"%s\s*==\s*-\s*(E[A-Z0-9]+)" % var, t[1].text)
                if me:
                    return me.group(1)
    before = ctx.fbody[:ctx.st0]
    errset = re.compile(r"%s\s*=\s*-\s*(E[A-Z0-9]+)\s*;" % var)
    sets = [x for x in re.finditer(r"(?<![\w.>])%s\s*(=(?!=)|[-+*/%%&|^]=|<<=|>>=|\+\+|--)"
                                   r"|(\+\+|--)\s*%s\b" % (var, var), before)]
    if not any(errset.match(before, x.start()) for x in sets):
        return None
    last = sets[-1]
    me = errset.match(before, last.start())
    if not me or not on_straight_path(ctx.fbody, last.start(), ctx.st0):
        return "unknown"
    return me.group(1)


def terminates(t):
    """Whether statement t never ends normally (return, goto, break,
    continue; an if whose branches both do; a block whose last does)."""
    t = t.strip()
    if t.startswith("{"):
        sts = statements(t[1:-1])
        return bool(sts) and terminates(sts[-1])
    if re.match(r"(return\b|goto\s|break\s*;|continue\s*;|BUG\s*\(\s*\)\s*;|unreachable\s*\()", t):
        return True
    m = re.match(r"(if|switch)\s*\(", t)
    if m:
        e = match_paren(t, m.end() - 1)
        if e < 0:
            return False
        if m.group(1) == "switch":
            # with a default, no break anywhere in it, and a last statement
            # that does not end normally: every way through leaves
            blk = t[e + 1:].strip()
            if not blk.startswith("{") or re.search(r"\bbreak\s*;", blk):
                return False
            sts = statements(blk[1:-1])
            return any(re.fullmatch(r"default\s*:", x) for x in sts) and bool(sts) and \
                terminates(sts[-1])
        t_end = stmt_end(t, e + 1)
        rest = t[t_end:].strip()
        return rest.startswith("else") and terminates(t[e + 1:t_end]) and terminates(rest[4:])
    return False


def when_of(fbody, lit, pos):
    """The case labels of the innermost switch around pos ("A|B"; "default"),
    with those of the cases that fall into them; "-" outside a switch."""
    path = stmt_path(fbody, pos)
    si = max((i for i, x in enumerate(path) if x[0] == "switch"), default=-1)
    if si < 0 or si + 2 >= len(path) or path[si + 1][0] != "block":
        return "-"
    blk, target = path[si + 1], path[si + 2]
    labels, fell, last_label = [], True, False
    for a, b in statements_at(fbody, blk[1] + 1, blk[2] - 1):
        t = fbody[a:b].strip()
        lm = LABEL_RE.fullmatch(t)
        if lm:
            name = lm.group(1)
            if name.startswith("case") or name == "default":
                if not last_label and not fell:
                    labels = []
                last_label = True
                lt = " ".join(lit[a:b].split()).rstrip(":").strip()
                lt = lt[4:].strip() if lt.startswith("case") else lt
                if lt not in labels:
                    labels.append(lt)
            continue
        last_label = False
        if a == target[1]:
            return "|".join(labels) or "-"
        fell = not terminates(t)
    return "-"


def analyse_if(gen, body, st0, st1, fbody_before):
    """Rows' facts for an if statement whose condition asks."""
    st = body[st0:st1]
    m = re.match(r"if\s*\(", st)
    e = match_paren(st, m.end() - 1)
    cond = st[m.end():e]
    tree = Parser(cond, gen, {}).parse()
    atoms = atoms_of(tree, [])
    caps = [a for a in atoms if a.kind == "cap"]
    opq = [a for a in atoms if a.kind == "opaque"]
    if not caps or len(opq) > 10:
        return None
    rest = st[e + 1:]
    # then-branch and else-branch
    tb_end = stmt_end(rest, 0)
    then_b = rest[:tb_end]
    else_b = rest[tb_end:].strip()
    else_b = else_b[4:].strip() if else_b.startswith("else") else ""

    def cond_val(capset, o):
        env = {}
        for a in caps:
            env[id(a)] = a.cap in capset
        for a, v in zip(opq, o):
            env[id(a)] = v
        seen = []
        return evaluate(tree, env, seen), seen

    capnames = []
    for a in caps:
        if a.cap not in capnames:
            capnames.append(a.cap)
    allc = set(capnames)
    assigns = list(itertools.product([False, True], repeat=len(opq)))
    # polarity: does the condition hold when the capabilities are denied?
    deny_pol = any(cond_val(set(), o)[0] and not cond_val(allc, o)[0] for o in assigns)
    grant_pol = any(cond_val(allc, o)[0] and not cond_val(set(), o)[0] for o in assigns)
    if deny_pol == grant_pol:
        return None

    def allowed(capset, o):
        v = cond_val(capset, o)[0]
        return not v if deny_pol else v

    decisive = [o for o in assigns if not allowed(set(), o) and allowed(allc, o)]
    alone = [c for c in capnames if decisive and all(allowed({c}, o) for o in decisive)]
    if len(capnames) == 1:
        kind = "one"
    elif set(alone) == allc:
        kind = "any"
    elif not alone and all(not allowed(allc - {c}, o) for c in capnames for o in decisive):
        kind = "all"
    else:
        kind = "unknown"
    # a plain condition that allows with no capability, evaluated after a
    # capability was asked (short-circuit order)
    conds = []
    for o in assigns:
        ok, seen = cond_val(set(), o)
        ok = not ok if deny_pol else ok
        if ok and any(a.kind == "cap" for a in seen):
            # only what was evaluated after the capability: an operand
            # asked before it (`kill && !capable(X) && S_ISREG(mode)`) is
            # no condition that allows without it
            first = next(i for i, a in enumerate(seen) if a.kind == "cap")
            after = seen[first + 1:]
            for a, v in zip(opq, o):
                if a in after and a.text not in conds and "capable" not in a.text:
                    conds.append(a.text)
    noaudit = any(not a.audited for a in caps)
    ctx = Ctx(gen, body, st0)
    before = fbody_before + body[:st0]
    change = None
    if deny_pol:
        effect, change = errno_of(then_b, before, ctx)
    else:
        tb = then_b.strip()
        effect = "silent"
        if else_b:
            m2 = re.match(r"if\s*\(", else_b)
            if m2:
                # if (capable(X)) {...} else if (C) <denied>: allowed without
                # the capability unless C
                e2 = match_paren(else_b, m2.end() - 1)
                c2 = " ".join(else_b[m2.end():e2].split())
                t2_end = stmt_end(else_b, e2 + 1)
                effect, change = errno_of(else_b[e2 + 1:t2_end], before, ctx)
                if is_err(effect):
                    conds.append("not (%s)" % c2)   # else if (C) <denied>
                else:
                    # else if (C) <allowed> else <denied>
                    e3 = else_b[t2_end:].strip()
                    effect, change = errno_of(e3[4:], before, ctx) \
                        if e3.startswith("else") else ("unknown", None)
                    conds.append(c2)
            else:
                effect, change = errno_of(else_b, before, ctx)
        elif leaves(tb):
            effect = "next"   # a denial falls through to the statements after it
        else:
            # if (... capable(X)) error = f(...); with error = -E set before
            effect = grant_assign_errno(then_b, ctx, tree) or "silent"
    return {"caps": capnames, "kind": kind, "noaudit": noaudit, "effect": effect,
            "cond": conds, "tree": tree, "change": change, "then": then_b}


def leaves(branch):
    """Whether a branch ends by leaving (return of a non-error, goto)."""
    b = branch.strip()
    if b.startswith("{"):
        b = b[1:-1]
    sts = statements(b)
    if not sts:
        return False
    last = sts[-1]
    if re.match(r"^goto\s+\w+\s*;$", last):
        return True
    m = re.match(r"^return\b(.*);$", last, re.S)
    return bool(m) and not ERR_RE.search(m.group(1))


def next_statements(body, st1):
    """Statements after st1 in the same block, with their (start, end)."""
    res = []
    i = st1
    n = len(body)
    while i < n:
        while i < n and body[i].isspace():
            i += 1
        if i >= n or body[i] == "}":
            break
        j = stmt_end(body, i)
        if j <= i:
            break
        res.append((i, j))
        i = j
    return res


def polarity(tree):
    """Whether an expression returned is true when the capabilities are
    granted (False), true when they are denied (True: an inverted answer,
    fs/namei.c __check_sticky()'s "return !capable..."), or None (neither,
    or the reader cannot tell)."""
    atoms = atoms_of(tree, [])
    caps = [a for a in atoms if a.kind == "cap"]
    opq = [a for a in atoms if a.kind == "opaque"]
    if not caps or len(opq) > 10:
        return None

    def val(granted, o):
        env = {id(a): granted != a.zero_ok for a in caps}
        for a, v in zip(opq, o):
            env[id(a)] = v
        return evaluate(tree, env, [])
    assigns = list(itertools.product([False, True], repeat=len(opq)))
    grant = any(val(True, o) and not val(False, o) for o in assigns)
    deny = any(val(False, o) and not val(True, o) for o in assigns)
    return None if grant == deny else deny


def analyse_call(gen, fbody, pos):
    """The row's facts for the capability call at fbody[pos]."""
    r = enclosing_statement(fbody, pos)
    if not r:
        return None
    st0, st1 = r
    st = fbody[st0:st1]
    ctx = Ctx(gen, fbody, st0)
    m = re.match(r"if\s*\(", st)
    if m and pos - st0 < match_paren(st, m.end() - 1):
        res = analyse_if(gen, fbody, st0, st1, "")
        if res is None:
            return {"caps": None}
        if res["effect"] == "next":
            # chain: if (capable(A)) return 0; [if (G)] if (capable(B)) return 0; return -E;
            alts = list(res["caps"])
            eff = "unknown"
            seen_err = []
            then_true = re.search(r"\breturn\s+(true|1)\s*;\s*\}?\s*$", res["then"])
            tv = re.search(r"\breturn\s+([^;]*);\s*\}?\s*$", res["then"])
            tv = " ".join(tv.group(1).split()) if tv else None
            for a0, a1 in next_statements(fbody, st1):
                s2 = fbody[a0:a1].strip()
                if s2.startswith("return"):
                    eff, res["change"] = errno_of(s2, "", Ctx(gen, fbody, a0))
                    v = " ".join(s2[len("return"):].rstrip(";").split())
                    if v == tv:
                        # the denial ends as the grant does (int f() { if
                        # (capable(X)) return 0; ...; return 0; }, net/core/
                        # skbuff.c mm_account_pinned_pages()): what decides is
                        # in between
                        eff, res["change"] = "unknown", None
                    elif ctx.is_bool() and then_true and v not in ("true", "false", "1", "0") \
                            and not ERR_RE.search(v) and not gen.has_cap_call(v) \
                            and not gen.has_api_call(v):
                        # bool f() { if (capable(X)) return true; ...; return EXPR; }
                        # (mm/mmap.c mlock_future_ok()): a denial returns false
                        # unless EXPR, a plain condition that still allows
                        eff, res["change"] = "false", None
                        if v not in res["cond"]:
                            res["cond"].append(v)
                    break
                if re.match(r"^goto\s+\w+\s*;$", s2):
                    eff = seen_err[-1] if seen_err else "unknown"
                    break
                me = re.match(r"^\w+\s*=\s*-\s*(E[A-Z0-9]+)\s*;$", s2)
                if me:
                    seen_err.append(me.group(1))
                    continue
                if re.match(r"^(pr_\w+|WARN\w*|printk\w*|dev_\w+)\s*\(", s2):
                    continue
                inner = s2
                guard = re.match(r"if\s*\(", inner)
                if guard and not gen.has_cap_call(inner):
                    ge = match_paren(inner, guard.end() - 1)
                    gthen = inner[ge + 1:]
                    if then_true and re.fullmatch(r"\{?\s*return\s+(false|0)\s*;\s*\}?",
                                                  gthen.strip()):
                        continue   # a further denial (io_uring/io_uring.c io_uring_allowed())
                    if leaves(gthen) and not inner[ge + 1:].strip().startswith("if"):
                        gc = " ".join(inner[guard.end():ge].split())
                        if gc not in res["cond"]:
                            res["cond"].append(gc)
                        continue
                if guard and gen.has_cap_call(inner):
                    sub = analyse_call(gen, fbody, a0 + inner.find(gen.has_cap_call(inner).group(0)))
                    if sub and sub.get("caps"):
                        for c in sub["caps"]:
                            if c not in alts:
                                alts.append(c)
                        continue
                if not gen.has_cap_call(inner) and not inner.startswith(("return", "goto")):
                    continue   # assignments, calls, guards that do not leave
                break
            res["effect"] = eff
            res["chain"] = alts
        return res
    if st.startswith("return"):
        expr = st[len("return"):].strip().rstrip(";")
        m2 = re.match(r"^(.*)\?\s*0\s*:\s*-\s*(E[A-Z0-9]+)\s*$", expr, re.S)
        tree = Parser(m2.group(1) if m2 else expr, gen, {}).parse()
        caps = []
        for a in atoms_of(tree, []):
            if a.kind == "cap" and a.cap not in caps:
                caps.append(a.cap)
        return {"caps": caps, "kind": "one" if len(caps) == 1 else "unknown",
                "noaudit": any(not a.audited for a in atoms_of(tree, []) if a.kind == "cap"),
                "effect": m2.group(2) if m2 else "caller", "cond": [], "tree": tree,
                "change": None, "inverted": None if m2 else polarity(tree)}
    # an assignment or argument: the answer is stored or passed on
    mcall = re.match(r"[A-Za-z_]\w*", fbody[pos:])
    end = match_paren(fbody, pos + mcall.end() + fbody[pos + mcall.end():].find("("))
    tree = gen.atom(fbody[pos:end + 1], {})
    caps = []
    for a in atoms_of(tree, []):
        if a.kind == "cap" and a.cap not in caps:
            caps.append(a.cap)
    return {"caps": caps, "kind": "any" if len(caps) > 1 else "one",
            "noaudit": any(not a.audited for a in atoms_of(tree, []) if a.kind == "cap"),
            "effect": "value", "cond": [], "tree": tree, "change": ctx.text(st)}


def candidate_files(src, names=None):
    """The files of the tree that call one of names (default: the API)."""
    names = names or list(DIRECT) + HELPERS
    pat = r"\b(%s)\s*\(" % "|".join(names)
    out = subprocess.run(["grep", "-rlE", "--include=*.c", "--include=*.h", pat, "."],
                         cwd=src, capture_output=True, text=True).stdout.split()
    res = []
    for f in out:
        f = f[2:]
        if f.startswith(SKIP_DIRS):
            continue
        if f.startswith("arch/") and not f.startswith(ARCHES):
            continue
        res.append(f)
    return sorted(res)


class Source:
    """One file read: stripped text, the same with its literals, its
    functions, and who calls whom in it."""

    def __init__(self, src, rel):
        text = open(os.path.join(src, rel), errors="replace").read()
        self.rel = rel
        self.s = strip(text)
        self.lit = strip(text, keep_literals=True)
        self.funcs = functions(self.s)
        self.defined = {f[0] for f in self.funcs}
        self.callers = {}
        for name, b0, b1, _static, _p, _h in self.funcs:
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", self.s[b0:b1]):
                self.callers.setdefault(m.group(1), set()).add(name)
        self.called = set(self.callers)


class Row:
    FIELDS = ("file", "line", "function", "caps", "kind", "noaudit", "effect", "cond",
              "inlined", "via", "when", "change")

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def out(self):
        return (self.file, self.line, self.function, "|".join(self.caps), self.kind,
                "noaudit" if self.noaudit else "audit", self.effect,
                " ; ".join(self.cond)[:200] or "-", self.inlined or "-", self.via or "-",
                self.when or "-", self.change or "-")


def read_calls(gen, f, callre, perm_handlers, callee=None, skip_spans=None):
    """Rows for the calls callre finds in the functions of source f: of the
    capability API, or (callee: name, caps, kind, noaudit) of a chain
    function, whose answer is then read as the capability's."""
    rows = []
    for name, b0, b1, static, _p, head in f.funcs:
        if name in DIRECT or name in gen.helpers:
            continue
        if callee and name == callee["name"]:
            continue   # the callee itself (recursion)
        body = f.s[b0:b1]
        gen.fn_lit, gen.fn_head = f.lit[b0:b1], head
        done = set()
        for m in callre.finditer(body):
            r = enclosing_statement(body, m.start())
            key = r
            if key in done:
                continue
            done.add(key)
            if callee and r and skip_spans and (f.rel, name, b0 + r[0], b0 + r[1]) in skip_spans:
                continue   # a statement that asks itself: its own row says it
            if callee:
                gen.only = (callee["name"], "via:" + callee["name"], callee["inverted"])
            try:
                res = analyse_call(gen, body, m.start())
            except (RecursionError, IndexError, ValueError):
                res = None
            finally:
                gen.only = None
            line = line_of(f.s, b0 + m.start())
            change, inverted = None, None
            if not res or not res.get("caps"):
                caps, kind, noaudit, effect, cond = ["unknown"], "unknown", False, "unknown", []
                # the API name alone still says whether it audits
                api = m.group(1)
                if api in DIRECT:
                    noaudit = DIRECT[api][1] is False
            else:
                caps = res.get("chain") or res["caps"]
                kind = res["kind"] if not res.get("chain") or res["kind"] not in ("one", "any") else "any"
                if len(caps) == 1:
                    kind = "one"
                noaudit, effect, cond = res["noaudit"], res["effect"], res["cond"]
                change = res.get("change")
                inverted = False if effect == "false" else res.get("inverted")
            if callee:
                caps, kind, noaudit = callee["caps"], callee["kind"], callee["noaudit"]
                # a capability asked there has a row of its own
                cond = [c for c in cond if not gen.has_api_call(c)]
            if name in perm_handlers and not ERR_RE.fullmatch("-" + effect):
                effect = "mode"
            if effect not in ("silent", "value"):
                change = None
            inl = ""
            if static:
                inl = ",".join(sorted(c for c in f.callers.get(name, ()) if c != name)[:8])
            rows.append(Row(file=f.rel, line=line, function=name, caps=caps, kind=kind,
                            noaudit=noaudit, effect=effect, cond=cond, inlined=inl,
                            via=callee["name"] if callee else None,
                            when=when_of(body, gen.fn_lit, m.start()), change=change,
                            static=static, inverted=inverted,
                            span=(f.rel, name, b0 + r[0], b0 + r[1]) if r else None))
    gen.fn_lit = gen.fn_head = None
    return rows


def chain_functions(rows):
    """The functions whose answer is false on a denial, or the capability's
    answer itself (rows with effect false or caller): key -> their caps,
    kind and audit. A static function of a .c file is keyed (file, name):
    only its own file calls it; others by name."""
    cf = {}
    for r in rows:
        if r.effect not in ("false", "caller") or r.file in API_FILES:
            continue
        local = r.static and r.file.endswith(".c")
        key = (r.file, r.function) if local else r.function
        c = cf.setdefault(key, {"name": r.function, "caps": [], "kinds": [], "audits": [],
                                "files": set(), "local": local, "pol": set()})
        c["pol"].add(r.inverted)
        for x in r.caps:
            if x not in c["caps"]:
                c["caps"].append(x)
        c["kinds"].append(r.kind)
        c["audits"].append(r.noaudit)
        c["files"].add(r.file)
    for k in list(cf):
        # its rows must agree on what its answer is on a denial
        if len(cf[k]["pol"]) != 1 or None in cf[k]["pol"]:
            del cf[k]
    for c in cf.values():
        c["inverted"] = True in c["pol"]
        if len(c["caps"]) == 1:
            c["kind"] = "one" if c["caps"] != ["unknown"] else c["kinds"][0]
        elif len(set(c["kinds"])) == 1 and (c["kinds"][0] != "one" or len(c["kinds"]) == 1):
            c["kind"] = c["kinds"][0]
        else:
            c["kind"] = "any"
        c["noaudit"] = all(c["audits"])
    return cf


def calling_files(src, names, known):
    """name -> the files of the tree that call it, for each of names; known
    holds what earlier passes found (one grep for the new names only)."""
    new = sorted(n for n in names if n not in known)
    for n in new:
        known[n] = set()
    for i in range(0, len(new), 200):
        part = new[i:i + 200]
        out = subprocess.run(["grep", "-roE", "--include=*.c", "--include=*.h",
                              r"\b(%s)\s*\(" % "|".join(part), "."],
                             cwd=src, capture_output=True, text=True,
                             env=dict(os.environ, LC_ALL="C")).stdout
        for line in out.splitlines():
            f, _, m = line.partition(":")
            f = f[2:]
            if f.startswith(SKIP_DIRS) or (f.startswith("arch/") and not f.startswith(ARCHES)):
                continue
            name = re.match(r"\w+", m)
            if name and name.group(0) in known:
                known[name.group(0)].add(f)
    return {n: known[n] for n in names}


def chain_rows(gen, src, cf, load, perm_handlers, direct, known):
    """The rows of every call of a chain function: the statement around it
    read with the callee's answer as the capability. Not where a chain
    function's own direct row already reads the statement."""
    skip_spans = {r.span for r in direct if r.span and
                  ((r.file, r.function) in cf or r.function in cf)}
    rows = []
    global_names = sorted({c["name"] for k, c in cf.items() if not c["local"]})
    files = {}
    for k, c in cf.items():
        if c["local"]:
            files.setdefault(k[0], []).append(c)
    byname = {c["name"]: c for c in cf.values() if not c["local"]}
    for n, fs in calling_files(src, global_names, known).items():
        for rel in fs:
            files.setdefault(rel, []).append(byname[n])
    for rel in sorted(files):
        if rel in API_FILES:
            continue
        f = load(rel)
        for c in sorted(files[rel], key=lambda c: c["name"]):
            if not c["local"] and c["name"] in f.defined and rel not in c["files"]:
                continue   # a function of that name of its own (not the chain one)
            if c["name"] not in f.called:
                continue
            callre = re.compile(r"(?<![.>])\b(%s)\s*\(" % c["name"])
            rows += read_calls(gen, f, callre, perm_handlers, callee=c, skip_spans=skip_spans)
    return rows


def main():
    if len(sys.argv) != 4:
        print("usage: gen-capsites.py SRC LABEL PACKAGE", file=sys.stderr)
        sys.exit(2)
    src, label, package = sys.argv[1:]
    gen = Gen(src)
    callre = re.compile(r"\b(%s)\s*\(" % "|".join(sorted(list(DIRECT) + list(gen.helpers),
                                                          key=len, reverse=True)))
    # .permissions handlers of a ctl_table_root (fs/proc/proc_sysctl.c
    # sysctl_perm()): what they return is the sysctl file's access mode
    out = subprocess.run(["grep", "-rhoE", "--include=*.c", r"\.permissions\s*=\s*\w+", "."],
                         cwd=src, capture_output=True, text=True).stdout
    perm_handlers = set(re.findall(r"=\s*(\w+)", out))
    cache = {}

    def load(rel):
        if rel not in cache:
            cache[rel] = Source(src, rel)
        return cache[rel]

    rows = []
    for rel in candidate_files(src):
        if rel in API_FILES:
            continue
        rows += read_calls(gen, load(rel), callre, perm_handlers)
    # along the call chain: callers of the functions that answer false (or
    # pass the answer on), then their callers when they do the same, to a
    # fixpoint or four levels
    chain, seen, known = [], None, {}
    for _level in range(4):
        cf = chain_functions(rows + chain)
        sig = sorted((str(k), tuple(c["caps"]), c["kind"], c["noaudit"]) for k, c in cf.items())
        if sig == seen:
            break
        seen = sig
        chain = chain_rows(gen, src, cf, load, perm_handlers, rows, known)
    # in file order (the direct rows' own), a statement's direct row first
    allrows = sorted(rows + chain, key=lambda r: (r.file, r.line, r.via is not None))
    print("# capaudit kernel capability sites: generated by tools/capsites/gen-capsites.py")
    print("# kernel\t%s\tsource\t%s" % (label, package))
    print("# file\tline\tfunction\tcaps\tkind\taudit\teffect\tallowed_without\tinlined_into"
          "\tvia\twhen\tchange")
    for r in allrows:
        print("\t".join(str(x).replace("\t", " ") for x in r.out()))


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
