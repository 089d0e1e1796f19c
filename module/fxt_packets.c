// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_packets.c - the packet FIFO from the module to the collector.
 *
 * The trace provider FIFO of fifo-packets.md, one per session: STARTED,
 * SAVE_BUFFER (one outstanding per CPU at most), TRIGGERED (fxt's own, at
 * most one per start) and STOPPED, read as 16-byte
 * struct fxt_packet by read(); poll() reports when one is waiting. Packets
 * are posted from process context (control) and from the CPUs' save
 * irq_work and the trigger irq_work, never from a probe. read() removes a packet only once it is in
 * the user's buffer, so a fault loses none.
 *
 * The save irq_work is a hard one (fxt_buffer.c): it runs in hard interrupt
 * context on PREEMPT_RT as well, where a spinlock_t sleeps. So pkt_lock is a
 * raw spinlock (it guards a few kfifo steps, at most nr_cpu_ids + 2 packets
 * in the longest, fxt_packets_drop_control()), and there the wake-up of
 * the readers, whose wait queue has a spinlock_t, is left to a work item.
 *
 * Invariant: the FIFO holds at most nr_cpu_ids SAVE_BUFFERs plus 2 control
 * packets, whatever user space does, so posting never fails:
 *  - a CPU requests a save only after the BUFFER_SAVED for its previous
 *    request, and BUFFER_SAVED is accepted only for a request that read()
 *    has delivered, i.e. removed from the FIFO: one SAVE_BUFFER per CPU;
 *  - a start drops the control packets still waiting before it posts
 *    STARTED, a trigger posts at most one TRIGGERED per start
 *    (fxt_triggers.c), and a stop posts one STOPPED: at most STARTED,
 *    TRIGGERED, STOPPED.
 * A reset (initialize, a clearing start, terminate, close) empties it.
 */
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/sched/signal.h>
#include <linux/workqueue.h>
#include "fxt.h"

/* Control packets that may wait at once: STARTED, TRIGGERED, STOPPED. */
#define FXT_CONTROL_PACKETS	3
/* Packets copied to user space per step of a read(). */
#define FXT_READ_BATCH		8

static void fxt_packets_wake_fn(struct work_struct *work)
{
	struct fxt_session *s = container_of(work, struct fxt_session,
					     pkt_wake_work);

	wake_up_interruptible(&s->pkt_wait);
}

/**
 * fxt_packets_init() - allocate the FIFO and the delivered bitmap (load)
 * @s: the session
 *
 * Return: 0 or -ENOMEM.
 */
int fxt_packets_init(struct fxt_session *s)
{
	int ret;

	INIT_WORK(&s->pkt_wake_work, fxt_packets_wake_fn);
	s->pkt_delivered = fxt_bitmap_zalloc(nr_cpu_ids);
	if (!s->pkt_delivered)
		return -ENOMEM;
	ret = kfifo_alloc(&s->pkts, nr_cpu_ids + FXT_CONTROL_PACKETS,
			  GFP_KERNEL);
	if (ret)
		fxt_bitmap_free(s->pkt_delivered, nr_cpu_ids);
	else
		fxt_mem_account(kfifo_size(&s->pkts) * kfifo_esize(&s->pkts));
	return ret;
}

/**
 * fxt_packets_free() - free the FIFO (module unload)
 * @s: the session; no packet can be posted any more
 */
void fxt_packets_free(struct fxt_session *s)
{
	cancel_work_sync(&s->pkt_wake_work);
	fxt_mem_account(-(long)(kfifo_size(&s->pkts) * kfifo_esize(&s->pkts)));
	kfifo_free(&s->pkts);
	fxt_bitmap_free(s->pkt_delivered, nr_cpu_ids);
}

/**
 * fxt_packets_reset() - empty the FIFO and forget what was delivered
 * @s: the session; s->lock held
 */
