/* SPDX-License-Identifier: MIT */
/*
 * perfetto_state.h - what fxt-dump --perfetto keeps while it converts
 * (perfetto.c: the events; perfetto_tree.c: the names), shared by its two
 * files and nothing else.
 */
#ifndef FXT_DUMP_PERFETTO_STATE_H
#define FXT_DUMP_PERFETTO_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <fxt/perfetto_blob.h>

#include "irq_levels.h"
#include "libfxt.h"
#include "outbuf.h"
#include "protobuf.h"
#include "sleep_pairs.h"
#include "u64map.h"

#define PF_SEQUENCE	1		/* the one packet sequence written */
#define PF_BUNDLE_MAX	(64 << 10)	/* bytes of events per bundle */
#define PF_NAME_MAX	63

/* Is the string s (a struct fxt_str) the literal lit? */
#define NAME_IS(s, lit)	((s).len == sizeof(lit) - 1 && (s).data && \
			 !memcmp((s).data, (lit), sizeof(lit) - 1))

struct pthread {
	uint64_t tid, pid;
	uint8_t name_len;
	char name[PF_NAME_MAX];
	bool dead;		/* its last switch (out dying or dead) was read */
	bool free_pending;	/* a leader dead before its other threads */
	/* as a process: the command line of its exec, and its name then */
	char *cmdline;
	uint16_t cmdline_len;
	uint8_t exec_name_len;
	char exec_name[PF_NAME_MAX];
};

struct pf {
	struct fxt_merge *m;
	struct outbuf *o;
	struct pbuf out, packet, msg, ev, body;
	struct pbuf *bundles;	/* by CPU: FtraceEvent fields not yet written */
	size_t nbundles;
	bool *lost;		/* by CPU: records dropped since its last bundle */
	size_t nlost;
	struct pbuf tree;	/* ProcessTree fields not yet written */
	uint64_t tree_ns;	/* the time of the names in it */
	uint64_t last_ns;
	struct pthread *threads;
	size_t nthreads, cap;
	struct u64map map;
	struct sleep_pairs sleeps;	/* blocked_in names: iid = function id + 1 */
	struct irq_levels irqs;
	size_t syms_written;
	bool failed;
};

/* Write the packet built in pf->packet, on the sequence. */
static inline void pf_emit_packet(struct pf *pf)
{
	pb_varint_field(&pf->packet, FXT_PB_PACKET_SEQUENCE_ID, PF_SEQUENCE);
	pb_msg(&pf->out, FXT_PB_TRACE_PACKET, &pf->packet);
	if (pf->out.failed)
		pf->failed = true;
	else
		fxt_ob_write(pf->o, pf->out.p, pf->out.len);
	pb_reset(&pf->out);
}

/* perfetto_tree.c */
/*
 * Write the names gathered (kernel objects read in a row, of one time) as
 * one packet at that time (pf_on_kobj()).
 */
void pf_flush_tree(struct pf *pf);
/* The thread tid as the events name it: created when new; NULL without memory. */
struct pthread *pf_thread_get(struct pf *pf, uint64_t tid);
/* Field field of b: tid's name, "swapper" for tid 0, none when not known. */
void pf_put_comm(struct pbuf *b, unsigned int field, struct pf *pf, uint64_t tid);
/* A kernel object record: a thread or a process in the next ProcessTree. */
void pf_on_kobj(struct pf *pf, const struct fxt_record *rec);
/* The SystemInfo packet: the Linux release whose prev_state layout is used. */
void pf_put_system_info(struct pf *pf);

#endif /* FXT_DUMP_PERFETTO_STATE_H */
