// SPDX-License-Identifier: GPL-2.0
/*
 * The names people know for cgroup (v2) paths (cgname.h).
 *
 * A path is read component by component, outermost first; each
 * component may be a systemd unit (its name kept as systemd shows it),
 * a container of some runtime, a Kubernetes or podman pod, a machine or
 * an LXC container.  What is found deeper replaces what was found
 * higher up, except the pod, which stays with the containers inside
 * it, and the user, which stays with the units of a user manager.
 *
 * Only the bytes of the path are read (up to its length or a NUL);
 * every output string is bounded by its buffer and holds printable
 * ASCII only.
 */
#include <stdint.h>
#include <string.h>

#include "cgname.h"

struct span {
	const char *p;
	size_t n;
};

#define SPAN_NONE	((struct span){ NULL, 0 })

static bool span_is(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}

static bool has_prefix(struct span s, const char *pre)
{
	size_t n = strlen(pre);

	return s.n >= n && !memcmp(s.p, pre, n);
}

static bool has_suffix(struct span s, const char *suf)
{
	size_t n = strlen(suf);

	return s.n >= n && !memcmp(s.p + s.n - n, suf, n);
}

static struct span after(struct span s, size_t n)
{
	return (struct span){ s.p + n, s.n - n };
}

static struct span before_suffix(struct span s, const char *suf)
{
	return (struct span){ s.p, s.n - strlen(suf) };
}

static bool is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* A runtime's container id: lower-case hex, 12 to 64 digits. */
static bool is_container_id(struct span s, size_t min)
{
	size_t i;

	if (s.n < min || s.n > 64)
		return false;
	for (i = 0; i < s.n; i++)
		if (!is_hex_digit(s.p[i]))
			return false;
	return true;
}

/*
 * A pod UID as the kubelet writes it: a UUID, its dashes turned to
 * underscores by the systemd driver (a dash is a slice's separator), or
 * 32 hex digits (a static pod's hash).
 */
static bool is_pod_uid(struct span s)
{
	size_t i, hex = 0;

	if (s.n != 32 && s.n != 36)
		return false;
	for (i = 0; i < s.n; i++) {
		if (is_hex_digit(s.p[i]))
			hex++;
		else if (s.p[i] != '-' && s.p[i] != '_')
			return false;
	}
	return hex == 32;
}

static bool is_digits(struct span s, size_t max)
{
	size_t i;

	if (!s.n || s.n > max)
		return false;
	for (i = 0; i < s.n; i++)
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
	return true;
}

static long to_long(struct span s)
{
	long v = 0;
	size_t i;

	for (i = 0; i < s.n; i++)
		v = v * 10 + (s.p[i] - '0');
	return v;
}

/* The characters of a systemd unit name (systemd.unit(5)). */
static bool is_unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr(":_.\\-@", c);
}

static const struct unit_type {
	const char *suffix;
	enum ltt_cgroup_kind kind;
} unit_types[] = {
	{ ".service", LTT_CGROUP_SERVICE },
	{ ".scope", LTT_CGROUP_SCOPE },
	{ ".slice", LTT_CGROUP_SLICE },
	{ ".socket", LTT_CGROUP_SERVICE },
	{ ".mount", LTT_CGROUP_SERVICE },
	{ ".swap", LTT_CGROUP_SERVICE },
};

/* The kind of unit @s names, or LTT_CGROUP_UNKNOWN. */
static enum ltt_cgroup_kind unit_kind(struct span s)
{
	size_t i, j;

	if (s.n > 255)
		return LTT_CGROUP_UNKNOWN;
	for (i = 0; i < s.n; i++)
		if (!s.p[i] || !is_unit_char(s.p[i]))
			return LTT_CGROUP_UNKNOWN;
	for (j = 0; j < sizeof(unit_types) / sizeof(unit_types[0]); j++)
		if (has_suffix(s, unit_types[j].suffix) &&
		    s.n > strlen(unit_types[j].suffix) && s.p[0] != '.' &&
		    s.p[0] != '-' && s.p[0] != '@')
			return unit_types[j].kind;
	return LTT_CGROUP_UNKNOWN;
}

