/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF side reads differently per architecture.
 *
 * The user registers a capability check is attributed with, read from the
 * task's struct pt_regs (saved at kernel entry) for the architecture the
 * object is built for (-D__TARGET_ARCH_x86 or -D__TARGET_ARCH_arm64, with
 * vmlinux/<arch>/vmlinux.h): libbpf's PT_REGS_* macros (bpf/bpf_tracing.h)
 * name each architecture's fields, and vmlinux.h's types carry
 * preserve_access_index, so each access is CO-RE relocated. regs comes
 * from bpf_task_pt_regs(), a pointer the verifier trusts, or (before 5.15)
 * is capaudit.bpf.c task_regs()'s copy of the task's pt_regs in a map
 * value: either way the hot path reads it with plain loads, as it did
 * x86's fields by name (the PT_REGS_*_CORE forms are a
 * bpf_probe_read_kernel() call each, for a pointer it does not trust: the
 * copy is one such read of the whole struct instead of one per field). libbpf has no macro for the syscall number:
 * x86 keeps it in orig_ax, arm64 in syscallno
 * (arch/arm64/include/asm/ptrace.h; -1, NO_SYSCALL, outside a syscall, as
 * x86's orig_ax). The arguments are the syscall's own
 * (PT_REGS_PARM*_SYSCALL): arm64 keeps the first in orig_x0, as regs[0] is
 * where the return value goes (libbpf reads that one with
 * bpf_probe_read_kernel() even here).
 */
#ifndef CA_ARCH_BPF_H
#define CA_ARCH_BPF_H

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

struct ca_uregs {
	__s32 nr;        /* syscall in progress, -1: none */
	__u64 ip, sp;    /* user instruction and stack pointer */
	__u64 a0, a1, a2; /* the syscall's first three arguments */
	/* a leaf function's return address where the architecture keeps it
	 * in a register: arm64's link register (x30), which a leaf syscall
	 * wrapper never saves; 0 on x86, where the call instruction put it
	 * at sp */
	__u64 lr;
};

static __always_inline void ca_uregs_read(const struct pt_regs *regs, struct ca_uregs *u)
{
	u->ip = PT_REGS_IP(regs);
	u->sp = PT_REGS_SP(regs);
	u->a0 = PT_REGS_PARM1_SYSCALL(regs);
	u->a1 = PT_REGS_PARM2_SYSCALL(regs);
	u->a2 = PT_REGS_PARM3_SYSCALL(regs);
#if defined(__TARGET_ARCH_x86)
	u->nr = (__s32)regs->orig_ax;
	u->lr = 0;
#elif defined(__TARGET_ARCH_arm64)
	u->nr = regs->syscallno;
	u->lr = PT_REGS_RET(regs);   /* regs[30] */
#else
#error "capaudit's BPF side reads x86 and arm64 registers (-D__TARGET_ARCH_x86 or _arm64)"
#endif
}

/*
 * A return address as a kernel stack word holds it, compared with one the
 * unwinder gave (bpf_get_stack()), by the call-site cache's proofs. arm64
 * kernels with pointer authentication (CONFIG_ARM64_PTR_AUTH_KERNEL, on
 * hardware that has it: Graviton 3, Ampere One, qemu's -cpu max) sign the
 * return address they save (paciasp): the signature takes the bits above
 * the virtual address, which the unwinder strips again
 * (ptrauth_strip_kernel_insn_pac(), arch/arm64/include/asm/pointer_auth.h:
 * it sets them). Kernel text lies in the top 48-bit range
 * (0xffff8000_00000000 up) whatever the VA size, so setting bits 63..48
 * strips any signature and changes no unsigned kernel text address. x86
 * saves return addresses as they are.
 */
#if defined(__TARGET_ARCH_arm64)
#define CA_KRET_WORD(w) ((w) | 0xffff000000000000ULL)
#else
#define CA_KRET_WORD(w) (w)
#endif

/*
 * kprobe mode, --user-stacks: where the leaf's file is looked up. Each of
 * bpf_find_vma() and the user stack's build ids (bpf_get_stack() with
 * BPF_F_USER_BUILD_ID) takes the mm's mmap_lock with a trylock; with
 * interrupts disabled the unlock waits for an irq_work, and the second
 * finds it still pending and gives up (kernel/bpf/mmap_unlock_work.h:
 * -EBUSY, or bare addresses). arm64 runs a kretprobe's handler with
 * interrupts disabled (Debian's 6.12 under qemu: its trace shows the 'd'
 * flag, bpf_find_vma() -EBUSY), x86 does not: there the entry probe looks
 * the leaf up for the return probe, where cap_capable() in between ran
 * with interrupts enabled and the unlock has been done.
 */
#if defined(__TARGET_ARCH_arm64)
#define CA_LEAF_AT_ENTRY 1
#else
#define CA_LEAF_AT_ENTRY 0
#endif

#endif
