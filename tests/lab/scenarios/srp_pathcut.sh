# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# dm-multipath over two SRP paths that can really be cut (lib-path.sh: a
# veth pair per path, rxe on both ends). fio verify runs on the map while
# path 0's RoCE packets are dropped: its I/O stalls, the rport goes blocked
# and fail-fast through the transport timers, dm fails the path over and
# fio sees no error. Path restored: the rport reconnects (reconnect_delay),
# multipath reinstates the path, the data checks out. Ours only: with the
# in-tree driver (6.1) the rport never reaches fail-fast here, its first
# reconnect attempt blocks a worker past the hung-task limit, and the
# path does not come back in time (7 checks fail).
#
# lab-drivers: ours
# lab-provokes: srp-path srp-reconnect mpath rxe wc-error scsi-eh (path 0 cut under dm-multipath)
# lab-boot: pathcut
. /lab/lib-srp.sh
. /lab/lib-path.sh

check "cuttable paths up" lab_path_up
check "SRP target ports on both paths" lab_path_srpt_up 2
check "multipathd up" lab_multipathd_up
check "ib_srp loads" lab_srp_load
h0=$(lab_path_srp_login 0 "$SRP_PATH_OPTS") && pass "login over path 0" || fail "login over path 0"
h1=$(lab_path_srp_login 1 "$SRP_PATH_OPTS") && pass "login over path 1" || fail "login over path 1"
check "path 0 has its LUNs" srp_wait_disks "$h0" 2
check "path 1 has its LUNs" srp_wait_disks "$h1" 2
for h in $h0 $h1; do
	r=/sys/class/srp_remote_ports/port-$h:1
	echo 60 > $r/dev_loss_tmo
	echo 5 > $r/fast_io_fail_tmo
	echo 2 > $r/reconnect_delay
done
r0=/sys/class/srp_remote_ports/port-$h0:1
check "rport timers set" grep -qx 5 $r0/fast_io_fail_tmo
d0=$(lab_host_disks "$h0" | head -1)
check "multipath map with 2 paths per LUN" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
lab_wait 20 lab_mp_map_of "$d0"
map=$(lab_mp_map_of "$d0")
multipath -ll
check "LUN 0 of path 0 ($d0) is in map $map" test -n "$map"

# The cut path's I/O waits until its rport fails fast and dm-multipath
# fails it over: its checks allow 60 s to block and 60 s to fail fast:
# that sum is the bound (LAB_IO_BOUND, lib.sh) of the loop's I/O.
LAB_IO_BOUND=120 lab_fio_loop_start /dev/mapper/$map /tmp/pathcut-fio.out
fpid=$LAB_FIO_LOOP
sleep 8
sent=$(lab_path_sent 0)
lab_wait 20 lab_disk_busy "$d0"
lab_note "cutting path 0 (rxe ${PATH_RXEI[0]} has sent $sent packets)"
drops=$(lab_path_dropped)	# the count adds up over the boot
lab_path_cut 0
check "path 0's I/O stalls while it is cut" lab_disk_stalls "$d0" 0 3
check "RoCE packets of path 0 are dropped" test "$(lab_path_dropped)" -gt "$drops"
check "path 0's rport leaves running" lab_wait 60 sh -c "! grep -qx running $r0/state"
lab_note "rport state: $(cat $r0/state)"
check "path 0's rport fails fast (fast_io_fail_tmo)" lab_wait 60 grep -qx fail-fast $r0/state
check "multipath fails path 0 ($d0)" lab_wait 30 lab_mp_is $d0 failed
multipath -ll $map
check "I/O goes on over path 1 (fio alive)" kill -0 $fpid
sleep 5
lab_path_restore 0
lab_note "path 0 restored"
check "path 0's rport reconnects" lab_wait 90 grep -qx running $r0/state
check "multipath reinstates path 0 ($d0)" lab_wait 60 lab_mp_is $d0 active
check "path 0 carries I/O again" lab_disk_moves $d0 4
lab_fio_loop_stop
rc=$?
check "fio verify over multipath through the cut (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/pathcut-fio.out
check "data checksummed on the map after the cut" lab_data_check /dev/mapper/$map
check "both SRP hosts still there" test "$(lab_srp_hosts | wc -l)" -eq 2
check "multipath maps flushed" lab_multipathd_down
check "logout" srp_logout_all
check "ib_srp unloads" lab_unload ib_srp
