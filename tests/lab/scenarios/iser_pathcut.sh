# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# dm-multipath over two iSER portals on cuttable paths (lib-path.sh: a veth
# pair per path, rxe on both ends) while one path's RoCE packets are
# dropped and later let through again: the cut path's I/O stalls, the
# session notices (NOP-Out pings run in the kernel) and comes back after the
# restore, fio verify on the map sees no error.
#
# lab-boot: own
source /lab/lib-iser.sh
source /lab/lib-path.sh

check "cuttable paths up" lab_path_up
check "iSER portals on both paths" lab_path_iser_target_up 2
lab_iscsid_up
lab_multipathd_up
check "ib_iser loads" lab_iser_load
for ip in ${PATH_IPT[0]} ${PATH_IPT[1]}; do
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o new >/dev/null 2>&1
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o update \
		-n node.conn[0].timeo.noop_out_interval -v 2 >/dev/null
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o update \
		-n node.conn[0].timeo.noop_out_timeout -v 4 >/dev/null
	check "login on $ip" iser_login $ip
done
check "multipath map with 2 paths per LUN" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
ip1=${PATH_IPT[1]}
s1=$(iser_session $ip1)
d1=$(iser_disks $ip1 | head -1)
lab_wait 20 lab_mp_map_of "$d1"
map=$(lab_mp_map_of "$d1")
check "LUN 0 of path 1 ($d1) is in map $map" test -n "$map"
fio --name=cut --filename=/dev/mapper/$map --direct=1 --ioengine=libaio \
	--rw=randrw --bs=4k --iodepth=16 --size=32m --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --time_based --runtime=70 \
	--output-format=terse >/tmp/cut-fio.out 2>&1 &
fpid=$!
sleep 5
lab_path_cut 1
check "path 1's I/O stalls while it is cut" lab_disk_stalls "$d1" 3
check "RoCE packets of path 1 are dropped" test "$(lab_path_dropped)" -gt 0
check "cut path noticed (session $s1 leaves LOGGED_IN)" lab_wait 40 sh -c \
	"! grep -q LOGGED_IN /sys/class/iscsi_session/$s1/state"
check "multipath fails path 1 ($d1)" lab_wait 30 lab_mp_is $d1 failed
sleep 5
lab_path_restore 1
check "cut path back (session $s1 LOGGED_IN again)" lab_wait 60 \
	grep -q LOGGED_IN /sys/class/iscsi_session/$s1/state
check "multipath reinstates path 1 ($d1)" lab_wait 60 lab_mp_is $d1 active
iser_check_bg "fio verify over multipath through a path cut" $fpid
check "multipath maps flushed" lab_multipathd_down
check "logout all" iser_logout_all
check "ib_iser unloads after logout" iser_unload
