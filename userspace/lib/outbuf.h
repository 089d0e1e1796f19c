/* SPDX-License-Identifier: MIT */
/*
 * outbuf.h - buffered text output for the tools: one buffer, one write()
 * per 256 KiB, and integer, timestamp and JSON string formatting without
 * printf on the hot path.
 */
#ifndef LIBFXT_OUTBUF_H
#define LIBFXT_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUTBUF_SIZE	(256u << 10)	/* what the tools use */
#define OUTBUF_SLACK	128	/* room any one fxt_ob_reserve() may ask for */

struct outbuf {
	int fd;			/* -1: discard (writes fail, the buffer is reused) */
	int error;		/* first write error (-errno), sticky */
	size_t len;		/* bytes in buf */
	size_t cap;		/* flush beyond this; buf holds cap + OUTBUF_SLACK */
	char *buf;
};

/* Initialise over fd with the caller's buffer of cap + OUTBUF_SLACK bytes. */
void fxt_ob_init(struct outbuf *o, int fd, char *buf, size_t cap);
/* Write out what is buffered; returns 0 or the first error. */
int fxt_ob_flush(struct outbuf *o);
void fxt_ob_printf(struct outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string literal (quotes included); invalid UTF-8 becomes U+FFFD. */
void fxt_ob_json_str(struct outbuf *o, const char *s, size_t len);
/* A CSV field (NUL-terminated): quoted when it holds a comma, quote or newline. */
void fxt_ob_csv_str(struct outbuf *o, const char *s);
/* A readable quoted string for dumps: printable ASCII, the rest escaped. */
void fxt_ob_quoted(struct outbuf *o, const char *s, size_t len);
/* A double as JSON (finite) or as a string ("NaN", "Infinity"). */
void fxt_ob_json_double(struct outbuf *o, double v);

static inline char *fxt_ob_reserve(struct outbuf *o, size_t n)
{
	if (o->len + n > o->cap)
		fxt_ob_flush(o);
	return o->buf + o->len;
}

static inline void fxt_ob_write(struct outbuf *o, const void *p, size_t n)
{
	if (n > OUTBUF_SLACK) {
		if (o->len + n > o->cap)
			fxt_ob_flush(o);
		if (n > o->cap) {
			size_t chunk;

			while (n) {
				chunk = n > o->cap ? o->cap : n;
				fxt_ob_flush(o);
				memcpy(o->buf, p, chunk);
				o->len = chunk;
				p = (const char *)p + chunk;
				n -= chunk;
			}
			return;
		}
	} else {
		fxt_ob_reserve(o, n);
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static inline void fxt_ob_puts(struct outbuf *o, const char *s)
{
	fxt_ob_write(o, s, strlen(s));
}

/* String literals: the length is known at compile time. */
#define OB_LIT(o, lit)	fxt_ob_write((o), (lit), sizeof(lit) - 1)

static inline void fxt_ob_putc(struct outbuf *o, char c)
{
	fxt_ob_reserve(o, 1)[0] = c;
	o->len++;
}

/* Decimal digits of v into the end of tmp[20]; returns the first. */
static inline char *fxt_ob_fmt_u64(char *end, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char *p = end;

	while (v >= 100) {
		unsigned int i = (unsigned int)(v % 100) * 2;

		v /= 100;
		p -= 2;
		p[0] = pairs[i];
		p[1] = pairs[i + 1];
	}
	if (v >= 10) {
		p -= 2;
		p[0] = pairs[v * 2];
		p[1] = pairs[v * 2 + 1];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

static inline void fxt_ob_u64(struct outbuf *o, uint64_t v)
{
	char tmp[20], *end = tmp + sizeof(tmp), *p = fxt_ob_fmt_u64(end, v);

	fxt_ob_write(o, p, (size_t)(end - p));
}

static inline void fxt_ob_i64(struct outbuf *o, int64_t v)
{
	if (v < 0) {
		fxt_ob_putc(o, '-');
		fxt_ob_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		fxt_ob_u64(o, (uint64_t)v);
	}
}

static inline void fxt_ob_hex(struct outbuf *o, uint64_t v)
{
	char tmp[18], *p = tmp + sizeof(tmp);

	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	fxt_ob_write(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* Nanoseconds as microseconds with 3 decimals: 1234567 -> "1234.567". */
static inline void fxt_ob_us(struct outbuf *o, uint64_t ns)
{
	char tmp[24], *end = tmp + sizeof(tmp), *p;
	unsigned int frac = (unsigned int)(ns % 1000);

	end[-1] = (char)('0' + frac % 10);
	end[-2] = (char)('0' + frac / 10 % 10);
	end[-3] = (char)('0' + frac / 100);
	end[-4] = '.';
	p = fxt_ob_fmt_u64(end - 4, ns / 1000);
	fxt_ob_write(o, p, (size_t)(end - p));
}

#endif /* LIBFXT_OUTBUF_H */
