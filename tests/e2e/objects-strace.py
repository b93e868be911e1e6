#!/usr/bin/env python3
# tests/e2e/objects-strace.bats's comparison: the objects a record's check
# lines name against what `strace -f -y` printed for the same run.
#
#   objects-strace.py RECORD TRACE CAP KIND SYSCALLS
#
# SYSCALLS: the -e trace= list strace was given (a check in another
# syscall is not compared: strace did not print it).
# For every check line of a process strace followed (its pid is in TRACE)
# that has objects: each object must be found in a line strace printed for
# that process and the check's syscall (a file's path, a process's pid, a
# socket option's, socket's, netlink message's or flag's names, a port, a
# mount's target and type, a sysctl's /proc/sys path). And one check of CAP
# must have an object of KIND: what the case is about was recorded. Prints
# one line per object compared ("ok ..." or "MISMATCH ..."); exit 1 on a
# mismatch or when KIND is missing, 0 otherwise.
import json
import re
import sys


def strace_lines(path):
    """pid -> syscall name -> [argument text], from strace -f -o lines
    ("PID name(args) = ret", resumed calls joined)."""
    calls = {}
    pending = {}
    line_re = re.compile(r'^(\d+)\s+(.*)$')
    for raw in open(path, encoding='utf-8', errors='replace'):
        m = line_re.match(raw.rstrip('\n'))
        if not m:
            continue
        pid, rest = int(m.group(1)), m.group(2)
        if rest.endswith('<unfinished ...>'):
            pending[pid] = rest[:-len('<unfinished ...>')]
            continue
        r = re.match(r'^<\.\.\. (\w+) resumed>(.*)$', rest)
        if r:
            rest = pending.pop(pid, r.group(1) + '(') + r.group(2)
        c = re.match(r'^(\w+)\((.*)$', rest)
        if not c:
            continue
        calls.setdefault(pid, {}).setdefault(c.group(1), []).append(c.group(2))
    return calls


# rtnetlink message types (linux/rtnetlink.h): a name the record gives
# must be its number's
RTM = {'RTM_NEWLINK': 16, 'RTM_DELLINK': 17, 'RTM_SETLINK': 19, 'RTM_NEWADDR': 20,
       'RTM_DELADDR': 21, 'RTM_NEWROUTE': 24, 'RTM_DELROUTE': 25}

# socket(2)'s protocol numbers as strace names them
PROTOCOLS = {1: 'IPPROTO_ICMP', 6: 'IPPROTO_TCP', 17: 'IPPROTO_UDP', 58: 'IPPROTO_ICMPV6',
             255: 'IPPROTO_RAW'}


def needles(o):
    """What strace must show for object o: strings that must all be in one
    line, or None when the object cannot be compared."""
    k = o.get('kind')
    if k == 'file':
        return [re.escape(o['path'])] if 'path' in o else None
    if k == 'process':
        return [r'\b%d\b' % o['pid']] if 'pid' in o else None
    if k == 'netlink':
        if o.get('name') in RTM and RTM[o['name']] != o.get('num'):
            return ['(?!)']   # a name that is not its number's: never matches
        # strace names the message type where it knows the socket's
        # protocol (-yy), else prints its number
        alts = [re.escape(o['name'])] if o.get('name') else []
        if 'num' in o:
            alts += ['nlmsg_type=0x%x\\b' % o['num'], 'nlmsg_type=%d\\b' % o['num']]
        return ['(' + '|'.join(alts) + ')'] if alts else None
    if k == 'socket':
        n = [re.escape(x) for x in (o.get('detail'), o.get('name')) if x]
        if o.get('num') in PROTOCOLS:
            n.append(PROTOCOLS[o['num']])
        return n or None
    if k in ('sockopt', 'ioctl', 'bpf'):
        n = [x for x in (o.get('detail'), o.get('name')) if x]
        if k == 'ioctl':
            n = [o['name']] if o.get('name') else []   # the request; the file is the fd's
        return [re.escape(x) for x in n] or None
    if k == 'bind':
        return [r'htons\(%d\)' % o['num']] if 'num' in o else None
    if k == 'mount':
        n = [re.escape(x) for x in (o.get('path'), o.get('detail')) if x]
        return n or None
    if k == 'sysctl':
        p = o.get('path') or ('/proc/sys/' + o['name'].replace('.', '/') if o.get('name') else None)
        return [re.escape(p)] if p else None
    if k == 'flags':
        return [re.escape(f) for f in o.get('name', '').split('|') if f] or None
    return None


def main():
    rec, trace, cap, kind, traced = sys.argv[1:6]
    traced = set(traced.split(','))
    calls = strace_lines(trace)
    bad = 0
    found_kind = False
    for raw in open(rec, encoding='utf-8'):
        c = json.loads(raw)
        if c.get('type') != 'check' or not c.get('objects'):
            continue
        if c.get('cap_name') == cap and any(o.get('kind') == kind for o in c['objects']):
            found_kind = True
        pid, sysname = c.get('pid'), c.get('syscall_name')
        if pid not in calls:
            continue   # strace's own checks, or a process it did not follow
        if sysname not in traced:
            print('not compared (strace did not trace %s): %s %s' % (sysname, c.get('cap_name'),
                                                                     [o.get('kind') for o in c['objects']]))
            continue
        lines = calls[pid].get(sysname, [])
        for o in c['objects']:
            n = needles(o)
            what = '%s %s %s %s' % (c.get('cap_name'), sysname, o.get('kind'),
                                    json.dumps({k: v for k, v in o.items() if k not in ('count', 'kind')},
                                               sort_keys=True))
            if n is None:
                print('skip (nothing strace prints to compare): ' + what)
                continue
            hit = next((l for l in lines if all(re.search(x, l) for x in n)), None)
            if hit is None:
                bad += 1
                print('MISMATCH: %s: not in any of the %d %s() lines of pid %d' %
                      (what, len(lines), sysname, pid))
                for l in lines[:5]:
                    print('    strace: %s(%s' % (sysname, l[:300]))
            else:
                print('ok %s  ~  %s(%s' % (what, sysname, hit[:160]))
    if not found_kind:
        print('MISSING: no %s check has a %s object' % (cap, kind))
        bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
