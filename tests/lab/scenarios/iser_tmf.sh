# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER task management under I/O, through libiscsi's SCSI error handlers:
# sg_reset -d (LUN RESET TMF) and -t (TARGET WARM RESET; where LIO refuses
# it, libiscsi escalates to a session reset: the connection is dropped under
# I/O and iscsid logs in again) in turn every 2 s while fio verifies on the
# raw iSER disk. Every reset reports done, fio sees no error, no I/O error
# is logged, the session ends LOGGED_IN, and (ours) every registration was
# invalidated once, aborted commands included. A bus or host reset has no
# handler in either driver (iSCSI has no such function) and fails cleanly.
#
# Knob (LAB_ENV): ISER_TMF_SECS (30) of resets.
#
# lab-drivers: ours intree
# Pinned to the first shared boot: the alternation over the others then
# gives the two shared boots about the same guest time (21:56 and 21:54
# by the full run of 6df45dc, against 20:04 and 23:46 unpinned).
# lab-boot: shared
# lab-provokes: iscsi-conn scsi-eh (a refused TARGET WARM RESET escalates to a session reset)
source /lab/lib-iser.sh

: "${ISER_TMF_SECS:=30}"

# Raw disk only: multipathd's fast_io_fail_tmo would fail I/O during a
# session reset instead of letting the session's recovery requeue it.
lab_multipathd_down

iser_one_session
disk=$(iser_disks $IP0 | head -1)
state=/sys/class/iscsi_session/$(iser_session $IP0)/state

lab_log_mark
# A reset every 2 s holds the session's I/O in the SCSI error handler; a
# refused target reset drops the session, and its I/O waits for iscsid's
# login: the bound (LAB_IO_BOUND, lib.sh) for this fio, 30 s.
LAB_IO_BOUND=30 lab_fio_verify_for $disk $((ISER_TMF_SECS + 5)) /tmp/iser-tmf-fio.out &
fpid=$!
sleep 3
lab_reset_loop $disk $ISER_TMF_SECS 2 $fpid -d -t
lab_note "$LAB_RESETS resets sent, $LAB_RESETS_BAD failed; session $(cat $state)"
# At least 4: each of the 2 kinds, sent in turn, twice - so each kind also
# runs after one of its own completed. Fewer means the loop ended early:
# it ends when fio does.
check "$LAB_RESETS resets (LUN, target in turn; at least 2 each) every one reported done" \
	test $LAB_RESETS -ge $((2 * 2)) -a $LAB_RESETS_BAD -eq 0
iser_check_bg "fio verify on the raw disk through the resets" $fpid
grep -E "err=|verify" /tmp/iser-tmf-fio.out | head -5
check "session LOGGED_IN after the resets" lab_wait 60 grep -q LOGGED_IN $state
check "no I/O error logged for $disk (readahead aside)" lab_no_io_errors $disk
check "the disk works after the resets" lab_fio_verify $disk --size=8m
check "host reset fails cleanly (no handler)" sh -c "! sg_reset -H /dev/$disk"
check "the disk works after the refused host reset" lab_fio_verify $disk --size=4m
lab_log_since | grep -Ei "iser|iscsi|connection|reset|TMR" | tail -8
if [ "$DRIVER" = ours ]; then
	check "counters: every registration invalidated, aborted ones too" \
		iser_inv_balance
fi
check "logout" iser_logout $IP0
check "no iser session left" lab_wait 30 iser_no_session
check "ib_iser unloads after logout" iser_unload
