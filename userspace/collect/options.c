// SPDX-License-Identifier: MIT
/*
 * options.c - values of the tools' command-line options.
 */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fxt.h>
#include <fxt/format.h>
#include "options.h"

int fxt_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	double v = strtod(s, &end);
	uint64_t mul = 1;

	if (end == s || v <= 0)
		return -EINVAL;
	switch (*end | 0x20) {	/* either case */
	case 'k':
		mul = 1ull << 10;
		break;
	case 'm':
		mul = 1ull << 20;
		break;
	case 'g':
		mul = 1ull << 30;
		break;
	}
	if (mul > 1)
		end++;
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end)
		return -EINVAL;
	*bytes = (uint64_t)(v * (double)mul);
	return 0;
}

int fxt_parse_mode(const char *s)
{
	if (!strcmp(s, "oneshot"))
		return FXT_MODE_ONESHOT;
	if (!strcmp(s, "circular"))
		return FXT_MODE_CIRCULAR;
	if (!strcmp(s, "streaming"))
		return FXT_MODE_STREAMING;
	return -EINVAL;
}

int fxt_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	/* Digits first: no sign, space, hex, "inf" or "nan" (strtod's). */
	if (!((*s >= '0' && *s <= '9') || *s == '.') || !strncmp(s, "0x", 2) ||
	    !strncmp(s, "0X", 2))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || v < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v = v * units[i].mul + 0.5;
		if (v >= 18446744073709551615.0)
			return -EINVAL;
		*ns = (uint64_t)v;
		return 0;
	}
	return -EINVAL;
}

/* The trigger kinds: one table for the collector, the report and the docs. */
static const struct {
	uint32_t kind;
	const char *name;
	uint32_t categories;	/* needed: all (wakeup, off-cpu), any (irq) */
} trigger_kinds[] = {
	{ FXT_TRIGGER_WAKEUP_LATENCY, FXT_TRIGGER_NAME_WAKEUP_LATENCY,
	  FXT_CAT_SCHED | FXT_CAT_WAKEUP },
	{ FXT_TRIGGER_OFF_CPU, FXT_TRIGGER_NAME_OFF_CPU, FXT_CAT_SCHED },
	{ FXT_TRIGGER_IRQ_DURATION, FXT_TRIGGER_NAME_IRQ_DURATION,
	  FXT_CAT_IRQ | FXT_CAT_SOFTIRQ },
};
#define NKINDS	(sizeof(trigger_kinds) / sizeof(trigger_kinds[0]))

const char *fxt_trigger_kind_name(uint32_t kind)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (trigger_kinds[i].kind == kind)
			return trigger_kinds[i].name;
	return NULL;
}

uint32_t fxt_trigger_kind_categories(uint32_t kind)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (trigger_kinds[i].kind == kind)
			return trigger_kinds[i].categories;
	return 0;
}

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A filter's number: decimal, at most max. */
static int parse_u32(const char *s, uint32_t max, uint32_t *v)
{
	char *end;
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end || n > max)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

/* A user: a name in the password database, or a number. */
static int parse_uid(const char *s, uint32_t *uid)
{
	const struct passwd *pw = getpwnam(s);

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	/* (uid_t)-1 is no user: the kernel's "no change" value. */
	return parse_u32(s, UINT32_MAX - 1, uid);
}

/* One "key=value" filter of a --trigger spec. */
static int parse_filter(char *item, struct fxt_trigger *t, char *err, size_t errlen)
{
	static const struct {
		const char *key;
		uint32_t match;
	} filters[] = {
		{ "pid", FXT_TRIGGER_MATCH_PID }, { "tgid", FXT_TRIGGER_MATCH_TGID },
		{ "comm", FXT_TRIGGER_MATCH_COMM }, { "cpu", FXT_TRIGGER_MATCH_CPU },
		{ "uid", FXT_TRIGGER_MATCH_UID },
	};
	char *value = strchr(item, '=');
	uint32_t match = 0, *num = NULL;
	size_t i;

	if (value)
		*value++ = 0;
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (!strcmp(item, filters[i].key))
			match = filters[i].match;
	if (!match)
		return bad(err, errlen, "unknown filter '%s' (comm=NAME, pid=TID, tgid=PID, uid=USER or cpu=N)",
			   item);
	if (!value || !*value)
		return bad(err, errlen, "filter '%s' needs a value (%s=...)", item, item);
	if (t->match & match)
		return bad(err, errlen, "filter '%s' given twice", item);
	t->match |= match;
	switch (match) {
	case FXT_TRIGGER_MATCH_COMM:
		if (strlen(value) >= FXT_TRIGGER_COMM_LEN)
			return bad(err, errlen, "comm '%s' is longer than %d bytes (the kernel's TASK_COMM_LEN - 1)",
				   value, FXT_TRIGGER_COMM_LEN - 1);
		strcpy(t->comm, value);
		return 0;
	case FXT_TRIGGER_MATCH_PID:
		num = &t->pid;
		break;
	case FXT_TRIGGER_MATCH_TGID:
		num = &t->tgid;
		break;
	case FXT_TRIGGER_MATCH_UID:
		return parse_uid(value, &t->uid) ?
		       bad(err, errlen, "uid=%s: no such user, and not a uid (0..4294967294)",
			   value) : 0;
	default:
		num = &t->cpu;
		break;
	}
	/* pid and tgid 0 are the idle task: never a latency of interest. */
	if (parse_u32(value, match == FXT_TRIGGER_MATCH_CPU ? INT32_MAX : 4194304, num) ||
	    (match != FXT_TRIGGER_MATCH_CPU && !*num))
		return bad(err, errlen, "%s=%s: not a %s", item, value,
			   match == FXT_TRIGGER_MATCH_CPU ? "CPU number" :
			   "thread or process id (1..4194304)");
	return 0;
}

