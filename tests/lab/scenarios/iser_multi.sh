# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER with two portals on two rxe devices: discovery and login on both,
# -P3 details, rescan, dm-multipath over both paths with fio verify while
# one path logs out and back in.
#
# lab-drivers: ours intree
# lab-provokes: mpath (a path logged out under dm-multipath)
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
lab_multipathd_up
check "ib_iser loads" lab_iser_load
check "discovery over iSER on $IP0" iser_discover $IP0
check "discovery over iSER on $IP1" iser_discover $IP1
check "login on $IP0" iser_login $IP0
check "login on $IP1" iser_login $IP1
check "2 disks on $IP0" iser_wait_disks $IP0 2
check "2 disks on $IP1" iser_wait_disks $IP1 2
check "session -P3 lists iser sessions with disks" sh -c \
	"iscsiadm -m session -P3 | grep -q 'Iface Transport: iser' &&
	 [ \$(iscsiadm -m session -P3 | grep -c 'Attached scsi disk') -ge 4 ]"
check "session -P3 shows the connection address" sh -c \
	"iscsiadm -m session -P3 | grep -q 'Current Portal: $IP1:3260'"
check "session rescan" iscsiadm -m session -R
check "ping_tmo visible" sh -c "cat /sys/class/iscsi_connection/connection*/ping_tmo | grep -q ."
check "multipath map with 2 paths" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
map=$(multipathd show maps raw format '%n' | head -1)
check "multipath map exists" test -n "$map"
if [ -n "$map" ]; then
	fio --name=mp --filename=/dev/mapper/$map --direct=1 --ioengine=libaio \
		--rw=randrw --bs=4k --iodepth=16 --size=32m --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --time_based --runtime=120 \
		--output-format=json --output=/tmp/mp-fio.json >/tmp/mp-fio.out 2>&1 &
	fpid=$!
	sleep 5
	# The path's disks go first, as an administrator removes them before
	# a logout: when logout removes them, the kernel (6.1) may flush the
	# SCSI target's runtime-PM work from scsi_transport_iscsi's
	# WQ_MEM_RECLAIM unbind worker and print a workqueue WARNING, with
	# either initiator driver.
	# Each logout and login is checked: a logout that did not happen
	# leaves nothing for fio to ride through, nor does one after fio has
	# ended (its 40 s ran out before the third logout under TCG; 120 s
	# leave room). The sleeps pace the cycle (fio on one path, then two).
	for i in 1 2 3; do
		check "path logout $i of 3: fio still running" kill -0 $fpid
		iser_drop_disks $IP1
		check "path logout $i of 3: $IP1" iser_logout $IP1
		check "path logout $i of 3: no session to $IP1 left" \
			test -z "$(iser_session $IP1)"
		sleep 3
		check "path login $i of 3: $IP1" iser_login $IP1
		check "path login $i of 3: 2 disks on $IP1 again" iser_wait_disks $IP1 2
		sleep 5
	done
	iser_check_bg "fio verify over multipath through 3 path logouts" $fpid
	# dm-multipath sends what a logged-out path held down the other one:
	# no I/O waits for more than the lab's bound (LAB_IO_BOUND, lib.sh).
	check "fio over multipath through the path logouts: longest I/O within the bound" \
		lab_fio_bound /tmp/mp-fio.json "fio over multipath"
fi
check "logout all" iser_logout_all
check "no iser session left" iser_no_session
check "ib_iser unloads after logout" iser_unload