/* Containers named by a prefix, the id, then optionally ".scope". */
static const struct runtime_prefix {
	const char *prefix;
	enum ltt_cgroup_kind kind;
	bool monitor;
} runtime_prefixes[] = {
	{ "cri-containerd-", LTT_CGROUP_CONTAINERD, false },
	{ "crio-conmon-", LTT_CGROUP_CRIO, true },
	{ "crio-", LTT_CGROUP_CRIO, false },
	{ "libpod-conmon-", LTT_CGROUP_PODMAN, true },
	{ "libpod-payload-", LTT_CGROUP_PODMAN, false },	/* --cgroups=split */
	{ "libpod-", LTT_CGROUP_PODMAN, false },
	{ "docker-", LTT_CGROUP_DOCKER, false },
	{ "nerdctl-", LTT_CGROUP_CONTAINERD, false },
};

/* The "SLICE:RUNTIME:ID" of a CRI cgroupsPath taken as a directory name. */
static const struct runtime_colon {
	const char *runtime;
	enum ltt_cgroup_kind kind;
} runtime_colons[] = {
	{ "cri-containerd:", LTT_CGROUP_CONTAINERD },
	{ "crio:", LTT_CGROUP_CRIO },
	{ "docker:", LTT_CGROUP_DOCKER },
};

enum context {
	CTX_NONE,
	CTX_CONTAINER,
	CTX_POD,
	CTX_PODMAN_POD,
	CTX_MACHINE,
	CTX_LXC,
};

struct walk {
	enum context ctx;
	enum ltt_cgroup_kind kind;	/* CTX_CONTAINER's runtime */
	bool monitor;
	struct span id;			/* container id, machine or LXC name */
	bool libvirt;			/* a machine of libvirt's */
	bool in_pod;
	struct span pod;
	enum ltt_cgroup_qos qos;
	bool kubepods;			/* under kubepods (cgroupfs driver) */
	long uid;
	bool user_manager;		/* under user@UID.service */
	struct span unit, session;
	enum ltt_cgroup_kind unit_kind;
	bool stray;			/* a component of no convention since */
	struct span parent, last;
	size_t depth;			/* components before this one */
};

static void set_container(struct walk *w, enum ltt_cgroup_kind kind,
			  struct span id, bool monitor)
{
	w->ctx = CTX_CONTAINER;
	w->kind = kind;
	w->id = id;
	w->monitor = monitor;
}

/* A Kubernetes pod's slice (systemd driver), any cgroup root prefix. */
static bool k8s_pod_slice(struct walk *w, struct span c)
{
	struct span base;
	size_t i;

	if (!has_suffix(c, ".slice"))
		return false;
	base = before_suffix(c, ".slice");
	/* the last "-pod" segment: kubepods[-QOS]-pod<UID> */
	for (i = base.n; i >= 4; i--)
		if (!memcmp(base.p + i - 4, "-pod", 4))
			break;
	if (i < 4 || !is_pod_uid(after(base, i)))
		return false;
	base.n = i - 4;
	/* kubepods, kubepods-burstable, kubelet-kubepods-besteffort... */
	if (!(span_is(base, "kubepods") || has_suffix(base, "-kubepods") ||
	      has_suffix(base, "kubepods-burstable") ||
	      has_suffix(base, "kubepods-besteffort")))
		return false;
	w->ctx = CTX_POD;
	w->in_pod = true;
	w->pod = after(c, i);
	w->pod.n = c.n - i - strlen(".slice");
	w->qos = has_suffix(base, "-burstable") ? LTT_CGROUP_QOS_BURSTABLE :
		 has_suffix(base, "-besteffort") ? LTT_CGROUP_QOS_BESTEFFORT :
		 LTT_CGROUP_QOS_GUARANTEED;
	return true;
}

/* A Kubernetes pod's directory (cgroupfs driver): pod<UID> under kubepods. */
static bool k8s_pod_dir(struct walk *w, struct span c)
{
	if (!w->kubepods || !has_prefix(c, "pod") || !is_pod_uid(after(c, 3)))
		return false;
	w->ctx = CTX_POD;
	w->in_pod = true;
	w->pod = after(c, 3);
	w->qos = span_is(w->parent, "burstable") ? LTT_CGROUP_QOS_BURSTABLE :
		 span_is(w->parent, "besteffort") ? LTT_CGROUP_QOS_BESTEFFORT :
		 LTT_CGROUP_QOS_GUARANTEED;
	return true;
}

