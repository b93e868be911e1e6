#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The kernel's capability logic as data: every call site of the capability
API in a kernel source tree, with the capabilities it accepts (in the order
it asks), whether the check is audited, what a denial does there, and
plain conditions that allow without any capability. docs/capsites.md says
what each column means and how the rules below read the source.

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
    """(name, body start, body end, is_static) of each function definition."""
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
                                m.group(2)))
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
        self.load_helpers()

    # -- helpers --------------------------------------------------------
    def load_helpers(self):
        for rel in HELPER_FILES:
            path = os.path.join(self.src, rel)
            if not os.path.exists(path):
                continue
            s = strip(open(path, errors="replace").read())
            for name, b0, b1, _static, params in functions(s):
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
            if name in DIRECT:
                idx, audited = DIRECT[name]
                arg = args[idx] if -len(args) <= idx < len(args) else ""
                caps = CAP_RE.findall(arg)
                if audited is None:
                    audited = "CAP_OPT_NOAUDIT" not in chunk
                cap = caps[0] if len(caps) == 1 and arg.strip() == caps[0] else None
                return ("atom", Atom("cap", chunk, cap=cap or "unknown", audited=audited))
            if name in self.helpers:
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
    m = re.match(r"(if|while|for|switch)\s*\(", s[i:])
    if m:
        e = match_paren(s, i + m.end() - 1)
        if e < 0:
            return n
        j = stmt_end(s, e + 1)
        if m.group(1) == "if":
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


def errno_of(stmt, body_before):
    """What a denial branch does: an errno, "false" (returns a false value to
    its caller), "silent", or "unknown"."""
    st = stmt.strip()
    if st.startswith("{"):
        st = st[1:-1].strip()
    first = statements(st)
    for x in first:
        m = re.match(r"^return\s+(.*);$", x, re.S)
        if m:
            v = m.group(1).strip()
            e = ERR_RE.search(v)
            if e and re.fullmatch(r"\(?\s*-\s*E[A-Z0-9]+\s*\)?|ERR_PTR\s*\(\s*-E[A-Z0-9]+\s*\)", v):
                return e.group(1)
            if v in ("false", "0", "NULL"):
                return "false"
            return "unknown"
        m = re.match(r"^goto\s+\w+\s*;$", x)
        if m:
            # the error variable set last before the jump
            errs = re.findall(r"\b\w+\s*=\s*-\s*(E[A-Z0-9]+)\s*;", st[:st.find(x)])
            if errs:
                return errs[-1]
            errs = re.findall(r"\b\w+\s*=\s*-\s*(E[A-Z0-9]+)\s*;", straight_path(body_before))
            return errs[-1] if errs else "unknown"
        if re.match(r"^(continue|break)\s*;$", x):
            return "silent"
        m = re.match(r"^\w+(->\w+|\.\w+)*\s*=\s*(.*);$", x, re.S)
        if m and len(first) == 1:
            e = ERR_RE.fullmatch(m.group(2).strip())
            return e.group(1) if e else "silent"
    return "unknown"


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
            m = re.match(r"(if|while|for|switch)\s*\(", st)
            if m:
                e = match_paren(st, m.end() - 1)
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
            r2 = enclosing_statement(sub[r[0] + 4:r[1]], pos - k - r[0] - 4)
            if r2:
                return (r2[0] + k + r[0] + 4, r2[1] + k + r[0] + 4)
        return (r[0] + k, r[1] + k)
    return None


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
            for a, v in zip(opq, o):
                if a in seen and a.text not in conds and "capable" not in a.text:
                    conds.append(a.text)
    noaudit = any(not a.audited for a in caps)
    if deny_pol:
        effect = errno_of(then_b, fbody_before + body[:st0])
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
                effect = errno_of(else_b[e2 + 1:t2_end], fbody_before + body[:st0])
                if ERR_RE.fullmatch("-" + effect):
                    conds.append("not (%s)" % c2)   # else if (C) <denied>
                else:
                    # else if (C) <allowed> else <denied>
                    e3 = else_b[t2_end:].strip()
                    effect = errno_of(e3[4:], fbody_before + body[:st0]) \
                        if e3.startswith("else") else "unknown"
                    conds.append(c2)
            else:
                effect = errno_of(else_b, fbody_before + body[:st0])
        elif leaves(tb):
            effect = "next"   # a denial falls through to the statements after it
    return {"caps": capnames, "kind": kind, "noaudit": noaudit, "effect": effect,
            "cond": conds, "tree": tree}


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


def analyse_call(gen, fbody, pos):
    """The row's facts for the capability call at fbody[pos]."""
    r = enclosing_statement(fbody, pos)
    if not r:
        return None
    st0, st1 = r
    st = fbody[st0:st1]
    before = fbody[:st0]
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
            for a0, a1 in next_statements(fbody, st1):
                s2 = fbody[a0:a1].strip()
                if s2.startswith("return"):
                    eff = errno_of(s2, "")
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
                "effect": m2.group(2) if m2 else "caller", "cond": [], "tree": tree}
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
            "effect": "value", "cond": [], "tree": tree}


def candidate_files(src):
    names = list(DIRECT) + HELPERS
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
    rows = []
    for rel in candidate_files(src):
        if rel in API_FILES:
            continue
        text = open(os.path.join(src, rel), errors="replace").read()
        s = strip(text)
        funcs = functions(s)
        callers = {}
        for name, b0, b1, static, _p in funcs:
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", s[b0:b1]):
                callers.setdefault(m.group(1), set()).add(name)
        for name, b0, b1, static, _p in funcs:
            if name in DIRECT or name in gen.helpers:
                continue
            body = s[b0:b1]
            done = set()
            for m in callre.finditer(body):
                r = enclosing_statement(body, m.start())
                key = r
                if key in done:
                    continue
                done.add(key)
                try:
                    res = analyse_call(gen, body, m.start())
                except (RecursionError, IndexError, ValueError):
                    res = None
                line = line_of(s, b0 + m.start())
                if not res or not res.get("caps"):
                    caps, kind, noaudit, effect, cond = ["unknown"], "unknown", False, "unknown", []
                    # the API name alone still says whether it audits
                    api = m.group(1)
                    if api in DIRECT:
                        noaudit = DIRECT[api][1] is False
                else:
                    caps = res.get("chain") or res["caps"]
                    kind = res["kind"] if not res.get("chain") else "any"
                    if len(caps) == 1:
                        kind = "one"
                    noaudit, effect, cond = res["noaudit"], res["effect"], res["cond"]
                if name in perm_handlers and not ERR_RE.fullmatch("-" + effect):
                    effect = "mode"
                inl = ""
                if static:
                    inl = ",".join(sorted(c for c in callers.get(name, ()) if c != name)[:8])
                rows.append((rel, line, name, "|".join(caps), kind,
                             "noaudit" if noaudit else "audit", effect,
                             " ; ".join(cond)[:200] or "-", inl or "-"))
    print("# capaudit kernel capability sites: generated by tools/capsites/gen-capsites.py")
    print("# kernel\t%s\tsource\t%s" % (label, package))
    print("# file\tline\tfunction\tcaps\tkind\taudit\teffect\tallowed_without\tinlined_into")
    for r in rows:
        print("\t".join(str(x).replace("\t", " ") for x in r))


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
