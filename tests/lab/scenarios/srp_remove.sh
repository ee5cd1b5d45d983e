# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# RDMA device removal under I/O: "rdma link del" of the initiator's rxe
# device while fio runs on both LUNs. The SCSI host and rport must go away,
# fio must end (with errors, the disk is gone), no task may hang, and the
# module must unload. Run last: it removes rxe1.
#
# lab-drivers: ours intree
# lab-boot: leak
# lab-last
. /lab/lib-srp.sh

lab_srpt_up 2
check "ib_srp loads" lab_srp_load
h=$(lab_srp_login 1) && pass "login on path 1" || fail "login on path 1"
srp_wait_disks $h 2
pids=""
for d in $(lab_host_disks $h); do
	fio --name=rm --filename=/dev/$d --direct=1 --ioengine=libaio \
		--rw=randrw --bs=16k --iodepth=32 --time_based --runtime=60 \
		--output=/dev/null &
	pids="$pids $!"
done
check "fio started on both disks" test "$(echo $pids | wc -w)" -eq 2
sleep 5
check "rdma link delete $RXE1 under I/O" rdma link delete $RXE1
check "SCSI host $h removed" lab_wait 60 test ! -e /sys/class/scsi_host/host$h
check "rport port-$h:1 removed" test ! -e /sys/class/srp_remote_ports/port-$h:1
check "class device srp-$RXE1-1 removed" test ! -e /sys/class/infiniband_srp/srp-$RXE1-1
# Every fio, not just one: "kill -0 A B" fails as soon as either is gone.
# A zombie (ended, not yet reaped) counts as ended.
job_ended() {
	local st
	st=$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null) || return 0
	[ -z "$st" ] || [ "$st" = Z ]
}
fio_all_ended() {
	local p
	for p in $pids; do
		job_ended $p || return 1
	done
}
check "fio ends after the removal (all $(echo $pids | wc -w) jobs)" lab_wait 90 fio_all_ended ||
	lab_note "still running: $(for p in $pids; do job_ended $p || echo "$p ($(cat /proc/$p/comm))"; done)"
check "srp-$RXE0-1 still there" test -e /sys/class/infiniband_srp/srp-$RXE0-1/add_target
h=$(lab_srp_login 0) && pass "login on path 0 still works" || fail "login on path 0 still works"
check "logout" srp_logout_all
check "ib_srp unloads" lab_unload ib_srp
check "no hung task reported" sh -c "! dmesg | grep -q 'blocked for more than'"
