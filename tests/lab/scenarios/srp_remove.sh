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
. /lab/lib-hostile.sh

lab_srpt_up 2
check "ib_srp loads" lab_srp_load
h=$(lab_srp_login 1) && pass "login on path 1" || fail "login on path 1"
srp_wait_disks $h 2
disks=$(lab_host_disks $h)
# fio runs far longer than the waits below: only the removal ends it.
pids=""
for d in $disks; do
	fio --name=rm --filename=/dev/$d --direct=1 --ioengine=libaio \
		--rw=randrw --bs=16k --iodepth=32 --time_based --runtime=600 \
		--output-format=json --output=/tmp/rm-fio-$d.json &
	pids="$pids $!"
done
# both_disks_busy: the host's two disks both have requests in flight.
both_disks_busy() {
	local d r w
	[ "$(echo $disks | wc -w)" -eq 2 ] || { echo "disks: $disks"; return 1; }
	for d in $disks; do
		read -r r w < /sys/block/$d/inflight || return 1
		[ $((r + w)) -gt 0 ] || { echo "$d: nothing in flight"; return 1; }
	done
}
check "both disks ($(echo $disks)) have I/O in flight before the delete" \
	lab_wait 30 both_disks_busy
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
# Ended by the removal: an I/O error (fio's status 1), not a signal, a
# timeout or a clean end.
rcs=
for p in $pids; do
	kill -0 $p 2>/dev/null && kill -KILL $p
	wait $p
	rcs="$rcs $?"
done
check "each fio ended with an I/O error (status:$rcs)" \
	sh -c 'for rc; do [ "$rc" = 1 ] || exit 1; done' _ $rcs
# fio counts the latency of the I/Os that completed; the removal fails the
# rest (errors, not counted): none of them waited past the lab's bound
# (LAB_IO_BOUND, lib.sh), the ones in flight at the removal included.
for d in $disks; do
	check "$d: longest I/O that completed within the bound" \
		lab_fio_bound /tmp/rm-fio-$d.json "fio on $d up to the removal"
done
check "srp-$RXE0-1 still there" test -e /sys/class/infiniband_srp/srp-$RXE0-1/add_target
h=$(lab_srp_login 0) && pass "login on path 0 still works" || fail "login on path 0 still works"
check "logout" srp_logout_all

# The device goes while a login waits for its answer (issue 32): the fake
# target on rxe0 never answers the login request, and rxe0 is deleted
# meanwhile. ib_srp is the device's last client and is removed first; that
# deletes the port's class device, which waits for the add_target write in
# progress: the login must fail at the removal, not 20 s later at its
# timeout (before the fix the removal waited that long for it). The rest
# of the removal then waits for the fake target: soft-RoCE cannot take a
# device from a process that has it open (no disassociate), so the removal
# ends only once the fake target exits. Ours only: the in-tree driver
# waits for the CM's request timeouts (its login wait has no timeout).
m="device removed during a login"
if [ "$DRIVER" != ours ]; then
	:
elif hostile_fake_start silent; then
	(srp_add_target_fails 0 "$(hostile_target_string)"; echo "rc=$?") \
		> /tmp/rm-login.out 2>&1 &
	writer=$!
	check "$m: the login request reaches the target" hostile_fake_saw "^LOGIN_REQ n=1" 20
	lab_log_mark
	t0=$SECONDS
	rdma link delete $RXE0 > /tmp/rm-link.out 2>&1 &
	deleter=$!
	# 10 s: half the login timeout; a login broken off by the removal
	# ends within a second or two under TCG.
	check "$m: add_target ends within 10 s of the removal" \
		lab_wait 10 sh -c "! kill -0 $writer 2>/dev/null"
	took=$((SECONDS - t0))
	wait $writer
	check "$m: add_target fails ($(cat /tmp/rm-login.out), $took s after the removal began)" \
		grep -qx "rc=0" /tmp/rm-login.out
	check "$m: kernel log says the login was abandoned for the removal" \
		lab_log_has "login abandoned: the port is being removed"
	hostile_fake_stop
	check "$m: the removal ends once the fake target has gone" \
		lab_wait 60 sh -c "! kill -0 $deleter 2>/dev/null"
	wait $deleter
	rc=$?
	check "$m: rdma link delete $RXE0 succeeded (status $rc$(sed 's/^/: /' /tmp/rm-link.out))" test $rc -eq 0
	check "$m: no SCSI host or rport left" hostile_no_hosts
else
	fail "$m: fake target starts"
	hostile_fake_stop
fi
check "ib_srp unloads" lab_unload ib_srp
check "no hung task reported" sh -c "! dmesg | grep -q 'blocked for more than'"
