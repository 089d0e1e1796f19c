// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_packets.c - the packet FIFO from the module to the collector.
 *
 * The trace provider FIFO of fifo-packets.md, one per session: STARTED,
 * SAVE_BUFFER (one outstanding per CPU at most) and STOPPED, read as 16-byte
 * struct fxt_packet by read(); poll() reports when one is waiting. Packets
 * are posted from process context (control) and from the CPUs' save
 * irq_work, never from a probe. The FIFO holds one SAVE_BUFFER per CPU plus
 * the control packets, so it cannot overflow while the protocol is obeyed.
 */
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>
#include <linux/sched/signal.h>
#include "fxt.h"

/* Control packets that may wait at once: STARTED and STOPPED, twice. */
#define FXT_CONTROL_PACKETS	8

int fxt_packets_init(struct fxt_session *s)
{
	return kfifo_alloc(&s->pkts, nr_cpu_ids + FXT_CONTROL_PACKETS,
			   GFP_KERNEL);
}

void fxt_packets_free(struct fxt_session *s)
{
	kfifo_free(&s->pkts);
}

void fxt_packets_reset(struct fxt_session *s)
{
	unsigned long flags;

	spin_lock_irqsave(&s->pkt_lock, flags);
	kfifo_reset(&s->pkts);
	spin_unlock_irqrestore(&s->pkt_lock, flags);
}

void fxt_packet_post(struct fxt_session *s, u16 request, u16 cpu,
		     u32 data32, u64 data64)
{
	struct fxt_packet pkt = {
		.request = request,
		.cpu = cpu,
		.data32 = data32,
		.data64 = data64,
	};
	unsigned long flags;
	bool queued;

	spin_lock_irqsave(&s->pkt_lock, flags);
	queued = kfifo_put(&s->pkts, pkt);
	spin_unlock_irqrestore(&s->pkt_lock, flags);
	/* Sized for the protocol; losing a packet would stall a CPU. */
	WARN_ON_ONCE(!queued);
	wake_up_interruptible(&s->pkt_wait);
}

bool fxt_packets_pending(struct fxt_session *s)
{
	return !kfifo_is_empty(&s->pkts);
}

/**
 * fxt_packets_read() - copy whole packets to user space
 * @s: the session
 * @buf: user buffer
 * @count: its size; at least one packet
 * @nonblock: return -EAGAIN instead of waiting
 *
 * Return: bytes copied (a multiple of the packet size), -EINVAL for a
 * buffer smaller than a packet, -EAGAIN, -ERESTARTSYS, -EFAULT.
 */
ssize_t fxt_packets_read(struct fxt_session *s, char __user *buf,
			 size_t count, bool nonblock)
{
	struct fxt_packet pkt;
	unsigned long flags;
	size_t done = 0;
	int ret;

	if (count < sizeof(pkt))
		return -EINVAL;
	if (!fxt_packets_pending(s)) {
		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(s->pkt_wait,
					       fxt_packets_pending(s));
		if (ret)
			return ret;
	}
	while (count - done >= sizeof(pkt)) {
		bool got;

		spin_lock_irqsave(&s->pkt_lock, flags);
		got = kfifo_get(&s->pkts, &pkt);
		spin_unlock_irqrestore(&s->pkt_lock, flags);
		if (!got)
			break;
		if (copy_to_user(buf + done, &pkt, sizeof(pkt)))
			return done ? done : -EFAULT;
		done += sizeof(pkt);
	}
	return done;
}
