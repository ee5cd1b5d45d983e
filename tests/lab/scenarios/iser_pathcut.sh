# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# dm-multipath over two iSER portals on cuttable paths (lib-path.sh: a veth
# pair per path, rxe on both ends) while the RoCE packets of the path that
# carries the map's I/O are dropped and later let through again: that
# path's I/O stalls, the session notices (NOP-Out pings run in the kernel),
# dm fails the path over to the other one, the session comes back after
# the restore and multipath reinstates the path; fio verify on the map sees
# no I/O or verify error.
#
# An earlier form cut path 1 five seconds after fio started and found
# nothing in flight on it: under TCG fio's first requests can take longer
# than that (in two runs neither path had completed one 11 s after the
# start). So the scenario waits for the map to complete requests, then
# cuts the path whose LUN 0 completed more in a 6 s sample.
#
# NOP-Out pings every 5 s with a 10 s timeout: with 2 s / 4 s, both
# sessions timed out together while only one path was cut (TCG guests
# sharing the host's two cores stall for seconds), and the uncut path
# failed over too.
#
# Until the paths' veths steered their receive to one CPU (lib-path.sh),
# the uncut path failed too in most runs: reordered packets made rxe
# retransmit and replay a fast registration (docs/lab.md). Since then
# (2026-12-01) the only connection error in a run is the cut path's, with
# either driver (in-tree: 2 of 2 runs passed).
#
# lab-drivers: ours intree
# lab-provokes: iscsi-conn sq-stall mpath rxe wc-error (a path cut under dm-multipath)
# lab-boot: pathcut
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
		-n node.conn[0].timeo.noop_out_interval -v 5 >/dev/null
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o update \
		-n node.conn[0].timeo.noop_out_timeout -v 10 >/dev/null
	check "login on $ip" iser_login $ip
done
for p in 0 1; do
	check "2 disks on path $p" iser_wait_disks ${PATH_IPT[p]} 2
done
check "multipath map with 2 paths per LUN" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
# LUN 0 of each path, both in one map
d[0]=$(iser_disks ${PATH_IPT[0]} | head -1)
d[1]=$(iser_disks ${PATH_IPT[1]} | head -1)
lab_wait 20 lab_mp_map_of "${d[1]}"
map=$(lab_mp_map_of "${d[1]}")
check "LUN 0 of both paths (${d[0]}, ${d[1]}) in map $map" \
	test -n "$map" -a "$(lab_mp_map_of "${d[0]}")" = "$map"
multipath -ll $map

# The cut path's I/O waits until dm-multipath fails it over: the cut
# noticed (its check allows 40 s) and the path failed (30 s more): that
# sum is the bound (LAB_IO_BOUND, lib.sh) of the loop's I/O.
LAB_IO_BOUND=70 lab_fio_loop_start /dev/mapper/$map /tmp/cut-fio.out
fpid=$LAB_FIO_LOOP
# fio's first requests may take seconds under TCG (process start, ALUA
# path group activation): wait until the map completes requests
dm=$(basename "$(readlink -f /dev/mapper/$map)")
m0=$(lab_disk_done $dm)
# More than 100: more than the map's own reads when it appears (udev's
# blkid, tens of requests), less than fio (QD16) completes in its first
# second of I/O.
map_moved() { [ "$(lab_disk_done $dm)" -gt $((m0 + 100)) ]; }
check "fio's I/O runs on map $map ($dm)" lab_wait 60 map_moved
# the path carrying the I/O: the one whose LUN 0 completes more requests
a0=$(lab_disk_done ${d[0]}) a1=$(lab_disk_done ${d[1]})
sleep 6
n0=$(($(lab_disk_done ${d[0]}) - a0)) n1=$(($(lab_disk_done ${d[1]}) - a1))
lab_note "requests completed in 6 s: path 0 (${d[0]}) $n0, path 1 (${d[1]}) $n1"
check "fio's I/O reaches the map's paths" test $((n0 + n1)) -gt 0
if [ $n0 -gt $n1 ]; then c=0; else c=1; fi
o=$((1 - c))
dc=${d[c]} dk=${d[o]}
sc=$(iser_session ${PATH_IPT[c]})
lab_wait 20 lab_disk_busy "$dc"
lab_note "cutting path $c (${PATH_IPT[c]}, $dc, $sc)"
drops=$(lab_path_dropped)	# the count adds up over the boot
lab_path_cut $c
check "path $c's I/O stalls while it is cut" lab_disk_stalls "$dc" $c 3
cut_drops() { [ "$(lab_path_dropped)" -gt "$drops" ]; }
check "RoCE packets of path $c are dropped" lab_wait 30 cut_drops
check "cut path noticed (session $sc leaves LOGGED_IN)" lab_wait 40 sh -c \
	"! grep -q LOGGED_IN /sys/class/iscsi_session/$sc/state"
check "multipath fails path $c ($dc)" lab_wait 30 lab_mp_is $dc failed
check "I/O goes on over path $o ($dk)" lab_disk_moves $dk 10
check "fio alive during the cut" kill -0 $fpid
sleep 3
lab_path_restore $c
lab_note "path $c restored"
check "cut path back (session $sc LOGGED_IN again)" lab_wait 60 \
	grep -q LOGGED_IN /sys/class/iscsi_session/$sc/state
check "multipath reinstates path $c ($dc)" lab_wait 60 lab_mp_is $dc active
lab_fio_loop_stop
rc=$?
check "fio verify over multipath through a path cut (rc $rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/cut-fio.out
check "multipath maps flushed" lab_multipathd_down
check "logout all" iser_logout_all
check "ib_iser unloads after logout" iser_unload