/* PREFIX-ID[.scope] of the runtimes above. */
static bool runtime_prefixed(struct walk *w, struct span c)
{
	struct span id;
	size_t i;

	for (i = 0; i < sizeof(runtime_prefixes) / sizeof(runtime_prefixes[0]); i++) {
		const struct runtime_prefix *r = &runtime_prefixes[i];

		if (!has_prefix(c, r->prefix))
			continue;
		id = after(c, strlen(r->prefix));
		if (has_suffix(id, ".scope"))
			id = before_suffix(id, ".scope");
		if (!is_container_id(id, 12))
			continue;
		set_container(w, r->kind, id, r->monitor);
		return true;
	}
	return false;
}

/* SLICE:RUNTIME:ID (containerd or CRI-O on cgroupfs, the kubelet on systemd). */
static bool runtime_colon(struct walk *w, struct span c)
{
	const char *colon = memchr(c.p, ':', c.n);
	struct span left, right;
	size_t i;

	if (!colon)
		return false;
	left = (struct span){ c.p, (size_t)(colon - c.p) };
	right = after(c, left.n + 1);
	for (i = 0; i < sizeof(runtime_colons) / sizeof(runtime_colons[0]); i++) {
		const struct runtime_colon *r = &runtime_colons[i];
		struct span id;

		if (!has_prefix(right, r->runtime))
			continue;
		id = after(right, strlen(r->runtime));
		if (!is_container_id(id, 12))
			continue;
		k8s_pod_slice(w, left);
		set_container(w, r->kind, id, false);
		return true;
	}
	return false;
}

/* A bare 64-digit id: its parent tells the runtime, when it does. */
static bool bare_id(struct walk *w, struct span c)
{
	enum ltt_cgroup_kind kind = LTT_CGROUP_CONTAINER;

	if (!is_container_id(c, 64))
		return false;
	if (span_is(w->parent, "docker"))
		kind = LTT_CGROUP_DOCKER;
	else if (w->depth == 1 && (span_is(w->parent, "default") ||
				   span_is(w->parent, "k8s.io")))
		kind = LTT_CGROUP_CONTAINERD;	/* /NAMESPACE/ID */
	set_container(w, kind, c, false);
	return true;
}

/* machine.slice/machine-libpod_pod_ID.slice, user-libpod_pod_ID.slice */
static bool podman_pod(struct walk *w, struct span c)
{
	const char *tag = "libpod_pod_";
	struct span id;
	size_t i;

	if (!has_suffix(c, ".slice"))
		return false;
	for (i = 0; i + strlen(tag) <= c.n; i++)
		if (!memcmp(c.p + i, tag, strlen(tag)))
			break;
	if (i + strlen(tag) > c.n)
		return false;
	id = before_suffix(after(c, i + strlen(tag)), ".slice");
	if (!is_container_id(id, 12))
		return false;
	w->ctx = CTX_PODMAN_POD;
	w->in_pod = true;
	w->pod = id;
	w->qos = LTT_CGROUP_QOS_NONE;
	return true;
}

/* machine-NAME.scope (machined: nspawn, libvirt), systemd-nspawn@NAME.service */
static bool machine(struct walk *w, struct span c)
{
	struct span name;

	if (has_prefix(c, "machine-") && has_suffix(c, ".scope"))
		name = before_suffix(after(c, strlen("machine-")), ".scope");
	else if (has_prefix(c, "systemd-nspawn@") && has_suffix(c, ".service"))
		name = before_suffix(after(c, strlen("systemd-nspawn@")), ".service");
	else
		return false;
	if (!name.n)
		return false;
	w->ctx = CTX_MACHINE;
	w->id = name;
	w->libvirt = has_prefix(name, "qemu\\x2d") || has_prefix(name, "lxc\\x2d");
	w->monitor = false;
	w->in_pod = false;
	w->qos = LTT_CGROUP_QOS_NONE;
	return true;
}

