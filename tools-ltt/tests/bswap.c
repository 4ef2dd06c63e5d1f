// SPDX-License-Identifier: GPL-2.0
/*
 * Convert a trace to the other byte order (tests only): the metadata is
 * written again by libltt's writer for that order, and every integer of
 * every stream file - packet header and context, the record header (the
 * compact 32-bit word, the extended id and time), each event's fields as
 * the metadata lays them out - is reversed in place.  Strings and the
 * padding after a packet's content are copied as they are.  What comes
 * out is what the kernel of a machine of the other order would have
 * written, so that the readers and babeltrace2 can be checked on it.
 *
 * The walk does not trust the file: a record or packet that does not fit
 * stops the conversion with an error naming the file and the offset.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "bswap.h"

#define PKT_HDR		sizeof(struct ltt_packet_header)

/* An integer of @n bytes at @p, in the byte order @be. */
static uint64_t bswap_get(const unsigned char *p, unsigned int n, bool be)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

static void bswap_reverse(unsigned char *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n / 2; i++) {
		unsigned char c = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = c;
	}
}

static int bswap_fail(char *err, size_t len, const char *file, size_t off,
		      const char *what)
{
	snprintf(err, len, "%s: offset %zu: %s", file, off, what);
	return -1;
}

/* struct ltt_packet_header, field by field: its sizes in order. */
static const unsigned char header_sizes[] = { 4, 4, 8, 8, 8, 8, 8, 8,
					      4, 4, 4, 4 };

/* Convert the records of one packet, [pos, end) of @buf. */
static int bswap_records(unsigned char *buf, size_t pos, size_t end,
			 const struct ltt_registry *reg, bool be,
			 const char *file, char *err, size_t len)
{
	while (pos < end) {
		const struct ltt_event_desc *d;
		unsigned char *p = buf + pos;
		unsigned int hdr = LTT_HDR_COMPACT_SIZE, i;
		uint32_t id;

		if (end - pos < LTT_HDR_COMPACT_SIZE)
			return bswap_fail(err, len, file, pos, "a cut record header");
		id = bswap_get(p, 4, be) & LTT_HDR_ID_EXTENDED;
		if (id == LTT_HDR_ID_EXTENDED) {
			if (end - pos < LTT_HDR_EXTENDED_SIZE)
				return bswap_fail(err, len, file, pos,
						  "a cut extended header");
			id = bswap_get(p + 4, 2, be);
			bswap_reverse(p + 4, 2);
			bswap_reverse(p + 6, 8);
			hdr = LTT_HDR_EXTENDED_SIZE;
		}
		bswap_reverse(p, 4);
		if (id >= reg->n_events || !reg->events[id].name[0])
			return bswap_fail(err, len, file, pos, "an unknown event id");
		d = &reg->events[id];
		if (end - pos - hdr < d->payload_size)
			return bswap_fail(err, len, file, pos, "a cut record");
		for (i = 0; i < d->n_fields; i++)
			if (d->fields[i].type != LTT_TYPE_STRING)
				bswap_reverse(p + hdr + d->fields[i].offset,
					      d->fields[i].size);
		pos += hdr + d->payload_size;
		if (d->has_string) {
			const unsigned char *nul = memchr(buf + pos, '\0',
							  end - pos);

			if (!nul)
				return bswap_fail(err, len, file, pos,
						  "a string without its NUL");
			pos = nul - buf + 1;
		}
	}
	return 0;
}

/* Convert one stream file's packets in @buf, in the order @be, in place. */
static int bswap_stream(unsigned char *buf, size_t size,
			const struct ltt_registry *reg, bool be,
			const char *file, char *err, size_t len)
{
	size_t pos = 0;

	while (pos < size) {
		unsigned char *p = buf + pos;
		uint64_t content, packet;
		unsigned int i, off = 0;

		if (size - pos < PKT_HDR)
			return bswap_fail(err, len, file, pos, "a cut packet header");
		if (bswap_get(p, 4, be) != LTT_PACKET_MAGIC)
			return bswap_fail(err, len, file, pos,
					  "bad magic: not a stream of the metadata's byte order");
		content = bswap_get(p + 24, 8, be) / 8;
		packet = bswap_get(p + 32, 8, be) / 8;
		if (content < PKT_HDR || content > packet || packet > size - pos)
			return bswap_fail(err, len, file, pos, "bad packet sizes");
		for (i = 0; i < sizeof(header_sizes); i++) {
			bswap_reverse(p + off, header_sizes[i]);
			off += header_sizes[i];
		}
		if (bswap_records(buf, pos + PKT_HDR, pos + content, reg, be,
				  file, err, len))
			return -1;
		pos += packet;
	}
	return 0;
}

