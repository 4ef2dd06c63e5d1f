/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names people know for cgroup (v2) paths: systemd units and user
 * sessions, docker, podman, containerd and CRI-O containers, Kubernetes
 * pods, systemd-nspawn machines and LXC containers, from the path
 * conventions of each (doc/containers.md has the table).  Pure string
 * work: nothing is read from the machine running ltt.
 */
#ifndef LTT_CGNAME_H
#define LTT_CGNAME_H

#include <stdbool.h>
#include <stddef.h>

enum ltt_cgroup_kind {
	LTT_CGROUP_UNKNOWN,		/* none of the conventions */
	LTT_CGROUP_ROOT,		/* "/" */
	LTT_CGROUP_SERVICE,		/* a systemd service (or socket, mount, swap) */
	LTT_CGROUP_SCOPE,		/* a systemd scope */
	LTT_CGROUP_SLICE,		/* a systemd slice */
	LTT_CGROUP_SESSION,		/* a login session: session-N.scope */
	LTT_CGROUP_DOCKER,
	LTT_CGROUP_PODMAN,		/* a podman container, or a podman pod */
	LTT_CGROUP_CONTAINERD,		/* containerd, Kubernetes' through CRI too */
	LTT_CGROUP_CRIO,
	LTT_CGROUP_CONTAINER,		/* a container id, runtime unknown */
	LTT_CGROUP_POD,			/* a Kubernetes pod, outside its containers */
	LTT_CGROUP_MACHINE,		/* systemd-nspawn, machined (libvirt) */
	LTT_CGROUP_LXC,			/* LXC, LXD, Incus */
	LTT_CGROUP_KINDS
};

/* A Kubernetes pod's QoS class, from its parent cgroups. */
enum ltt_cgroup_qos {
	LTT_CGROUP_QOS_NONE,		/* not in a pod */
	LTT_CGROUP_QOS_GUARANTEED,
	LTT_CGROUP_QOS_BURSTABLE,
	LTT_CGROUP_QOS_BESTEFFORT,
};

#define LTT_CGROUP_NAME_MAX	192
#define LTT_CGROUP_ID_MAX	128
#define LTT_CGROUP_UNIT_MAX	256

/*
 * Every string is NUL-terminated, truncated to its buffer, printable
 * ASCII only: other bytes of the path are written \xNN (as systemd
 * escapes unit names).
 */
struct ltt_cgroup_name {
	enum ltt_cgroup_kind kind;	/* of the innermost thing recognised */
	enum ltt_cgroup_qos qos;
	const char *runtime;		/* "docker", "podman", "containerd",
					   "cri-o", "systemd-nspawn", "lxc",
					   "kubernetes", "systemd", or "" */
	bool monitor;			/* the runtime's monitor of the container
					   (conmon, lxc.monitor), not the container */
	long uid;			/* user-UID.slice, user@UID.service; -1 */
	char name[LTT_CGROUP_NAME_MAX];	/* shown: "docker:3f2a9c1e77b0" */
	char id[LTT_CGROUP_ID_MAX];	/* the full container id; the machine's
					   or LXC container's name */
	char pod[LTT_CGROUP_ID_MAX];	/* the Kubernetes pod UID (dashed) or
					   podman pod id the container is in */
	char unit[LTT_CGROUP_UNIT_MAX];	/* the innermost systemd unit, as named
					   (escapes kept), inside a container too */
	char session[32];		/* session-ID.scope's ID */
};

/*
 * Name the cgroup at @path (with or without its leading slash; "" and "/"
 * are the root).  The innermost container wins (a pod's container inside
 * a node container: the pod's), with its pod recorded.  A path of no
 * known convention is kind LTT_CGROUP_UNKNOWN named by its last
 * component.  0, or -1 when @path or @out is NULL.
 */
int ltt_cgroup_name(const char *path, struct ltt_cgroup_name *out);
/* The same for the @len bytes at @path (up to a NUL if one is first). */
int ltt_cgroup_name_len(const char *path, size_t len,
			struct ltt_cgroup_name *out);

/* "docker", "service", "pod", ... (the kind column of the fixture). */
const char *ltt_cgroup_kind_name(enum ltt_cgroup_kind kind);
/* "guaranteed", "burstable", "besteffort", or "". */
const char *ltt_cgroup_qos_name(enum ltt_cgroup_qos qos);

#endif /* LTT_CGNAME_H */
