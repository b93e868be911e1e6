// SPDX-License-Identifier: GPL-2.0
#include "facts/callsite.h"
#include "test.h"

/* Stacks as recorded on Linux 6.18.44 (tp_btf mode, plumbing stripped). */
static char *chown_stack[] = {
	"cap_capable+0x83", "security_capable+0x3b", "capable_wrt_inode_uidgid+0x39",
	"setattr_prepare+0x115", "ext4_setattr+0x71", "notify_change+0x38a",
	"chown_common+0x24e", "do_fchownat+0xd6", "__x64_sys_fchownat+0x1b",
};
static char *mmap_stack[] = {
	"cap_capable+0x83", "security_vm_enough_memory_mm+0x36", "__mmap_region+0xe04",
	"do_mmap+0x494",
};
static char *bpf_stack[] = {
	"bpf_prog_64594527cf16f4d7_tp_btf_cap_capable+0x817 [bpf]", "bpf_trace_run5+0x112",
	"cap_capable+0x83", "security_capable+0x3b", "ns_capable+0x2d",
	"bpf_token_capable+0x22", "map_create+0x28d", "__sys_bpf+0x1c0",
};
static char *ipc_stack[] = {
	"cap_capable+0x83", "security_capable+0x3b", "ns_capable_noaudit+0x2a",
	"ipc_permissions+0xa0", "proc_sys_permission+0x5b",
};
static char *clone_stack[] = {
	"cap_capable+0x83", "security_capable+0x3b", "ns_capable+0x2d",
	"alloc_pid.constprop.0+0xcd", "copy_process+0x1234",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

TEST(frame_function_strips_offset_module_and_clone_suffix)
{
	char b[64];

	ASSERT_STR(frame_function("setattr_prepare+0x115", b, sizeof(b)), "setattr_prepare");
	ASSERT_STR(frame_function("foo+0x1 [ext4]", b, sizeof(b)), "foo");
	ASSERT_STR(frame_function("do_execveat_common.isra.0+0x8d", b, sizeof(b)),
		   "do_execveat_common");
	ASSERT_STR(frame_function("0xffffffff81000000", b, sizeof(b)), "0xffffffff81000000");
}

TEST(callsite_is_first_frame_above_the_capability_api)
{
	ASSERT_EQ(callsite_index(chown_stack, N(chown_stack)), 3);
	ASSERT_EQ(callsite_index(mmap_stack, N(mmap_stack)), 1);
	/* plumbing skipped, bpf_token_capable is API: the site is map_create */
	ASSERT_EQ(callsite_index(bpf_stack, N(bpf_stack)), 6);
	ASSERT_EQ(callsite_index(clone_stack, N(clone_stack)), 3);
	ASSERT_EQ(callsite_index(chown_stack, 3), -1);
	ASSERT_EQ(callsite_index(NULL, 0), -1);
}

/* Other kernels, other hooks: the tops of stacks the kernel matrix
 * (tools/vmtest.sh) recorded on Debian's 6.1 */
TEST(callsite_skips_fexit_and_kretprobe_frames_of_6_1)
{
	/* fexit: the trampoline is reached through ftrace's own */
	char *fexit[] = { "ftrace_trampoline+0x2079 [__builtin__ftrace]", "cap_capable+0x5",
			  "security_capable+0x40", "capable_wrt_inode_uidgid+0x3c",
			  "setattr_prepare+0x11f", "shmem_setattr+0x29" };
	/* kretprobe: cap_capable has returned; its caller is on top */
	char *kret[] = { "security_capable+0x40", "capable_wrt_inode_uidgid+0x3c",
			 "setattr_prepare+0x1e7", "shmem_setattr+0x29" };

	ASSERT_EQ(callsite_index(fexit, N(fexit)), 4);
	ASSERT_TRUE(frame_is_plumbing(fexit[0]));
	ASSERT_TRUE(frame_is_plumbing("ftrace_trampoline+0x10"));
	ASSERT_EQ(callsite_index(kret, N(kret)), 2);
}

/* The hook's own frames, dropped before a stack is stored: on Debian's
 * 5.10 (fexit, no iter/ksym) the BPF program and trampoline frames, loaded
 * after /proc/kallsyms was read, carry the last kernel symbol's name */
TEST(callsite_hook_frames_end_at_the_capability_api)
{
	char *old[] = { "exit_amd_microcode+0x1dc80ab5", "exit_amd_microcode+0x1dc80ab5",
			"exit_amd_microcode+0x1dc93354", "cap_capable+0x5",
			"security_capable+0x36", "capable+0x2f", "__do_sys_perf_event_open+0x61" };
	char *kret[] = { "security_capable+0x40", "capable_wrt_inode_uidgid+0x3c",
			 "setattr_prepare+0x1e7" };
	char *no_api[] = { "bpf_trace_run5+0x112", "do_thing+0x1", "cap_capable_x+0x1" };
	char *bare[] = { "0xffffffffc0012345", "0xffffffff81000000" };

	ASSERT_EQ(callsite_hook_frames(old, N(old)), 3);
	ASSERT_EQ(callsite_index(old + 3, N(old) - 3), 3);
	ASSERT_EQ(callsite_hook_frames(bpf_stack, N(bpf_stack)), 2);
	ASSERT_EQ(callsite_hook_frames(chown_stack, N(chown_stack)), 0);
	ASSERT_EQ(callsite_hook_frames(kret, N(kret)), 0);
	/* no API frame: only the leading plumbing goes */
	ASSERT_EQ(callsite_hook_frames(no_api, N(no_api)), 1);
	/* an address without a symbol is JIT code (without any symbols at
	 * all the recorder keeps a stack whole: record/symbols.c) */
	ASSERT_EQ(callsite_hook_frames(bare, N(bare)), 2);
	ASSERT_EQ(callsite_hook_frames(NULL, 0), 0);
}

TEST(noaudit_from_stack_rule)
{
	ASSERT_EQ(noaudit_from_stack(chown_stack, N(chown_stack)), NOAUDIT_NO);
	ASSERT_EQ(noaudit_from_stack(mmap_stack, N(mmap_stack)), NOAUDIT_CALLER);
	ASSERT_EQ(noaudit_from_stack(ipc_stack, N(ipc_stack)), NOAUDIT_API);
	ASSERT_EQ(noaudit_from_stack(bpf_stack, N(bpf_stack)), NOAUDIT_NO);
	ASSERT_EQ(noaudit_from_stack(clone_stack, N(clone_stack)), NOAUDIT_NO);
	/* a noaudit-looking name deeper than the call site does not count */
	{
		char *s[] = { "cap_capable+0x1", "capable+0x1", "do_thing+0x1",
			      "ns_capable_noaudit+0x1" };

		ASSERT_EQ(noaudit_from_stack(s, 4), NOAUDIT_NO);
	}
}

TEST(frame_is_plumbing_names_tracer_frames)
{
	ASSERT_TRUE(frame_is_plumbing("bpf_prog_64594527cf16f4d7_tp_btf_cap_capable+0x817 [bpf]"));
	ASSERT_TRUE(frame_is_plumbing("bpf_trace_run5+0x112"));
	ASSERT_TRUE(frame_is_plumbing("bpf_trampoline_6442+0x4f"));
	ASSERT_TRUE(frame_is_plumbing("bpf_trampoline_6442451234+0x4f [bpf]"));
	ASSERT_TRUE(frame_is_plumbing("perf_trace_run_bpf_submit+0x4c"));
	ASSERT_FALSE(frame_is_plumbing("cap_capable+0x83"));
	ASSERT_FALSE(frame_is_plumbing("bpf_token_capable+0x22"));
	/* real call sites that merely look like tracer names */
	ASSERT_FALSE(frame_is_plumbing("bpf_prog_load+0x15e"));
	ASSERT_FALSE(frame_is_plumbing("bpf_prog_get_info_by_fd+0x40"));
	ASSERT_FALSE(frame_is_plumbing("perf_trace_event_init+0xb5"));
	ASSERT_FALSE(frame_is_plumbing("ftrace_profile_set_filter+0x301"));
}
