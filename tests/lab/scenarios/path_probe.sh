# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Throwaway: explore the cuttable path topology.
. /lab/lib-srp.sh
. /lab/lib-path.sh

check "path up" lab_path_up
ip rule; rdma link
timeout 30 rping -s -a ${PATH_IPT[0]} -C 3 >/tmp/rps.out 2>&1 &
sleep 1
check "rping over path 0" timeout 20 rping -c -a ${PATH_IPT[0]} -C 3 -v
wait
for r in ${PATH_RXEI[@]} ${PATH_RXET[@]} rxe0 rxe1; do echo "$r sent=$(cat /sys/class/infiniband/$r/ports/1/hw_counters/sent_pkts) rcvd=$(cat /sys/class/infiniband/$r/ports/1/hw_counters/rcvd_pkts)"; done
check "srpt on paths" lab_path_srpt_up 2
check "ib_srp loads" lab_srp_load
h=$(lab_path_srp_login 0) && pass "login path 0 (host $h)" || { fail "login path 0"; dmesg | tail -30; }
srp_wait_disks $h 2
d=$(lab_host_disks $h | head -1)
echo "disk $d"; lsscsi
r=/sys/class/srp_remote_ports/port-$h:1
echo 30 > $r/fast_io_fail_tmo
grep . $r/* 2>/dev/null
timeout 60 fio --name=p --filename=/dev/$d --direct=1 --ioengine=libaio --rw=randrw --bs=4k --iodepth=8 --size=16m --time_based --runtime=30 >/tmp/fio.out 2>&1 &
fp=$!
sleep 5
echo "before cut: $(cat /sys/block/$d/stat) sent=$(lab_path_sent 0)"
lab_path_cut 0
check "I/O stalls while path 0 is cut" lab_disk_stalls $d 3
echo "dropped=$(lab_path_dropped) state=$(cat $r/state)"
lab_wait 30 sh -c "! grep -qx running $r/state"
echo "rport state: $(cat $r/state)"
lab_path_restore 0
lab_wait 60 grep -qx running $r/state
echo "after restore: state=$(cat $r/state)"
wait $fp; echo "fio rc=$?"; tail -3 /tmp/fio.out
dmesg | grep -i srp | tail -20
srp_logout_all
modprobe -r ib_srp
