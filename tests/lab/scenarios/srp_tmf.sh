# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP task management and timeouts under load, on the default topology.
#
# 1. sg_reset every second during fio verify on the raw SRP disk: device
#    (LUN) reset, bus reset (no bus handler: escalates to host reset) and
#    host reset in turn. Every reset reports success, fio sees no error,
#    the rport stays usable, no hung task (kernel log check).
# 2. The SCSI command timeout of a LUN forced to 1 s during fio verify on
#    the raw disk, while the LUN's backing device (LIO iblock on a dm
#    linear map over brd) is suspended for 2 s every few seconds: commands
#    time out, ABORT TASK waits for LIO and completes, the midlayer
#    retries; a LUN reset sent during every other stall completes once
#    LIO has the stalled commands back; fio sees no error; the host and
#    rport go away at logout.
# 3. Module parameters written at run time apply to the next login; rport
#    timeouts written while the rport is blocked apply to that very
#    blockage (ours only: the in-tree driver applies them at the next
#    failure, see issue 5).
#
# Knobs (LAB_ENV): TMF_RESET_SECS (40) of resets, TMF_TIMEOUT_SECS (40) of
# stalls.
#
# lab-drivers: ours intree
# lab-provokes: scsi-eh srp-reconnect srp-path wc-error (resets every second; a LUN whose commands time out; a refused task management)
. /lab/lib-srp.sh

: "${TMF_RESET_SECS:=40}"
: "${TMF_TIMEOUT_SECS:=40}"
lab_srpt_up 2
# Raw disks only: no multipathd to hold them or to retry elsewhere.
lab_multipathd_down
check "ib_srp loads" lab_srp_load

# --- 1. sg_reset every second under fio verify -------------------------
h=$(lab_srp_login 0) && pass "login" || fail "login"
srp_wait_disks $h 2
d=$(lab_host_disks $h | head -1)
r=/sys/class/srp_remote_ports/port-$h:1
lab_log_mark
# A reset every second holds the host's I/O in the SCSI error handler, a
# host reset through a logout and a login: an I/O may wait out several.
# Its bound (LAB_IO_BOUND, lib.sh) for this fio: 30 s.
LAB_IO_BOUND=30 lab_fio_verify_for $d $((TMF_RESET_SECS + 5)) /tmp/tmf-reset-fio.out &
fpid=$!
sleep 3
lab_reset_loop $d $TMF_RESET_SECS 1 $fpid -d -b -H
lab_note "$LAB_RESETS resets sent, $LAB_RESETS_BAD failed; rport $(cat $r/state)"
# At least 6: each of the 3 kinds, sent in turn, twice - so each kind also
# runs after one of its own completed. Fewer means the loop ended early:
# it ends when fio does.
check "$LAB_RESETS resets (device, bus, host in turn) every one reported done" \
	test $LAB_RESETS -ge $((2 * 3)) -a $LAB_RESETS_BAD -eq 0
wait $fpid
rc=$?
check "fio verify on the raw disk through the resets (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/tmf-reset-fio.out
check "rport running after the resets" lab_wait 30 grep -qx running $r/state
check "no I/O error logged for $d (readahead aside)" lab_no_io_errors $d
check "the disk works after the resets" lab_fio_verify $d --size=8m
if [ "$DRIVER" = ours ]; then
	check "LUN resets went out" lab_log_has "LUN reset for LUN"
	check "host resets reconnected" lab_log_has "host reset: reconnecting"
	check "no task management function failed" \
		lab_log_lacks "task management function .*(failed|no response)"
fi
check "logout" srp_logout $h

# --- 2. 1 s command timeout, backing device stalls ----------------------
check "slow LUN (iblock on a suspendable dm map)" srp_slow_up
h=$(lab_srp_login 0) && pass "login with the slow LUN" || fail "login with the slow LUN"
srp_wait_disks $h 3
s=$(srp_lun_disk $h $SRP_SLOW_LUN)
r=/sys/class/srp_remote_ports/port-$h:1
check "slow LUN has a disk ($s)" test -n "$s"
echo 1 > /sys/block/$s/device/timeout
check "command timeout of $s is 1 s" grep -qx 1 /sys/block/$s/device/timeout
tmo0=$(($(cat /sys/block/$s/device/iotmo_cnt)))
err0=$(($(cat /sys/block/$s/device/ioerr_cnt)))
lab_log_mark
# A command stalled 2 s times out after 1 s, waits for its ABORT TASK
# (LIO answers once it has the command back) and is retried, up to 5
# times: its bound (LAB_IO_BOUND, lib.sh) for this fio, 30 s.
LAB_IO_BOUND=30 lab_fio_verify_for $s $((TMF_TIMEOUT_SECS + 5)) /tmp/tmf-tmo-fio.out &
fpid=$!
sleep 3
stalls=0 resets=0 rbad=0
end=$((SECONDS + TMF_TIMEOUT_SECS))
while [ $SECONDS -lt $end ] && kill -0 $fpid 2>/dev/null; do
	dmsetup suspend --noflush $SRP_SLOW_DM
	# Every other stall a LUN reset too, which LIO answers only once the
	# stalled commands are back from the backend.
	rpid=
	if [ $((stalls % 2)) = 1 ]; then
		sleep 0.5
		sg_reset -d /dev/$s &
		rpid=$!
		sleep 1.5
	else
		sleep 2
	fi
	dmsetup resume $SRP_SLOW_DM
	if [ -n "$rpid" ]; then
		wait $rpid || rbad=$((rbad + 1))
		resets=$((resets + 1))
	fi
	stalls=$((stalls + 1))
	sleep 4
