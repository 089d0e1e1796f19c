// SPDX-License-Identifier: MIT
/*
 * perfetto_tree.c - fxt-dump --perfetto's names (perfetto.c has the
 * rest): the threads it knows, for the comm fields of its ftrace events,
 * and the archive's kernel objects as ProcessTree packets (a thread's
 * process and name, a process's parent and the command line its exec
 * recorded), one for each run of them at one time; and the SystemInfo
 * packet that says which prev_state layout the events use.
 */
#include <stdlib.h>
#include <string.h>

#include "perfetto_proto.h"
#include "perfetto_state.h"
#include "protobuf.h"

/*
 * Write the names gathered (kernel objects read in a row, of one time) as
 * one packet at that time (pf_on_kobj()).
 */
void pf_flush_tree(struct pf *pf)
{
	if (!pf->tree.len && !pf->tree.failed)
		return;
	pb_varint_field(&pf->packet, PF_PACKET_TIMESTAMP, pf->tree_ns);
	pb_msg(&pf->packet, PF_PACKET_PROCESS_TREE, &pf->tree);
	pf_emit_packet(pf);
}

/* ------------------------------------------------------------------ */
/* Threads: their names, for the comm fields.                          */

struct pthread *pf_thread_get(struct pf *pf, uint64_t tid)
{
	int64_t i = fxt_u64map_get(&pf->map, tid);
	struct pthread *t;

	if (i >= 0)
		return &pf->threads[i];
	if (pf->nthreads == pf->cap) {
		size_t cap = pf->cap ? pf->cap * 2 : 256;

		t = realloc(pf->threads, cap * sizeof(*t));
		if (!t)
			return NULL;
		pf->threads = t;
		pf->cap = cap;
	}
	if (fxt_u64map_put(&pf->map, tid, (uint32_t)pf->nthreads))
		return NULL;
	t = &pf->threads[pf->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = tid;
	return t;
}

void pf_put_comm(struct pbuf *b, unsigned int field, struct pf *pf, uint64_t tid)
{
	struct pthread *t = tid ? pf_thread_get(pf, tid) : NULL;

	if (t && t->name_len)
		pb_bytes_field(b, field, t->name, t->name_len);
	else if (!tid)
		pb_bytes_field(b, field, "swapper", 7);
}

/* ------------------------------------------------------------------ */
/* Names: ProcessTree packets.                                          */

/*
 * A process record's command line: its own "cmdline" (an exec's), kept
 * with the name it came with; else the last one kept for the pid while the
 * name is still that (a name restated, in a window or in the trailer), or
 * none (Perfetto then shows the name, as for ftrace's comm).
 */
static struct fxt_str process_cmdline(struct pf *pf, const struct fxt_record *rec,
				      struct fxt_str name)
{
	struct pthread *t = pf_thread_get(pf, rec->u.kobj.koid);
	struct fxt_str none = { .data = NULL };
	const struct fxt_arg *a = NULL;
	unsigned int i;
	char *copy;

	if (!t)
		return none;
	for (i = 0; i < rec->nargs; i++)
		if (NAME_IS(rec->args[i].name, FXT_ARG_NAME_CMDLINE))
			a = &rec->args[i];
	if (a && a->type == FXT_ARG_STRING && a->v.str.data) {
		copy = malloc(a->v.str.len ? a->v.str.len : 1);
		if (!copy)
			return none;
		memcpy(copy, a->v.str.data, a->v.str.len);
		free(t->cmdline);
		t->cmdline = copy;
		t->cmdline_len = a->v.str.len;
		memcpy(t->exec_name, name.data, name.len);
		t->exec_name_len = (uint8_t)name.len;
	}
	if (!t->cmdline || t->exec_name_len != name.len ||
	    memcmp(t->exec_name, name.data, name.len))
		return none;
	return (struct fxt_str){ .len = t->cmdline_len, .data = t->cmdline };
}

void pf_on_kobj(struct pf *pf, const struct fxt_record *rec)
{
	const struct fxt_kobj_info *k = fxt_merge_kobj(pf->m, rec->u.kobj.obj_type,
						       rec->u.kobj.koid);
	struct fxt_str name = fxt_merge_kobj_name(pf->m, rec), cmdline;
	uint64_t koid = rec->u.kobj.koid, parent = rec->u.kobj.parent, at;
	struct pthread *t;

	if (!name.data || !name.len || !koid)
		return;
	/*
	 * A name takes effect at its "named_at", else (the start snapshot's)
	 * at the record before it: a tid reused after sched_process_free (at
	 * its last switch) is named after that free, and a name restated
	 * later (a window's, the trailer's) before it, so that Perfetto gives
	 * each name to the thread that had it, and no restated name makes a
	 * thread of its own after the end.
	 */
	at = rec->u.kobj.named_at ? rec->u.kobj.named_at : pf->last_ns;
	if (at != pf->tree_ns)
		pf_flush_tree(pf);
	pf->tree_ns = at;
	if (name.len > PF_NAME_MAX)
		name.len = PF_NAME_MAX;
	if (rec->u.kobj.obj_type == FXT_OBJ_PROCESS) {
		if (parent == FXT_KOID_NONE && k && k->has_parent)
			parent = k->parent;
		cmdline = process_cmdline(pf, rec, name);
		pb_varint_field(&pf->body, PF_PROCESS_PID, koid);
		if (parent != FXT_KOID_NONE)
			pb_varint_field(&pf->body, PF_PROCESS_PPID, parent);
		if (cmdline.data && cmdline.len) {
			pb_bytes_field(&pf->body, PF_PROCESS_CMDLINE, cmdline.data, cmdline.len);
		} else {
			pb_bytes_field(&pf->body, PF_PROCESS_CMDLINE, name.data, name.len);
			pb_varint_field(&pf->body, PF_PROCESS_CMDLINE_IS_COMM, 1);
		}
		pb_msg(&pf->tree, PF_TREE_PROCESSES, &pf->body);
	} else if (rec->u.kobj.obj_type == FXT_OBJ_THREAD) {
		t = pf_thread_get(pf, koid);
		if (!t)
			return;
		if (k && k->process)
			t->pid = k->process;
		memcpy(t->name, name.data, name.len);
		t->name_len = (uint8_t)name.len;
		pb_varint_field(&pf->body, PF_THREAD_TID, koid);
		pb_bytes_field(&pf->body, PF_THREAD_NAME, name.data, name.len);
		pb_varint_field(&pf->body, PF_THREAD_TGID, t->pid);
		pb_msg(&pf->tree, PF_TREE_THREADS, &pf->body);
	}
}

/*
 * The archive does not say which kernel recorded it. The prev_state values
 * are fxt-dump's own, in Linux 4.14's layout (every kernel fxt.ko builds
 * for has it): say that release, and why, so that Perfetto decodes them.
 */
void pf_put_system_info(struct pf *pf)
{
	static const char why[] = "not recorded: fxt-dump --perfetto writes prev_state"
				  " in the layout of Linux " PF_LAYOUT_RELEASE;

	pb_bytes_field(&pf->body, PF_UTSNAME_SYSNAME, "Linux", 5);
	pb_bytes_field(&pf->body, PF_UTSNAME_VERSION, why, sizeof(why) - 1);
	pb_bytes_field(&pf->body, PF_UTSNAME_RELEASE, PF_LAYOUT_RELEASE,
		       sizeof(PF_LAYOUT_RELEASE) - 1);
	pb_msg(&pf->msg, PF_SYSINFO_UTSNAME, &pf->body);
	pb_msg(&pf->packet, PF_PACKET_SYSTEM_INFO, &pf->msg);
	pf_emit_packet(pf);
}
