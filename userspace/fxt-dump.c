// SPDX-License-Identifier: MIT
/*
 * fxt-dump - print, check or convert an FXT archive.
 *
 *   fxt-dump FILE          one line per record: offset, type, fields, with
 *                          string and thread refs resolved
 *   fxt-dump --check FILE  validate against the FXT specification and
 *                          Documentation/records.rst; one line per defect
 *   fxt-dump --json FILE   JSON Trace Event Format for chrome://tracing and
 *                          Perfetto's JSON importer
 *
 * All three stream the archive in constant memory: the dump and --check
 * read it once with libfxt's reader, --json twice with its merge
 * (lib/merge.c: the record headers of the whole file, then the records).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfxt.h"
#include "outbuf.h"
#include "json.h"
#include "progress.h"

static const char usage[] =
"Usage: fxt-dump [OPTION] FILE\n"
"Print the records of an FXT (Fuchsia trace format) archive, one per line.\n"
"FILE may be - for standard input.\n"
"\n"
"  -c, --check   validate the archive against the FXT specification and the\n"
"                fxt record mapping (Documentation/records.rst): print\n"
"                \"offset 0x...: message\" for every defect and a summary;\n"
"                exit 1 if there is any error\n"
"  -j, --json    convert to the JSON Trace Event Format (chrome://tracing,\n"
"                Perfetto): CPU, thread-state, interrupt, wakeup and counter\n"
"                tracks; timestamps in microseconds. Needs a regular file to\n"
"                read the CPUs in time order: from a pipe it warns and\n"
"                converts in file order (thread states may then be wrong)\n"
"  -h, --help    show this help and exit\n"
"\n"
"Without an option every record is printed as: offset, record type, and its\n"
"fields with string and thread references resolved (\"name\"#3 is string\n"
"index 3; {tid=.. pid=.. \"comm\" ref=2} a thread, ref being its index).\n"
"Defects met while dumping or converting go to standard error; a truncated\n"
"last record is reported once and everything before it is kept.\n""A progress indicator is shown on standard error when it is a terminal\n"
"and the archive is larger than 64 MiB (not while printing records or JSON\n"
"to that terminal).\n"
"Exit status: 0 success (--check: no errors; warnings do not count),\n"
"1 errors found (--check) or the archive could not be read to its end,\n"
"2 usage error.\n";

static char out_mem[OUTBUF_SIZE + OUTBUF_SLACK];
static struct outbuf out;
static const char *prog = "fxt-dump";
static struct progress pg;	/* standard error, on a terminal */

/* ------------------------------------------------------------------ */
/* Diagnostics.                                                         */

struct check_state {
	struct outbuf *out;
	uint64_t errors, warnings;
	bool check;		/* --check: print to out, else to stderr */
	bool flush;		/* --check: out is the terminal of the progress line */
};