/* lxc.payload.NAME, lxc.monitor.NAME; /lxc/NAME, /lxc.payload/NAME (older) */
static bool lxc(struct walk *w, struct span c)
{
	struct span name;
	bool monitor = false;

	if (has_prefix(c, "lxc.payload."))
		name = after(c, strlen("lxc.payload."));
	else if (has_prefix(c, "lxc.monitor."))
		name = after(c, strlen("lxc.monitor.")), monitor = true;
	else if (w->depth == 1 && (span_is(w->parent, "lxc") ||
				   span_is(w->parent, "lxc.payload")))
		name = c;
	else if (w->depth == 1 && span_is(w->parent, "lxc.monitor"))
		name = c, monitor = true;
	else
		return false;
	if (!name.n)
		return false;
	w->ctx = CTX_LXC;
	w->id = name;
	w->monitor = monitor;
	w->in_pod = false;
	w->qos = LTT_CGROUP_QOS_NONE;
	return true;
}

/* A systemd unit: remember it, its user and session. */
static bool unit(struct walk *w, struct span c)
{
	enum ltt_cgroup_kind kind = unit_kind(c);
	struct span s;

	if (kind == LTT_CGROUP_UNKNOWN)
		return false;
	w->unit = c;
	w->unit_kind = kind;
	if (has_prefix(c, "user-") && has_suffix(c, ".slice")) {
		s = before_suffix(after(c, 5), ".slice");
		if (is_digits(s, 10))
			w->uid = to_long(s);
	} else if (has_prefix(c, "user@") && has_suffix(c, ".service")) {
		s = before_suffix(after(c, 5), ".service");
		if (is_digits(s, 10)) {
			w->uid = to_long(s);
			w->user_manager = true;
		}
	} else if (has_prefix(c, "session-") && has_suffix(c, ".scope")) {
		size_t i;

		s = before_suffix(after(c, 8), ".scope");
		for (i = 0; i < s.n; i++)
			if (!((s.p[i] >= '0' && s.p[i] <= '9') ||
			      (s.p[i] >= 'a' && s.p[i] <= 'z') ||
			      (s.p[i] >= 'A' && s.p[i] <= 'Z')))
				break;
		if (s.n && i == s.n && s.n < sizeof(((struct ltt_cgroup_name *)0)->session)) {
			w->session = s;
			w->unit_kind = LTT_CGROUP_SESSION;
		}
	}
	return true;
}

static void component(struct walk *w, struct span c)
{
	bool is_unit = unit(w, c);

	if (runtime_colon(w, c) || runtime_prefixed(w, c) || bare_id(w, c) ||
	    k8s_pod_slice(w, c) || k8s_pod_dir(w, c) || podman_pod(w, c) ||
	    machine(w, c) || lxc(w, c)) {
		w->stray = false;
		return;
	}
	if (span_is(c, "kubepods"))
		w->kubepods = true;
	if (is_unit) {
		w->stray = false;
		return;
	}
	/* below a service or scope: its own (delegated) cgroups */
	if (w->unit_kind == LTT_CGROUP_UNKNOWN || w->unit_kind == LTT_CGROUP_SLICE)
		w->stray = true;
}

/* Bounded output of printable ASCII; other bytes as \xNN. */
struct sbuf {
	char *p;
	size_t cap, len;
	bool full;
};

static void sb_init(struct sbuf *b, char *p, size_t cap)
{
	b->p = p;
	b->cap = cap;
	b->len = 0;
	b->full = false;
	p[0] = '\0';
}

static void sb_byte(struct sbuf *b, unsigned char c)
{
	bool plain = c > 0x20 && c < 0x7f;
	size_t need = plain ? 1 : 4;

	if (b->full || b->len + need >= b->cap) {
		b->full = true;
		return;
	}
	if (plain) {
		b->p[b->len++] = (char)c;
	} else {
		b->p[b->len++] = '\\';
		b->p[b->len++] = 'x';
		b->p[b->len++] = "0123456789abcdef"[c >> 4];
		b->p[b->len++] = "0123456789abcdef"[c & 15];
	}
	b->p[b->len] = '\0';
}

/* @s's bytes; a space only from literals (the separators of names). */
static void sb_span(struct sbuf *b, struct span s)
{
	size_t i;

	for (i = 0; i < s.n; i++)
		sb_byte(b, (unsigned char)s.p[i]);
}

