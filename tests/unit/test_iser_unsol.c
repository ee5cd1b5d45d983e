// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The unsolicited Data-Out PDUs of a write (iser_unsol_plan(), iser/unsol.c,
 * what iser_xmit_task() sends behind a command): all of a burst or none,
 * never more in flight than the send queue has room for.
 *
 * The numbers are those of iser_rogue's small-mrdsl: MaxXmitDataSegmentLength
 * 512, FirstBurstLength 65536, so a 256 KiB write is 512 bytes of immediate
 * data and 127 Data-Out PDUs, and a task has 128 descriptors; the send queue
 * has ISER_DOUT_WRS (1024) entries for them.
 */
#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/iser/unsol.h"

#define SEG	512
#define UNSOL	(65536 - 512)
#define BURST	127
#define NR_DOUT	128
#define ROOM	1024

RDI_TEST(unsol_burst_that_fits_goes_whole)
{
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, 0, ROOM), BURST);
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, ROOM - BURST, ROOM),
		  BURST);
	/* the last PDU carries the remainder */
	EXPECT_EQ(iser_unsol_plan(1000, SEG, NR_DOUT, 0, ROOM), 2);
	EXPECT_EQ(iser_unsol_plan(1, SEG, NR_DOUT, 0, ROOM), 1);
}

/* Not a part of it: the command goes with the F bit, the target reads. */
RDI_TEST(unsol_burst_that_does_not_fit_sends_none)
{
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, ROOM - BURST + 1, ROOM),
		  0);
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, 1000, ROOM), 0);
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, ROOM, ROOM), 0);
}

/*
 * QD 32 of 256 KiB writes, none of their Data-Outs completed yet: the
 * first eight bursts fit, the others go without Data-Out, and once one
 * burst has completed the next one fits again. Whatever the order, the
 * send queue never holds more Data-Out SENDs than its room.
 */
RDI_TEST(unsol_qd32_never_overflows_the_send_queue)
{
	unsigned int in_flight = 0, i, n, whole = 0, none = 0;

	for (i = 0; i < 32; i++) {
		n = iser_unsol_plan(UNSOL, SEG, NR_DOUT, in_flight, ROOM);
		EXPECT(n == 0 || n == BURST);
		in_flight += n;
		EXPECT(in_flight <= ROOM);
		if (n)
			whole++;
		else
			none++;
	}
	EXPECT_EQ(whole, ROOM / BURST);
	EXPECT_EQ(none, 32 - ROOM / BURST);
	in_flight -= BURST;
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, in_flight, ROOM), BURST);
}

RDI_TEST(unsol_nothing_to_send)
{
	EXPECT_EQ(iser_unsol_plan(0, SEG, NR_DOUT, 0, ROOM), 0);
	/* no MaxXmitDataSegmentLength: no descriptors were allocated */
	EXPECT_EQ(iser_unsol_plan(UNSOL, 0, 0, 0, ROOM), 0);
}

/* More PDUs than the task has descriptors, or than the whole room. */
RDI_TEST(unsol_burst_larger_than_descriptors_or_room)
{
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, BURST - 1, 0, ROOM), 0);
	EXPECT_EQ(iser_unsol_plan(UNSOL, SEG, NR_DOUT, 0, BURST - 1), 0);
	EXPECT_EQ(iser_unsol_plan(0xffffffff, 1, 0xffffffff, 0, ROOM), 0);
	EXPECT_EQ(iser_unsol_plan(0xffffffff, 0xffffffff, NR_DOUT, 0, ROOM),
		  1);
	/* a count above the room (it never is) admits nothing */
	EXPECT_EQ(iser_unsol_plan(SEG, SEG, NR_DOUT, ROOM + 1, ROOM), 0);
}

/*
 * iser_sq_cmds() with iser/conn.c's numbers: 4 work requests per command,
 * 1024 Data-Out entries and the drain's 1 set aside, at most 512 commands.
 * A send queue of 4 * cmds + 1025 entries must never exceed max_qp_wr.
 */
#define PER_CMD	4
#define RESERVED	(ROOM + 1)

RDI_TEST(sq_cmds_fit_the_device)
{
	int wr;

	/* soft-RoCE's 1048576 (6.1) and anything large: 512 commands */
	EXPECT_EQ(iser_sq_cmds(1 << 20, RESERVED, PER_CMD, 512), 512);
	/* exactly 512 commands and the reserve */
	EXPECT_EQ(iser_sq_cmds(512 * PER_CMD + RESERVED, RESERVED, PER_CMD, 512),
		  512);
	/* one entry fewer: one command fewer, the drain's entry kept */
	EXPECT_EQ(iser_sq_cmds(512 * PER_CMD + RESERVED - 1, RESERVED, PER_CMD,
			       512), 511);
	for (wr = RESERVED + 1; wr < 512 * PER_CMD + RESERVED + 8; wr++)
		EXPECT(iser_sq_cmds(wr, RESERVED, PER_CMD, 512) * PER_CMD +
			    RESERVED <= (unsigned int)wr);
}

/* A device whose queues hold no more than the reserve: no command. */
RDI_TEST(sq_cmds_small_device)
{
	EXPECT_EQ(iser_sq_cmds(1000, RESERVED, PER_CMD, 512), 0);
	EXPECT_EQ(iser_sq_cmds(RESERVED, RESERVED, PER_CMD, 512), 0);
	EXPECT_EQ(iser_sq_cmds(RESERVED + PER_CMD, RESERVED, PER_CMD, 512), 1);
	EXPECT_EQ(iser_sq_cmds(0, RESERVED, PER_CMD, 512), 0);
	EXPECT_EQ(iser_sq_cmds(-1, RESERVED, PER_CMD, 512), 0);
}

RDI_TEST_MAIN()