static int on_diag(void *ctx, uint64_t offset, enum fxt_diag_id id, const char *msg)
{
	struct check_state *cs = ctx;

	if (fxt_diag_severity(id) == FXT_SEV_ERROR)
		cs->errors++;
	else
		cs->warnings++;
	progress_clear(&pg);	/* a defect line, not the progress, on the terminal */
	if (cs->check) {
		ob_printf(cs->out, "offset 0x%llx: %s%s\n", (unsigned long long)offset,
			  fxt_diag_severity(id) == FXT_SEV_WARNING ? "warning: " : "",
			  msg);
		if (cs->flush)
			ob_flush(cs->out);
	} else if (id == FXT_D_TRUNCATED) {
		fprintf(stderr, "%s: warning: %s\n", prog, msg);
	} else {
		fprintf(stderr, "%s: offset 0x%llx: %s%s\n", prog,
			(unsigned long long)offset,
			fxt_diag_severity(id) == FXT_SEV_WARNING ? "warning: " : "", msg);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Dump.                                                                */

static void put_str(struct outbuf *o, struct fxt_str s)
{
	if (!s.data) {
		ob_printf(o, "<undefined #%u>", s.ref);
		return;
	}
	ob_quoted(o, s.data, s.len);
	if (s.ref && !(s.ref & FXT_STRING_REF_INLINE))
		ob_printf(o, "#%u", s.ref);
}

static void put_koid_name(struct outbuf *o, struct fxt_reader *r, uint64_t koid)
{
	const struct fxt_kobj_info *k = fxt_reader_kobj(r, koid);

	if (k && k->name_len) {
		ob_putc(o, ' ');
		ob_quoted(o, k->name, k->name_len);
	}
}

/* The name thread tid had at ns (a reused tid: the earlier thread's). */
static void put_thread_name(struct outbuf *o, struct fxt_reader *r, uint64_t tid,
			    uint64_t ns)
{
	const struct fxt_kobj_info *k = fxt_reader_thread_at(r, tid, ns);

	if (k && k->name_len) {
		ob_putc(o, ' ');
		ob_quoted(o, k->name, k->name_len);
	}
}

static void put_thread(struct outbuf *o, struct fxt_reader *r, struct fxt_thread t,
		       uint64_t ns)
{
	if (!t.defined) {
		ob_printf(o, "{ref=%u undefined}", t.ref);
		return;
	}
	OB_LIT(o, "{tid=");
	ob_u64(o, t.tid);
	OB_LIT(o, " pid=");
	ob_u64(o, t.pid);
	put_thread_name(o, r, t.tid, ns);
	if (t.ref) {
		OB_LIT(o, " ref=");
		ob_u64(o, t.ref);
	}
	ob_putc(o, '}');
}

static void put_args(struct outbuf *o, struct fxt_reader *r, const struct fxt_record *rec)
{
	unsigned int i;

	if (!rec->nargs)
		return;
	OB_LIT(o, " args={");
	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (i)
			OB_LIT(o, ", ");
		put_str(o, a->name);
		ob_printf(o, ": %s", fxt_arg_type_name(a->type));
		switch (a->type) {
		case FXT_ARG_INT32:
			ob_printf(o, " %d", a->v.i32);
			break;
		case FXT_ARG_UINT32:
			ob_printf(o, " %u", a->v.u32);
			break;
		case FXT_ARG_INT64:
			ob_printf(o, " %lld", (long long)a->v.i64);
			break;
		case FXT_ARG_UINT64:
			ob_printf(o, " %llu", (unsigned long long)a->v.u64);
			break;
		case FXT_ARG_DOUBLE:
			ob_putc(o, ' ');
			ob_json_double(o, a->v.f64);
			break;
		case FXT_ARG_STRING:
			ob_putc(o, ' ');
			put_str(o, a->v.str);
			break;
		case FXT_ARG_POINTER:
			ob_putc(o, ' ');
			ob_hex(o, a->v.ptr);
			break;
		case FXT_ARG_KOID:
			ob_printf(o, " %llu", (unsigned long long)a->v.koid);
			put_koid_name(o, r, a->v.koid);
			break;
		case FXT_ARG_BOOL:
			ob_puts(o, a->v.b ? " true" : " false");
			break;
		default:
			break;
		}
	}
	ob_putc(o, '}');
}

static void dump_record(struct outbuf *o, struct fxt_reader *r, const struct fxt_record *rec)
{
	ob_printf(o, "0x%08llx ", (unsigned long long)rec->offset);
	if (rec->flags & FXT_RF_NO_PAYLOAD) {
		ob_printf(o, "%s words=%llu (too large, skipped)\n",
			  fxt_record_type_name(rec->type), (unsigned long long)rec->nwords);
		return;
	}
	if (rec->flags & FXT_RF_MALFORMED) {
		ob_printf(o, "malformed %s words=%llu\n", fxt_record_type_name(rec->type),
			  (unsigned long long)rec->nwords);
		return;
	}
	if (rec->flags & FXT_RF_UNKNOWN) {
		ob_printf(o, "unknown %s subtype=%u words=%llu\n",
			  fxt_record_type_name(rec->type), rec->subtype,
			  (unsigned long long)rec->nwords);
		return;
	}
	switch (rec->type) {
	case FXT_REC_METADATA:
		switch (rec->subtype) {
		case FXT_META_PROVIDER_INFO:
			ob_printf(o, "provider_info id=%u name=", rec->u.meta.provider_id);
			put_str(o, rec->u.meta.name);
			break;
		case FXT_META_PROVIDER_SECTION:
			ob_printf(o, "provider_section id=%u", rec->u.meta.provider_id);
			break;
		case FXT_META_PROVIDER_EVENT:
			ob_printf(o, "provider_event id=%u event=%u%s", rec->u.meta.provider_id,
				  rec->u.meta.event,
				  rec->u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL ?
				  " (buffer full)" : "");
			break;
		case FXT_META_TRACE_INFO:
			ob_printf(o, "magic 0x%x", rec->u.meta.magic);
			break;
		}
		break;
	case FXT_REC_INIT:
		ob_printf(o, "init ticks_per_second=%llu",
			  (unsigned long long)rec->u.init.ticks_per_second);
		break;
	case FXT_REC_STRING:
		ob_printf(o, "string index=%u ", rec->u.string.index);
		ob_quoted(o, rec->u.string.str.data, rec->u.string.str.len);
		break;
	case FXT_REC_THREAD:
		ob_printf(o, "thread index=%u pid=%llu tid=%llu", rec->u.thread.index,
			  (unsigned long long)rec->u.thread.pid,
			  (unsigned long long)rec->u.thread.tid);
		break;
	case FXT_REC_EVENT:
		ob_printf(o, "event %s ts=%llu thread=", fxt_event_type_name(rec->subtype),
			  (unsigned long long)rec->ts);
		put_thread(o, r, rec->u.event.thread, rec->ts_ns);
		OB_LIT(o, " category=");
		put_str(o, rec->u.event.category);
		OB_LIT(o, " name=");
		put_str(o, rec->u.event.name);
		switch (rec->subtype) {
		case FXT_EVENT_COUNTER:
			ob_printf(o, " counter_id=%llu", (unsigned long long)rec->u.event.data);
			break;
		case FXT_EVENT_DURATION_COMPLETE:
			ob_printf(o, " end_ts=%llu", (unsigned long long)rec->u.event.data);
			break;
		case FXT_EVENT_INSTANT:
		case FXT_EVENT_DURATION_BEGIN:
		case FXT_EVENT_DURATION_END:
			break;
		default:
			ob_printf(o, " id=%llu", (unsigned long long)rec->u.event.data);
			break;
		}
		put_args(o, r, rec);
		break;
	case FXT_REC_BLOB:
		OB_LIT(o, "blob name=");
		put_str(o, rec->u.blob.name);
		ob_printf(o, " type=%u size=%u", rec->u.blob.blob_type, rec->u.blob.size);
		break;
	case FXT_REC_USERSPACE_OBJ:
		OB_LIT(o, "uobject pointer=");
		ob_hex(o, rec->u.uobj.pointer);
		if (rec->u.uobj.process.defined)
			ob_printf(o, " pid=%llu", (unsigned long long)rec->u.uobj.process.pid);
		else
			ob_printf(o, " pid=<undefined ref %u>", rec->u.uobj.process.ref);
		OB_LIT(o, " name=");
		put_str(o, rec->u.uobj.name);
		put_args(o, r, rec);
		break;
	case FXT_REC_KERNEL_OBJ:
		ob_printf(o, "kobject type=%s koid=%llu name=",
			  rec->u.kobj.obj_type == FXT_OBJ_PROCESS ? "process" :
			  rec->u.kobj.obj_type == FXT_OBJ_THREAD ? "thread" : "other",
			  (unsigned long long)rec->u.kobj.koid);
		put_str(o, rec->u.kobj.name);
		if (rec->u.kobj.obj_type != FXT_OBJ_PROCESS &&
		    rec->u.kobj.obj_type != FXT_OBJ_THREAD)
			ob_printf(o, " obj_type=%u", rec->u.kobj.obj_type);
		put_args(o, r, rec);
		break;
	case FXT_REC_SCHED:
		if (rec->subtype == FXT_SCHED_THREAD_WAKEUP) {
			ob_printf(o, "wakeup cpu=%u ts=%llu tid=%llu", rec->u.wakeup.cpu,
				  (unsigned long long)rec->ts,
				  (unsigned long long)rec->u.wakeup.tid);
			put_thread_name(o, r, rec->u.wakeup.tid, rec->ts_ns);
			put_args(o, r, rec);
			break;
		}
		ob_printf(o, "%s cpu=%u ts=%llu out=",
			  rec->subtype == FXT_SCHED_CONTEXT_SWITCH ? "switch" : "switch_v2",
			  rec->u.sw.cpu, (unsigned long long)rec->ts);
		put_thread(o, r, rec->u.sw.out, rec->ts_ns);
		ob_printf(o, " state=%s", fxt_thread_state_name(rec->u.sw.out_state));
		if (rec->subtype == FXT_SCHED_CONTEXT_SWITCH)
			ob_printf(o, " prio=%u", rec->u.sw.out_prio);
		OB_LIT(o, " in=");
		put_thread(o, r, rec->u.sw.in, rec->ts_ns);
		if (rec->subtype == FXT_SCHED_CONTEXT_SWITCH)
			ob_printf(o, " prio=%u", rec->u.sw.in_prio);
		put_args(o, r, rec);
		break;
	case FXT_REC_LOG:
		ob_printf(o, "log ts=%llu thread=", (unsigned long long)rec->ts);
		put_thread(o, r, rec->u.log.thread, rec->ts_ns);
		OB_LIT(o, " msg=");
		ob_quoted(o, rec->u.log.msg.data, rec->u.log.msg.len);
		break;
	case FXT_REC_LARGE:
		ob_printf(o, "large_blob format=%u category=", rec->u.lblob.format);
		put_str(o, rec->u.lblob.category);
		OB_LIT(o, " name=");
		put_str(o, rec->u.lblob.name);
		if (rec->u.lblob.format == FXT_LARGE_BLOB_WITH_METADATA) {
			ob_printf(o, " ts=%llu thread=", (unsigned long long)rec->ts);
			put_thread(o, r, rec->u.lblob.thread, rec->ts_ns);
			put_args(o, r, rec);
		}
		ob_printf(o, " size=%llu", (unsigned long long)rec->u.lblob.size);
		break;
	}
	ob_putc(o, '\n');
}

/* ------------------------------------------------------------------ */

enum mode { MODE_DUMP, MODE_CHECK, MODE_JSON };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_state cs = { NULL, 0, 0, false, false };
	enum mode mode = MODE_DUMP;
	struct fxt_record *rec;
	struct fxt_reader *r;
	struct outbuf *o;
	const char *path;
	int c, rc = 0, n;
	bool out_tty = isatty(STDOUT_FILENO);

	while ((c = getopt_long(argc, argv, "cjh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			mode = MODE_CHECK;
			break;
		case 'j':
			mode = MODE_JSON;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: expected one FILE (see --help)\n", prog);
		return 2;
	}
	path = argv[optind];
	r = fxt_reader_open(path);
	if (!r) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 1;
	}
	o = &out;
	rec = malloc(sizeof(*rec));
	if (!o || !rec) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	ob_init(o, STDOUT_FILENO, out_mem, OUTBUF_SIZE);
	cs.out = o;
	cs.check = mode == MODE_CHECK;
	fxt_reader_set_diag(r, on_diag, &cs);
	fxt_reader_check_durations(r, mode == MODE_CHECK);

	if (mode == MODE_JSON) {
		struct fxt_merge *m;

		/* Time order across providers: the reader r is not used. */
		fxt_reader_close(r);
		r = NULL;
		m = fxt_merge_open(path);
		if (!m) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
			return 1;
		}
		fxt_merge_set_diag(m, on_diag, &cs);
		if (!fxt_merge_ordered(m))
			fprintf(stderr, "%s: warning: %s: converted in file order (not a regular"
				" file, or over 1024 providers): thread states and wakeups that"
				" cross CPUs may be wrong; convert a regular file\n",
				prog, path);
		progress_init(&pg, prog, STDERR_FILENO, fxt_merge_size(m), PROGRESS_MIN_BYTES,
			      !out_tty);
		n = fxt_json_convert(m, o, &pg);
		fxt_merge_close(m);
	} else {
		uint64_t k = 0;

		progress_init(&pg, prog, STDERR_FILENO, fxt_reader_size(r), PROGRESS_MIN_BYTES,
			      mode == MODE_CHECK || !out_tty);
		cs.flush = mode == MODE_CHECK && pg.on && out_tty;
		while ((n = fxt_reader_next(r, rec)) > 0) {
			if (mode == MODE_DUMP)
				dump_record(o, r, rec);
			if (!(++k & 4095))
				progress_update(&pg, fxt_reader_offset(r));
		}
	}
	progress_end(&pg);
	if (mode == MODE_CHECK) {
		ob_printf(o, "%s: %llu records, %llu bytes: %llu error%s, %llu warning%s: %s\n",
			  path, (unsigned long long)fxt_reader_records(r),
			  (unsigned long long)fxt_reader_offset(r),
			  (unsigned long long)cs.errors, cs.errors == 1 ? "" : "s",
			  (unsigned long long)cs.warnings, cs.warnings == 1 ? "" : "s",
			  cs.errors ? "FAILED" : "OK");
		rc = cs.errors ? 1 : 0;
	} else if (n < 0) {
		rc = 1;
	}
	if (ob_flush(o)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(-o->error));
		rc = 1;
	}
	fxt_reader_close(r);
	free(rec);
	return rc;
}
