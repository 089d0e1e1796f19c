// SPDX-License-Identifier: MIT
/*
 * outbuf.c - the slow paths of outbuf.h: writing, printf, string escaping.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outbuf.h"

void fxt_ob_init(struct outbuf *o, int fd, char *buf, size_t cap)
{
	o->fd = fd;
	o->error = 0;
	o->len = 0;
	o->cap = cap;
	o->buf = buf;
}

int fxt_ob_flush(struct outbuf *o)
{
	size_t off = 0;

	while (off < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->error = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	o->len = 0;
	return o->error;
}

void fxt_ob_printf(struct outbuf *o, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fxt_ob_write(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned int c = s[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void fxt_ob_json_str(struct outbuf *o, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;

	fxt_ob_putc(o, '"');
	if (!s)
		len = 0;
	while (i < len) {
		unsigned char c = s[i];
		size_t n;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		fxt_ob_write(o, s + i - run, run);
		run = 0;
		switch (c) {
		case '"':
			OB_LIT(o, "\\\"");
			i++;
			continue;
		case '\\':
			OB_LIT(o, "\\\\");
			i++;
			continue;
		case '\n':
			OB_LIT(o, "\\n");
			i++;
			continue;
		case '\t':
			OB_LIT(o, "\\t");
			i++;
			continue;
		case '\r':
			OB_LIT(o, "\\r");
			i++;
			continue;
		default:
			break;
		}
		if (c < 0x20) {
			fxt_ob_printf(o, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (!n) {
			OB_LIT(o, "\\ufffd");
			i++;
			continue;
		}
		fxt_ob_write(o, s + i, n);
		i += n;
	}
	fxt_ob_write(o, s + i - run, run);
	fxt_ob_putc(o, '"');
}

void fxt_ob_csv_str(struct outbuf *o, const char *s)
{
	size_t i;

	if (!strpbrk(s, ",\"\n\r")) {
		fxt_ob_puts(o, s);
		return;
	}
	fxt_ob_putc(o, '"');
	for (i = 0; s[i]; i++) {
		if (s[i] == '"')
			fxt_ob_putc(o, '"');
		fxt_ob_putc(o, s[i]);
	}
	fxt_ob_putc(o, '"');
}

void fxt_ob_quoted(struct outbuf *o, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	fxt_ob_putc(o, '"');
	for (i = 0; s && i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			fxt_ob_putc(o, '\\');
			fxt_ob_putc(o, (char)c);
		} else if (c >= 0x20 && c < 0x7f) {
			fxt_ob_putc(o, (char)c);
		} else if (c == '\n') {
			OB_LIT(o, "\\n");
		} else {
			fxt_ob_printf(o, "\\x%02x", c);
		}
	}
	fxt_ob_putc(o, '"');
}

void fxt_ob_json_double(struct outbuf *o, double v)
{
	if (isnan(v))
		OB_LIT(o, "\"NaN\"");
	else if (isinf(v))
		fxt_ob_puts(o, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
	else {
		char tmp[32];

		snprintf(tmp, sizeof(tmp), "%.15g", v);
		if (strtod(tmp, NULL) != v)
			snprintf(tmp, sizeof(tmp), "%.17g", v);
		fxt_ob_puts(o, tmp);
	}
}