void fxt_packets_reset(struct fxt_session *s)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&s->pkt_lock, flags);
	kfifo_reset(&s->pkts);
	bitmap_zero(s->pkt_delivered, nr_cpu_ids);
	s->pkt_resets++;
	raw_spin_unlock_irqrestore(&s->pkt_lock, flags);
}

/**
 * fxt_packets_drop_control() - drop the control packets waiting
 * @s: the session; s->lock held
 *
 * A start calls this before it hooks any tracepoint, so before it posts
 * STARTED and before its probes may post its TRIGGERED: control packets of
 * earlier runs that nobody read say nothing any more, and keeping them
 * would let start/stop cycles fill the FIFO. SAVE_BUFFER requests stay, in order:
 * each one is still outstanding, and its CPU waits for the answer.
 */
void fxt_packets_drop_control(struct fxt_session *s)
{
	struct fxt_packet pkt;
	unsigned long flags;
	unsigned int n;

	raw_spin_lock_irqsave(&s->pkt_lock, flags);
	/* Turn the FIFO round once, putting back only the requests. */
	for (n = kfifo_len(&s->pkts); n && kfifo_get(&s->pkts, &pkt); n--)
		if (pkt.request == FXT_PKT_SAVE_BUFFER)
			kfifo_put(&s->pkts, pkt);
	s->pkt_drops++;
	raw_spin_unlock_irqrestore(&s->pkt_lock, flags);
}

/* Queue a packet; the caller wakes the readers. */
static void fxt_packet_queue(struct fxt_session *s, u16 request, u16 cpu,
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

	raw_spin_lock_irqsave(&s->pkt_lock, flags);
	queued = kfifo_put(&s->pkts, pkt);
	raw_spin_unlock_irqrestore(&s->pkt_lock, flags);
	/* Cannot fail (see the top of this file); a lost request stalls a CPU. */
	WARN_ON_ONCE(!queued);
}

/**
 * fxt_packet_post() - post a packet from process context (control
 * operations) and wake the readers
 * @s: the session
 * @request: FXT_PKT_*
 * @cpu: the packet's CPU field
 * @data32: its 32-bit data
 * @data64: its 64-bit data
 */
void fxt_packet_post(struct fxt_session *s, u16 request, u16 cpu,
		     u32 data32, u64 data64)
{
	fxt_packet_queue(s, request, cpu, data32, data64);
	wake_up_interruptible(&s->pkt_wait);
}

/**
 * fxt_packet_post_hardirq() - post a packet from hard interrupt context
 * (the save irq_work)
 * @s: the session
 * @request: FXT_PKT_*
 * @cpu: the packet's CPU field
 * @data32: its 32-bit data
 * @data64: its 64-bit data
 *
 * On PREEMPT_RT the wait queue's spinlock_t must not be taken here: a work
 * item on the unbound workqueue (queue_work() takes raw locks only) wakes
 * the readers, on whichever CPU is online.
 */
void fxt_packet_post_hardirq(struct fxt_session *s, u16 request, u16 cpu,
			     u32 data32, u64 data64)
{
	fxt_packet_queue(s, request, cpu, data32, data64);
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		queue_work(system_unbound_wq, &s->pkt_wake_work);
	else
		wake_up_interruptible(&s->pkt_wait);
}

/**
 * fxt_packets_pending() - whether a packet waits to be read
 * @s: the session
 *
 * Return: true when the FIFO is not empty.
 */
bool fxt_packets_pending(struct fxt_session *s)
{
	return !kfifo_is_empty(&s->pkts);
}

/*
 * Remove the first @n packets of the FIFO, which read() copied out, and
 * note the requests among them as delivered. When control packets were
 * dropped meanwhile only the requests are left, still first and in order.
 */
static void fxt_packets_consumed(struct fxt_session *s,
				 const struct fxt_packet *pkts, unsigned int n,
				 bool dropped)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		bool request = pkts[i].request == FXT_PKT_SAVE_BUFFER;

		if (request)
			set_bit(pkts[i].cpu, s->pkt_delivered);
		if (request || !dropped)
			kfifo_skip(&s->pkts);
	}
}

