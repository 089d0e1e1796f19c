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
 *   fxt-dump --perfetto FILE
 *                          a Perfetto protobuf trace: Linux thread states
 *                          (D, I, ...) and blocked functions (perfetto.c)
 *
 * All stream the archive: the dump and --check read it once with libfxt's
 * reader, --json and --perfetto twice with its merge (lib/merge.c: the
 * record headers of the whole file, then the records).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump_text.h"
#include "libfxt.h"
#include "outbuf.h"
#include "json.h"
#include "perfetto.h"
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
"  -p, --perfetto  convert to a Perfetto protobuf trace (ui.perfetto.dev,\n"
"                trace_processor_shell) of the scheduling records, as\n"
"                Perfetto's ftrace data source would record them: thread\n"
"                states as Linux says them (D, I, P, t, R+ besides S, T,\n"
"                Z, X), the function a D sleep blocked in\n"
"                (thread_state.blocked_function), wakeups, thread and\n"
"                process names, process parents and exec command lines,\n"
"                thread ends; interrupts on the CPU's Irq and SoftIrq\n"
"                tracks; idle states and frequency (category power) on\n"
"                its cpuidle and cpufreq tracks; lost records as data\n"
"                loss in its stats. Not converted: other events (open\n"
"                the archive itself for them). Binary: redirect standard\n"
"                output to a file\n"
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
	fxt_progress_clear(&pg);	/* a defect line, not the progress, on the terminal */
	if (cs->check) {
		fxt_ob_printf(cs->out, "offset 0x%llx: %s%s\n", (unsigned long long)offset,
			  fxt_diag_severity(id) == FXT_SEV_WARNING ? "warning: " : "",
			  msg);
		if (cs->flush)
			fxt_ob_flush(cs->out);
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

enum mode { MODE_DUMP, MODE_CHECK, MODE_JSON, MODE_PERFETTO };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "perfetto", no_argument, NULL, 'p' },
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

	while ((c = getopt_long(argc, argv, "cjph", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			mode = MODE_CHECK;
			break;
		case 'j':
			mode = MODE_JSON;
			break;
		case 'p':
			mode = MODE_PERFETTO;
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
	fxt_ob_init(o, STDOUT_FILENO, out_mem, OUTBUF_SIZE);
	cs.out = o;
	cs.check = mode == MODE_CHECK;
	fxt_reader_set_diag(r, on_diag, &cs);
	fxt_reader_check_durations(r, mode == MODE_CHECK);
	fxt_reader_check_sleeps(r, mode == MODE_CHECK);

	if (mode == MODE_JSON || mode == MODE_PERFETTO) {
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
		fxt_progress_init(&pg, prog, STDERR_FILENO, fxt_merge_size(m), PROGRESS_MIN_BYTES,
			      !out_tty);
		if (mode == MODE_JSON)
			n = fxt_json_convert(m, o, &pg);
		else
			n = fxt_perfetto_convert(m, o, &pg);
		fxt_merge_close(m);
	} else {
		uint64_t k = 0;

		fxt_progress_init(&pg, prog, STDERR_FILENO, fxt_reader_size(r), PROGRESS_MIN_BYTES,
			      mode == MODE_CHECK || !out_tty);
		cs.flush = mode == MODE_CHECK && pg.on && out_tty;
		while ((n = fxt_reader_next(r, rec)) > 0) {
			if (mode == MODE_DUMP)
				fxt_dump_record(o, r, rec);
			if (!(++k & 4095))
				fxt_progress_update(&pg, fxt_reader_offset(r));
		}
	}
	fxt_progress_end(&pg);
	if (mode == MODE_CHECK) {
		fxt_ob_printf(o, "%s: %llu records, %llu bytes: %llu error%s, %llu warning%s: %s\n",
			  path, (unsigned long long)fxt_reader_records(r),
			  (unsigned long long)fxt_reader_offset(r),
			  (unsigned long long)cs.errors, cs.errors == 1 ? "" : "s",
			  (unsigned long long)cs.warnings, cs.warnings == 1 ? "" : "s",
			  cs.errors ? "FAILED" : "OK");
		rc = cs.errors ? 1 : 0;
	} else if (n < 0) {
		rc = 1;
	}
	if (fxt_ob_flush(o)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(-o->error));
		rc = 1;
	}
	fxt_reader_close(r);
	free(rec);
	return rc;
}
