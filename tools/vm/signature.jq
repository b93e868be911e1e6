# What the kernel matrix compares between kernels and attach modes, one
# sorted line per fact, from `capaudit report --all --format json` (kind =
# the workload) or `capaudit report --suggest --format json` (kind =
# suggest-<workload>). Left out: pids, times, stacks' offsets (they differ
# between builds), and the raw noaudit counts, which go on their own
# "noaudit-count" lines (exec and mmap make a different number of noaudit
# probes on each kernel version; vmtest compares them between the modes of
# one kernel only).
def sites: [.callsites[] | "\(.function):\(.granted)/\(.denied)"] | sort | join(",");
def names: map(.name) | sort | unique | join(",");
if ($kind | startswith("suggest-")) then
  (["\($kind) required \(.required | join(","))",
    "\($kind) denied \(.denied | join(","))"]
   + [.suggestions[] | "\($kind) replace \(.replace) with \(.with) at \(.callsites | sort | join(",")) evidence \(.evidence)"]
   + [.keep[] | "\($kind) keep \(.cap) at \(.callsites | sort | join(","))"]
   + [.denials[] | "\($kind) denial \(.cap) (or \(.also_accepted // "-")) at \(.callsite) x\(.count) failed \(.syscall_failed // "-") \(.kind) in \(.syscalls | sort | join(","))"])
  | sort | .[]
else
  ([.processes[] | .comm as $c | .capabilities[] |
    if .noaudit then
      "\($kind) \($c) \(.cap) noaudit at \([.callsites[].function] | sort | join(","))",
      "noaudit-count \($kind) \($c) \(.cap) \(.granted)/\(.denied)"
    else
      "\($kind) \($c) \(.cap) granted \(.granted) denied \(.denied) at \(sites) in \(.syscalls | names)"
    end]
   + ["\($kind) required \(.required | join(","))"])
  | sort | .[]
end