done
wait $fpid
rc=$?
tmo=$(($(cat /sys/block/$s/device/iotmo_cnt) - tmo0))
lab_note "$stalls stalls of 2 s, $tmo commands timed out, rport $(cat $r/state)"
check "commands timed out ($tmo)" test $tmo -gt 0
check "$resets LUN resets during stalls, every one reported done" \
	test $resets -ge 2 -a $rbad -eq 0
check "fio verify with a 1 s timeout through $stalls stalls (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/tmf-tmo-fio.out
check "rport running after the timeouts" lab_wait 30 grep -qx running $r/state
check "no I/O error logged for $s (readahead aside)" lab_no_io_errors $s
if [ "$DRIVER" = ours ]; then
	check "ABORT TASK went out" lab_log_has "aborting tag"
	# The target may answer FUNCTION FAILED for a command it finished
	# meanwhile; what counts is that every abort settled its command.
	check "every abort answered" \
		lab_log_lacks "task management function .*no response"
	# LIO drops, unanswered, an ABORT TASK of one channel when a LUN reset
	# comes in on another (each channel is an I_T nexus), and sg_reset -d
	# escalates a failed LUN reset to a host reset: the driver sends one
	# task management function per target at a time.
	check "no LUN reset failed" \
		lab_log_lacks "task management function 0x8 .*(failed|no response)"
	check "every abort settled its command: no host reset" \
		lab_log_lacks_context "host reset: reconnecting"
	# An ABORT TASK that races one of those LUN resets is answered
	# FUNCTION FAILED (the reset owns the task) while the command is still
	# ours: the midlayer then escalates to a LUN reset of its own, which
	# is fine; a host reset is not.
	check "LUN resets: the $resets sent, and EH stopped at LUN resets" \
		test "$(lab_log_count "LUN reset for LUN")" -ge $resets
fi
echo 30 > /sys/block/$s/device/timeout
check "the slow LUN works afterwards" lab_fio_verify $s --size=8m
check "logout after the timeouts" srp_logout $h
check "rport port-$h:1 gone" test ! -e $r
check "slow LUN removed" srp_slow_down

# --- 3. run-time module parameters and rport timeouts -------------------
mp=/sys/module/ib_srp/parameters
old_rd=$(cat $mp/reconnect_delay) old_ff=$(cat $mp/fast_io_fail_tmo) old_dl=$(cat $mp/dev_loss_tmo)
echo 120 > $mp/dev_loss_tmo
echo 7 > $mp/fast_io_fail_tmo
echo 3 > $mp/reconnect_delay
h=$(lab_srp_login 0) && pass "login after module parameter changes" ||
	fail "login after module parameter changes"
srp_wait_disks $h 2
r=/sys/class/srp_remote_ports/port-$h:1
check "new rport takes dev_loss_tmo 120 from the module" grep -qx 120 $r/dev_loss_tmo
check "new rport takes fast_io_fail_tmo 7 from the module" grep -qx 7 $r/fast_io_fail_tmo
check "new rport takes reconnect_delay 3 from the module" grep -qx 3 $r/reconnect_delay
echo off > $mp/fast_io_fail_tmo
h2=$(lab_srp_login 1) && pass "second login" || fail "second login"
check "fast_io_fail_tmo off applies to the next login" \
	grep -qx off /sys/class/srp_remote_ports/port-$h2:1/fast_io_fail_tmo
check "earlier rport keeps its own fast_io_fail_tmo" grep -qx 7 $r/fast_io_fail_tmo
echo "$old_dl" > $mp/dev_loss_tmo
echo "$old_ff" > $mp/fast_io_fail_tmo
echo "$old_rd" > $mp/reconnect_delay
check "module parameters restored" grep -qx "$old_ff" $mp/fast_io_fail_tmo
check "logout of the second login" srp_logout $h2

port=$(_lab_rxe_guid_name $RXE0)
tpg=$CFS/srpt/$port/$port
if [ "$DRIVER" = ours ]; then
	# A reconnect_delay shortened while blocked: the pending attempt moves.
	echo 90 > $r/reconnect_delay
	echo 0 > $tpg/enable
	check "rport blocked when its target port goes away" \
		lab_wait 30 sh -c "! grep -qx running $r/state"
	sleep 2
	echo 1 > $tpg/enable
	echo 1 > $r/reconnect_delay
	check "reconnect_delay 90 -> 1 while blocked: reconnects long before 90 s" \
		lab_wait 40 grep -qx running $r/state
	# A dev_loss_tmo shortened while blocked removes the host.
	echo 60 > $r/reconnect_delay
	echo 5 > $r/fast_io_fail_tmo
	echo 0 > $tpg/enable
	check "rport blocked again" lab_wait 30 sh -c "! grep -qx running $r/state"
	echo 8 > $r/dev_loss_tmo
	check "dev_loss_tmo 120 -> 8 while blocked: the host goes away" \
		lab_wait 40 test ! -e /sys/class/scsi_host/host$h
	echo 1 > $tpg/enable
else
	lab_note "in-tree driver: rport timeouts changed while blocked not checked (issue 5)"
	check "logout" srp_logout $h
fi
check "no SRP host left" test -z "$(lab_srp_hosts)"
check "ib_srp unloads" lab_unload ib_srp