/*
 * Copy packets from the head of the FIFO to @buf without removing them,
 * then remove the ones that reached user space. pkt_read_lock keeps other
 * readers out during the copy; control operations are not kept out (they
 * hold s->lock, which fxt_mmap() takes under mmap_lock: a fault must not
 * wait for it). A reset during the copy has removed every packet already;
 * a start may have dropped the control packets.
 */
static ssize_t fxt_packets_copy(struct fxt_session *s, char __user *buf,
				size_t count)
{
	struct fxt_packet pkts[FXT_READ_BATCH];
	size_t done = 0;

	while (count - done >= sizeof(pkts[0])) {
		unsigned int n = min_t(size_t, (count - done) / sizeof(pkts[0]),
				       ARRAY_SIZE(pkts));
		unsigned long flags, left;
		unsigned int copied;
		u32 resets, drops;

		raw_spin_lock_irqsave(&s->pkt_lock, flags);
		n = kfifo_out_peek(&s->pkts, pkts, n);
		resets = s->pkt_resets;
		drops = s->pkt_drops;
		raw_spin_unlock_irqrestore(&s->pkt_lock, flags);
		if (!n)
			break;
		left = copy_to_user(buf + done, pkts, n * sizeof(pkts[0]));
		copied = n - DIV_ROUND_UP(left, sizeof(pkts[0]));

		raw_spin_lock_irqsave(&s->pkt_lock, flags);
		if (s->pkt_resets == resets)
			fxt_packets_consumed(s, pkts, copied,
					     s->pkt_drops != drops);
		raw_spin_unlock_irqrestore(&s->pkt_lock, flags);
		done += copied * sizeof(pkts[0]);
		if (copied < n)
			return done ? done : -EFAULT;
	}
	return done;
}

/**
 * fxt_packets_take_delivered() - was @cpu's SAVE_BUFFER read? Forget it.
 * @s: the session; s->lock held (a reset cannot run)
 * @cpu: the CPU of a BUFFER_SAVED answer
 *
 * Only a request the collector has read may be answered: an answer made up
 * from guessed values would let the CPU roll on and queue another request
 * while the first still waits in the FIFO.
 *
 * Return: true when the CPU's outstanding SAVE_BUFFER has been delivered.
 */
bool fxt_packets_take_delivered(struct fxt_session *s, unsigned int cpu)
{
	return test_and_clear_bit(cpu, s->pkt_delivered);
}

/**
 * fxt_packets_read() - copy whole packets to user space
 * @s: the session
 * @buf: user buffer
 * @count: its size; at least one packet
 * @nonblock: return -EAGAIN instead of waiting
 *
 * A packet leaves the FIFO only once it is in @buf: after a fault the
 * packets not copied are read next time.
 *
 * Return: bytes copied (a multiple of the packet size), -EINVAL for a
 * buffer smaller than a packet, -EAGAIN, -ERESTARTSYS, -EFAULT.
 */
ssize_t fxt_packets_read(struct fxt_session *s, char __user *buf,
			 size_t count, bool nonblock)
{
	ssize_t ret;

	if (count < sizeof(struct fxt_packet))
		return -EINVAL;
	for (;;) {
		if (!fxt_packets_pending(s)) {
			if (nonblock)
				return -EAGAIN;
			ret = wait_event_interruptible(s->pkt_wait,
						       fxt_packets_pending(s));
			if (ret)
				return ret;
		}
		if (mutex_lock_interruptible(&s->pkt_read_lock))
			return -ERESTARTSYS;
		ret = fxt_packets_copy(s, buf, count);
		mutex_unlock(&s->pkt_read_lock);
		/* 0: another reader took them first. */
		if (ret)
			return ret;
	}
}