static unsigned char *bswap_read_file(const char *path, size_t *size)
{
	unsigned char *buf;
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	n = buf ? read(fd, buf, st.st_size) : -1;
	close(fd);
	if (n != st.st_size) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*size = n;
	return buf;
}

static int bswap_write_file(const char *path, const void *buf, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ret;

	if (fd < 0)
		return -1;
	ret = ltt_write_all(fd, buf, size);
	return close(fd) || ret ? -1 : 0;
}

/* The env { ... }; block of TSDL @text: [*start, *end), or false. */
static bool bswap_env(const char *text, const char **start, const char **end)
{
	const char *s = strstr(text, "\nenv {"), *e;

	if (!s)
		return false;
	e = strstr(s, "\n};\n");
	if (!e)
		return false;
	*start = s;
	*end = e + 4;
	return true;
}

/*
 * The writer describes the machine it runs on in env (hostname, arch):
 * put back the recording machine's, which the original says.
 */
static int bswap_keep_env(const char *orig, const char *path)
{
	const char *os, *oe, *ns, *ne;
	unsigned char *text;
	size_t size;
	int fd, ret;

	text = bswap_read_file(path, &size);
	if (!text)
		return -1;
	if (!bswap_env(orig, &os, &oe) || !bswap_env((char *)text, &ns, &ne)) {
		free(text);
		return 0;
	}
	fd = open(path, O_WRONLY | O_TRUNC);
	ret = fd < 0 || ltt_write_all(fd, text, ns - (char *)text) ||
	      ltt_write_all(fd, os, oe - os) ||
	      ltt_write_all(fd, ne, (char *)text + size - ne);
	if (fd >= 0 && close(fd))
		ret = -1;
	free(text);
	return ret ? -1 : 0;
}

int bswap_trace(const char *in, const char *out, char *err, size_t len)
{
	char path[4096];
	struct ltt_metadata md;
	unsigned char *buf, *text;
	struct dirent *de;
	int fd, ret = 0;
	size_t size;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/metadata", in);
	text = bswap_read_file(path, &size);
	if (!text) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = ltt_metadata_parse((char *)text, size, path, &md);
	if (ret) {
		free(text);
		snprintf(err, len, "%s", ltt_error());
		return -1;
	}
	if (mkdir(out, 0755) && errno != EEXIST) {
		snprintf(err, len, "%s: %s", out, strerror(errno));
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/metadata", out);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ltt_metadata_write_order(fd, &md.reg, md.clock_offset,
					       !md.big_endian,
					       md.arch[0] ? md.arch : NULL,
					       md.user_session)) {
		snprintf(err, len, "%s: %s", path,
			 fd < 0 ? strerror(errno) : ltt_error());
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	close(fd);
	if (bswap_keep_env((char *)text, path)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		goto fail;
	}

	dir = opendir(in);
	if (!dir) {
		snprintf(err, len, "%s: %s", in, strerror(errno));
		goto fail;
	}
	while (!ret && (de = readdir(dir))) {
		if (strncmp(de->d_name, "channel0_", 9))
			continue;
		snprintf(path, sizeof(path), "%s/%s", in, de->d_name);
		buf = bswap_read_file(path, &size);
		if (!buf) {
			snprintf(err, len, "%s: %s", path, strerror(errno));
			ret = -1;
			break;
		}
		ret = bswap_stream(buf, size, &md.reg, md.big_endian, path,
				   err, len);
		snprintf(path, sizeof(path), "%s/%s", out, de->d_name);
		if (!ret && bswap_write_file(path, buf, size)) {
			snprintf(err, len, "%s: %s", path, strerror(errno));
			ret = -1;
		}
		free(buf);
	}
	closedir(dir);
	ltt_registry_free(&md.reg);
	free(text);
	return ret;
fail:
	ltt_registry_free(&md.reg);
	free(text);
	return -1;
}