int fxt_parse_trigger(const char *spec, struct fxt_trigger *out, char *err,
		      size_t errlen)
{
	char buf[256], *kind, *threshold, *item, *save = NULL;
	struct fxt_trigger t = { 0 };
	uint64_t ns = 0;
	size_t i;
	int ret;

	if (strlen(spec) >= sizeof(buf))
		return bad(err, errlen, "trigger '%.32s...' is too long", spec);
	strcpy(buf, spec);
	kind = strtok_r(buf, ",", &save);
	threshold = kind ? strchr(kind, '=') : NULL;
	if (threshold)
		*threshold++ = 0;
	for (i = 0; kind && i < NKINDS; i++)
		if (!strcmp(kind, trigger_kinds[i].name))
			t.kind = trigger_kinds[i].kind;
	if (!t.kind)
		return bad(err, errlen, "unknown trigger kind '%s' (%s, %s or %s)",
			   kind ? kind : "", FXT_TRIGGER_NAME_WAKEUP_LATENCY,
			   FXT_TRIGGER_NAME_OFF_CPU, FXT_TRIGGER_NAME_IRQ_DURATION);
	if (!threshold || !*threshold)
		return bad(err, errlen, "%s: a threshold is needed, e.g. %s=10ms", kind, kind);
	if (fxt_parse_duration(threshold, &ns))
		return bad(err, errlen, "%s: bad threshold '%s' (a number and a unit: ns, us, ms or s)",
			   kind, threshold);
	t.threshold_ns = ns;
	if (!ns)
		return bad(err, errlen, "%s: the threshold must be more than 0", kind);
	while ((item = strtok_r(NULL, ",", &save))) {
		ret = parse_filter(item, &t, err, errlen);
		if (ret)
			return ret;
	}
	if (t.kind == FXT_TRIGGER_IRQ_DURATION && (t.match & ~FXT_TRIGGER_MATCH_CPU))
		return bad(err, errlen, "%s measures interrupts, not threads: only the cpu= filter applies",
			   FXT_TRIGGER_NAME_IRQ_DURATION);
	*out = t;
	return 0;
}

uint32_t fxt_categories_named(const char *list)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} names[] = {
		{ FXT_CAT_NAME_SCHED, FXT_CAT_SCHED }, { FXT_CAT_NAME_WAKEUP, FXT_CAT_WAKEUP },
		{ FXT_CAT_NAME_IRQ, FXT_CAT_IRQ }, { FXT_CAT_NAME_SOFTIRQ, FXT_CAT_SOFTIRQ },
		{ FXT_CAT_NAME_POWER, FXT_CAT_POWER },
		{ "all", FXT_CAT_ALL },
	};
	uint32_t bits = 0;
	const char *p = list;
	size_t i, len;

	if (!list)
		return FXT_CAT_DEFAULT;
	while (*p) {
		len = strcspn(p, ",");
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (len == strlen(names[i].name) && !strncmp(p, names[i].name, len))
				bits |= names[i].bit;
		p += len;
		if (*p)
			p++;
	}
	return bits;
}

int fxt_trigger_check_categories(const struct fxt_trigger *t, uint32_t cats,
				 char *err, size_t errlen)
{
	uint32_t need = fxt_trigger_kind_categories(t->kind);
	const char *name = fxt_trigger_kind_name(t->kind);

	if (t->kind == FXT_TRIGGER_IRQ_DURATION) {
		if (cats & need)
			return 0;
		return bad(err, errlen, "%s needs the %s or %s category (-c)", name,
			   FXT_CAT_NAME_IRQ, FXT_CAT_NAME_SOFTIRQ);
	}
	if ((cats & need) == need)
		return 0;
	if (need & FXT_CAT_WAKEUP)
		return bad(err, errlen, "%s needs the %s and %s categories (-c)", name,
			   FXT_CAT_NAME_SCHED, FXT_CAT_NAME_WAKEUP);
	return bad(err, errlen, "%s needs the %s category (-c)", name, FXT_CAT_NAME_SCHED);
}

char *fxt_window_path(const char *output, unsigned int k)
{
	const char *base = strrchr(output, '/'), *dot;
	size_t stem, len = strlen(output) + 16;
	char *path = malloc(len);

	if (!path)
		return NULL;
	if (k <= 1) {
		strcpy(path, output);
		return path;
	}
	base = base ? base + 1 : output;
	/* A leading dot names a hidden file, not an extension. */
	dot = strrchr(base, '.');
	stem = dot && dot > base ? (size_t)(dot - output) : strlen(output);
	snprintf(path, len, "%.*s-%u%s", (int)stem, output, k, output + stem);
	return path;
}
