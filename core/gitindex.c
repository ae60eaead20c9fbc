/* A libgit2 index as the bytes of git's plain index file (version 2), for a write in place. */
#include "core/tiadash.h"
#include "core/gitindex.h"

#include <arpa/inet.h>
#include <git2/sys/index.h>
#include <openssl/evp.h>

/* The fixed part of an entry: ten 32-bit stat fields, the object id, the 16-bit flags. */
#define ENTRY_FIXED (10 * 4 + GIT_OID_RAWSZ + 2)
#define HEADER_SIZE 12

/* An entry's length on disk: its path NUL-terminated and padded to a multiple of 8. */
static size_t entry_size(size_t path_len)
{
	return (ENTRY_FIXED + path_len + 8) & ~(size_t)7;
}

/* Can version 2 without extensions hold index as libgit2 would write it? */
static bool plain(git_index *index)
{
	if (git_index_version(index) != 2 || (git_index_caps(index) & GIT_INDEX_CAPABILITY_IGNORE_CASE) ||
	    git_index_name_entrycount(index) || git_index_reuc_entrycount(index))
		return false;
	for (size_t i = 0; i < git_index_entrycount(index); i++)
		if (git_index_get_byindex(index, i)->flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS)
			return false;
	return true;
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
	return p + 4;
}

static unsigned char *put_entry(unsigned char *p, const git_index_entry *e, size_t len)
{
	uint16_t flags = (uint16_t)((e->flags & ~(GIT_INDEX_ENTRY_NAMEMASK | GIT_INDEX_ENTRY_EXTENDED)) |
				    (len < GIT_INDEX_ENTRY_NAMEMASK ? len : GIT_INDEX_ENTRY_NAMEMASK));
	unsigned char *start = p;

	p = put32(p, (uint32_t)e->ctime.seconds);
	p = put32(p, e->ctime.nanoseconds);
	p = put32(p, (uint32_t)e->mtime.seconds);
	p = put32(p, e->mtime.nanoseconds);
	p = put32(p, e->dev);
	p = put32(p, e->ino);
	p = put32(p, e->mode);
	p = put32(p, e->uid);
	p = put32(p, e->gid);
	p = put32(p, e->file_size);
	memcpy(p, e->id.id, GIT_OID_RAWSZ);
	p += GIT_OID_RAWSZ;
	flags = htons(flags);
	memcpy(p, &flags, 2);
	memcpy(p + 2, e->path, len);
	/* The padding (at least the path's NUL) is zero: the buffer was cleared. */
	return start + entry_size(len);
}

int gitindex_serialize(git_index *index, struct strbuf *out)
{
	size_t nr = git_index_entrycount(index), size = HEADER_SIZE, start = out->len;
	unsigned char *p, *base;

	if (!plain(index))
		return 1;
	for (size_t i = 0; i < nr; i++)
		size += entry_size(strlen(git_index_get_byindex(index, i)->path));
	strbuf_grow(out, size + GIT_OID_RAWSZ);
	base = p = (unsigned char *)out->buf + start;
	memset(p, 0, size);
	memcpy(p, "DIRC", 4);
	p = put32(p + 4, 2);
	p = put32(p, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		p = put_entry(p, e, strlen(e->path));
	}
	if (!EVP_Digest(base, size, base + size, NULL, EVP_sha1(), NULL))
		die("SHA-1 is not available from libcrypto");
	out->len = start + size + GIT_OID_RAWSZ;
	out->buf[out->len] = '\0';
	return 0;
}
