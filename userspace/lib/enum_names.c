// SPDX-License-Identifier: MIT
/*
 * enum_names.c - names of record, event and argument types, thread states and
 * diagnostics (the table behind fxt-dump --check's messages).
 */
#include <fxt/format.h>

#include "libfxt_diag.h"
#include "libfxt_helpers.h"

static const struct {
	const char *name;
	enum fxt_diag_severity sev;
	const char *msg;
} diags[FXT_D_COUNT] = {
#define FXT_DIAG_ROW(id, sev, msg) [FXT_D_##id] = { #id, FXT_SEV_##sev, msg },
	FXT_DIAGS(FXT_DIAG_ROW)
#undef FXT_DIAG_ROW
};

const char *fxt_diag_name(enum fxt_diag_id id)
{
	return (unsigned int)id < FXT_D_COUNT ? diags[id].name : "?";
}

enum fxt_diag_severity fxt_diag_severity(enum fxt_diag_id id)
{
	return (unsigned int)id < FXT_D_COUNT ? diags[id].sev : FXT_SEV_ERROR;
}

const char *fxt_diag_template(enum fxt_diag_id id)
{
	return (unsigned int)id < FXT_D_COUNT ? diags[id].msg : "?";
}

const char *fxt_record_type_name(unsigned int type)
{
	static const char *const names[16] = {
		"metadata", "init", "string", "thread", "event", "blob",
		"uobject", "kobject", "sched", "log", "type10", "type11",
		"type12", "type13", "type14", "large",
	};
	return names[type & 15];
}

const char *fxt_event_type_name(unsigned int type)
{
	static const char *const names[] = {
		"instant", "counter", "begin", "end", "complete",
		"async_begin", "async_instant", "async_end",
		"flow_begin", "flow_step", "flow_end",
	};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

const char *fxt_arg_type_name(unsigned int type)
{
	static const char *const names[] = {
		"null", "int32", "uint32", "int64", "uint64", "double",
		"string", "pointer", "koid", "bool",
	};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

const char *fxt_thread_state_name(unsigned int state)
{
	static const char *const names[] = {
		"new", "running", "suspended", "blocked", "dying", "dead",
	};
	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "invalid";
}
