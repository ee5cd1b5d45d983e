# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP recovery under I/O: LUN reset and host reset (sg_reset), and the target
# port going away and coming back (reconnect through the transport class
# timers). fio with verify must finish without errors.
#
# lab-drivers: ours intree
# lab-provokes: scsi-eh srp-reconnect srp-path (LUN and host resets under I/O; the target port taken away and back)
. /lab/lib-srp.sh

# What the resets and the target port's absence hold (the port away for
# 3 s, the rport's reconnect every reconnect_delay, 2 s), plus the lab's
# bound for the I/O itself (LAB_IO_BOUND, lib.sh): 30 s, the bound of the
# fio that runs through them.
: "${SRP_REC_IO_BOUND:=30}"

lab_srpt_up 2
check "ib_srp loads" lab_srp_load
h=$(lab_srp_login 0) && pass "login" || fail "login"
srp_wait_disks $h 2
d=$(lab_host_disks $h | head -1)
r=/sys/class/srp_remote_ports/port-$h:1
echo 2 > $r/reconnect_delay
check "rport reconnect_delay set to 2" grep -qx 2 $r/reconnect_delay

fio --name=rec --filename=/dev/$d --direct=1 --ioengine=libaio --rw=randrw \
	--bs=4k --iodepth=16 --size=16m --time_based --runtime=45 \
	--verify=crc32c --verify_fatal=1 --output-format=json --output=/tmp/fio-rec.out &
fio_pid=$!
sleep 5
check "LUN reset under I/O" sg_reset -d /dev/$d
sleep 3
check "host reset under I/O" sg_reset -H /dev/$d
sleep 3
check "rport running after host reset" lab_wait 30 grep -qx running $r/state

port=$(_lab_rxe_guid_name $RXE0)
tpg=$CFS/srpt/$port/$port
echo 0 > $tpg/enable
check "rport leaves running when the target port goes away" lab_wait 30 sh -c "! grep -qx running $r/state"
sleep 3
echo 1 > $tpg/enable
check "rport running again after the target port returns" lab_wait 60 grep -qx running $r/state
wait $fio_pid
rc=$?
check "fio with verify survived resets and reconnect (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/fio-rec.out
check "resets and reconnect: longest I/O within their bound" \
	lab_fio_bound /tmp/fio-rec.out "fio through the resets and the reconnect" SRP_REC_IO_BOUND
check "data still good after recovery" lab_fio_verify $d --size=8m
check "logout" srp_logout $h
check "ib_srp unloads" lab_unload ib_srp
