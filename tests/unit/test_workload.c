// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "test.h"
#include "facts/workload.h"

#define ID "591d49a5940b503b3349885888b60cdb612c81b21a5cbc040dea9b003788abc5"

TEST(workload_names_containers_by_runtime)
{
	static const struct { const char *path, *runtime; } cases[] = {
		{ "/libpod_parent/libpod-" ID, "podman" },                 /* cgroupfs */
		{ "/machine.slice/libpod-" ID ".scope", "podman" },        /* systemd */
		{ "/machine.slice/libpod-" ID ".scope/container", "podman" },
		{ "/system.slice/docker-" ID ".scope", "docker" },
		{ "/docker/" ID, "docker" },
		{ "/system.slice/cri-containerd-" ID ".scope", "containerd" },
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a2b_3c4d.slice/"
		  "cri-containerd-" ID ".scope", "containerd" },
		{ "/kubepods/besteffort/pod1a2b-3c4d/" ID, "kubernetes" },
		{ "/machine.slice/crio-" ID ".scope", "cri-o" },
	};
	struct workload w;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_TRUE(workload_from_cgroup(cases[i].path, &w));
		ASSERT_STR(w.container_id, ID);
		ASSERT_STR(w.runtime, cases[i].runtime);
		ASSERT_STR(w.unit, "");
	}
	workload_from_cgroup("/kubepods/besteffort/pod1a2b-3c4d/" ID, &w);
	ASSERT_STR(w.pod_uid, "1a2b-3c4d");
	workload_from_cgroup("/kubepods.slice/kubepods-burstable.slice/"
			     "kubepods-burstable-pod1a2b_3c4d.slice/crio-" ID ".scope", &w);
	ASSERT_STR(w.pod_uid, "1a2b-3c4d");
	ASSERT_STR(w.runtime, "cri-o");
}

TEST(workload_monitors_and_plain_paths_are_not_containers)
{
	struct workload w;

	/* conmon, the container's monitor, is not the container */
	ASSERT_FALSE(workload_from_cgroup("/libpod_parent/conmon", &w));
	ASSERT_FALSE(workload_from_cgroup("/machine.slice/libpod-conmon-" ID ".scope", &w));
	ASSERT_FALSE(workload_from_cgroup("/machine.slice/crio-conmon-" ID ".scope", &w));
	/* an id one digit short, upper case, or a bare id outside docker/pods */
	ASSERT_FALSE(workload_from_cgroup("/docker/591d49a5940b503b3349885888b60cdb612c81b21a5cbc"
					  "040dea9b003788abc", &w));
	ASSERT_FALSE(workload_from_cgroup("/docker/591D49A5940B503B3349885888B60CDB612C81B21A5CBC"
					  "040DEA9B003788ABC5", &w));
	ASSERT_FALSE(workload_from_cgroup("/" ID, &w));
	ASSERT_FALSE(workload_from_cgroup("/", &w));
	ASSERT_FALSE(workload_from_cgroup("", &w));
	ASSERT_FALSE(workload_from_cgroup("/user.slice/user-0.slice/session-1.scope", &w));
	ASSERT_STR(w.container_id, "");
}

TEST(workload_innermost_unit_or_container_wins)
{
	struct workload w;

	ASSERT_TRUE(workload_from_cgroup("/system.slice/cron.service", &w));
	ASSERT_STR(w.unit, "cron.service");
	ASSERT_STR(w.container_id, "");
	ASSERT_TRUE(workload_from_cgroup("/user.slice/user-1000.slice/user@1000.service/"
					 "app.slice/pipewire.service", &w));
	ASSERT_STR(w.unit, "pipewire.service");
	/* a container started by a service is the container */
	ASSERT_TRUE(workload_from_cgroup("/system.slice/app.service/libpod-" ID, &w));
	ASSERT_STR(w.unit, "");
	ASSERT_STR(w.container_id, ID);
	/* a service inside a container (systemd as its init): both */
	ASSERT_TRUE(workload_from_cgroup("/machine.slice/libpod-" ID ".scope/system.slice/"
					 "nginx.service", &w));
	ASSERT_STR(w.unit, "nginx.service");
	ASSERT_STR(w.container_id, ID);
	/* ".service" alone is no unit name */
	ASSERT_FALSE(workload_from_cgroup("/system.slice/.service", &w));
}

TEST(workload_runtime_setup_is_runc_or_crun)
{
	ASSERT_TRUE(workload_is_runtime_setup("runc:[2:INIT]", "/dev/fd/6"));
	ASSERT_TRUE(workload_is_runtime_setup("runc:[0:PARENT]", NULL));
	ASSERT_TRUE(workload_is_runtime_setup("runc", "/dev/fd/6"));
	ASSERT_TRUE(workload_is_runtime_setup("exe", "/usr/sbin/runc"));
	ASSERT_TRUE(workload_is_runtime_setup("crun", "/usr/bin/crun"));
	ASSERT_FALSE(workload_is_runtime_setup("sh", "/bin/sh"));
	/* busybox re-exec'ing itself: the container's own program */
	ASSERT_FALSE(workload_is_runtime_setup("exe", "/bin/sh"));
	ASSERT_FALSE(workload_is_runtime_setup("exe", NULL));
	ASSERT_FALSE(workload_is_runtime_setup("runcible", "/usr/bin/runcible"));
}
