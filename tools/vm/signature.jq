# What the kernel matrix compares between kernels and attach modes, one
# sorted line per fact, from `capaudit report --all --format json` (kind =
# the workload) or `capaudit report --suggest --format json` (kind =
# suggest-<workload>). Left out: pids, times, stacks' offsets (they differ
# between builds). Noaudit checks go on "kernel-only" lines, compared
# between the modes of one kernel only: each kernel version makes different
# ones (6.18 has pid_table_root_permissions; on 6.1 the exec/mmap
# CAP_SYS_ADMIN probe in cap_vm_enough_memory() calls cap_capable() inside
# commoncap.c, inlined, so fexit and kprobe never see it), and their counts
# follow the number of processes. $leaf: "yes", or "no" for a kernel
# without bpf_find_vma() (user frames without the leaf frame).
def sites: [.callsites[] | "\(.function):\(.granted)/\(.denied)"] | sort | join(",");
# A syscall as either architecture makes it for the same libc call: arm64's
# table (include/uapi/asm-generic/unistd.h) has no chown, open, mkdir, ...,
# and glibc calls the *at syscall there (sysdeps/unix/sysv/linux/chown.c:
# fchownat where __NR_chown is missing). The x86_64 name is counted as
# arm64's; the names themselves come from each record's own table.
def sysname: {"chown": "fchownat", "lchown": "fchownat", "open": "openat",
  "creat": "openat", "mkdir": "mkdirat", "mknod": "mknodat", "unlink": "unlinkat",
  "rmdir": "unlinkat", "link": "linkat", "symlink": "symlinkat", "rename": "renameat",
  "chmod": "fchmodat", "access": "faccessat", "readlink": "readlinkat",
  "stat": "newfstatat", "lstat": "newfstatat", "fork": "clone", "vfork": "clone",
  "pipe": "pipe2", "dup2": "dup3", "poll": "ppoll", "select": "pselect6",
  "utimes": "utimensat", "getdents": "getdents64"}[tostring] // tostring;
def names: map(.name // .nr | sysname) | sort | unique | join(",");
if ($kind | startswith("suggest-")) then
  (["\($kind) required \(.required | join(","))",
    "\($kind) denied \(.denied | join(","))",
    "\($kind) ptrace_shortcut \(.ptrace_shortcut | if . then "\(.needs_sys_ptrace) via \(.example.via)" else "none" end)"]
   + [.suggestions[] | "\($kind) replace \(.replace) with \(.with) at \(.callsites | sort | join(",")) evidence \(.evidence)"]
   + [.keep[] | "\($kind) keep \(.cap) at \(.callsites | sort | join(","))"]
   + [.denials[] | "\($kind) denial \(.cap) (or \(.also_accepted // "-")) at \(.callsite) x\(.count) failed \(.syscall_failed // "-") \(.kind) in \(.syscalls | map(sysname) | sort | unique | join(","))"])
  | sort | .[]
else
  ([.processes[] | .comm as $c | .capabilities[] |
    if .noaudit then
      "kernel-only \($kind) \($c) \(.cap) noaudit \(if $kind == "ptrace" then "(one per process)" else "\(.granted)/\(.denied)" end) at \([.callsites[].function] | sort | join(","))",
      # busybox ps as uid 65534 (the ptrace workload) makes noaudit
      # CAP_SYS_PTRACE probes through security_capable() on every kernel:
      # their classification, verdict and call site are compared with the host
      (select($kind == "ptrace" and .cap == "CAP_SYS_PTRACE") |
       "\($kind) \($c) \(.cap) noaudit\(if .granted > 0 then " granted" else "" end)\(if .denied > 0 then " denied" else "" end) at \([.callsites[].function] | sort | join(","))")
    else
      "\($kind) \($c) \(.cap) granted \(.granted) denied \(.denied) at \(sites) in \(.syscalls | names)",
      # --user-stacks: the place in the program (the same static binary
      # on every kernel, so the same file and line); $leaf "no": as a
      # kernel without bpf_find_vma() records it, the innermost frame
      # that is not the leaf frame (the caller of a leaf syscall wrapper)
      (.cap as $cap | .callsites[] as $s | $s.user[]? |
       if $leaf == "no" then
         ([.frames[] | select(.leaf | not)][0] // {}) as $w |
         "\($kind) \($c) \($cap) at \($s.function) from \($w.function // "?") \(($w.source // "?") | split("/") | last):\($w.line // 0) (no leaf frame)"
       else
         "\($kind) \($c) \($cap) at \($s.function) from \(.where.function // "?") \((.where.source // "?") | split("/") | last):\(.where.line // 0)"
       end)
    end]
   + ["\($kind) required \(.required | join(","))"])
  | sort | .[]
end
