#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The README's quick start as a transcript, and a run of it compared.

    transcript.py extract README.md     the block after the "quickstart:"
                                        comment, as it is written
    transcript.py commands README.md    its commands, one a line ("$ " cut)
    transcript.py match EXPECTED ACTUAL exit 0 when ACTUAL (a run: each
                                        command's "$ " line, then what it
                                        printed) is what EXPECTED shows

A transcript is a fenced block: lines starting "$ " are commands, the lines
after one are what it printed (standard output and error together). In
EXPECTED, a line that is only "..." stands for any number of lines (none
too), and "..." inside a line for any text. What changes from run to run
and is no part of the answer is made the same on both sides before they
are compared: pids ("pid 123", "PID 123"), times (2026-01-02T03:04:05.6Z,
"(0.87 s)"), and the directory the commands ran in (DIR, given as
TRANSCRIPT_DIR in the environment). Exit 1 with the first line that
differs, both transcripts beside it, on stderr.
"""

import os
import re
import sys

MARKER = "<!-- quickstart:"


def block(readme):
    """The lines of the fenced block that follows the marker comment."""
    lines = open(readme).read().split("\n")
    try:
        i = next(n for n, l in enumerate(lines) if l.startswith(MARKER))
    except StopIteration:
        sys.exit("transcript.py: %s has no %r comment" % (readme, MARKER))
    while not lines[i].startswith("```"):
        i += 1
    out = []
    for line in lines[i + 1:]:
        if line.startswith("```"):
            return out
        out.append(line)
    sys.exit("transcript.py: %s: the quick start's block is not closed" % readme)


def normalise(line, cwd):
    if cwd:
        line = line.replace(cwd, "DIR")
    line = re.sub(r"\b(pid|PID|ppid) [0-9]+", r"\1 N", line)
    line = re.sub(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z", "TIME", line)
    line = re.sub(r"\([0-9]+(\.[0-9]+)? s\)", "(N s)", line)
    return line


def pattern(expected, cwd):
    """EXPECTED's lines as one regular expression over the run's text."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            text = normalise(line, cwd)
            parts.append(".*".join(re.escape(p) for p in text.split("...")) + r"\n")
    return re.compile("".join(parts))


def first_difference(expected, actual):
    """The first expected line no line of the run matches, in order."""
    j = 0
    for line in expected:
        if line.strip() == "...":
            continue
        rx = re.compile(".*".join(re.escape(p) for p in line.split("...")) + r"\Z")
        while j < len(actual) and not rx.match(actual[j]):
            j += 1
        if j == len(actual):
            return line
        j += 1
    return None


def main(argv):
    if len(argv) != 3 and not (len(argv) == 4 and argv[1] == "match"):
        sys.stderr.write(__doc__)
        return 2
    if argv[1] == "extract":
        print("\n".join(block(argv[2])))
        return 0
    if argv[1] == "commands":
        for line in block(argv[2]):
            if line.startswith("$ "):
                print(line[2:])
        return 0
    if argv[1] != "match":
        sys.stderr.write(__doc__)
        return 2
    cwd = os.environ.get("TRANSCRIPT_DIR", "")
    expected = [l for l in open(argv[2]).read().split("\n")]
    actual = open(argv[3]).read()
    if expected and expected[-1] == "":
        expected.pop()
    if pattern(expected, cwd).fullmatch(
            "".join(normalise(l, cwd) + "\n" for l in actual.split("\n")[:-1])):
        return 0
    norm_exp = [normalise(l, cwd) for l in expected]
    norm_act = [normalise(l, cwd) for l in actual.split("\n")[:-1]]
    missing = first_difference(norm_exp, norm_act)
    sys.stderr.write("transcript.py: the run differs from the README%s\n" % (
        ": no line of it matches %r" % missing if missing else
        " (lines beyond what it shows)"))
    sys.stderr.write("--- README\n%s\n--- run\n%s" % ("\n".join(expected), actual))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