/* Printable @s (a literal, or a field already made printable), cut to fit. */
static void sb_str(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->full)
		return;
	if (b->len + n >= b->cap) {
		n = b->cap - 1 - b->len;
		b->full = true;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_long(struct sbuf *b, long v)
{
	char tmp[24];
	size_t n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof(tmp));
	while (n)
		sb_byte(b, (unsigned char)tmp[--n]);
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* systemd's unescaping of a unit name's part: \xNN is the byte NN. */
static void sb_unescaped(struct sbuf *b, struct span s)
{
	size_t i;

	for (i = 0; i < s.n; i++) {
		if (s.p[i] == '\\' && i + 3 < s.n && s.p[i + 1] == 'x' &&
		    hex_value(s.p[i + 2]) >= 0 && hex_value(s.p[i + 3]) >= 0) {
			sb_byte(b, (unsigned char)(hex_value(s.p[i + 2]) * 16 +
						   hex_value(s.p[i + 3])));
			i += 3;
		} else {
			sb_byte(b, (unsigned char)s.p[i]);
		}
	}
}

static const char *kind_prefix(enum ltt_cgroup_kind kind)
{
	switch (kind) {
	case LTT_CGROUP_DOCKER:		return "docker";
	case LTT_CGROUP_PODMAN:		return "podman";
	case LTT_CGROUP_CONTAINERD:	return "containerd";
	case LTT_CGROUP_CRIO:		return "crio";
	default:			return "container";
	}
}

static const char *kind_runtime(enum ltt_cgroup_kind kind)
{
	switch (kind) {
	case LTT_CGROUP_DOCKER:		return "docker";
	case LTT_CGROUP_PODMAN:		return "podman";
	case LTT_CGROUP_CONTAINERD:	return "containerd";
	case LTT_CGROUP_CRIO:		return "cri-o";
	default:			return "";
	}
}

static struct span short_id(struct span id)
{
	if (id.n > 12)
		id.n = 12;
	return id;
}

static void fill(const struct walk *w, struct ltt_cgroup_name *out)
{
	struct sbuf name, b;

	sb_init(&name, out->name, sizeof(out->name));
	if (w->unit.n) {
		sb_init(&b, out->unit, sizeof(out->unit));
		sb_span(&b, w->unit);
	}
	if (w->session.n) {
		sb_init(&b, out->session, sizeof(out->session));
		sb_span(&b, w->session);
	}
	if (w->in_pod) {
		size_t i;

		sb_init(&b, out->pod, sizeof(out->pod));
		sb_span(&b, w->pod);
		for (i = 0; out->pod[i]; i++)
			if (out->pod[i] == '_')
				out->pod[i] = '-';
		out->qos = w->qos;
	}
	out->uid = w->uid;

	switch (w->ctx) {
	case CTX_CONTAINER:
		out->kind = w->kind;
		out->runtime = kind_runtime(w->kind);
		out->monitor = w->monitor;
		sb_init(&b, out->id, sizeof(out->id));
		sb_span(&b, w->id);
		if (w->in_pod && w->qos != LTT_CGROUP_QOS_NONE) {	/* k8s */
			sb_str(&name, "k8s:pod ");
			sb_str(&name, out->pod);
			sb_str(&name, w->monitor ? " conmon " : " container ");
			sb_span(&name, short_id(w->id));
		} else {
			sb_str(&name, kind_prefix(w->kind));
			sb_str(&name, ":");
			sb_span(&name, short_id(w->id));
			if (w->monitor)
				sb_str(&name, " conmon");
		}
		break;
	case CTX_POD:
		out->kind = LTT_CGROUP_POD;
		out->runtime = "kubernetes";
		sb_str(&name, "k8s:pod ");
		sb_str(&name, out->pod);
		break;
	case CTX_PODMAN_POD:
		out->kind = LTT_CGROUP_PODMAN;
		out->runtime = "podman";
		sb_str(&name, "podman:pod ");
		sb_span(&name, short_id(w->pod));
		break;
	case CTX_MACHINE:
		out->kind = LTT_CGROUP_MACHINE;
		out->runtime = w->libvirt ? "libvirt" : "systemd-nspawn";
		sb_init(&b, out->id, sizeof(out->id));
		sb_unescaped(&b, w->id);
		sb_str(&name, "machine:");
		sb_str(&name, out->id);
		break;
	case CTX_LXC:
		out->kind = LTT_CGROUP_LXC;
		out->runtime = "lxc";
		out->monitor = w->monitor;
		sb_init(&b, out->id, sizeof(out->id));
		sb_span(&b, w->id);
		sb_str(&name, "lxc:");
		sb_str(&name, out->id);
		if (w->monitor)
			sb_str(&name, " monitor");
		break;
	case CTX_NONE:
		if (!w->last.n) {
			out->kind = LTT_CGROUP_ROOT;
			sb_str(&name, "/");
		} else if (w->stray || w->unit_kind == LTT_CGROUP_UNKNOWN) {
			out->kind = LTT_CGROUP_UNKNOWN;
			sb_span(&name, w->last);
		} else if (w->unit_kind == LTT_CGROUP_SESSION) {
			out->kind = LTT_CGROUP_SESSION;
			out->runtime = "systemd";
			if (w->uid >= 0) {
				sb_str(&name, "user:");
				sb_long(&name, w->uid);
				sb_str(&name, " ");
			}
			sb_str(&name, "session ");
			sb_str(&name, out->session);
		} else {
			out->kind = w->unit_kind;
			out->runtime = "systemd";
			/* a user manager's own units */
			if (w->user_manager && !has_prefix(w->unit, "user@")) {
				sb_str(&name, "user:");
				sb_long(&name, w->uid);
				sb_str(&name, " ");
			}
			sb_str(&name, out->unit);
		}
		break;
	}
}

int ltt_cgroup_name_len(const char *path, size_t len,
			struct ltt_cgroup_name *out)
{
	struct walk w;
	const char *nul;
	size_t i = 0;

	if (!path || !out)
		return -1;
	memset(out, 0, sizeof(*out));
	out->runtime = "";
	nul = memchr(path, '\0', len);
	if (nul)
		len = (size_t)(nul - path);
	memset(&w, 0, sizeof(w));
	w.uid = -1;
	while (i < len) {
		struct span c;

		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			break;
		c.p = path + i;
		while (i < len && path[i] != '/')
			i++;
		c.n = (size_t)(path + i - c.p);
		component(&w, c);
		w.parent = c;
		w.last = c;
		w.depth++;
	}
	fill(&w, out);
	return 0;
}

int ltt_cgroup_name(const char *path, struct ltt_cgroup_name *out)
{
	if (!path)
		return -1;
	return ltt_cgroup_name_len(path, strlen(path), out);
}

const char *ltt_cgroup_kind_name(enum ltt_cgroup_kind kind)
{
	static const char *const names[LTT_CGROUP_KINDS] = {
		[LTT_CGROUP_UNKNOWN] = "unknown",
		[LTT_CGROUP_ROOT] = "root",
		[LTT_CGROUP_SERVICE] = "service",
		[LTT_CGROUP_SCOPE] = "scope",
		[LTT_CGROUP_SLICE] = "slice",
		[LTT_CGROUP_SESSION] = "session",
		[LTT_CGROUP_DOCKER] = "docker",
		[LTT_CGROUP_PODMAN] = "podman",
		[LTT_CGROUP_CONTAINERD] = "containerd",
		[LTT_CGROUP_CRIO] = "crio",
		[LTT_CGROUP_CONTAINER] = "container",
		[LTT_CGROUP_POD] = "pod",
		[LTT_CGROUP_MACHINE] = "machine",
		[LTT_CGROUP_LXC] = "lxc",
	};

	return (unsigned int)kind < LTT_CGROUP_KINDS ? names[kind] : "unknown";
}

const char *ltt_cgroup_qos_name(enum ltt_cgroup_qos qos)
{
	switch (qos) {
	case LTT_CGROUP_QOS_GUARANTEED:	return "guaranteed";
	case LTT_CGROUP_QOS_BURSTABLE:	return "burstable";
	case LTT_CGROUP_QOS_BESTEFFORT:	return "besteffort";
	default:			return "";
	}
}
